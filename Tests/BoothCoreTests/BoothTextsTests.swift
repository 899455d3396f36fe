import Testing

@testable import BoothCore

@Suite("The booth's texts")
struct BoothTextsTests {
    let texts = BoothTexts.english

    @Test("Every text has a template, and every blank a template names is one its key documents")
    func everyText() {
        for key in BoothText.allCases {
            #expect(!texts(key).isEmpty, "\(key)")
        }
        #expect(texts(.savedAs, ["name": "Alice"]) == "Saved as Alice")
        #expect(texts(.galleryPosition, ["index": "3", "count": "120"]) == "3 of 120")
    }

    @Test("Marked words are set apart, blanks filled as they are: a caption's own marks and braces stay")
    func runs() {
        #expect(
            texts.runs(.readyToBrowse, ["key": "v"]) == [
                BoothTexts.Run("Press "), BoothTexts.Run("v", emphasized: true), BoothTexts.Run(" to see the photos"),
            ])
        #expect(texts.runs(.savedAs, ["name": "*Zoë* {name}"]) == [BoothTexts.Run("Saved as "), BoothTexts.Run("*Zoë* {name}", emphasized: true)])
        #expect(texts(.savedAs, ["name": "*Zoë*"]) == "Saved as *Zoë*")
    }

    @Test("A fault's sentence is its headline and message, from the table")
    func faultSentence() {
        #expect(BoothFault.storageFull.sentence() == "\(texts(.storageFullHeadline)): \(texts(.storageFullMessage))")
    }

    @Test("Another language is another table")
    func anotherTable() {
        var templates: [BoothText: String] = [:]
        for key in BoothText.allCases { templates[key] = "[\(key.rawValue)]" }
        templates[.savedAs] = "Gespeichert als *{name}*"
        templates[.faultSentence] = "{headline} \u{2013} {message}"
        let german = BoothTexts(templates)
        #expect(german(.savedAs, ["name": "Anna"]) == "Gespeichert als Anna")
        #expect(BoothFault.cameraMissing.sentence(in: german) == "[cameraMissingHeadline] \u{2013} [cameraMissingMessage]")
    }
}
