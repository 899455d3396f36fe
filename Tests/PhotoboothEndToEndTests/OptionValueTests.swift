import Foundation
import StoreFixture
import Testing

@Suite("Option values", .fullLane, .timeLimit(.minutes(2)))
struct OptionValueTests {
    @Test(
        "A wrong value gets the same message from its option (bad usage, 2) as from its key in the file (1), with what is allowed",
        arguments: [
            ("--camera-size", "camera.size", "big"), ("--shutter-polarity", "shutter.polarity", "low"),
            ("--countdown", "booth.countdown_seconds", "99"), ("--keypad-baud", "keypad.baud", "9601"),
            ("--http-address", "http.address", "localhost"), ("--public-url", "http.public_url", "booth.local"),
            ("--language", "booth.language", "es"),
        ])
    func sameMessage(option: String, key: String, value: String) async throws {
        let directory = DataDirectory()
        let byOption = try await BoothProcess.run(["run", "--simulate", "--no-http", option, value, "--data-dir", directory.path])
        let config = directory.url.appendingPathExtension("yaml")
        defer { try? FileManager.default.removeItem(at: config) }
        let parts = key.split(separator: ".")
        try "\(parts[0]):\n  \(parts[1]): \"\(value)\"\n".write(to: config, atomically: true, encoding: .utf8)
        let byFile = try await BoothProcess.run(["run", "--simulate", "--no-http", "--config", config.path, "--data-dir", directory.path])

        #expect(byFile.status == 1 && byOption.status == 2, "\(byFile.stderr)\n\(byOption.stderr)")
        // The file's message: where, which key, and the sentence that says what is allowed.
        let line = try #require(byFile.stderr.split(separator: "\n").first { $0.contains("\(config.lastPathComponent):2: \(key): ") })
        let sentence = try #require(line.components(separatedBy: "\(key): ").last)
        #expect(sentence.hasPrefix("\"\(value)\" is not allowed; use "), "\(line)")
        // The option's: ArgumentParser names the option, then the same sentence.
        #expect(byOption.stderr.contains("'\(option) <") && byOption.stderr.contains(">': \(sentence)\n"), "\(byOption.stderr)")
    }

    @Test("A store's address with a user and password in it is refused by option and by file, and neither message repeats the secret")
    func endpointSecret() async throws {
        let directory = DataDirectory()
        let address = "https://AKIAEXAMPLE:wJalrXUtnFEMI@s3.eu-central-1.amazonaws.com"
        let byOption = try await BoothProcess.run(["serve", "--sync-endpoint", address, "--data-dir", directory.path])
        let config = directory.url.appendingPathExtension("yaml")
        defer { try? FileManager.default.removeItem(at: config) }
        try "sync:\n  endpoint: \"\(address)\"\n".write(to: config, atomically: true, encoding: .utf8)
        let byFile = try await BoothProcess.run(["run", "--simulate", "--no-http", "--config", config.path, "--data-dir", directory.path])
        #expect(byOption.status == 2 && byFile.status == 1, "\(byOption.stderr)\n\(byFile.stderr)")
        for output in [byOption.stdout + byOption.stderr, byFile.stdout + byFile.stderr] {
            #expect(!output.contains("wJalrXUtnFEMI") && !output.contains("AKIAEXAMPLE"), "\(output)")
            #expect(
                output.contains("\"https://…@s3.eu-central-1.amazonaws.com\" is not allowed") && output.contains("without a user or"), "\(output)")
        }
    }
}
