import BoothSync
import Foundation
import Synchronization

/// A second S3 implementation for the tests, written by other people than SeaweedFS's: moto's
/// server (PyPI `moto[server]`, which the README's test command and `.ci/run` install into
/// .build/venv), started on loopback with an empty bucket ``SeaweedFS/bucket``. The booth's
/// uploads must be taken by any S3-compatible store, not by the one the tests know best.
///
/// Moto parses requests and answers as S3 does (its own XML, ETags and continuation tokens)
/// but keeps objects in memory and checks neither signatures nor `Content-MD5`: the signing is
/// proven against AWS's own vectors and SeaweedFS, and so is the refusal of a damaged upload.
package final class Moto: StoreServer {
    package static let executable = testTool("moto_server", override: "MOTO_SERVER")

    package static let missing = """
        moto's server is not installed (.build/venv/bin/pip install -r webtest/requirements.txt, as the README's \
        test command does): the tests against a second S3 implementation did not run
        """

    /// Whether moto's tests run: everywhere it is installed, and always in CI, where its absence fails them.
    package static var available: Bool { executable != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    package let endpoint: URL
    package var credentials: StoreCredentials { StoreCredentials(accessKeyID: SeaweedFS.accessKey, secretAccessKey: SeaweedFS.secretKey) }
    private let process: TiedProcess
    private let log: URL

    package init() async throws {
        guard let executable = Self.executable else { throw SeaweedFS.FixtureError(description: Self.missing) }
        let port = try SeaweedFS.freePorts(1)[0]
        endpoint = URL(string: "http://127.0.0.1:\(port)")!
        log = FileManager.default.temporaryDirectory.appendingPathComponent("moto-\(UUID().lowercased).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process = try await TiedProcess(executable, ["-H", "127.0.0.1", "-p", "\(port)"], output: try FileHandle(forWritingTo: log))
        let deadline = ContinuousClock.now + .seconds(60)
        while !SeaweedFS.isListening(port) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                await process.stop(SIGKILL)
                let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw SeaweedFS.FixtureError(description: "moto's server did not start within a minute: \(output.suffix(2000))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        try await store().createBucket()
    }

    deinit {
        let (process, log) = (process, log)
        // As SeaweedFS's: the wait for the end blocks, so it runs on a thread of its own.
        Thread {
            process.stop(SIGKILL)
            try? FileManager.default.removeItem(at: log)
        }.start()
    }
}
