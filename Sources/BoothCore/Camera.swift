/// A camera that streams frames continuously, so the shot needs no mode switch.
///
/// Implementations read the device on a thread of their own and hand frames over through the
/// stream; they never block the caller.
package protocol Camera: Sendable {
    /// A name for logs and messages: "/dev/video0", "simulated camera".
    var name: String { get }

    /// Opens the camera and streams frames until the consumer stops listening.
    ///
    /// The stream ends with an error when the camera fails or goes away; calling again
    /// reopens it.
    func frames() -> AsyncThrowingStream<CameraFrame, any Error>

    /// The device node it opens, which may go away and come back (`/dev/video0`); `nil` for a
    /// camera without one (simulated).
    var devicePath: String? { get }
}

extension Camera {
    package var devicePath: String? { nil }
}
