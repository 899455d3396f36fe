import BoothCore
import Foundation

/// The reader's language from a browser's `Accept-Language` header, apart from the request so
/// that the fuzz target reads headers with the same code (fuzz/README.md).
extension BoothLanguage {
    /// The language `header` (an `Accept-Language` value) prefers most among the booth's, by
    /// quality value, the header's order breaking ties (`fr-CH` is French); `fallback` when it
    /// names none of them, or only `*`.
    static func best(for header: String?, fallback: BoothLanguage) -> BoothLanguage {
        guard let header else { return fallback }
        var ranked: [(quality: Double, index: Int, language: BoothLanguage)] = []
        for (index, item) in header.split(separator: ",").enumerated() {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, !tag.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)).map { min(max($0, 0), 1) } ?? 0
            }
            let primary = tag.split(separator: "-").first.map(String.init) ?? tag
            guard quality > 0, let language = primary == "*" ? fallback : withCode(primary) else { continue }
            ranked.append((quality, index, language))
        }
        return ranked.min { ($0.quality, -$0.index) > ($1.quality, -$1.index) }?.language ?? fallback
    }
}
