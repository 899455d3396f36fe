/// The button a guest presses to take a photo.
package protocol ShutterButton: Sendable {
    /// One element per press (however long it is held), carrying the kernel time of the press.
    /// A single consumer reads it.
    var presses: AsyncStream<MonotonicInstant> { get }
}
