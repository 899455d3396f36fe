import Foundation

/// An input a fuzz target found and that is kept as a regression test
/// (fuzz/regressions/TARGET/NAME), read by the test of the module whose parser it broke.
package enum FuzzRegression {
    /// The input's bytes, whole.
    package static func bytes(_ target: String, _ name: String) throws -> Data {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../fuzz/regressions/\(target)/\(name)")
        return try Data(contentsOf: file)
    }

    /// The input without its first byte, which chose what the target did with the rest.
    package static func payload(_ target: String, _ name: String) throws -> Data {
        try bytes(target, name).dropFirst()
    }
}
