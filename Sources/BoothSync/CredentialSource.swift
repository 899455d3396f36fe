import Foundation

/// Where the booth finds the secret for the store, the way the S3 ecosystem looks for it:
///
/// 1. `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (and `AWS_SESSION_TOKEN`) in the environment;
/// 2. else `sync.credentials_file`, in the AWS shared-credentials format;
/// 3. else the systemd credential `sync-credentials` (`LoadCredential=`), which systemd hands the
///    service in `$CREDENTIALS_DIRECTORY` without the secret ever being in the world-readable
///    configuration.
///
/// The file's profile is `AWS_PROFILE`, else `default`.
package enum CredentialSource {
    /// Why no credentials could be had, in words an operator can act on.
    package struct Missing: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// The systemd credential's name.
    package static let systemdCredential = "sync-credentials"

    package static func load(
        file: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Result<StoreCredentials, Missing> {
        let profile = environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        if let key = environment["AWS_ACCESS_KEY_ID"], let secret = environment["AWS_SECRET_ACCESS_KEY"], !key.isEmpty, !secret.isEmpty {
            let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            return .success(StoreCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: token))
        }
        let path: String
        if let file {
            path = file
        } else if let directory = environment["CREDENTIALS_DIRECTORY"],
            FileManager.default.fileExists(atPath: directory + "/" + systemdCredential)
        {
            path = directory + "/" + systemdCredential
        } else {
            return .failure(
                Missing(
                    description: """
                        no credentials for the store: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or sync.credentials_file \
                        (a file in the AWS credentials format, readable by the booth only), or the systemd credential \
                        \(systemdCredential) (LoadCredential=\(systemdCredential):/etc/photobooth/sync-credentials)
                        """))
        }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" } ?? error.localizedDescription
            return .failure(Missing(description: "cannot read the credentials file \(path) (\(reason)); it must be readable by the booth's user"))
        }
        guard let credentials = parse(text, profile: profile) else {
            return .failure(
                Missing(
                    description: """
                        the credentials file \(path) has no profile [\(profile)] with aws_access_key_id and aws_secret_access_key
                        """))
        }
        return .success(credentials)
    }

    /// The profile `profile` of an AWS shared-credentials file (INI: `[profile]` sections of
    /// `key = value` lines, `#` and `;` comments); `nil` when it lacks the key or the secret.
    package static func parse(_ text: String, profile: String) -> StoreCredentials? {
        var section: String?
        var values: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                continue
            }
            guard section == profile, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            values[key] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        guard let key = values["aws_access_key_id"], let secret = values["aws_secret_access_key"], !key.isEmpty, !secret.isEmpty
        else { return nil }
        return StoreCredentials(
            accessKeyID: key, secretAccessKey: secret, sessionToken: values["aws_session_token"].flatMap { $0.isEmpty ? nil : $0 })
    }
}
