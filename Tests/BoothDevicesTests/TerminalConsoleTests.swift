import BoothCore
import BoothImaging
import Foundation
import Logging
import SystemPackage
import Testing

@testable import BoothDevices

/// A console wired to pipes: the test writes its input and reads its screen.
private final class ConsoleHarness {
    let console: TerminalConsole
    let input: FileHandle
    let screen: FileHandle
    private let inputPipe = Pipe()
    private let outputPipe = Pipe()

    init(
        patient: Bool, drawsQRCodes: Bool = false, audience: ScreenAudience? = nil, texts: BoothTexts = .english, photoOnScreen: Bool = false
    ) throws {
        // The console may still print after a test has closed its end of the screen pipe; as in
        // the photobooth command, that must be an error on write, not a fatal SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        console = try TerminalConsole(
            input: FileDescriptor(rawValue: inputPipe.fileHandleForReading.fileDescriptor),
            output: FileDescriptor(rawValue: outputPipe.fileHandleForWriting.fileDescriptor),
            patient: patient, drawsQRCodes: drawsQRCodes, audience: audience, texts: texts, photoOnScreen: photoOnScreen,
            logger: Logger(label: "test"))
        // The console keeps its own copies; the test's ends can go at any time.
        try inputPipe.fileHandleForReading.close()
        try outputPipe.fileHandleForWriting.close()
        input = inputPipe.fileHandleForWriting
        screen = outputPipe.fileHandleForReading
        console.start()
    }

    func type(_ bytes: [UInt8]) throws {
        try input.write(contentsOf: bytes)
    }

    func type(_ text: String) throws {
        try type(Array(text.utf8))
    }

    func endInput() throws {
        try input.close()
    }

    /// The lines printed so far.
    func printed() async -> [String] {
        await console.flush()
        let data = screen.availableData
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

private let placeholder = Caption.placeholder(number: 1)
/// The photo being named in these tests.
private let shot = UUID()

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

/// The keys of one name: up to and including Enter or Cancel.
private func nameKeys(from keys: inout AsyncStream<KeypadKey>.Iterator) async -> [KeypadKey] {
    var typed: [KeypadKey] = []
    while let key = await keys.next() {
        typed.append(key)
        if key == .enter || key == .escape { break }
    }
    return typed
}

@Suite("Terminal console", .timeLimit(.minutes(1)))
struct TerminalConsoleTests {
    @Test("Piped lines wait until the booth waits for one, so none is lost")
    func patientLines() async throws {
        let harness = try ConsoleHarness(patient: true)
        // The whole script arrives before the booth shows anything.
        try harness.type("\nAlice\n\nBob\n")
        try harness.endInput()
        var presses = harness.console.presses.makeAsyncIterator()
        var keys = harness.console.keys.makeAsyncIterator()

        harness.console.show(.ready)
        #expect(await presses.next() != nil)
        harness.console.show(.countdown(secondsLeft: 1))
        harness.console.show(.smile)
        harness.console.show(.naming(typed: "", placeholder: placeholder, photo: shot))
        #expect(await nameKeys(from: &keys) == "Alice".map { .character($0) } + [.enter])
        // Typing updates the naming screen; that does not take another line.
        harness.console.show(.naming(typed: "Alice", placeholder: placeholder, photo: shot))
        harness.console.show(.saving)
        harness.console.show(.saved(Caption(sanitizing: "Alice")!, photo: UUID()))
        #expect(await presses.next() != nil, "the empty line presses the shutter on the saved screen")
        harness.console.show(.smile)
        harness.console.show(.naming(typed: "", placeholder: placeholder, photo: shot))
        #expect(await nameKeys(from: &keys) == "Bob".map { .character($0) } + [.enter])
        harness.console.show(.saving)
        harness.console.show(.saved(Caption(sanitizing: "Bob")!, photo: UUID()))
        // Input has ended and the booth waits: both streams end.
        #expect(await keys.next() == nil)
        #expect(await presses.next() == nil)
        #expect(
            await harness.printed() == [
                "Press Enter to take a photo", "Press v to see the photos", "1", "Smile!", "Name your photo:",
                "Saving your photo\u{2026}", "Saved as Alice", "Smile!", "Name your photo:", "Saving your photo\u{2026}", "Saved as Bob",
            ])
    }

    @Test("Escape cancels, Delete and Backspace erase, CR and invalid UTF-8 are dropped")
    func editingKeys() async throws {
        let harness = try ConsoleHarness(patient: true)
        try harness.type(Array("Ab\u{7F}c\u{8}d\r\n".utf8) + [0x45, 0xFF, 0x76, 0x0A] + Array("Zed\u{1B}more\n".utf8))
        var keys = harness.console.keys.makeAsyncIterator()
        var received: [KeypadKey] = []
        for _ in 0..<3 {
            harness.console.show(.naming(typed: "", placeholder: placeholder, photo: shot))
            received += await nameKeys(from: &keys)
            harness.console.show(.saving)
        }
        let expected: [KeypadKey] = [
            .character("A"), .character("b"), .backspace, .character("c"), .backspace, .character("d"), .enter,
            .character("E"), .character("v"), .enter,
            .character("Z"), .character("e"), .character("d"), .escape,
        ]
        #expect(received == expected)
    }

    @Test("With a screen that shows the photo, the naming prompt says so")
    func photoOnScreen() async throws {
        let shown = try ConsoleHarness(patient: true, photoOnScreen: true)
        shown.console.show(.naming(typed: "", placeholder: placeholder, photo: shot))
        #expect(await shown.printed() == ["Your photo is on the screen.", "Name your photo:"])
        let unseen = try ConsoleHarness(patient: true)
        unseen.console.show(.naming(typed: "", placeholder: placeholder, photo: shot))
        #expect(await unseen.printed() == ["Name your photo:"])
    }

    @Test("The end of input is passed on only when the booth waits, after pending lines")
    func endOfInputWaitsForTheBooth() async throws {
        let harness = try ConsoleHarness(patient: true)
        try harness.type("\n")
        try harness.endInput()
        var presses = harness.console.presses.makeAsyncIterator()
        var keys = harness.console.keys.makeAsyncIterator()
        harness.console.show(.ready)
        #expect(await presses.next() != nil)
        harness.console.show(.smile)
        harness.console.show(.naming(typed: "", placeholder: placeholder, photo: shot))
        #expect(await keys.next() == nil)
    }

    @Test("Input that ends during a fault ends the streams; pending lines wait through a fault that passes")
    func endOfInputDuringFault() async throws {
        let harness = try ConsoleHarness(patient: true)
        try harness.type("\n")
        var presses = harness.console.presses.makeAsyncIterator()
        var keys = harness.console.keys.makeAsyncIterator()
        harness.console.show(.fault(.cameraMissing))
        harness.console.show(.ready)
        #expect(await presses.next() != nil, "the line waited for the main screen")
        harness.console.show(.fault(.shotFailed))
        try harness.endInput()
        #expect(await keys.next() == nil)
        #expect(await presses.next() == nil)
    }

    @Test("On a storage fault, which lasts, each piped line is a press the booth answers with the fault, printed again")
    func linesOnAStorageFault() async throws {
        let harness = try ConsoleHarness(patient: true)
        try harness.type("\nAlice\n")
        try harness.endInput()
        var presses = harness.console.presses.makeAsyncIterator()
        var keys = harness.console.keys.makeAsyncIterator()
        harness.console.show(.fault(.storageFull))
        #expect(await presses.next() != nil)
        // The booth's answer to the press: the fault again, which takes the next line.
        harness.console.show(.fault(.storageFull))
        #expect(await presses.next() != nil, "\"Alice\" is a press too: there is no name to type")
        harness.console.show(.fault(.storageFull))
        #expect(await keys.next() == nil)
        #expect(await presses.next() == nil)
        #expect(await harness.printed() == Array(repeating: BoothFault.storageFull.sentence(), count: 3))
    }

    @Test("Terminal input acts at once, like a real button, even while the booth is busy")
    func impatientLines() async throws {
        let harness = try ConsoleHarness(patient: false)
        var presses = harness.console.presses.makeAsyncIterator()
        harness.console.show(.countdown(secondsLeft: 3))
        try harness.type("\n")
        #expect(await presses.next() != nil)
        let printed = await harness.printed()
        #expect(printed.first?.hasPrefix("Simulated booth:") == true)
        #expect(printed.last == "3")
    }

    @Test("A repeated screen prints once")
    func printsChangesOnly() async throws {
        let harness = try ConsoleHarness(patient: true)
        for content in [ScreenContent.countdown(secondsLeft: 2), .countdown(secondsLeft: 2), .countdown(secondsLeft: 1)] {
            harness.console.show(content)
        }
        harness.console.show(.fault(.storageFull))
        #expect(await harness.printed() == ["2", "1", BoothFault.storageFull.sentence()])
    }

    @Test("In French, the terminal's help, prompts, key names and gallery are French")
    func french() async throws {
        let harness = try ConsoleHarness(patient: false, texts: BoothLanguage.french.texts)
        harness.console.show(.ready)
        harness.console.show(.naming(typed: "", placeholder: placeholder, photo: shot))
        harness.console.show(.saved(Caption(sanitizing: "Anna")!, photo: UUID(), pendingName: Caption(sanitizing: "Zoé")!))
        harness.console.show(gallery(0, of: 2))
        harness.console.show(.fault(.cameraMissing))
        let printed = await harness.printed()
        #expect(printed.first?.hasPrefix("Borne simulée\u{00A0}: Entrée prend une photo") == true, "\(printed)")
        #expect(
            Array(printed.dropFirst().prefix(5)) == [
                "Appuyez sur Entrée pour prendre une photo", "Appuyez sur v pour voir les photos", "Donnez un nom à votre photo\u{00A0}:",
                "Enregistrée sous Anna", "Votre nom «\u{00A0}Zoé\u{00A0}» sera ajouté dès que la borne pourra l’écrire.",
            ])
        #expect(printed.contains("Photos, 1 sur 2"))
        #expect(printed.contains("u d pour choisir · Entrée pour ouvrir · b pour revenir · / pour chercher un nom"))
        #expect(printed.contains("Appuyez sur p pour prendre une photo"))
        #expect(printed.last == BoothFault.cameraMissing.sentence(in: BoothLanguage.french.texts))
        #expect(TerminalConsole.keyLabels(in: BoothLanguage.german.texts).erase == "Rücktaste")
    }

    // MARK: Gallery

    @Test("The gallery prints its page numbered from the newest, the selected photo marked; a full-screen photo its name, time and file")
    func galleryScreens() async throws {
        let harness = try ConsoleHarness(patient: true)
        harness.console.show(gallery(6, of: 12))
        let entry = GalleryEntry(id: UUID(), caption: Caption(sanitizing: "Anna")!, takenOn: "Taken on 22/11/2026 at 14h05")
        let originals = FileOriginals(path: "/srv/booth/photos/2026/11/22/anna.jpg")
        harness.console.show(.photo(GalleryPhoto(position: GalleryPosition(index: 6, count: 12), entry: entry, originals: originals)))
        harness.console.show(.photo(GalleryPhoto(position: GalleryPosition(index: 7, count: 12))))
        harness.console.show(.gallery(GalleryList(position: GalleryPosition(index: 0, count: 0))))
        let printed = await harness.printed()
        #expect(printed.first?.hasPrefix("Photos, 7 of 12") == true)
        #expect(
            Array(printed[1...5]) == [
                "  6. Photo 7 \u{00B7} Taken on 22/11/2026 at 14h05", "> 7. Photo 6 \u{00B7} Taken on 22/11/2026 at 14h05",
                "  8. Photo 5 \u{00B7} Taken on 22/11/2026 at 14h05", "  9. Photo 4 \u{00B7} Taken on 22/11/2026 at 14h05",
                "  10. Photo 3 \u{00B7} Taken on 22/11/2026 at 14h05",
            ])
        #expect(
            Array(printed[6...7]) == ["u d choose \u{00B7} Enter opens \u{00B7} b goes back \u{00B7} / finds a name", "Press p to take a photo"],
            "the keys")
        #expect(
            Array(printed[8...10]) == [
                "Photo 7 of 12: Anna \u{00B7} Taken on 22/11/2026 at 14h05", "  /srv/booth/photos/2026/11/22/anna.jpg",
                "u d newer, older \u{00B7} b back to the list",
            ])
        #expect(printed.contains("Photo 8 of 12 cannot be shown."))
        #expect(printed.suffix(3) == ["No photos yet", "Press p to take the first one", "b goes back"])
    }

    @Test("Piped lines drive the gallery: v opens, u, d and arrows move, an empty line opens and closes, b and Escape go back")
    func pipedGallery() async throws {
        let harness = try ConsoleHarness(patient: true)
        try harness.type("v\nd\n\u{1B}[B\n\n\nu\n\u{1B}\nb\n\n")
        try harness.endInput()
        var keys = harness.console.keys.makeAsyncIterator()
        var presses = harness.console.presses.makeAsyncIterator()
        harness.console.show(.ready)
        #expect(await keys.next() == .character("v"))
        // The booth counts the photos and opens the list; each key then shows one screen.
        let steps: [(shown: ScreenContent, key: KeypadKey)] = [
            (gallery(0, of: 3), .down), (gallery(1, of: 3), .down), (gallery(2, of: 3), .enter),
            (.photo(GalleryPhoto(position: GalleryPosition(index: 2, count: 3))), .enter), (gallery(2, of: 3), .up),
            (.photo(GalleryPhoto(position: GalleryPosition(index: 1, count: 3))), .escape), (gallery(1, of: 3), .escape),
        ]
        for step in steps {
            harness.console.show(step.shown)
            #expect(await keys.next() == step.key, "after \(step.shown)")
        }
        harness.console.show(.ready)
        #expect(await presses.next() != nil, "the last empty line is the button, on the main screen")
        harness.console.show(.countdown(secondsLeft: 1))
        harness.console.show(.smile)
        harness.console.show(.naming(typed: "", placeholder: placeholder, photo: shot))
        #expect(await keys.next() == nil, "input has ended")
    }

    @Test("A line of several gallery keys waits for as many screens before the next line is taken")
    func severalKeysInALine() async throws {
        let harness = try ConsoleHarness(patient: true)
        try harness.type("dd\nx\nb\n")
        var keys = harness.console.keys.makeAsyncIterator()
        harness.console.show(gallery(0, of: 5))
        #expect(await keys.next() == .down)
        #expect(await keys.next() == .down)
        harness.console.show(gallery(1, of: 5))
        harness.console.show(gallery(2, of: 5))
        // "x" means nothing in the gallery and is skipped; "b" goes back.
        #expect(await keys.next() == .escape)
        try harness.endInput()
    }

    @Test("p presses the shutter from the gallery")
    func buttonFromTheGallery() async throws {
        let harness = try ConsoleHarness(patient: true)
        try harness.type("p\n")
        try harness.endInput()
        var presses = harness.console.presses.makeAsyncIterator()
        harness.console.show(gallery(0, of: 2))
        #expect(await presses.next() != nil)
    }

    @Test("Terminal input: v on the main screen opens the gallery at once")
    func impatientViewKey() async throws {
        let harness = try ConsoleHarness(patient: false)
        var keys = harness.console.keys.makeAsyncIterator()
        harness.console.show(.ready)
        try harness.type("v\n")
        #expect(await keys.next() == .character("v"))
    }

    @Test("Arrow keys' escape sequences, u, d, b and a lone Escape are gallery keys; a line after / types a name to find")
    func galleryKeyParsing() {
        #expect(TerminalConsole.galleryKeys(in: "") == [.enter])
        #expect(TerminalConsole.galleryKeys(in: "\u{1B}[A\u{1B}OB") == [.up, .down])
        #expect(TerminalConsole.galleryKeys(in: "uDb\u{1B}") == [.up, .down, .escape, .escape])
        #expect(TerminalConsole.galleryKeys(in: "xyz").isEmpty)
        #expect(TerminalConsole.galleryKeys(in: "/Zoë b") == [.character("Z"), .character("o"), .character("ë"), .character(" "), .character("b")])
        #expect(TerminalConsole.galleryKeys(in: "/an\u{7F}") == [.character("a"), .character("n"), .backspace])
        #expect(TerminalConsole.galleryKeys(in: "/").isEmpty)
    }

    @Test("While a name is found, the gallery's last lines say what is typed, whether a photo has it, and how to erase and end")
    func findingLines() async throws {
        let harness = try ConsoleHarness(patient: true)
        guard case .gallery(var list) = gallery(3, of: 12) else { return }
        list.search = NameSearch(prefix: "an")
        harness.console.show(.gallery(list))
        list.search = NameSearch(prefix: "anx", matches: false)
        harness.console.show(.gallery(list))
        let printed = await harness.printed()
        #expect(printed.contains("Find: an \u{00B7} Backspace erases \u{00B7} b ends"), "\(printed)")
        #expect(printed.contains("No name starts with anx \u{00B7} Backspace erases \u{00B7} b ends"))
        #expect(!printed.contains { $0.hasPrefix("u d choose") }, "the search replaces the keys")
    }

    @Test("The saved screen prints the photo page's link, and draws it as a QR code in half blocks that decodes to the link")
    func savedLink() async throws {
        let link = "http://booth.local:8080/photos/6f1c2a7e-3b9d-4c55-8e2a-0d4b7f9a1c3e"
        let harness = try ConsoleHarness(patient: true, drawsQRCodes: true)
        harness.console.show(.saved(Caption(sanitizing: "Alice")!, photo: UUID(), link: PhotoLink(page: link)))
        let printed = await harness.printed()
        #expect(Array(printed.prefix(2)) == ["Saved as Alice", "Scan to download: \(link)"])
        let code = try QRCode(encoding: link)
        let side = code.size + 2 * QRCode.quietZone
        let block = Array(printed.dropFirst(2))
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
        let plain = try ConsoleHarness(patient: true)
        plain.console.show(.saved(Caption(sanitizing: "Alice")!, photo: UUID(), link: PhotoLink(page: link)))
        #expect(await plain.printed() == ["Saved as Alice", "Scan to download: \(link)"], "no QR code when the output is not a terminal")
    }

    @Test("The terminal of the guest at the booth prints the deletion key with the link; one whose lines go to a file does not")
    func deletionKey() async throws {
        let link = PhotoLink(page: "http://booth.local:8080/photos/6f1c2a7e-3b9d-4c55-8e2a-0d4b7f9a1c3e", deletionKey: "AAAAAKeyOfTheGuest")
        let guest = try ConsoleHarness(patient: true, drawsQRCodes: true, audience: .guest)
        guest.console.show(.saved(Caption(sanitizing: "Alice")!, photo: UUID(), link: link))
        #expect(Array(await guest.printed().prefix(2)) == ["Saved as Alice", "Scan to download: \(link.page)?key=AAAAAKeyOfTheGuest"])
        // Pipes, as the journal or a file: the console does not know who reads them.
        let logged = try ConsoleHarness(patient: true)
        #expect(logged.console.audience == .anyone)
        logged.console.show(.saved(Caption(sanitizing: "Alice")!, photo: UUID(), link: link))
        #expect(await logged.printed() == ["Saved as Alice", "Scan to download: \(link.page)"])
    }
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
