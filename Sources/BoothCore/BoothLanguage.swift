/// A language the booth speaks: every word it says (``texts``), how it writes when a photo was
/// taken (``dateFormat``) and how it counts (``pluralRule``).
///
/// Each language is one file in `Sources/BoothCore/Languages/` that declares a static member,
/// such as `BoothLanguage.french`. Adding a fourth is that file and its name in ``all``: Swift
/// cannot gather static members by itself, so that list is the one other place that names it.
/// The tests walk ``all`` and fail for a language that lacks a text English has, or whose
/// template names other blanks than English's.
public struct BoothLanguage: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The language's ISO 639-1 code, as the configuration and the web spell it: `en`, `fr`, `de`.
    public let code: String
    /// The language's name in itself, for a choice of languages: "Français".
    public let nativeName: String
    /// The booth's words in this language.
    package let texts: BoothTexts
    /// How a photo's creation time is written, unless the operator configured a pattern.
    public let dateFormat: PhotoDateFormat

    /// Which form of a counting text a number takes.
    package var pluralRule: PluralRule { texts.pluralRule }

    public var id: String { code }

    /// "Français (fr)", for logs and test names.
    public var description: String { "\(nativeName) (\(code))" }

    /// A language whose table is `templates`, counted by `pluralRule`; the keys it lacks read
    /// as English's.
    package init(
        code: String, nativeName: String, dateFormat: PhotoDateFormat, pluralRule: PluralRule,
        templates: [BoothText: BoothTexts.Template]
    ) {
        self.init(code: code, nativeName: nativeName, dateFormat: dateFormat, texts: BoothTexts(templates, pluralRule: pluralRule))
    }

    init(code: String, nativeName: String, dateFormat: PhotoDateFormat, texts: BoothTexts) {
        self.code = code
        self.nativeName = nativeName
        self.dateFormat = dateFormat
        self.texts = texts
    }

    /// Every language the booth speaks, English first (the default and every table's fallback).
    public static let all: [BoothLanguage] = [.english, .french, .german]

    /// The language whose code is `code` (`fr`), in any case; `nil` for one the booth does not
    /// speak.
    public static func withCode(_ code: String) -> BoothLanguage? {
        all.first { $0.code == code.lowercased() }
    }

    /// Languages are told apart by their code.
    public static func == (lhs: BoothLanguage, rhs: BoothLanguage) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
