import BoothCore
import BoothDevices
import Foundation
import Testing

/// ``DeviceNodeWatch`` on a folder of the test's own that stands for `/dev`: it wakes for the
/// node and for every folder on the way to it, even one removed and made again.
@Suite("Device node watch", .timeLimit(.minutes(2)))
struct DeviceNodeWatchTests {
    let dev: URL

    init() throws {
        dev = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-dev-\(UUID().lowercased)")
        try FileManager.default.createDirectory(at: dev, withIntermediateDirectories: true)
    }

    /// Makes a folder (or, with `file`, a node) under the test's `dev`.
    func make(_ path: String, file: Bool = false) throws {
        let url = dev.appendingPathComponent(path)
        if file {
            #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        } else {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        }
    }

    @Test("Each step of a node's return wakes the wait: its folders made one by one, then the node")
    func wakesOnTheWayBack() async throws {
        defer { try? FileManager.default.removeItem(at: dev) }
        let watch = try #require(DeviceNodeWatch(path: dev.appendingPathComponent("v4l/by-id/camera").path))
        // An hour each: only a change can end these waits within the test's time limit.
        try make("v4l")
        #expect(await watch.wait(upTo: .seconds(3600)), "v4l made in the watched dev")
        try make("v4l/by-id")
        #expect(await watch.wait(upTo: .seconds(3600)), "by-id made in v4l, watched since v4l came")
        try make("v4l/by-id/camera", file: true)
        #expect(await watch.wait(upTo: .seconds(3600)), "the node made in by-id")

        // The last camera goes, and by-id with it; the next one brings them back.
        try FileManager.default.removeItem(at: dev.appendingPathComponent("v4l/by-id"))
        #expect(await watch.wait(upTo: .seconds(3600)), "by-id removed")
        try make("v4l/by-id")
        #expect(await watch.wait(upTo: .seconds(3600)), "by-id made again")
        try make("v4l/by-id/camera", file: true)
        #expect(await watch.wait(upTo: .seconds(3600)), "the node made in the new by-id")
    }

    @Test("A wait without a change ends when its time is up, or when its task is cancelled")
    func quiet() async throws {
        defer { try? FileManager.default.removeItem(at: dev) }
        let watch = try #require(DeviceNodeWatch(path: dev.appendingPathComponent("video0").path))
        #expect(await watch.wait(upTo: .milliseconds(20)) == false)
        let waiting = Task { await watch.wait(upTo: .seconds(3600)) }
        waiting.cancel()
        #expect(await waiting.value == false)
        // A change in another folder is not one on the way to the node.
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-elsewhere-\(UUID().lowercased)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
        try FileManager.default.removeItem(at: elsewhere)
        #expect(await watch.wait(upTo: .milliseconds(20)) == false)
    }
}
