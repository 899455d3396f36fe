import BoothCore
import BoothSystem
import Foundation
import Glibc
import SystemPackage

/// Tells when a device that went away may be back: its node, or a folder on the way to it, was
/// created, changed or moved into place (inotify). A camera or keypad unplugged is reopened with
/// a growing pause (``ReconnectBackoff``, up to 10 s); with this, a reopen is tried as soon as
/// the kernel makes the node (`/dev/video0`), udev gives it its group (an attribute change) or
/// links it (`/dev/v4l/by-id/...`), instead of at the end of the pause.
///
/// Every folder from the node's own up to `/dev` that exists is watched (for a node elsewhere, up
/// to the first folder that exists when the watch begins), and the watches are renewed after each
/// change, because `/dev/v4l/by-id` itself goes away with the last camera and comes back with the
/// next. Any change in those folders counts: another device plugged in costs one more attempt to
/// open, which fails as before.
package final class DeviceNodeWatch: Sendable {
    private let inotify: FileDescriptor
    /// The folders to watch, the node's own first.
    private let folders: [String]

    /// Watches the way to the node at `path`; `nil` when the kernel gives no inotify descriptor
    /// (the pause alone then decides).
    package init?(path: String) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        inotify = FileDescriptor(rawValue: descriptor)
        var folders: [String] = []
        var folder = (path as NSString).deletingLastPathComponent
        let underDev = path.hasPrefix("/dev/")
        while !folder.isEmpty && folder != "/" {
            folders.append(folder)
            if folder == "/dev" || (!underDev && FileManager.default.fileExists(atPath: folder)) { break }
            folder = (folder as NSString).deletingLastPathComponent
        }
        self.folders = folders
        renewWatches()
    }

    deinit {
        try? inotify.close()
    }

    /// Watches every folder of the way that exists now. Watching a folder twice keeps one watch.
    private func renewWatches() {
        let events = UInt32(IN_CREATE | IN_ATTRIB | IN_MOVED_TO | IN_DELETE_SELF)
        for folder in folders { _ = inotify_add_watch(inotify.rawValue, folder, events) }
    }

    /// Waits on the calling thread (a device's own, never Swift's cooperative pool) until the way
    /// to the node changes, `wakeup` is signalled or `deadline` passes; returns whether it changed.
    package func wait(until deadline: MonotonicInstant?, wakeup: Wakeup) -> Bool {
        switch try? wakeup.wait(for: inotify, until: deadline) {
        case .ready(hangUp: false):
            drain()
            renewWatches()
            return true
        case .woken, .timedOut:
            return false
        case .ready(hangUp: true), nil:
            // The descriptor cannot tell (an error to report, poll failing): the pause alone,
            // never a loop that retries at once.
            wakeup.wait(until: deadline)
            return false
        }
    }

    /// Waits up to `duration` on a thread of its own; returns whether the way to the node changed
    /// (`false` when the time ran out or the task was cancelled).
    package func wait(upTo duration: Duration) async -> Bool {
        let wakeup = Wakeup()
        let deadline = MonotonicClock().now + duration
        return await withTaskCancellationHandler {
            await DedicatedThread.run(name: "device watch") { [self] in wait(until: deadline, wakeup: wakeup) }
        } onCancel: {
            wakeup.requestStop()
        }
    }

    /// Reads every event queued: what changed does not matter, only that something did.
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while let count = try? buffer.withUnsafeMutableBytes({ try inotify.read(into: $0) }), count > 0 {}
    }
}
