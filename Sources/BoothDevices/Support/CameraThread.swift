import BoothCore
import BoothSystem

/// A real camera's frames, read on a thread of its own: blocking reads never run on Swift's
/// cooperative thread pool.
enum CameraThread {
    /// Starts a thread named `name` that runs `produce` with what hands on a frame; dropping the
    /// stream asks `produce`'s wake-up to stop. The stream ends when `produce` returns and ends
    /// with its error when it throws. Only the newest frames wait for a slow reader
    /// (``FrameRing``'s capacity), as a camera drops frames nobody reads in time.
    static func frames(
        named name: String, produce: @escaping @Sendable (_ wakeup: Wakeup, _ deliver: (CameraFrame) -> Void) throws -> Void
    ) -> AsyncThrowingStream<CameraFrame, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: CameraFrame.self, bufferingPolicy: .bufferingNewest(FrameRing().capacity))
        let wakeup = Wakeup()
        continuation.onTermination = { _ in wakeup.requestStop() }
        _ = DedicatedThread(name: name, wakeup: wakeup) { wakeup in
            do {
                try produce(wakeup) { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return stream
    }
}
