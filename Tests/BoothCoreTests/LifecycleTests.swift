import Foundation
import Testing

@testable import BoothCore

/// When the booth stops, decided by the machine on a manual timeline: `t` is seconds since the
/// start.
@Suite("Stopping and restarting")
struct LifecycleTests {
    let start = MonotonicInstant(nanoseconds: 3_000_000_000)
    let photo = TakenPhoto(id: UUID(), placeholder: .placeholder(number: 4))

    func instant(_ t: Double) -> MonotonicInstant { start + .seconds(t) }

    /// A booth whose camera is ready, with a countdown of one second.
    func booth() -> BoothMachine {
        var machine = BoothMachine(settings: BoothSettings(countdown: .seconds(1)), newPhotoID: { [photo] in photo.id })
        _ = machine.handle(.cameraReady, at: start)
        return machine
    }

    /// Takes `machine` from the main screen to the naming screen of `photo`.
    func reachNaming(_ machine: inout BoothMachine) {
        _ = machine.handle(.shutterPressed(at: instant(0)), at: instant(0))
        _ = machine.handle(.tick, at: instant(1))
        _ = machine.handle(.shotTaken(photo, shutterAt: instant(1)), at: instant(1.1))
    }

    @Test(
        "A request to stop or restart on the main screen, in the gallery or on a fault stops at once",
        arguments: [StopRequest.restart, .endOfInput, .shutdown])
    func atRest(request: StopRequest) {
        var machine = booth()
        #expect(machine.handle(.stopRequested(request), at: instant(0)) == [.stop(restarting: request == .restart)])
        #expect(machine.isStopped)
        let press = BoothEvent.shutterPressed(at: instant(1))
        #expect(machine.handle(press, at: instant(1)) == [.ignored(press)], "a stopped machine does nothing more")
    }

    @Test("A restart waits for the photo in flight: countdown, capture, naming and saving, then the saved screen")
    func restartWaitsForThePhoto() {
        var machine = booth()
        _ = machine.handle(.shutterPressed(at: instant(0)), at: instant(0))
        #expect(machine.handle(.stopRequested(.restart), at: instant(0.5)) == [], "counting down")
        _ = machine.handle(.tick, at: instant(1))
        _ = machine.handle(.shotTaken(photo, shutterAt: instant(1)), at: instant(1.1))
        #expect(machine.state.kind == .naming && !machine.isStopped, "the guest names the photo")
        let typed = machine.handle(.key(.character("A")), at: instant(2))
        #expect(typed == [.show(.naming(typed: "A", placeholder: photo.placeholder, photo: photo.id))])
        let saving = machine.handle(.key(.enter), at: instant(3))
        #expect(saving.contains(.finishPhoto(photo, caption: Caption(sanitizing: "A")!)) && !saving.contains(.stop(restarting: true)))
        let saved = machine.handle(.photoSaved(id: photo.id, caption: Caption(sanitizing: "A")!), at: instant(3.1))
        #expect(saved.last == .stop(restarting: true), "the photo is saved: now")
    }

    @Test("The end of input gives up a name being typed for the placeholder, then stops once it is saved")
    func endOfInputWhileNaming() {
        var machine = booth()
        reachNaming(&machine)
        _ = machine.handle(.key(.character("Z")), at: instant(2))
        let effects = machine.handle(.stopRequested(.endOfInput), at: instant(3))
        #expect(effects == [.show(.saving), .finishPhoto(photo, caption: photo.placeholder)])
        #expect(!machine.isStopped)
        let saved = machine.handle(.photoSaved(id: photo.id, caption: photo.placeholder), at: instant(3.2)).withoutSounds
        #expect(saved == [.show(.saved(photo.placeholder, photo: photo.id)), .stop(restarting: false)])
    }

    @Test("A shutdown does not wait for the photo in flight; it wins over a restart asked before")
    func shutdown() {
        var machine = booth()
        reachNaming(&machine)
        #expect(machine.handle(.stopRequested(.restart), at: instant(2)) == [])
        #expect(machine.handle(.stopRequested(.shutdown), at: instant(2.5)) == [.stop(restarting: false)])
    }

    @Test("The end of input wins over a restart: the booth stops rather than starting again")
    func endOfInputWinsOverRestart() {
        var machine = booth()
        _ = machine.handle(.shutterPressed(at: instant(0)), at: instant(0))
        _ = machine.handle(.stopRequested(.endOfInput), at: instant(0.1))
        _ = machine.handle(.stopRequested(.restart), at: instant(0.2))
        #expect(machine.stopRequest == .endOfInput)
    }

    @Test("The photo's id is minted by the machine when the countdown ends, and a shot for another id is not this one")
    func identity() {
        let first = UUID()
        var machine = BoothMachine(settings: BoothSettings(countdown: .zero), newPhotoID: { first })
        _ = machine.handle(.cameraReady, at: start)
        let effects = machine.handle(.shutterPressed(at: instant(0)), at: instant(0))
        guard case .takeShot(let request) = effects.last else {
            Issue.record("a shot: \(effects)")
            return
        }
        #expect(request.photo == first && request.window == .milliseconds(250) && request.waitingAtMost == .milliseconds(1500))
        let other = BoothEvent.shotTaken(TakenPhoto(id: UUID(), placeholder: .placeholder(number: 1)), shutterAt: instant(0))
        #expect(machine.handle(other, at: instant(0.1)) == [.ignored(other)])
        #expect(machine.state.kind == .capturing)
    }
}
