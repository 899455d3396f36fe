/// A size reduction that TurboJPEG applies while decoding, in the DCT domain: decoding at 1/8
/// costs a fraction of a full decode, which is what makes live previews and thumbnails cheap.
package enum ScalingFactor: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case full = 1
    case half = 2
    case quarter = 4
    case eighth = 8

    /// The decoded length of a side of `length` pixels (rounded up, as TurboJPEG's `TJSCALED`).
    package func scaled(_ length: Int) -> Int {
        (length + rawValue - 1) / rawValue
    }

    /// The strongest reduction that keeps the longest side at least `minimum` pixels (no
    /// reduction when the image is smaller than that already).
    package static func strongest(keepingLongestSide minimum: Int, width: Int, height: Int) -> ScalingFactor {
        let longest = max(width, height)
        return allCases.reversed().first { $0.scaled(longest) >= minimum } ?? .full
    }

    package var description: String { self == .full ? "1/1" : "1/\(rawValue)" }
}
