import Foundation

/// Where the photo library lives when no `--data-dir` is given.
package enum LibraryLocation {
    /// The service's folder: `$STATE_DIRECTORY` under systemd (`StateDirectory=photobooth`),
    /// `/var/lib/photobooth` for root (the operator's commands); otherwise the user's data
    /// folder, `$XDG_DATA_HOME/photobooth` or `~/.local/share/photobooth`.
    package static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment, isRoot: Bool = geteuid() == 0
    ) -> URL {
        // systemd may pass several folders, separated by colons; the unit names one.
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, state.hasPrefix("/") {
            return URL(fileURLWithPath: String(state))
        }
        if isRoot { return URL(fileURLWithPath: "/var/lib/photobooth") }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data).appendingPathComponent("photobooth")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/photobooth")
    }
}
