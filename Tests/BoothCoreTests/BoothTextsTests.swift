import Foundation
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

    @Test("Every language has every text English has, with the same blanks", arguments: BoothLanguage.all)
    func complete(language: BoothLanguage) {
        #expect(language.texts.missingKeys == [], "\(language.nativeName) lacks these texts")
        #expect(language.texts.keysWithOtherBlanks == [], "\(language.nativeName)'s templates name other blanks than English's")
        #expect(BoothLanguage.withCode(language.code) == language)
        #expect(BoothLanguage.withCode(language.code.uppercased()) == language)
    }

    @Test("A table may lack texts: they read as English's, and it says which; other blanks are found too")
    func incomplete() {
        let partial = BoothTexts(
            [
                .savedAs: "Gespeichert als *{name}*", .galleryPosition: "{index}/{total}",
                .photoCount: .plural(one: "ein Foto", other: "{count} Fotos"),
            ]
        )
        #expect(partial(.savedAs, ["name": "Anna"]) == "Gespeichert als Anna")
        #expect(partial(.smile) == "Smile!")
        #expect(partial.missingKeys.count == BoothText.allCases.count - 3)
        #expect(!partial.missingKeys.contains(.savedAs) && partial.missingKeys.contains(.smile))
        #expect(partial.keysWithOtherBlanks == [.galleryPosition], "{total} is no blank English fills; the plural's forms together name {count}")
        #expect(BoothFault.cameraMissing.sentence(in: partial) == BoothFault.cameraMissing.sentence())
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

    @Test("A count picks its language's plural form: French says 0 and 1 in the singular, English and German only 1")
    func plurals() {
        let counts = [0, 1, 2, 21]
        #expect(counts.map { BoothLanguage.english.texts(.photoCount, count: $0) } == ["0 photos", "1 photo", "2 photos", "21 photos"])
        #expect(counts.map { BoothLanguage.french.texts(.photoCount, count: $0) } == ["0 photo", "1 photo", "2 photos", "21 photos"])
        #expect(counts.map { BoothLanguage.german.texts(.photoCount, count: $0) } == ["0 Fotos", "1 Foto", "2 Fotos", "21 Fotos"])
        // A form the rule names but the template leaves out reads as `other`; a single template serves every count.
        let polish = BoothTexts(
            [.photoCount: .plural(one: "{count} zdjęcie", other: "{count} zdjęć")], pluralRule: PluralRule { $0 == 1 ? .one : .few })
        #expect(polish(.photoCount, count: 3) == "3 zdjęć")
        #expect(texts(.galleryPosition, count: 4, ["index": "2"]) == "2 of 4")
    }

    @Test("Each language writes a photo's time its own way, and an operator's pattern takes the language's month names")
    func dates() throws {
        let date = try Date("2026-11-23T14:04:00Z", strategy: .iso8601)
        let utc = TimeZone.gmt
        #expect(BoothLanguage.english.dateFormat.string(from: date, timeZone: utc) == "Taken on 23/11/2026 at 14h04")
        #expect(BoothLanguage.french.dateFormat.string(from: date, timeZone: utc) == "Prise le 23/11/2026 à 14h04")
        #expect(BoothLanguage.german.dateFormat.string(from: date, timeZone: utc) == "Aufgenommen am 23.11.2026 um 14:04")
        #expect(PhotoDateFormat.standard == BoothLanguage.english.dateFormat)
        let custom = PhotoDateFormat(pattern: "d MMMM yyyy")
        #expect(custom.string(from: date, timeZone: utc) == "23 November 2026")
        #expect(custom.localized(for: .french).string(from: date, timeZone: utc) == "23 novembre 2026")
        #expect(custom.localized(for: .german).pattern == "d MMMM yyyy")
    }

    @Test("A fault's sentence is its headline and message, from the table")
    func faultSentence() {
        #expect(BoothFault.storageFull.sentence() == "\(texts(.storageFullHeadline)): \(texts(.storageFullMessage))")
        let french = BoothLanguage.french.texts
        #expect(
            BoothFault.cameraMissing.sentence(in: french)
                == "Appareil photo déconnecté\u{00A0}: L’appareil photo n’est pas disponible. La borne attend son retour.")
    }
}
