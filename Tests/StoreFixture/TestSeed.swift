import Foundation

/// The seed of a test that draws random choices: `PHOTOBOOTH_TEST_SEED` when set (to replay a
/// failure), else a new one. The test prints it as it starts and names it in its failures, so
/// that any run can be taken back.
package struct TestSeed: Sendable, CustomStringConvertible {
    package let value: UInt64

    /// The seed for the test named `test`, printed with how to replay it.
    package init(for test: String) {
        let given = ProcessInfo.processInfo.environment["PHOTOBOOTH_TEST_SEED"].flatMap { UInt64($0) }
        value = given ?? UInt64.random(in: 0...UInt64.max)
        print("\(test): \(self)\(given == nil ? "" : ", as given")")
    }

    package var description: String { "seed \(value) (PHOTOBOOTH_TEST_SEED=\(value) replays it)" }

    /// A generator that draws the same numbers for the same seed.
    package var generator: SplitMix64 { SplitMix64(seed: value) }
}

/// A small deterministic random number generator (SplitMix64), so a failure can be replayed.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
