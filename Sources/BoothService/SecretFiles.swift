import Foundation

/// The files that hold the booth's secrets (the configuration when it sets `http.admin_token`,
/// the event bucket's credentials file), and whether anyone on the machine but the booth can
/// read or change them. `run` logs each such file at start, and `doctor` fails its check.
package enum SecretFiles {
    /// A file that holds a secret and that others may read or change.
    package struct Exposure: Sendable, Hashable, CustomStringConvertible {
        /// The file.
        package let path: String
        /// What secret it holds, in words ("http.admin_token").
        package let secret: String
        /// Its permission bits.
        package let mode: mode_t

        package var description: String {
            "\(path) holds \(secret), and every user of this machine may read it (mode \(String(mode & 0o777, radix: 8)))"
        }

        /// What to do about it.
        package var fix: String {
            "chmod o-rwx \(path) (the package installs its configuration 0640, owned by root:photobooth; a credentials file needs no more than 0600 for the booth's user)"
        }
    }

    /// The files of `configuration` that hold a secret and grant anything to other users.
    /// A file that cannot be examined is left to whoever reads it, which says so.
    package static func exposures(of configuration: BoothConfiguration) -> [Exposure] {
        var files: [(path: String, secret: String)] = []
        if let file = configuration.file, configuration.web.adminToken != nil {
            files.append((file, "http.admin_token"))
        }
        if let credentials = configuration.sync.credentialsFile {
            files.append((credentials, "the event bucket's credentials"))
        }
        return files.compactMap { file in
            var status = stat()
            guard stat(file.path, &status) == 0, status.st_mode & 0o007 != 0 else { return nil }
            return Exposure(path: file.path, secret: file.secret, mode: status.st_mode)
        }
    }
}
