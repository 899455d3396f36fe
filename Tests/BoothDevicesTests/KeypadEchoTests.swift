import BoothCore
import BoothScreen
import Foundation
import Testing

@testable import BoothDevices

/// The photo being named in these tests.
private let shot = UUID()

@Suite("Keypad echo")
struct KeypadEchoTests {
    let placeholder = Caption.placeholder(number: 7)

    @Test("Prompts end with CR/LF; the typed name is redrawn in place, erasing what was deleted")
    func plain() {
        var echo = KeypadEcho(ansi: false)
        #expect(echo.text(for: .ready) == "\r\nPress the button to take a photo\r\nPress v to see the photos\r\n")
        #expect(echo.text(for: .ready) == "", "nothing new, nothing sent")
        let prompt = echo.text(for: .naming(typed: "", placeholder: placeholder, photo: shot))
        #expect(prompt.contains("Name your photo") && prompt.contains("Photo 7") && prompt.hasSuffix("Name: "))
        #expect(echo.text(for: .naming(typed: "Ann", placeholder: placeholder, photo: shot)) == "\rName: Ann\rName: Ann")
        #expect(echo.text(for: .naming(typed: "An", placeholder: placeholder, photo: shot)) == "\rName: An \rName: An")
        #expect(echo.text(for: .saved(Caption(sanitizing: "Anna")!, photo: UUID())) == "\r\nSaved as Anna\r\n")
    }

    @Test("A keypad's display says why the booth takes no photos, and that a name waits for the disk")
    func storage() {
        var echo = KeypadEcho(ansi: false)
        #expect(
            echo.text(for: .fault(.storageFull)) == "\r\nStorage full: This booth cannot save photos until space is freed. Please tell the staff.\r\n"
        )
        #expect(echo.text(for: .fault(.storageFailing)).hasPrefix("\r\nCannot save photos: "))
        let saved = echo.text(for: .saved(placeholder, photo: UUID(), pendingName: Caption(sanitizing: "Anna")!))
        #expect(saved == "\r\nSaved as Photo 7\r\nYour name \"Anna\" will be added as soon as the booth can write it.\r\n")
    }

    @Test("A character display gets the booth's words in ASCII punctuation, a guest's name as typed; a terminal gets them as they are")
    func asciiOnCharacterDisplays() {
        var plain = KeypadEcho(ansi: false)
        #expect(plain.text(for: .starting) == "\r\nStarting the camera...\r\n")
        let prompt = plain.text(for: .naming(typed: "", placeholder: placeholder, photo: shot))
        #expect(prompt.contains("Enter saves - Esc keeps Photo 7") && prompt.allSatisfy(\.isASCII))
        #expect(plain.text(for: .saved(Caption(sanitizing: "Zo\u{EB} \u{2026}")!, photo: UUID())) == "\r\nSaved as Zo\u{EB} \u{2026}\r\n")
        var terminal = KeypadEcho(ansi: true)
        #expect(terminal.text(for: .starting) == "\r\nStarting the camera\u{2026}\r\n")
    }

    @Test("With the photo on the booth's screen, the naming prompt says so first")
    func photoOnScreen() {
        var echo = KeypadEcho(ansi: false, photoOnScreen: true)
        let prompt = echo.text(for: .naming(typed: "", placeholder: placeholder, photo: shot))
        #expect(prompt.hasPrefix("\r\nYour photo is on the screen.\r\nName your photo\r\n") && prompt.hasSuffix("Name: "))
        var without = KeypadEcho(ansi: false)
        #expect(!without.text(for: .naming(typed: "", placeholder: placeholder, photo: shot)).contains("screen"))
    }

    @Test("A character display gets French and German in ASCII: accents dropped, ß and guillemets spelled out")
    func asciiLetters() {
        var french = KeypadEcho(ansi: false, texts: BoothLanguage.french.texts)
        #expect(french.text(for: .starting) == "\r\nDemarrage de l'appareil photo...\r\n")
        let pending = french.text(for: .saved(placeholder, photo: UUID(), pendingName: Caption(sanitizing: "Zo\u{EB}")!))
        #expect(pending.contains("Votre nom \"Zo\u{EB}\" sera ajoute des que la borne pourra l'ecrire."), "the guest's name as typed")
        var german = KeypadEcho(ansi: false, texts: BoothLanguage.german.texts)
        #expect(german.text(for: .smile) == "\r\nBitte lacheln!\r\n")
        #expect(KeypadEcho.ascii("Stra\u{DF}e \u{0153}uvre \u{201E}x\u{201C} \u{4E16}") == "Strasse oeuvre \"x\" ?")
        for language in BoothLanguage.all {
            var echo = KeypadEcho(ansi: false, photoOnScreen: true, texts: language.texts)
            for content in [
                ScreenContent.starting, .ready, .smile, .saving, .fault(.storageFull), .naming(typed: "", placeholder: placeholder, photo: shot),
            ] {
                let text = echo.text(for: content)
                #expect(text.allSatisfy { $0.isASCII }, "\(language.code): \(text)")
            }
        }
    }

    @Test("While a name is found, the gallery's line shows it with the photo it led to, or that no name starts so")
    func finding() {
        var echo = KeypadEcho(ansi: false, keys: KeyLabels(for: KeyBindings(layout: .phone)))
        var list = GalleryList(position: GalleryPosition(index: 2, count: 20), search: NameSearch(prefix: "an"))
        list.rows = (0..<5).map { offset in
            GalleryList.Row(
                entry: GalleryEntry(id: UUID(), caption: Caption(sanitizing: offset == 2 ? "Anna" : "Ben")!, takenOn: ""), thumbnail: Data())
        }
        #expect(echo.text(for: .gallery(list)) == "\r\nFind an: 3/20 Anna")
        list.search = NameSearch(prefix: "anx", matches: false)
        #expect(echo.text(for: .gallery(list)).hasSuffix("\rNo name starts with anx - * erases - # ends"))
        list.search = NameSearch(prefix: "")
        #expect(echo.text(for: .gallery(list)).hasSuffix("\rType a name to find it - # ends"), "a phone keypad's search before its first letter")
    }

    @Test("ANSI echo erases the line with an escape code")
    func ansi() {
        var echo = KeypadEcho(ansi: true)
        _ = echo.text(for: .naming(typed: "", placeholder: placeholder, photo: shot))
        #expect(echo.text(for: .naming(typed: "A", placeholder: placeholder, photo: shot)) == "\r\u{1B}[KName: A")
    }

    /// A page of the list whose rows are named `captions`, photo `index` of `count` selected.
    private func list(index: Int, count: Int, captions: [String]) -> GalleryList {
        let rows = captions.map {
            GalleryList.Row(entry: GalleryEntry(id: UUID(), caption: Caption(sanitizing: $0)!, takenOn: "today"), thumbnail: Data())
        }
        return GalleryList(position: GalleryPosition(index: index, count: count), rows: rows)
    }

    @Test("The gallery is one short line, the position and the selected name, redrawn in place as the selection moves")
    func gallery() {
        var echo = KeypadEcho(ansi: false)
        let captions = ["Zoe", "Anna", "Bob", "Eve", "Max"]
        _ = echo.text(for: .ready)
        #expect(echo.text(for: .gallery(list(index: 1, count: 120, captions: captions))) == "\r\n2/120 Anna")
        #expect(echo.text(for: .gallery(list(index: 2, count: 120, captions: captions))) == "\r3/120 Bob \r3/120 Bob")
        let photo = GalleryPhoto(
            position: GalleryPosition(index: 2, count: 120), entry: GalleryEntry(id: UUID(), caption: Caption(sanitizing: "Bob")!, takenOn: "today"))
        #expect(echo.text(for: .photo(photo)) == "\rView 3/120 Bob\rView 3/120 Bob")
        #expect(echo.text(for: .ready) == "\r\nPress the button to take a photo\r\nPress v to see the photos\r\n")
        #expect(echo.text(for: .gallery(GalleryList(position: GalleryPosition(index: 0, count: 0)))) == "\r\nNo photos yet")
    }

    @Test("ANSI echo redraws the gallery's line with an escape code")
    func ansiGallery() {
        var echo = KeypadEcho(ansi: true)
        _ = echo.text(for: .gallery(list(index: 0, count: 2, captions: ["Zoe", "Anna"])))
        #expect(echo.text(for: .gallery(list(index: 1, count: 2, captions: ["Zoe", "Anna"]))) == "\r\u{1B}[K2/2 Anna")
    }
}
