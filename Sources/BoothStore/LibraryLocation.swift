import Foundation

/// Where the photo library lives when no `--data-dir` is given.
public enum LibraryLocation {
    /// `/var/lib/photobooth` for root (the system service); otherwise the user's data folder,
    /// `$XDG_DATA_HOME/photobooth` or `~/.local/share/photobooth`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if geteuid() == 0 { return URL(fileURLWithPath: "/var/lib/photobooth") }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data).appendingPathComponent("photobooth")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/photobooth")
    }
}
