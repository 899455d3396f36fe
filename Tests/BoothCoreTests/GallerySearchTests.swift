import Testing

@testable import BoothCore

/// A booth whose gallery is open on a library of `count` photos, driven on a manual timeline:
/// `t` is seconds since the gallery opened.
private final class Gallery {
    var machine: BoothMachine
    let start = MonotonicInstant(nanoseconds: 5_000_000_000)

    init(_ layout: KeypadLayout, count: Int = 20) {
        machine = BoothMachine(settings: BoothSettings(keys: KeyBindings(layout: layout)), newPhotoID: { fatalError("no photo is taken") })
        _ = machine.handle(.cameraReady, at: start)
        _ = machine.handle(.key(.character(machine.settings.keys.viewKey)), at: start)
        _ = machine.handle(.photosCounted(count), at: start)
    }

    func instant(_ t: Double) -> MonotonicInstant { start + .seconds(t) }

    @discardableResult
    func key(_ key: KeypadKey, at t: Double) -> [BoothEffect] { machine.handle(.key(key), at: instant(t)) }

    @discardableResult
    func type(_ character: Character, at t: Double) -> [BoothEffect] { key(.character(character), at: t) }

    @discardableResult
    func found(_ prefix: String, at index: Int?, t: Double) -> [BoothEffect] {
        machine.handle(.nameFound(prefix: prefix, at: index), at: instant(t))
    }
}

/// The list at `index` of `count`, with `search` shown.
private func list(_ index: Int, of count: Int = 20, _ search: NameSearch? = nil) -> [BoothEffect] {
    [.show(.gallery(GalleryList(position: GalleryPosition(index: index, count: count), search: search)))]
}

@Suite("Finding a photo by its name in the gallery")
struct GallerySearchTests {
    @Test("On a keyboard, letters find the newest photo whose name starts so, once the library answers; each key shows one screen")
    func keyboard() {
        let gallery = Gallery(.keyboard)
        #expect(gallery.type("a", at: 1) == [.findName(startingWith: "a")], "the key asks; the answer shows")
        #expect(gallery.type("N", at: 1.5) == [.findName(startingWith: "aN")])
        // The answer for a name since changed shows the list as it is.
        #expect(gallery.found("a", at: 7, t: 1.6) == list(0, NameSearch(prefix: "aN")))
        #expect(gallery.found("aN", at: 12, t: 1.7) == list(12, NameSearch(prefix: "aN")))
        #expect(gallery.type("z", at: 2) == [.findName(startingWith: "aNz")])
        #expect(gallery.found("aNz", at: nil, t: 2.1) == list(12, NameSearch(prefix: "aNz", matches: false)), "no name: the selection stays")
        #expect(gallery.key(.backspace, at: 2.5) == [.findName(startingWith: "aN")])
        #expect(gallery.found("aN", at: 12, t: 2.6) == list(12, NameSearch(prefix: "aN")))
        // Moving ends the search, from where the name led.
        #expect(gallery.key(.down, at: 3) == list(13))
        #expect(gallery.machine.search == nil)
        // The list's count is the one it opened with.
        gallery.type("q", at: 4)
        #expect(gallery.found("q", at: 25, t: 4) == list(19, NameSearch(prefix: "q")))
    }

    @Test("On a keyboard, typing starts over after the find timeout; Escape ends a search, then leaves; Enter opens the photo found")
    func keyboardEnds() {
        let gallery = Gallery(.keyboard)
        gallery.type("b", at: 1)
        gallery.found("b", at: 3, t: 1)
        #expect(gallery.machine.nextDeadline(after: gallery.instant(1)) == gallery.instant(4), "the find timeout, before the gallery's")
        #expect(gallery.machine.handle(.tick, at: gallery.instant(4)) == list(3), "the search ends and the list shows without it")
        #expect(gallery.machine.nextDeadline(after: gallery.instant(4)) == gallery.instant(61))
        #expect(gallery.type("c", at: 5) == [.findName(startingWith: "c")], "a new search, not bc")
        #expect(gallery.key(.backspace, at: 5.5) == list(3), "erasing the only letter ends the search")
        gallery.type("c", at: 6)
        #expect(gallery.key(.escape, at: 6.5) == list(3), "Escape ends the search, in the list")
        #expect(gallery.key(.escape, at: 7) == [.show(.ready)], "then leaves the gallery")
        let opening = Gallery(.keyboard)
        opening.type("d", at: 1)
        opening.found("d", at: 5, t: 1)
        #expect(opening.key(.enter, at: 2) == [.show(.photo(GalleryPhoto(position: GalleryPosition(index: 5, count: 20))))])
        #expect(opening.machine.search == nil)
        #expect(opening.found("d", at: 5, t: 2) == [.ignored(.nameFound(prefix: "d", at: 5))], "an answer after the list closed")
    }

    @Test("On a phone keypad the view key starts a search: digits multi-tap letters, * erases, # ends it, and 2, 8 and 5 move again")
    func phone() {
        let gallery = Gallery(.phone)
        #expect(gallery.type("2", at: 0.5) == list(0), "2 is up: the top stays")
        #expect(gallery.type("0", at: 1) == list(0, NameSearch(prefix: "")), "the view key starts a search")
        #expect(gallery.type("2", at: 1.2) == [.findName(startingWith: "a")])
        #expect(gallery.type("2", at: 1.4) == [.findName(startingWith: "b")], "a second tap in time is the next letter")
        #expect(gallery.machine.nextDeadline(after: gallery.instant(1.4)) == gallery.instant(2.4), "the tap's deadline")
        _ = gallery.machine.handle(.tick, at: gallery.instant(2.4))
        #expect(gallery.type("2", at: 2.5) == [.findName(startingWith: "ba")], "after the tap's deadline the letter stays")
        #expect(gallery.type("5", at: 3) == [.findName(startingWith: "baj")], "5 types while finding")
        #expect(gallery.found("baj", at: 9, t: 3) == list(9, NameSearch(prefix: "baj")))
        #expect(gallery.type("*", at: 3.5) == [.findName(startingWith: "ba")])
        gallery.type("*", at: 3.6)
        #expect(gallery.type("*", at: 3.7) == list(9, NameSearch(prefix: "")), "the last letter erased: the search waits for one")
        #expect(gallery.type("*", at: 3.8) == list(9), "erasing nothing ends the search")
        #expect(gallery.type("8", at: 4) == list(10), "8 is down again")
        gallery.type("0", at: 5)
        gallery.type("6", at: 5.1)
        gallery.found("m", at: 14, t: 5.2)
        #expect(gallery.type("#", at: 5.5) == list(14), "# ends the search where the name led")
        #expect(gallery.type("5", at: 6) == [.show(.photo(GalleryPhoto(position: GalleryPosition(index: 14, count: 20))))])
    }

    @Test("On a phone keypad a search left alone ends at the find timeout, and the keys move the list again")
    func phoneTimeout() {
        let gallery = Gallery(.phone)
        gallery.type("0", at: 1)
        #expect(gallery.machine.nextDeadline(after: gallery.instant(1)) == gallery.instant(4))
        #expect(gallery.machine.handle(.tick, at: gallery.instant(4)) == list(0))
        #expect(gallery.type("8", at: 5) == list(1))
    }

    @Test("A name stops growing at a caption's length; leaving the gallery forgets the search")
    func limits() {
        let gallery = Gallery(.keyboard)
        for offset in 0..<Caption.maximumLength { gallery.type("a", at: Double(offset) / 100) }
        #expect(gallery.machine.search?.prefix.count == Caption.maximumLength)
        #expect(gallery.type("a", at: 1) == [.ignored(.key(.character("a")))])
        _ = gallery.machine.handle(.tick, at: gallery.instant(62))
        #expect(gallery.machine.state == .idle && gallery.machine.search == nil)
    }
}
