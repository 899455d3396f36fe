import Foundation
import Testing

/// The test lanes. `swift test` alone is the fast lane, the everyday loop: everything that runs
/// in this process on its own. The full lane adds the suites that launch the booth's binary,
/// start S3 servers or run a stress campaign; `PHOTOBOOTH_FULL_TESTS=1` turns it on, as the
/// README's test command (`scripts/test`) does.
package enum TestLane {
    /// Whether the full lane runs.
    package static let full = ProcessInfo.processInfo.environment["PHOTOBOOTH_FULL_TESTS"] == "1"
}

extension Trait where Self == ConditionTrait {
    /// A suite of the full lane: it runs only when `PHOTOBOOTH_FULL_TESTS=1`.
    package static var fullLane: Self {
        .enabled(
            if: TestLane.full,
            "of the full lane (processes, S3 servers, stress): PHOTOBOOTH_FULL_TESTS=1 runs it, as scripts/test does")
    }
}
