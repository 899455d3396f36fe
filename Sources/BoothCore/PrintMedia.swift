/// Where IPP requests go: a CUPS server (or, for the printer's own state, the printer itself).
public struct IPPServer: Sendable, Hashable, CustomStringConvertible {
    /// A host name, an address, or the path of a local socket (`/run/cups/cups.sock`).
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `HOST:PORT`, `HOST` (port 631), `[IPv6]:PORT`, or a local socket's path; `nil` for
    /// anything else.
    public init?(parsing text: String) {
        if text.hasPrefix("/") {
            guard !text.contains(where: \.isWhitespace) else { return nil }
            self.init(host: text, port: 631)
            return
        }
        var host = Substring(text)
        var port = 631
        if let colon = text.lastIndex(of: ":"), !text.hasSuffix("]"), text.filter({ $0 == ":" }).count == 1 || text.hasPrefix("[") {
            guard let number = Int(text[text.index(after: colon)...]), (1...65535).contains(number) else { return nil }
            port = number
            host = text[..<colon]
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, host.count <= 253, !host.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "@" }) else { return nil }
        self.init(host: String(host), port: port)
    }

    public var description: String {
        host.hasPrefix("/") ? host : host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// The paper a print goes on: its PWG name (what IPP's `media` says) and its size, and how many
/// copies of the picture share one sheet (two 2x6 strips on a 4x6 sheet, cut after printing).
public struct PrintMedia: Sendable, Hashable, CustomStringConvertible {
    /// As the operator wrote it (`4x6`, `a6`, `na_index-4x6_4x6in`).
    public let name: String
    /// PWG's self-describing name of the sheet (PWG 5101.1: `na_index-4x6_4x6in`).
    public let pwgName: String
    /// The sheet's short and long sides, in hundredths of a millimetre.
    public let shortSide: Int
    public let longSide: Int
    /// How many pictures share a sheet, side by side along its short side.
    public let picturesPerSheet: Int

    /// The sizes photo booths print on, by the names operators use.
    static let common: [String: String] = [
        "4x6": "na_index-4x6_4x6in", "5x7": "na_5x7_5x7in", "3.5x5": "oe_photo-l_3.5x5in", "l": "oe_photo-l_3.5x5in",
        "6x8": "na_govt-letter_8x10in", "8x10": "na_govt-letter_8x10in", "a6": "iso_a6_105x148mm", "a5": "iso_a5_148x210mm",
        "a4": "iso_a4_210x297mm", "letter": "na_letter_8.5x11in", "2x6": "na_index-4x6_4x6in",
    ]

    /// The media `name` names: one of ``common`` (`4x6`, `5x7`, `a6`, `letter`; `2x6` is two
    /// strips on a 4x6 sheet) or a PWG self-describing name (`iso_a6_105x148mm`); `nil` for
    /// anything else.
    public init?(named name: String) {
        let text = name.trimmingCharacters(in: .whitespaces)
        let pwg = Self.common[text.lowercased()] ?? text
        // PWG 5101.1: class_name_WIDTHxHEIGHTunit, the unit `in` or `mm`.
        let fields = pwg.split(separator: "_", omittingEmptySubsequences: false)
        guard fields.count == 3, !fields[0].isEmpty, !fields[1].isEmpty, pwg.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            return nil
        }
        var dimensions = fields[2]
        let perUnit: Double
        if dimensions.hasSuffix("in") {
            perUnit = 2540
        } else if dimensions.hasSuffix("mm") {
            perUnit = 100
        } else {
            return nil
        }
        dimensions = dimensions.dropLast(2)
        let sides = dimensions.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let width = Double(sides[0]), let height = Double(sides[1]), width > 0, height > 0,
            width * perUnit <= 100_000, height * perUnit <= 100_000
        else { return nil }
        let short = Int((min(width, height) * perUnit).rounded())
        let long = Int((max(width, height) * perUnit).rounded())
        guard short >= 2540 else { return nil }
        self.name = text
        self.pwgName = pwg
        self.shortSide = short
        self.longSide = long
        self.picturesPerSheet = text.lowercased() == "2x6" ? 2 : 1
    }

    public var description: String { name == pwgName ? name : "\(name) (\(pwgName))" }
}
