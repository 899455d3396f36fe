import Foundation
import Testing

@testable import BoothCore

/// Drives a machine through a session on a manual timeline: `t` is seconds since the start.
/// A class, so that `#expect` can call the mutating methods it wraps.
private final class Session {
    var machine: BoothMachine
    let start = MonotonicInstant(nanoseconds: 5_000_000_000)

    /// A booth whose camera delivered its first frame at the start.
    init(_ settings: BoothSettings = BoothSettings(countdown: .seconds(3), nameTimeout: .seconds(30))) {
        machine = BoothMachine(settings: settings)
        _ = machine.handle(.cameraReady, at: start)
    }

    func instant(_ t: Double) -> MonotonicInstant { start + .seconds(t) }

    @discardableResult
    func send(_ event: BoothEvent, at t: Double) -> [BoothEffect] {
        machine.handle(event, at: instant(t))
    }

    @discardableResult
    func press(at t: Double) -> [BoothEffect] { send(.shutterPressed(at: instant(t)), at: t) }

    @discardableResult
    func tick(at t: Double) -> [BoothEffect] { send(.tick, at: t) }

    /// Presses at `t` and lets the countdown run out; returns the shutter instant asked for.
    func shoot(at t: Double) -> MonotonicInstant? {
        press(at: t)
        let effects = tick(at: t + machine.settings.countdown.inSeconds)
        return effects.compactMap { if case .takeShot(let at) = $0 { at } else { nil } }.first
    }

    /// Runs a whole cycle up to the naming screen for `photo`.
    func reachNaming(_ photo: TakenPhoto, at t: Double) {
        _ = shoot(at: t)
        send(.shotTaken(photo, shutterAt: instant(t) + machine.settings.countdown), at: t + machine.settings.countdown.inSeconds + 0.05)
    }
}

private let photo = TakenPhoto(id: UUID(), placeholder: .placeholder(number: 7))
private let alice = Caption(sanitizing: "Alice")!

private func typing(_ text: String) -> [BoothEvent] {
    text.map { .key(.character($0)) }
}

@Suite("Booth state machine")
struct BoothMachineTests {
    @Test("A new booth waits for its camera, ignoring presses, then shows the main screen")
    func startsWithTheCamera() {
        var machine = BoothMachine()
        let start = MonotonicInstant(nanoseconds: 0)
        #expect(machine.state == .starting)
        #expect(machine.screen(now: start) == .starting)
        #expect(machine.nextDeadline(after: start) == nil)
        let press = BoothEvent.shutterPressed(at: start)
        #expect(machine.handle(press, at: start) == [.ignored(press)])
        #expect(machine.handle(.cameraReady, at: start) == [.show(.ready)])
    }

    @Test("A camera that fails to start is a camera fault")
    func cameraFailsToStart() {
        var machine = BoothMachine()
        let start = MonotonicInstant(nanoseconds: 0)
        #expect(machine.handle(.cameraLost, at: start) == [.show(.fault(.cameraMissing))])
        #expect(machine.handle(.cameraReady, at: start) == [.show(.ready)])
    }

    @Test("The saved screen shows the caption that was stored, which may be the placeholder")
    func savedShowsStoredCaption() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        session.send(.key(.character("A")), at: 4)
        session.send(.key(.enter), at: 5)
        #expect(session.send(.photoSaved(id: photo.id, caption: photo.placeholder), at: 5.1)
            == [.show(.saved(photo.placeholder, photo: photo.id))])
    }

    @Test("A press on the main screen starts the countdown and shows its first number")
    func pressStartsCountdown() {
        let session = Session()
        let effects = session.press(at: 1)
        #expect(session.machine.state == .countdown(shutterAt: session.instant(4)))
        #expect(effects == [.show(.countdown(secondsLeft: 3))])
    }

    @Test("The countdown shows 3, 2, 1 on second boundaries, then asks for the frame exposed at its end")
    func countdownRunsOnDeadlines() {
        let session = Session()
        session.press(at: 1)
        #expect(session.machine.nextDeadline(after: session.instant(1)) == session.instant(2))
        #expect(session.tick(at: 2) == [.show(.countdown(secondsLeft: 2))])
        #expect(session.machine.nextDeadline(after: session.instant(2)) == session.instant(3))
        #expect(session.tick(at: 3) == [.show(.countdown(secondsLeft: 1))])
        #expect(session.machine.nextDeadline(after: session.instant(3)) == session.instant(4))
        // The tick arrives late; the shot is still the instant the countdown ended.
        let effects = session.tick(at: 4.02)
        #expect(effects == [.show(.smile), .takeShot(exposedAt: session.instant(4))])
        #expect(
            session.machine.state
                == .capturing(shutterAt: session.instant(4), giveUpAt: session.instant(4.02) + .seconds(3)))
    }

    @Test("A countdown that does not last a whole number of seconds still shows whole seconds")
    func fractionalCountdown() {
        let session = Session(BoothSettings(countdown: .milliseconds(2500)))
        #expect(session.press(at: 0) == [.show(.countdown(secondsLeft: 3))])
        #expect(session.machine.nextDeadline(after: session.instant(0)) == session.instant(0.5))
        #expect(session.tick(at: 0.5) == [.show(.countdown(secondsLeft: 2))])
    }

    @Test("An early tick during the countdown changes nothing but the number on screen")
    func earlyTickDuringCountdown() {
        let session = Session()
        session.press(at: 0)
        #expect(session.tick(at: 0.4) == [.show(.countdown(secondsLeft: 3))])
        #expect(session.machine.state == .countdown(shutterAt: session.instant(3)))
    }

    @Test("With no countdown the shot is the instant of the press")
    func zeroCountdownShootsAtThePress() {
        let session = Session(BoothSettings(countdown: .zero))
        let effects = session.send(.shutterPressed(at: session.instant(1)), at: 1.001)
        #expect(effects == [.show(.smile), .takeShot(exposedAt: session.instant(1))])
    }

    @Test("Presses while busy are ignored", arguments: ["countdown", "capturing", "naming", "saving"])
    func pressesWhileBusyAreIgnored(stage: String) {
        let session = Session()
        switch stage {
        case "countdown": session.press(at: 0)
        case "capturing": _ = session.shoot(at: 0)
        case "naming": session.reachNaming(photo, at: 0)
        default:
            session.reachNaming(photo, at: 0)
            session.send(.key(.enter), at: 4)
        }
        let before = session.machine.state
        let press = BoothEvent.shutterPressed(at: session.instant(4.5))
        #expect(session.send(press, at: 4.5) == [.ignored(press)])
        #expect(session.machine.state == before)
    }

    @Test("The shot leads to the naming screen with an empty name and the placeholder")
    func shotLeadsToNaming() {
        let session = Session()
        _ = session.shoot(at: 0)
        let effects = session.send(.shotTaken(photo, shutterAt: session.instant(3)), at: 3.1)
        #expect(effects == [.show(.naming(typed: "", placeholder: photo.placeholder))])
        #expect(session.machine.nextDeadline(after: session.instant(3.1)) == session.instant(33.1))
    }

    @Test("No frame for the shot: a fault, then back to the main screen")
    func shotFailure() {
        let session = Session()
        _ = session.shoot(at: 0)
        #expect(session.send(.shotFailed(shutterAt: session.instant(3)), at: 3.5) == [.show(.fault(.shotFailed))])
        #expect(session.machine.state == .fault(.shotFailed, retryAt: session.instant(8.5)))
        #expect(session.tick(at: 8.4) == [])
        #expect(session.tick(at: 8.5) == [.show(.ready)])
        #expect(session.machine.state == .idle)
    }

    @Test("A late result of an earlier shot is not taken for the current one")
    func lateShotResult() {
        let session = Session()
        _ = session.shoot(at: 0)
        session.tick(at: 6)
        session.tick(at: 11)
        _ = session.shoot(at: 12)
        let stale = BoothEvent.shotTaken(photo, shutterAt: session.instant(3))
        #expect(session.send(stale, at: 15.1) == [.ignored(stale)])
        let staleFailure = BoothEvent.shotFailed(shutterAt: session.instant(3))
        #expect(session.send(staleFailure, at: 15.1) == [.ignored(staleFailure)])
        #expect(session.machine.state.name == "capturing")
    }

    @Test("Capturing gives up when no shot is reported in time")
    func captureTimeout() {
        let session = Session()
        _ = session.shoot(at: 0)
        #expect(session.tick(at: 5.9) == [])
        #expect(session.tick(at: 6.0) == [.show(.fault(.shotFailed))])
    }

    @Test("Typing, erasing and confirming a name")
    func typingAName() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        for event in typing("Alicf") { session.send(event, at: 4) }
        #expect(session.send(.key(.backspace), at: 5) == [.show(.naming(typed: "Alic", placeholder: photo.placeholder))])
        session.send(.key(.character("e")), at: 6)
        let effects = session.send(.key(.enter), at: 7)
        #expect(effects == [.show(.saving), .finishPhoto(photo, caption: alice)])
        #expect(session.send(.photoSaved(id: photo.id, caption: alice), at: 7.01) == [.show(.saved(alice, photo: photo.id))])
        #expect(session.machine.state == .saved(photo, caption: alice, until: session.instant(12.01)))
    }

    @Test("Each key restarts the naming timeout")
    func keysRestartTheTimeout() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        session.send(.key(.character("A")), at: 30)
        #expect(session.machine.nextDeadline(after: session.instant(30)) == session.instant(60))
        #expect(session.tick(at: 45) == [])
    }

    @Test("A timeout while naming keeps the placeholder, even with something typed")
    func namingTimeoutKeepsPlaceholder() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        session.send(.key(.character("A")), at: 4)
        let effects = session.tick(at: 34)
        #expect(effects == [.show(.saving), .finishPhoto(photo, caption: photo.placeholder)])
    }

    @Test("Cancel keeps the placeholder")
    func cancelKeepsPlaceholder() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        for event in typing("Bob") { session.send(event, at: 4) }
        #expect(session.send(.key(.cancel), at: 5).contains(.finishPhoto(photo, caption: photo.placeholder)))
    }

    @Test("Enter on an empty or blank name keeps the placeholder")
    func blankNameKeepsPlaceholder() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        for event in typing("   ") { session.send(event, at: 4) }
        #expect(session.send(.key(.enter), at: 5).contains(.finishPhoto(photo, caption: photo.placeholder)))
    }

    @Test("Keys that change nothing are ignored and do not restart the timeout")
    func uselessKeysAreIgnored() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        #expect(session.send(.key(.backspace), at: 10) == [.ignored(.key(.backspace))])
        let bell = BoothEvent.key(.character("\u{7}"))
        #expect(session.send(bell, at: 10) == [.ignored(bell)])
        #expect(session.machine.nextDeadline(after: session.instant(10)) == session.instant(33.05))
    }

    @Test("A name stops growing at 64 characters")
    func nameLengthLimit() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        for event in typing(String(repeating: "x", count: 64)) { session.send(event, at: 4) }
        let extra = BoothEvent.key(.character("y"))
        #expect(session.send(extra, at: 5) == [.ignored(extra)])
    }

    @Test("Keys outside naming are ignored")
    func keysOutsideNaming() {
        let session = Session()
        let key = BoothEvent.key(.enter)
        #expect(session.send(key, at: 0) == [.ignored(key)])
        #expect(session.machine.state == .idle)
    }

    @Test("A press on the saved screen starts the next countdown")
    func pressOnSavedScreen() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        session.send(.key(.enter), at: 4)
        session.send(.photoSaved(id: photo.id, caption: alice), at: 4.1)
        #expect(session.press(at: 5) == [.show(.countdown(secondsLeft: 3))])
    }

    @Test("The saved screen goes back to the main screen after its time")
    func savedTimeout() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        session.send(.key(.enter), at: 4)
        session.send(.photoSaved(id: photo.id, caption: alice), at: 4)
        #expect(session.tick(at: 8.9) == [])
        #expect(session.tick(at: 9) == [.show(.ready)])
    }

    @Test("Saving waits for its own photo")
    func savingIgnoresOtherPhotos() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        session.send(.key(.enter), at: 4)
        let other = BoothEvent.photoSaved(id: UUID(), caption: alice)
        #expect(session.send(other, at: 4.1) == [.ignored(other)])
        #expect(session.machine.state.name == "saving")
    }

    @Test("A save that never completes is reported as failing storage")
    func saveTimeout() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        session.send(.key(.enter), at: 4)
        #expect(session.tick(at: 33.9) == [])
        #expect(session.tick(at: 34) == [.show(.fault(.storageFailing))])
    }

    @Test("A failed save interrupts naming with the reason", arguments: [BoothFault.storageFull, .storageFailing, .shotFailed])
    func failedSaveDuringNaming(fault: BoothFault) {
        let session = Session()
        session.reachNaming(photo, at: 0)
        #expect(session.send(.photoNotSaved(id: photo.id, fault: fault), at: 4) == [.show(.fault(fault))])
        #expect(session.tick(at: 9) == [.show(.ready)])
    }

    @Test("A failed save while saving shows the fault")
    func failedSaveWhileSaving() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        session.send(.key(.enter), at: 4)
        #expect(session.send(.photoNotSaved(id: photo.id, fault: .storageFull), at: 4.2) == [.show(.fault(.storageFull))])
    }

    @Test("A failure reported for an earlier photo faults an idle booth and is noted otherwise")
    func lateFailure() {
        let session = Session()
        let late = BoothEvent.photoNotSaved(id: UUID(), fault: .storageFailing)
        #expect(session.send(late, at: 0) == [.show(.fault(.storageFailing))])
        let busy = Session()
        busy.press(at: 0)
        #expect(busy.send(late, at: 0.5) == [.ignored(late)])
    }

    @Test("Camera lost on the main screen or during the countdown: a fault until it returns")
    func cameraLostEarly() {
        for stage in ["idle", "countdown"] {
            let session = Session()
            if stage == "countdown" { session.press(at: 0) }
            #expect(session.send(.cameraLost, at: 1) == [.show(.fault(.cameraMissing))])
            #expect(session.machine.state == .fault(.cameraMissing, retryAt: nil))
            #expect(session.machine.nextDeadline(after: session.instant(1)) == nil)
            #expect(session.press(at: 2) == [.ignored(.shutterPressed(at: session.instant(2)))])
            #expect(session.send(.cameraReady, at: 3) == [.show(.ready)])
        }
    }

    @Test("Camera lost while a guest names a photo: the guest finishes, then the fault shows")
    func cameraLostDuringNaming() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        #expect(session.send(.cameraLost, at: 4) == [])
        for event in typing("Eve") { session.send(event, at: 5) }
        session.send(.key(.enter), at: 6)
        session.send(.photoSaved(id: photo.id, caption: alice), at: 6)
        #expect(session.tick(at: 11) == [.show(.fault(.cameraMissing))])
    }

    @Test("A press on the saved screen with the camera gone shows the fault")
    func pressOnSavedWithoutCamera() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        session.send(.key(.enter), at: 4)
        session.send(.photoSaved(id: photo.id, caption: alice), at: 4)
        session.send(.cameraLost, at: 5)
        #expect(session.press(at: 6) == [.show(.fault(.cameraMissing))])
    }

    @Test("A shot already being taken when the camera goes still completes")
    func cameraLostWhileCapturing() {
        let session = Session()
        _ = session.shoot(at: 0)
        #expect(session.send(.cameraLost, at: 3.01) == [])
        session.send(.shotTaken(photo, shutterAt: session.instant(3)), at: 3.02)
        #expect(session.machine.state.name == "naming")
    }

    @Test("A fault other than the camera waits out its retry, then shows the camera fault if the camera is gone")
    func retryWithCameraGone() {
        let session = Session()
        _ = session.shoot(at: 0)
        session.send(.cameraLost, at: 3.01)
        session.send(.shotFailed(shutterAt: session.instant(3)), at: 3.5)
        #expect(session.tick(at: 8.5) == [.show(.fault(.cameraMissing))])
    }

    @Test("The camera returning outside a camera fault changes nothing on screen")
    func cameraReadyElsewhere() {
        let session = Session()
        #expect(session.send(.cameraReady, at: 0) == [])
        #expect(session.machine.state == .idle)
    }

    @Test("Results that arrive in the wrong state are ignored")
    func strayResults() {
        let session = Session()
        let shutterAt = session.instant(0)
        for event in [BoothEvent.shotTaken(photo, shutterAt: shutterAt), .shotFailed(shutterAt: shutterAt), .photoSaved(id: photo.id, caption: alice)] {
            #expect(session.send(event, at: 0) == [.ignored(event)])
            #expect(session.machine.state == .idle)
        }
        #expect(session.tick(at: 100) == [])
        #expect(session.machine.nextDeadline(after: session.instant(100)) == nil)
    }
}
