import Foundation
import Logging
import Testing

@testable import BoothService

@Suite("Files that hold the booth's secrets")
struct SecretFilesTests {
    /// A file in a folder of its own with `text`, at `mode`.
    private static func file(_ text: String, mode: mode_t, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("file-\(UUID().uuidString)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, mode) == 0)
        return path
    }

    @Test("A configuration with admin_token, or a credentials file, that other users may read is named with its fix")
    func exposures() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let withToken = "http:\n  admin_token: a-secret-of-twenty-chars\n"
        let credentials = "[default]\naws_access_key_id = AKIA\naws_secret_access_key = secret\n"

        var configuration = BoothConfiguration(dataDirectory: folder, simulate: true)
        let open = try Self.file(withToken, mode: 0o644, in: folder)
        try configuration.apply(file: open)
        let exposed = SecretFiles.exposures(of: configuration)
        #expect(exposed.map(\.path) == [open])
        #expect(exposed.first?.description.contains("http.admin_token") == true)
        #expect(exposed.first?.description.contains("mode 644") == true)
        #expect(exposed.first?.fix.contains("chmod o-rwx \(open)") == true)

        let closed = try Self.file(withToken, mode: 0o640, in: folder)
        try configuration.apply(file: closed)
        #expect(SecretFiles.exposures(of: configuration).isEmpty, "readable by its owner and group only")

        var withoutToken = BoothConfiguration(dataDirectory: folder, simulate: true)
        try withoutToken.apply(file: try Self.file("booth:\n  countdown_seconds: 2\n", mode: 0o644, in: folder))
        #expect(SecretFiles.exposures(of: withoutToken).isEmpty, "a configuration without a secret may be read by anyone")

        withoutToken.sync.credentialsFile = try Self.file(credentials, mode: 0o604, in: folder)
        #expect(SecretFiles.exposures(of: withoutToken).map(\.secret) == ["the event bucket's credentials"])
        withoutToken.sync.credentialsFile = try Self.file(credentials, mode: 0o600, in: folder)
        #expect(SecretFiles.exposures(of: withoutToken).isEmpty)
    }

    @Test("doctor fails its secrets check while a secret is open to other users, and passes once it is not")
    func doctorCheck() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = BoothConfiguration(dataDirectory: folder, simulate: true)
        let path = try Self.file("http:\n  admin_token: a-secret-of-twenty-chars\n", mode: 0o666, in: folder)
        try configuration.apply(file: path)
        let failing = try #require(Doctor.checks(configuration, logger: Logger(label: "test")).first { $0.part == "secrets" })
        #expect(!failing.passed)
        #expect(failing.line.contains("FAIL secrets: \(path) holds http.admin_token"))
        #expect(chmod(path, 0o640) == 0)
        let passing = try #require(Doctor.checks(configuration, logger: Logger(label: "test")).first { $0.part == "secrets" })
        #expect(passing.passed)
    }
}
