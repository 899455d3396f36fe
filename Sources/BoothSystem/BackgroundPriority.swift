import Foundation

/// The CPU priority of work the booth can do without at a busy moment: the web gallery, and
/// what is made only for someone watching from the web (its live picture, its view of the
/// screen). The capture path (camera, state machine, photo writer, screen) keeps the normal
/// priority, so the kernel's scheduler prefers it whenever both want a core.
package enum BackgroundPriority {
    /// The nice value of background threads: when both are busy, the booth's threads get about
    /// nine times their CPU share.
    package static let niceness: Int32 = 10

    /// Lowers the calling thread's CPU priority, for good: call it first thing on a thread of
    /// your own, never on a shared pool's thread (the next job there would inherit it). On
    /// Linux nice values are per thread, and `who` 0 is the calling thread, not the whole
    /// process. Failure is harmless: the thread keeps the normal priority. The corresponding C
    /// function is `setpriority`.
    package static func lowerCallingThread() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
    }
}
