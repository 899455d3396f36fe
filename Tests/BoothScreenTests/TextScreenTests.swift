import BoothCore
import BoothImaging
import Foundation
import Synchronization
import Testing

@testable import BoothScreen

/// The photo being named in these tests.
private let shot = UUID()
private let placeholder = Caption.placeholder(number: 7)

/// The terminal of a simulated booth whose keys are the terminal's, the button too.
private let terminalKeys = KeyLabels(for: .terminal(pressesShutter: true))

/// What a terminal prints for `screens`, line by line.
private func printed(_ screens: [ScreenContent], _ screen: TextScreen = TextScreen(form: .lines(drawsQRCodes: false), keys: terminalKeys))
    -> [String]
{
    var screen = screen
    return screens.map { screen.text(for: $0) }.joined().split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
}

/// The gallery at photo `index` of `count`, its page's rows named after their numbers.
private func gallery(_ index: Int, of count: Int) -> ScreenContent {
    var list = GalleryList(position: GalleryPosition(index: index, count: count))
    list.rows = list.page.map { photo in
        GalleryList.Row(
            entry: GalleryEntry(id: UUID(), caption: .placeholder(number: count - photo), takenOn: "Taken on 22/11/2026 at 14h05"),
            thumbnail: Data())
    }
    return .gallery(list)
}

/// Where the terminal says a photo's original is; the terminal never reads it.
private struct FileOriginals: PhotoOriginals {
    let path: String

    func original(of id: UUID) throws -> Data {
        Issue.record("the terminal read an original")
        return Data()
    }

    func location(of id: UUID) -> String { path }
}

@Suite("Text screens: a terminal's lines")
struct TerminalTextTests {
    @Test("A cycle prints short lines, each screen once; a fault shown again is printed again")
    func cycle() {
        let lines = printed([
            .ready, .countdown(secondsLeft: 2), .countdown(secondsLeft: 2), .countdown(secondsLeft: 1), .smile,
            .naming(typed: "", placeholder: placeholder, photo: shot), .naming(typed: "Al", placeholder: placeholder, photo: shot), .saving,
            .saved(Caption(sanitizing: "Alice")!, photo: UUID()), .attract(AttractSlide(number: 0)), .ready, .fault(.storageFull),
            .fault(.storageFull),
        ])
        #expect(
            lines == [
                "Press Enter to take a photo", "Press v to see the photos", "2", "1", "Smile!", "Name your photo:", "Saving your photo\u{2026}",
                "Saved as Alice", "Press Enter to take a photo", "Press v to see the photos", BoothFault.storageFull.sentence(),
                BoothFault.storageFull.sentence(),
            ])
    }

    @Test("With a real button the main screen names the button; with a screen that shows the photo, the naming prompt says so")
    func realButtonAndPhotoOnScreen() {
        let screen = TextScreen(form: .lines(drawsQRCodes: false), keys: KeyLabels(for: .terminal(pressesShutter: false)), photoOnScreen: true)
        #expect(
            printed([.ready, .naming(typed: "", placeholder: placeholder, photo: shot)], screen) == [
                "Press the button to take a photo", "Press v to see the photos", "Your photo is on the screen.", "Name your photo:",
            ])
    }

    @Test("The main screen says what the button makes and what each mode's key makes, in the booth's language")
    func modesAndTheirKeys() {
        var bindings = KeyBindings.terminal(pressesShutter: false)
        bindings.modeKeys = ["b": .boomerang, "a": .animation]
        for (language, expected) in [
            (
                BoothLanguage.english,
                ["Press the button for a photo strip", "Press a for an animation", "Press b for a boomerang", "Press v to see the photos"]
            ),
            (
                BoothLanguage.german,
                [
                    "Drücken Sie den Knopf für einen Fotostreifen", "Drücken Sie a für eine Animation", "Drücken Sie b für einen Boomerang",
                    "Drücken Sie v, um die Fotos anzusehen",
                ]
            ),
        ] {
            var keys = KeyLabels(for: bindings, in: language.texts)
            keys.standardMode = .collage
            let screen = TextScreen(form: .lines(drawsQRCodes: false), keys: keys, texts: language.texts)
            #expect(printed([.ready], screen) == expected)
        }
    }

    @Test("In French, the prompts, key names and gallery are French")
    func french() {
        let french = BoothLanguage.french.texts
        let screen = TextScreen(form: .lines(drawsQRCodes: false), keys: KeyLabels(for: .terminal(pressesShutter: true), in: french), texts: french)
        let lines = printed(
            [
                .ready, .naming(typed: "", placeholder: placeholder, photo: shot),
                .saved(Caption(sanitizing: "Anna")!, photo: UUID(), pendingName: Caption(sanitizing: "Zoé")!), gallery(0, of: 2),
                .fault(.cameraMissing),
            ], screen)
        #expect(
            Array(lines.prefix(5)) == [
                "Appuyez sur Entrée pour prendre une photo", "Appuyez sur v pour voir les photos", "Donnez un nom à votre photo\u{00A0}:",
                "Enregistrée sous Anna", "Votre nom «\u{00A0}Zoé\u{00A0}» sera ajouté dès que la borne pourra l’écrire.",
            ])
        #expect(lines.contains("Photos, 1 sur 2"))
        #expect(lines.contains("u d pour choisir · Entrée pour ouvrir · b pour revenir · / pour chercher un nom"))
        #expect(lines.contains("Appuyez sur p pour prendre une photo"))
        #expect(lines.last == BoothFault.cameraMissing.sentence(in: french))
        #expect(KeyLabels(for: .terminal(pressesShutter: true), in: BoothLanguage.german.texts).erase == "Rücktaste")
        #expect(TextScreen.terminalHelp(shoots: true, types: true, in: french)?.hasPrefix("Borne simulée\u{00A0}: Entrée prend une photo") == true)
    }

    @Test("The gallery prints its page numbered from the newest, the selected photo marked; a full-screen photo its name, time and file")
    func galleryScreens() {
        let entry = GalleryEntry(id: UUID(), caption: Caption(sanitizing: "Anna")!, takenOn: "Taken on 22/11/2026 at 14h05")
        let originals = FileOriginals(path: "/srv/booth/photos/2026/11/22/anna.jpg")
        let lines = printed([
            gallery(6, of: 12), .photo(GalleryPhoto(position: GalleryPosition(index: 6, count: 12), entry: entry, originals: originals)),
            .photo(GalleryPhoto(position: GalleryPosition(index: 7, count: 12))),
            .gallery(GalleryList(position: GalleryPosition(index: 0, count: 0))),
        ])
        #expect(lines.first?.hasPrefix("Photos, 7 of 12") == true)
        #expect(
            Array(lines[1...5]) == [
                "  6. Photo 7 \u{00B7} Taken on 22/11/2026 at 14h05", "> 7. Photo 6 \u{00B7} Taken on 22/11/2026 at 14h05",
                "  8. Photo 5 \u{00B7} Taken on 22/11/2026 at 14h05", "  9. Photo 4 \u{00B7} Taken on 22/11/2026 at 14h05",
                "  10. Photo 3 \u{00B7} Taken on 22/11/2026 at 14h05",
            ])
        #expect(
            Array(lines[6...7]) == ["u d choose \u{00B7} Enter opens \u{00B7} b goes back \u{00B7} / finds a name", "Press p to take a photo"],
            "the keys")
        #expect(
            Array(lines[8...10]) == [
                "Photo 7 of 12: Anna \u{00B7} Taken on 22/11/2026 at 14h05", "  /srv/booth/photos/2026/11/22/anna.jpg",
                "u d newer, older \u{00B7} b back to the list",
            ])
        #expect(lines.contains("Photo 8 of 12 cannot be shown."))
        #expect(lines.suffix(3) == ["No photos yet", "Press p to take the first one", "b goes back"])
        let realButton = TextScreen(form: .lines(drawsQRCodes: false), keys: KeyLabels(for: .terminal(pressesShutter: false)))
        let empty = printed([gallery(0, of: 2), .gallery(GalleryList(position: GalleryPosition(index: 0, count: 0)))], realButton)
        #expect(!empty.contains("Press p to take a photo"), "p takes no photo when the button is real")
        #expect(empty.suffix(2) == ["Press the button to take the first one", "b goes back"])
    }

    @Test("While a name is found, the gallery's last lines say what is typed, whether a photo has it, and how to erase and end")
    func findingLines() {
        guard case .gallery(var list) = gallery(3, of: 12) else { return }
        list.search = NameSearch(prefix: "an")
        let found = ScreenContent.gallery(list)
        list.search = NameSearch(prefix: "anx", matches: false)
        let lines = printed([found, .gallery(list)])
        #expect(lines.contains("Find: an \u{00B7} Backspace erases \u{00B7} b ends"), "\(lines)")
        #expect(lines.contains("No name starts with anx \u{00B7} Backspace erases \u{00B7} b ends"))
        #expect(!lines.contains { $0.hasPrefix("u d choose") }, "the search replaces the keys")
    }

    @Test("The saved screen prints the photo page's link, and draws it as a QR code in half blocks that decodes to the link")
    func savedLink() throws {
        let link = "http://booth.local:8080/photos/6f1c2a7e-3b9d-4c55-8e2a-0d4b7f9a1c3e"
        let saved = ScreenContent.saved(Caption(sanitizing: "Alice")!, photo: UUID(), link: PhotoLink(page: link))
        let lines = printed([saved], TextScreen(form: .lines(drawsQRCodes: true), keys: terminalKeys))
        #expect(Array(lines.prefix(2)) == ["Saved as Alice", "Scan to download: \(link)"])
        let code = try QRCode(encoding: link)
        let side = code.size + 2 * QRCode.quietZone
        let block = Array(lines.dropFirst(2))
        #expect(block.count == (side + 1) / 2)
        // Back to modules: the blocks are the light modules (a terminal draws light on dark).
        for (row, line) in block.enumerated() {
            let cells = Array(line)
            #expect(cells.count == side)
            for (column, cell) in cells.enumerated() {
                let (top, bottom) = (2 * row - QRCode.quietZone, 2 * row + 1 - QRCode.quietZone)
                let x = column - QRCode.quietZone
                let upperLight = cell == "\u{2588}" || cell == "\u{2580}"
                let lowerLight = cell == "\u{2588}" || cell == "\u{2584}"
                #expect(upperLight == !code[x, top], "module (\(x), \(top))")
                if bottom < code.size + QRCode.quietZone { #expect(lowerLight == !code[x, bottom], "module (\(x), \(bottom))") }
            }
        }
        #expect(printed([saved]) == ["Saved as Alice", "Scan to download: \(link)"], "no QR code for a file")
    }

    @Test("The guest's terminal prints the deletion key with the link; one whose lines go to a file does not")
    func deletionKey() {
        let link = PhotoLink(page: "http://booth.local:8080/photos/6f1c2a7e-3b9d-4c55-8e2a-0d4b7f9a1c3e", deletionKey: "AAAAAKeyOfTheGuest")
        let saved = ScreenContent.saved(Caption(sanitizing: "Alice")!, photo: UUID(), link: link)
        let guest = TextScreen(form: .lines(drawsQRCodes: false), keys: terminalKeys, audience: .guest)
        #expect(printed([saved], guest) == ["Saved as Alice", "Scan to download: \(link.page)?key=AAAAAKeyOfTheGuest"])
        #expect(printed([saved]) == ["Saved as Alice", "Scan to download: \(link.page)"])
    }

    @Test("The terminal's help says what it stands for")
    func help() {
        #expect(TextScreen.terminalHelp(shoots: true, types: true)?.hasPrefix("Simulated booth:") == true)
        #expect(TextScreen.terminalHelp(shoots: true, types: false) == BoothTexts.english(.consoleHelpButton) + "\n")
        #expect(TextScreen.terminalHelp(shoots: false, types: true) == BoothTexts.english(.consoleHelpKeypad) + "\n")
        #expect(TextScreen.terminalHelp(shoots: false, types: false) == nil)
    }
}

@Suite("Text screens: a keypad's display")
struct DisplayTextTests {
    @Test("Prompts end with CR/LF; the typed name is redrawn in place, erasing what was deleted")
    func plain() {
        var echo = TextScreen(form: .display(ansi: false))
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
        var echo = TextScreen(form: .display(ansi: false))
        #expect(
            echo.text(for: .fault(.storageFull)) == "\r\nStorage full: This booth cannot save photos until space is freed. Please tell the staff.\r\n"
        )
        #expect(echo.text(for: .fault(.storageFailing)).hasPrefix("\r\nCannot save photos: "))
        let saved = echo.text(for: .saved(placeholder, photo: UUID(), pendingName: Caption(sanitizing: "Anna")!))
        #expect(saved == "\r\nSaved as Photo 7\r\nYour name \"Anna\" will be added as soon as the booth can write it.\r\n")
    }

    @Test("A character display gets the booth's words in ASCII punctuation, a guest's name as typed; a terminal gets them as they are")
    func asciiOnCharacterDisplays() {
        var plain = TextScreen(form: .display(ansi: false))
        #expect(plain.text(for: .starting) == "\r\nStarting the camera...\r\n")
        let prompt = plain.text(for: .naming(typed: "", placeholder: placeholder, photo: shot))
        #expect(prompt.contains("Enter saves - Esc keeps Photo 7") && prompt.allSatisfy(\.isASCII))
        #expect(plain.text(for: .saved(Caption(sanitizing: "Zo\u{EB} \u{2026}")!, photo: UUID())) == "\r\nSaved as Zo\u{EB} \u{2026}\r\n")
        var terminal = TextScreen(form: .display(ansi: true))
        #expect(terminal.text(for: .starting) == "\r\nStarting the camera\u{2026}\r\n")
    }

    @Test("With the photo on the booth's screen, the naming prompt says so first")
    func photoOnScreen() {
        var echo = TextScreen(form: .display(ansi: false), photoOnScreen: true)
        let prompt = echo.text(for: .naming(typed: "", placeholder: placeholder, photo: shot))
        #expect(prompt.hasPrefix("\r\nYour photo is on the screen.\r\nName your photo\r\n") && prompt.hasSuffix("Name: "))
        var without = TextScreen(form: .display(ansi: false))
        #expect(!without.text(for: .naming(typed: "", placeholder: placeholder, photo: shot)).contains("screen"))
    }

    @Test("A character display gets French and German in ASCII: accents dropped, ß and guillemets spelled out")
    func asciiLetters() {
        var french = TextScreen(form: .display(ansi: false), texts: BoothLanguage.french.texts)
        #expect(french.text(for: .starting) == "\r\nDemarrage de l'appareil photo...\r\n")
        let pending = french.text(for: .saved(placeholder, photo: UUID(), pendingName: Caption(sanitizing: "Zo\u{EB}")!))
        #expect(pending.contains("Votre nom \"Zo\u{EB}\" sera ajoute des que la borne pourra l'ecrire."), "the guest's name as typed")
        var german = TextScreen(form: .display(ansi: false), texts: BoothLanguage.german.texts)
        #expect(german.text(for: .smile) == "\r\nBitte lacheln!\r\n")
        #expect(TextScreen.ascii("Stra\u{DF}e \u{0153}uvre \u{201E}x\u{201C} \u{4E16}") == "Strasse oeuvre \"x\" ?")
        for language in BoothLanguage.all {
            var echo = TextScreen(form: .display(ansi: false), texts: language.texts, photoOnScreen: true)
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
        var echo = TextScreen(form: .display(ansi: false), keys: KeyLabels(for: KeyBindings(layout: .phone)))
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

    @Test("ANSI echo erases the line with an escape code, and clears the display for the main screen")
    func ansi() {
        var echo = TextScreen(form: .display(ansi: true))
        _ = echo.text(for: .naming(typed: "", placeholder: placeholder, photo: shot))
        #expect(echo.text(for: .naming(typed: "A", placeholder: placeholder, photo: shot)) == "\r\u{1B}[KName: A")
        #expect(echo.text(for: .ready).hasPrefix("\u{1B}[2J\u{1B}[HPress the button to take a photo\r\n"))
    }

    /// A page of the list whose rows are named `captions`, photo `index` of `count` selected.
    private func list(index: Int, count: Int, captions: [String]) -> GalleryList {
        let rows = captions.map {
            GalleryList.Row(entry: GalleryEntry(id: UUID(), caption: Caption(sanitizing: $0)!, takenOn: "today"), thumbnail: Data())
        }
        return GalleryList(position: GalleryPosition(index: index, count: count), rows: rows)
    }

    @Test("The gallery is one short line, the position and the selected name, redrawn in place as the selection moves; the slideshow sends nothing")
    func gallery() {
        var echo = TextScreen(form: .display(ansi: false))
        let captions = ["Zoe", "Anna", "Bob", "Eve", "Max"]
        _ = echo.text(for: .ready)
        #expect(echo.text(for: .gallery(list(index: 1, count: 120, captions: captions))) == "\r\n2/120 Anna")
        #expect(echo.text(for: .gallery(list(index: 2, count: 120, captions: captions))) == "\r3/120 Bob \r3/120 Bob")
        let photo = GalleryPhoto(
            position: GalleryPosition(index: 2, count: 120), entry: GalleryEntry(id: UUID(), caption: Caption(sanitizing: "Bob")!, takenOn: "today"))
        #expect(echo.text(for: .photo(photo)) == "\rView 3/120 Bob\rView 3/120 Bob")
        #expect(echo.text(for: .ready) == "\r\nPress the button to take a photo\r\nPress v to see the photos\r\n")
        #expect(echo.text(for: .attract(AttractSlide(number: 0))) == "")
        #expect(echo.text(for: .gallery(GalleryList(position: GalleryPosition(index: 0, count: 0)))) == "\r\nNo photos yet")
    }

    @Test("ANSI echo redraws the gallery's line with an escape code")
    func ansiGallery() {
        var echo = TextScreen(form: .display(ansi: true))
        _ = echo.text(for: .gallery(list(index: 0, count: 2, captions: ["Zoe", "Anna"])))
        #expect(echo.text(for: .gallery(list(index: 1, count: 2, captions: ["Zoe", "Anna"]))) == "\r\u{1B}[K2/2 Anna")
    }
}

/// A device that keeps what it is given.
private final class Recorder: ByteSink {
    let written = Mutex<[UInt8]>([])

    func write(_ bytes: [UInt8]) {
        written.withLock { $0 += bytes }
    }
}

@Suite("Text display")
struct TextDisplayTests {
    @Test("A text screen on a device writes each change as UTF-8 bytes, nothing when nothing changes, and has its screen's audience")
    func writes() {
        let device = Recorder()
        let display = TextDisplay(TextScreen(form: .lines(drawsQRCodes: false), keys: terminalKeys, audience: .guest), on: device)
        #expect(display.audience == .guest)
        display.show(.countdown(secondsLeft: 1))
        display.show(.countdown(secondsLeft: 1))
        display.show(.saving)
        #expect(device.written.withLock { $0 } == Array("1\nSaving your photo\u{2026}\n".utf8))
    }
}
