import Foundation
import Testing

@testable import BoothCore

/// A booth whose camera delivered its first frame at `start`, with attract mode after a minute
/// and slides of 6 s.
private func attractingMachine(after: Duration? = .seconds(60)) -> BoothMachine {
    var machine = BoothMachine(settings: BoothSettings(countdown: .seconds(3), attractAfter: after), newPhotoID: UUID.init)
    _ = machine.handle(.cameraReady, at: start)
    return machine
}

private let start = MonotonicInstant(nanoseconds: 5_000_000_000)

private func at(_ seconds: Double) -> MonotonicInstant { start + .seconds(seconds) }

private func slide(_ number: Int) -> [BoothEffect] { [.show(.attract(AttractSlide(number: number)))] }

@Suite("Attract mode")
struct AttractTests {
    @Test("Off by default: the main screen needs no tick and stays")
    func offByDefault() {
        var machine = attractingMachine(after: nil)
        #expect(machine.nextDeadline(after: at(0)) == nil)
        #expect(machine.handle(.tick, at: at(3600)) == [])
        #expect(machine.state == .idle)
    }

    @Test("After the wait without a guest the main screen becomes a slideshow, a slide every 6 s")
    func slideshow() {
        var machine = attractingMachine()
        #expect(machine.nextDeadline(after: at(1)) == at(60))
        #expect(machine.handle(.tick, at: at(59.9)) == [])
        #expect(machine.handle(.tick, at: at(60)) == slide(0))
        #expect(machine.state.kind == .attract && !machine.state.hasPhotoInFlight)
        #expect(machine.nextDeadline(after: at(60)) == at(66))
        #expect(machine.handle(.tick, at: at(65)) == [])
        #expect(machine.handle(.tick, at: at(66)) == slide(1))
        #expect(machine.handle(.tick, at: at(72)) == slide(2))
    }

    @Test("A press ends the slideshow without taking a photo; the next press starts the countdown")
    func pressWakesUp() {
        var machine = attractingMachine()
        _ = machine.handle(.tick, at: at(60))
        let wake = machine.handle(.shutterPressed(at: at(61)), at: at(61))
        #expect(wake == [.show(.ready)])
        #expect(machine.state == .idle)
        // The main screen waits for a guest again from now.
        #expect(machine.nextDeadline(after: at(61)) == at(121))
        #expect(machine.handle(.shutterPressed(at: at(62)), at: at(62)).withoutSounds == [.show(.countdown(secondsLeft: 3))])
        #expect(machine.nextDeadline(after: at(62)) == at(63), "the countdown's, not the slideshow's")
    }

    @Test("Any key ends the slideshow and only that: the view key does not open the gallery")
    func keyWakesUp() {
        var machine = attractingMachine()
        _ = machine.handle(.tick, at: at(60))
        #expect(machine.handle(.key(.character("v")), at: at(61)) == [.show(.ready)])
        _ = machine.handle(.tick, at: at(121))
        #expect(machine.handle(.key(.enter), at: at(122)) == [.show(.ready)])
    }

    @Test("The timer starts when the main screen shows, after a photo as after the gallery")
    func timerFromTheMainScreen() {
        var machine = attractingMachine()
        _ = machine.handle(.key(.character("v")), at: at(10))
        _ = machine.handle(.photosCounted(3), at: at(10))
        #expect(machine.nextDeadline(after: at(10)) == at(70), "the gallery's own timeout")
        #expect(machine.handle(.key(.escape), at: at(20)) == [.show(.ready)])
        #expect(machine.nextDeadline(after: at(20)) == at(80))
    }

    @Test("The camera's loss or a full disk interrupts the slideshow with the fault")
    func faults() {
        var camera = attractingMachine()
        _ = camera.handle(.tick, at: at(60))
        #expect(camera.handle(.cameraLost, at: at(61)) == [.show(.fault(.cameraMissing))])
        #expect(camera.nextDeadline(after: at(61)) == nil, "no slideshow over a fault")
        #expect(camera.handle(.cameraReady, at: at(62)) == [.show(.ready)])
        #expect(camera.nextDeadline(after: at(62)) == at(122))

        var storage = attractingMachine()
        _ = storage.handle(.tick, at: at(60))
        #expect(storage.handle(.storageChecked(.storageFull), at: at(61)) == [.show(.fault(.storageFull))])
        #expect(storage.handle(.shutterPressed(at: at(62)), at: at(62)) == [.show(.fault(.storageFull)), .ignored(.shutterPressed(at: at(62)))])
    }

    @Test("A booth asked to stop during the slideshow stops at once: no photo is in flight")
    func stops() {
        var machine = attractingMachine()
        _ = machine.handle(.tick, at: at(60))
        #expect(machine.handle(.stopRequested(.restart), at: at(61)) == [.stop(restarting: true)])
    }
}
