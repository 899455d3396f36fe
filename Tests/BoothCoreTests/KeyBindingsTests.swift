import Foundation
import Testing

@testable import BoothCore

/// What keys mean, decided by the machine on a manual timeline: `t` is seconds since the start.
@Suite("Keys and their meaning")
struct KeyBindingsTests {
    let start = MonotonicInstant(nanoseconds: 2_000_000_000)
    let photo = TakenPhoto(id: UUID(), placeholder: .placeholder(number: 3))

    func instant(_ t: Double) -> MonotonicInstant { start + .seconds(t) }

    /// A booth with `keys`, its camera ready, at the naming screen of `photo` at t = 0.
    func naming(_ keys: KeyBindings) -> BoothMachine {
        var machine = BoothMachine(
            settings: BoothSettings(countdown: .zero, nameTimeout: .seconds(30), keys: keys), newPhotoID: { [photo] in photo.id })
        _ = machine.handle(.cameraReady, at: start)
        _ = machine.handle(.shutterPressed(at: start), at: start)
        _ = machine.handle(.shotTaken(photo, shutterAt: start), at: start)
        return machine
    }

    /// The name shown after `keys` are pressed, each at its time.
    func typed(_ machine: inout BoothMachine, _ keys: [(String, Double)]) -> String? {
        for (characters, t) in keys {
            for character in characters { _ = machine.handle(.key(.character(character)), at: instant(t)) }
        }
        guard case .naming(typed: let text, _, _) = machine.screen(now: instant(keys.last?.1 ?? 0)) else { return nil }
        return text
    }

    @Test("Phone: taps within the timeout cycle a key's letters, another key or the timeout keeps the letter")
    func multiTap() {
        var machine = naming(KeyBindings(layout: .phone, multiTapTimeout: .seconds(1)))
        #expect(typed(&machine, [("22", 0.1), ("33", 0.2), ("66", 0.3)]) == "ben")
        #expect(typed(&machine, [("6", 2.5)]) == "benm", "the same key after the timeout starts a new letter")
        #expect(typed(&machine, [("*", 3)]) == "ben", "* erases")
        #expect(typed(&machine, [("22222", 4)]) == "bena", "cycling wraps round after the digit")
        #expect(typed(&machine, [("7", 5), ("7", 5.9), ("7", 6.8)]) == "benar", "each tap restarts the timeout")
    }

    @Test("Phone: the tap has its own deadline; once it passes, the same key types a new letter")
    func multiTapDeadline() {
        var machine = naming(KeyBindings(layout: .phone, multiTapTimeout: .milliseconds(800)))
        _ = machine.handle(.key(.character("4")), at: instant(1))
        #expect(machine.tap == MultiTap(key: "4", index: 0, until: instant(1.8)))
        #expect(machine.nextDeadline(after: instant(1)) == instant(1.8), "the tap's deadline comes before the name's")
        #expect(machine.handle(.tick, at: instant(1.8)) == [], "the letter stays: nothing changes on screen")
        #expect(machine.tap == nil)
        #expect(machine.nextDeadline(after: instant(1.8)) == instant(31), "back to the name's own timeout")
        #expect(typed(&machine, [("4", 1.9)]) == "gg")
    }

    @Test("Phone: # confirms the name; a tap that the name cannot take is ignored and ends nothing")
    func phoneConfirms() {
        var machine = naming(KeyBindings(layout: .phone))
        _ = typed(&machine, [("5", 0.1)])
        let effects = machine.handle(.key(.character("#")), at: instant(0.2))
        #expect(effects.contains(.finishPhoto(photo, caption: Caption(sanitizing: "j")!)))
    }

    @Test("Phone, outside name entry: 0 opens the gallery, 2 and 8 move, 5 opens and closes a photo, * goes back")
    func phoneInTheGallery() {
        var machine = BoothMachine(settings: BoothSettings(keys: KeyBindings(layout: .phone)), newPhotoID: UUID.init)
        _ = machine.handle(.cameraReady, at: start)
        #expect(machine.handle(.key(.character("v")), at: instant(0)) == [.ignored(.key(.character("v")))])
        #expect(machine.handle(.key(.character("0")), at: instant(0)) == [.countPhotos])
        _ = machine.handle(.photosCounted(3), at: instant(0))
        func list(_ index: Int) -> [BoothEffect] { [.show(.gallery(GalleryList(position: GalleryPosition(index: index, count: 3))))] }
        #expect(machine.handle(.key(.character("8")), at: instant(1)) == list(1))
        #expect(machine.handle(.key(.character("2")), at: instant(2)) == list(0))
        #expect(machine.handle(.key(.character("5")), at: instant(3)) == [.show(.photo(GalleryPhoto(position: GalleryPosition(index: 0, count: 3))))])
        #expect(machine.handle(.key(.character("5")), at: instant(4)) == list(0))
        #expect(machine.handle(.key(.character("3")), at: instant(5)) == [.ignored(.key(.character("3")))])
        #expect(machine.handle(.key(.character("*")), at: instant(6)) == [.show(.ready)])
    }

    @Test("Keyboard: digits and * type themselves, the view key types while naming, Escape keeps the placeholder")
    func keyboardTypes() {
        var machine = naming(KeyBindings(layout: .keyboard))
        #expect(typed(&machine, [("22*v", 1)]) == "22*v")
        #expect(machine.tap == nil)
        let effects = machine.handle(.key(.escape), at: instant(2))
        #expect(effects.contains(.finishPhoto(photo, caption: photo.placeholder)))
    }

    @Test("A chosen view key replaces the layout's own")
    func chosenViewKey() {
        #expect(KeyBindings(layout: .phone).viewKey == "0" && KeyBindings(layout: .keyboard).viewKey == "v")
        var machine = BoothMachine(settings: BoothSettings(keys: KeyBindings(layout: .keyboard, viewKey: "g")), newPhotoID: UUID.init)
        _ = machine.handle(.cameraReady, at: start)
        #expect(machine.handle(.key(.character("v")), at: instant(0)) == [.ignored(.key(.character("v")))])
        #expect(machine.handle(.key(.character("g")), at: instant(0)) == [.countPhotos])
    }
}
