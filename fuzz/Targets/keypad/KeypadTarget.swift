import BoothCore
import BoothScreen
import Foundation
import FuzzSupport

@testable import BoothDevices

// What a serial keypad sends, byte by byte, with the time between bytes and the guest's
// presses of the shutter button:
//
//   [options: 1 byte: bit 0 a phone keypad, bit 1 an ANSI terminal, bit 2 `#` as the view key,
//    bit 3 the simulated booth's terminal (keys a line at a time, Enter and p shoot), which
//    bits 0 and 2 then leave alone]
//   then pairs [step: 1 byte] [the keypad's byte]
//
// A step's low 7 bits are the time since the previous byte, in 20 ms units (0 to 2.54 s); its
// high bit presses the shutter button first. The bytes go through the keypad's decoder, the
// keys to the state machine, and what the machine shows to the keypad's display (its text
// screen). The booth's other parts answer at once, as they do when all is well: the shot is
// taken, the photo saved, the gallery counted, a name found.

/// The keypad's display for each of the options' 16 combinations, made once: the plain one
/// spells every text of the booth in ASCII when it is made.
private let displays = (0..<16).map { (options: UInt8) in
    TextScreen(form: .display(ansi: options & 2 != 0), keys: KeyLabels(for: Booth.bindings(options)))
}

/// The booth around the machine, as the runtime wires it.
private struct Booth {
    var machine: BoothMachine
    var decoder = KeypadDecoder()
    var display: TextScreen
    var now = MonotonicInstant(nanoseconds: 1_000_000_000)
    var photos = 0

    init(options: UInt8) {
        let keys = Self.bindings(options)
        // Short steps, so that a few bytes reach every state; slides that change seldom, so that
        // an hour of attract mode takes few ticks.
        let settings = BoothSettings(
            countdown: .milliseconds(200), attractAfter: .seconds(120), attractSlide: .seconds(600), keys: keys)
        // The same id for every photo: the machine only carries it, and the run stays deterministic.
        machine = BoothMachine(settings: settings, newPhotoID: { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)) })
        display = displays[Int(options & 15)]
        send(.cameraReady)
        send(.storageChecked(nil))
    }

    static func bindings(_ options: UInt8) -> KeyBindings {
        guard options & 8 == 0 else { return KeyBindings(layout: .keyboard, viewKey: "v", lines: LineKeys(), shutter: ShutterKeys()) }
        return KeyBindings(layout: options & 1 == 0 ? .keyboard : .phone, viewKey: options & 4 == 0 ? nil : "#")
    }

    /// Handles `event` and everything its effects lead to.
    mutating func send(_ event: BoothEvent) {
        var queue = [event]
        var handled = 0
        while !queue.isEmpty {
            handled += 1
            require(handled < 1000, "one event led to a thousand more")
            for effect in machine.handle(queue.removeFirst(), at: now) {
                queue += answer(effect)
            }
        }
    }

    /// What the booth's other parts answer to `effect`.
    private mutating func answer(_ effect: BoothEffect) -> [BoothEvent] {
        switch effect {
        case .show(let content):
            _ = display.text(for: content)
            return []
        case .takeShot(let request):
            photos += 1
            return [.shotTaken(TakenPhoto(id: request.photo, placeholder: .placeholder(number: photos)), shutterAt: request.exposedAt)]
        case .finishPhoto(let photo, let caption):
            require(Caption(sanitizing: caption.text)?.text == caption.text, "the caption \(caption.text.debugDescription) is not clean")
            return [.photoSaved(id: photo.id, caption: caption)]
        case .countPhotos:
            return [.photosCounted(photos)]
        case .findName(let prefix):
            let key = NameKey.fold(prefix)
            return [.nameFound(prefix: prefix, at: key.isEmpty || photos == 0 ? nil : key.unicodeScalars.count % photos)]
        case .showPrinterNotice(let fault):
            _ = display.text(forNotice: fault)
            return []
        case .composePicture, .abandonPicture, .printPicture:
            // The writer composes (or lets go of) the picture, or queues its print, on its own;
            // nothing comes back.
            return []
        case .play, .silence:
            // The speaker plays (or drops) its sounds on its own; nothing comes back.
            return []
        case .stop, .ignored:
            return []
        }
    }

    /// Lets time run to `instant`, with the ticks the machine asks for on the way.
    mutating func advance(to instant: MonotonicInstant) {
        var ticks = 0
        while let deadline = machine.nextDeadline(after: now), deadline <= instant {
            ticks += 1
            require(ticks < 10_000, "the machine keeps asking for ticks")
            now = max(now, deadline)
            for key in decoder.expire(at: now) { send(.key(key)) }
            send(.tick)
        }
        now = instant
        for key in decoder.expire(at: now) { send(.key(key)) }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeypad(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    var booth = Booth(options: input.byte())
    while !input.isEmpty {
        let step = input.byte()
        booth.advance(to: booth.now + .milliseconds(20 * Int(step & 0x7F)))
        if step & 0x80 != 0 { booth.send(.shutterPressed(at: booth.now)) }
        for key in booth.decoder.feed(input.byte(), at: booth.now) { booth.send(.key(key)) }
    }
    // Every waiting state has a deadline back to the main screen: an hour later the booth
    // waits for its next guest, whatever the keys were.
    booth.advance(to: booth.now + .seconds(3600))
    require(
        [.idle, .attract].contains(booth.machine.state.kind),
        "an hour after the last key the booth is still in \(booth.machine.state.kind)")
    return 0
}
