import BoothCore
import BoothSystem
import Foundation
import Logging
import Synchronization
import Testing

@testable import BoothService

/// A camera whose device node is a file of the test's: it opens while the file exists, and
/// then streams one frame and stays open.
final class NodeCamera: Camera {
    struct Missing: Error {}
    let devicePath: String?
    var name: String { devicePath ?? "" }

    init(path: String) { devicePath = path }

    func frames() -> AsyncThrowingStream<CameraFrame, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: CameraFrame.self)
        if FileManager.default.fileExists(atPath: devicePath!) {
            continuation.yield(try! TestFrames.frame(number: 1, at: MonotonicClock().now))
        } else {
            continuation.finish(throwing: Missing())
        }
        return stream
    }
}

@Suite("The camera's return", .timeLimit(.minutes(2)))
struct CameraReturnTests {
    @Test("A camera whose node comes back is opened at once, not at the end of its pause")
    func openedWhenItsNodeReturns() async throws {
        let dev = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-dev-\(UUID().lowercased)")
        try FileManager.default.createDirectory(at: dev, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dev) }
        let node = dev.appendingPathComponent("video0")
        let (events, sink) = AsyncStream.makeStream(of: BoothEvent.self)
        // An hour's pause: within the test's time limit only the watch can reopen the camera.
        let service = CameraService(
            camera: NodeCamera(path: node.path), frames: RecentFrames(), logger: Logger(label: "test"),
            backoff: ReconnectBackoff(start: .seconds(3600), limit: .seconds(3600))
        ) { sink.yield($0) }
        let running = Task { await service.run() }
        defer { running.cancel() }
        var reports = events.makeAsyncIterator()
        #expect(await reports.next() == .cameraLost, "no node: the first open fails")
        #expect(FileManager.default.createFile(atPath: node.path, contents: nil))
        #expect(await reports.next() == .cameraReady)
    }
}
