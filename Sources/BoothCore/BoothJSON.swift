import Foundation

extension JSONEncoder {
    /// The booth's JSON, wherever it writes some: the web's API and events, the command line's
    /// `--json`, the records of recycled photos and of guests' deletion requests. Keys are the
    /// Swift names in snake_case (`createdAt` is `created_at`, `downloadURL` is `download_url`),
    /// so that no type spells its keys by hand; slashes are not escaped, so URLs stay readable.
    /// `forPeople` sorts the keys and indents, for files and terminals.
    package static func booth(forPeople: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = forPeople ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.withoutEscapingSlashes]
        return encoder
    }
}

extension JSONDecoder {
    /// Reads what ``JSONEncoder/booth(forPeople:)`` wrote: snake_case keys to the Swift names.
    package static func booth() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}
