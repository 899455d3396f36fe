import Foundation
import Testing

@testable import BoothCore

/// Drives a machine through a session on a manual timeline: `t` is seconds since the start.
/// A class, so that `#expect` can call the mutating methods it wraps.
private final class Session {
    var machine: BoothMachine
    let start = MonotonicInstant(nanoseconds: 5_000_000_000)

    /// A booth whose camera delivered its first frame at the start. Every photo it takes is
    /// given `photo`'s id.
    init(_ settings: BoothSettings = BoothSettings(countdown: .seconds(3), nameTimeout: .seconds(30))) {
        machine = BoothMachine(settings: settings, newPhotoID: { photo.id })
        _ = machine.handle(.cameraReady, at: start)
    }

    /// The shot the machine asks for at the shutter instant `t`.
    func shot(at t: Double) -> BoothEffect {
        .takeShot(
            ShotRequest(
                photo: photo.id, exposedAt: instant(t), window: machine.settings.shotWindow,
                waitingAtMost: machine.settings.captureTimeout / 2))
    }

    func instant(_ t: Double) -> MonotonicInstant { start + .seconds(t) }

    /// What the machine does about `event`, its sounds left out (SoundCueTests hears them).
    @discardableResult
    func send(_ event: BoothEvent, at t: Double) -> [BoothEffect] {
        machine.handle(event, at: instant(t)).withoutSounds
    }

    @discardableResult
    func press(at t: Double) -> [BoothEffect] { send(.shutterPressed(at: instant(t)), at: t) }

    @discardableResult
    func tick(at t: Double) -> [BoothEffect] { send(.tick, at: t) }

    /// Presses at `t` and lets the countdown run out; returns the shutter instant asked for.
    func shoot(at t: Double) -> MonotonicInstant? {
        press(at: t)
        let effects = tick(at: t + machine.settings.countdown.inSeconds)
        return effects.compactMap { if case .takeShot(let request) = $0 { request.exposedAt } else { nil } }.first
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
        var machine = BoothMachine(newPhotoID: UUID.init)
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
        var machine = BoothMachine(newPhotoID: UUID.init)
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
        #expect(
            session.send(.photoSaved(id: photo.id, caption: photo.placeholder), at: 5.1)
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
        #expect(effects == [.show(.smile), session.shot(at: 4)])
        #expect(
            session.machine.state
                == .capturing(shutterAt: session.instant(4), photo: photo.id, giveUpAt: session.instant(4.02) + .seconds(3)))
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
        #expect(effects == [.show(.smile), session.shot(at: 1)])
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
        #expect(effects == [.show(.naming(typed: "", placeholder: photo.placeholder, photo: photo.id))])
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
        #expect(session.send(.key(.backspace), at: 5) == [.show(.naming(typed: "Alic", placeholder: photo.placeholder, photo: photo.id))])
        session.send(.key(.character("e")), at: 6)
        let effects = session.send(.key(.enter), at: 7)
        #expect(effects == [.show(.saving), .finishPhoto(photo, caption: alice)])
        #expect(session.send(.photoSaved(id: photo.id, caption: alice), at: 7.01) == [.show(.saved(alice, photo: photo.id))])
        #expect(session.machine.state == .saved(photo, caption: alice, pendingName: nil, until: session.instant(12.01)))
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
        #expect(session.send(.key(.escape), at: 5).contains(.finishPhoto(photo, caption: photo.placeholder)))
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
        if fault.isStorage { session.send(.storageChecked(nil), at: 4.1) }
        #expect(session.tick(at: 9) == [.show(.ready)])
    }

    @Test("A save the library refused keeps the fault after its 5 s until a check of the disk finds it able to take a photo")
    func refusedSaveWaitsForACheck() {
        let session = Session()
        session.reachNaming(photo, at: 0)
        #expect(session.send(.photoNotSaved(id: photo.id, fault: .storageFailing), at: 4) == [.show(.fault(.storageFailing))])
        session.send(.storageChecked(.storageFailing), at: 4.1)
        #expect(session.tick(at: 9) == [.show(.fault(.storageFailing))], "no invitation to pose")
        #expect(session.press(at: 10).first == .show(.fault(.storageFailing)), "no countdown")
        #expect(session.machine.state == .fault(.storageFailing, retryAt: nil))
        #expect(session.send(.storageChecked(nil), at: 12) == [.show(.ready)])
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
            #expect(session.press(at: 2) == [.show(.fault(.cameraMissing)), .ignored(.shutterPressed(at: session.instant(2)))])
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

    // MARK: Gallery

    @Test("The view key on the main screen asks for the count; the count opens the list at the newest photo")
    func viewKeyOpensTheGallery() {
        let session = Session()
        #expect(session.send(.key(.character("v")), at: 1) == [.countPhotos])
        #expect(session.machine.state == .idle, "nothing changes until the library answers")
        let effects = session.send(.photosCounted(120), at: 1.5)
        let list = GalleryList(position: GalleryPosition(index: 0, count: 120))
        #expect(effects == [.show(.gallery(list))])
        #expect(session.machine.state == .browsing(list.position, until: session.instant(61.5)))
        #expect(session.machine.state.name == "gallery")
        #expect(list.page == 0..<5)
    }

    @Test("Up and down move the selection, stop at both ends, and show exactly one screen per key")
    func movingThroughTheList() {
        let session = Session()
        session.send(.key(.character("v")), at: 0)
        session.send(.photosCounted(3), at: 0)
        func shown(_ index: Int) -> [BoothEffect] { [.show(.gallery(GalleryList(position: GalleryPosition(index: index, count: 3))))] }
        #expect(session.send(.key(.up), at: 1) == shown(0), "the top stays the top")
        #expect(session.send(.key(.down), at: 2) == shown(1))
        #expect(session.send(.key(.down), at: 3) == shown(2))
        #expect(session.send(.key(.down), at: 4) == shown(2), "the bottom stays the bottom")
        #expect(session.send(.key(.up), at: 5) == shown(1))
    }

    @Test("The list turns a page at a time, so the selection is always on the page shown")
    func pages() {
        let list = { (index: Int) in GalleryList(position: GalleryPosition(index: index, count: 12)).page }
        #expect(list(0) == 0..<5 && list(4) == 0..<5)
        #expect(list(5) == 5..<10 && list(9) == 5..<10)
        #expect(list(11) == 10..<12, "the last page holds what is left")
        #expect(GalleryList(position: GalleryPosition(index: 0, count: 0)).page.isEmpty)
    }

    @Test("Enter shows the selected photo full screen; up and down go to the newer and older one; Back returns to the list, then to the main screen")
    func fullScreen() {
        let session = Session()
        session.send(.key(.character("v")), at: 0)
        session.send(.photosCounted(10), at: 0)
        session.send(.key(.down), at: 1)
        func photo(_ index: Int) -> [BoothEffect] { [.show(.photo(GalleryPhoto(position: GalleryPosition(index: index, count: 10))))] }
        #expect(session.send(.key(.enter), at: 2) == photo(1))
        #expect(session.machine.state.name == "photo")
        #expect(session.send(.key(.down), at: 3) == photo(2))
        #expect(session.send(.key(.up), at: 4) == photo(1))
        #expect(session.send(.key(.up), at: 5) == photo(0))
        #expect(session.send(.key(.up), at: 6) == photo(0))
        #expect(
            session.send(.key(.escape), at: 7) == [.show(.gallery(GalleryList(position: GalleryPosition(index: 0, count: 10))))],
            "back in the list at the photo last shown")
        #expect(session.send(.key(.escape), at: 8) == [.show(.ready)])
        #expect(session.machine.state == .idle)
    }

    @Test("Enter on a full-screen photo goes back to the list, as Back does")
    func enterClosesThePhoto() {
        let session = Session()
        session.send(.key(.character("v")), at: 0)
        session.send(.photosCounted(2), at: 0)
        session.send(.key(.enter), at: 1)
        #expect(session.send(.key(.enter), at: 2) == [.show(.gallery(GalleryList(position: GalleryPosition(index: 0, count: 2))))])
    }

    @Test("An empty library opens an empty list that Enter and the arrows leave as it is")
    func emptyLibrary() {
        let session = Session()
        session.send(.key(.character("v")), at: 0)
        let empty: [BoothEffect] = [.show(.gallery(GalleryList(position: GalleryPosition(index: 0, count: 0))))]
        #expect(session.send(.photosCounted(0), at: 0) == empty)
        #expect(session.send(.key(.enter), at: 1) == empty)
        #expect(session.send(.key(.down), at: 2) == empty)
        #expect(session.send(.key(.up), at: 3) == empty)
        #expect(session.machine.state.name == "gallery")
    }

    @Test("The gallery goes back to the main screen after its timeout, which each key restarts")
    func galleryTimeout() {
        let session = Session(BoothSettings(galleryTimeout: .seconds(20)))
        session.send(.key(.character("v")), at: 0)
        session.send(.photosCounted(4), at: 0)
        session.send(.key(.down), at: 15)
        #expect(session.machine.nextDeadline(after: session.instant(15)) == session.instant(35))
        #expect(session.tick(at: 25) == [])
        session.send(.key(.enter), at: 30)
        #expect(session.tick(at: 49.9) == [])
        #expect(session.tick(at: 50) == [.show(.ready)])
        #expect(session.machine.state == .idle)
    }

    @Test("The button in the list or on a full-screen photo starts the countdown at once", arguments: [false, true])
    func buttonInTheGallery(fullScreen: Bool) {
        let session = Session()
        session.send(.key(.character("v")), at: 0)
        session.send(.photosCounted(4), at: 0)
        if fullScreen { session.send(.key(.enter), at: 1) }
        #expect(session.press(at: 2) == [.show(.countdown(secondsLeft: 3))])
        #expect(session.machine.state == .countdown(shutterAt: session.instant(5)))
    }

    @Test("A count that arrives after the guest pressed the button leaves the gallery shut")
    func lateCount() {
        let session = Session()
        session.send(.key(.character("v")), at: 0)
        session.press(at: 0.01)
        #expect(session.send(.photosCounted(4), at: 0.02) == [.ignored(.photosCounted(4))])
        #expect(session.machine.state.name == "countdown")
    }

    @Test("The view key opens the gallery from the saved screen too, and does nothing while the booth is busy")
    func viewKeyElsewhere() {
        let session = Session()
        session.press(at: 0)
        #expect(session.send(.key(.character("v")), at: 1) == [.ignored(.key(.character("v")))])
        let saved = Session()
        saved.reachNaming(photo, at: 0)
        #expect(
            saved.send(.key(.character("v")), at: 4) == [.show(.naming(typed: "v", placeholder: photo.placeholder, photo: photo.id))],
            "while naming, the view key types itself")
        saved.send(.key(.backspace), at: 4.5)
        saved.send(.key(.enter), at: 5)
        saved.send(.photoSaved(id: photo.id, caption: photo.placeholder), at: 5)
        #expect(saved.send(.key(.character("v")), at: 6) == [.countPhotos])
        #expect(saved.send(.photosCounted(1), at: 6) == [.show(.gallery(GalleryList(position: GalleryPosition(index: 0, count: 1))))])
    }

    @Test("Without its camera the booth still shows its photos; leaving the gallery shows the camera fault again")
    func galleryWithoutCamera() {
        let session = Session()
        session.send(.cameraLost, at: 0)
        #expect(session.send(.key(.character("v")), at: 1) == [.countPhotos])
        session.send(.photosCounted(2), at: 1)
        #expect(session.machine.state.name == "gallery")
        #expect(session.send(.cameraReady, at: 2) == [], "the camera's return does not close the gallery")
        #expect(session.send(.cameraLost, at: 3) == [], "nor does its loss")
        #expect(session.send(.key(.escape), at: 4) == [.show(.fault(.cameraMissing))])
        #expect(session.press(at: 5) == [.show(.fault(.cameraMissing)), .ignored(.shutterPressed(at: session.instant(5)))])
        let pressed = Session()
        pressed.send(.key(.character("v")), at: 0)
        pressed.send(.photosCounted(2), at: 0)
        pressed.send(.cameraLost, at: 1)
        #expect(pressed.press(at: 2) == [.show(.fault(.cameraMissing))], "the button in the gallery without a camera")
    }

    @Test("A catalog that cannot be counted is a storage fault")
    func uncountableLibrary() {
        let session = Session()
        session.send(.key(.character("v")), at: 0)
        #expect(session.send(.photosCounted(nil), at: 0) == [.show(.fault(.storageFailing))])
        #expect(session.tick(at: 5) == [.show(.ready)])
    }

    @Test("A failed save reported while a guest browses interrupts the gallery with the reason")
    func failureWhileBrowsing() {
        let session = Session()
        session.send(.key(.character("v")), at: 0)
        session.send(.photosCounted(2), at: 0)
        #expect(session.send(.photoNotSaved(id: UUID(), fault: .storageFull), at: 1) == [.show(.fault(.storageFull))])
    }

    @Test("Keys that mean nothing in the gallery are ignored and do not restart its timeout")
    func otherKeysInTheGallery() {
        let session = Session()
        session.send(.key(.character("v")), at: 0)
        session.send(.photosCounted(2), at: 0)
        // Backspace with nothing typed to find; letters on a full-screen photo.
        #expect(session.send(.key(.backspace), at: 10) == [.ignored(.key(.backspace))])
        session.send(.key(.enter), at: 0)
        for key in [KeypadKey.character("x"), .backspace, .character("v")] {
            #expect(session.send(.key(key), at: 10) == [.ignored(.key(key))])
        }
        #expect(session.machine.nextDeadline(after: session.instant(10)) == session.instant(60))
        // A phone keypad's digits other than its arrows and its view key, outside a search.
        let phone = Session(BoothSettings(keys: KeyBindings(layout: .phone)))
        phone.send(.key(.character("0")), at: 0)
        phone.send(.photosCounted(2), at: 0)
        for key in [KeypadKey.character("3"), .character("7"), .character("1")] {
            #expect(phone.send(.key(key), at: 10) == [.ignored(.key(key))])
        }
        #expect(phone.machine.nextDeadline(after: phone.instant(10)) == phone.instant(60))
    }

    @Test("Results that arrive in the wrong state are ignored")
    func strayResults() {
        let session = Session()
        let shutterAt = session.instant(0)
        for event in [
            BoothEvent.shotTaken(photo, shutterAt: shutterAt), .shotFailed(shutterAt: shutterAt), .photoSaved(id: photo.id, caption: alice),
        ] {
            #expect(session.send(event, at: 0) == [.ignored(event)])
            #expect(session.machine.state == .idle)
        }
        #expect(session.tick(at: 100) == [])
        #expect(session.machine.nextDeadline(after: session.instant(100)) == nil)
    }

    @Test("Storage below its reserve: the main screen shows the fault and a press starts no countdown")
    func storageFullBeforeThePress() {
        let session = Session()
        #expect(session.send(.storageChecked(.storageFull), at: 0) == [.show(.fault(.storageFull))])
        #expect(session.machine.state == .fault(.storageFull, retryAt: nil))
        #expect(session.machine.nextDeadline(after: session.instant(0)) == nil, "it waits for the storage, not a timer")
        let press = BoothEvent.shutterPressed(at: session.instant(1))
        #expect(session.send(press, at: 1) == [.show(.fault(.storageFull)), .ignored(press)], "the press is answered with the fault")
        #expect(session.tick(at: 100) == [])
        // The gallery still opens from the fault, and comes back to it.
        #expect(session.send(.key(.character("v")), at: 101) == [.countPhotos])
        session.send(.photosCounted(3), at: 101)
        #expect(session.send(.key(.escape), at: 102) == [.show(.fault(.storageFull))])
    }

    @Test("Once photos can be saved again, the booth takes them by itself")
    func storageRecovers() {
        let session = Session()
        session.send(.storageChecked(.storageFailing), at: 0)
        #expect(session.send(.storageChecked(.storageFull), at: 1) == [.show(.fault(.storageFull))], "the reason changed")
        #expect(session.send(.storageChecked(nil), at: 2) == [.show(.ready)])
        #expect(session.press(at: 3) == [.show(.countdown(secondsLeft: 3))])
    }

    @Test("A check that finds the storage full mid-countdown stops it; a guest naming a saved photo finishes")
    func storageFullDuringACycle() {
        let counting = Session()
        counting.press(at: 0)
        #expect(counting.send(.storageChecked(.storageFull), at: 1) == [.show(.fault(.storageFull))])
        #expect(counting.tick(at: 3) == [], "no shot is taken")

        let naming = Session()
        naming.reachNaming(photo, at: 0)
        #expect(naming.send(.storageChecked(.storageFull), at: 4) == [])
        naming.send(.key(.enter), at: 5)
        #expect(
            naming.send(.photoSaved(id: photo.id, caption: photo.placeholder, pendingName: alice), at: 5.1)
                == [.show(.saved(photo.placeholder, photo: photo.id, pendingName: alice))])
        #expect(naming.tick(at: 10.1) == [.show(.fault(.storageFull))], "back to the fault, not the main screen")
    }

    @Test("A booth that starts on a full disk shows the fault once its camera is ready; storage comes before the camera")
    func storageFaultAtStart() {
        var machine = BoothMachine(newPhotoID: UUID.init)
        let start = MonotonicInstant(nanoseconds: 0)
        #expect(machine.handle(.storageChecked(.storageFull), at: start) == [])
        #expect(machine.handle(.cameraReady, at: start) == [.show(.fault(.storageFull))])
        #expect(machine.handle(.cameraLost, at: start) == [])
        #expect(machine.handle(.storageChecked(nil), at: start) == [.show(.fault(.cameraMissing))])
    }
}

@Suite("The print key on the saved screen")
struct PrintKeyTests {
    @Test("The print key prints the picture just saved once, and the saved screen says so; elsewhere it does nothing")
    func printKey() {
        var settings = BoothSettings(countdown: .seconds(3), nameTimeout: .seconds(30))
        settings.keys.printKey = "p"
        let session = Session(settings)
        #expect(session.send(.key(.character("p")), at: 0.5) == [.ignored(.key(.character("p")))], "nothing to print on the main screen")
        session.reachNaming(photo, at: 1)
        _ = session.send(.key(.character("p")), at: 5)
        _ = session.send(.key(.enter), at: 5.5)
        #expect(session.send(.photoSaved(id: photo.id, caption: alice), at: 5.6) == [.show(.saved(alice, photo: photo.id))])
        let printed = session.send(.key(.character("p")), at: 6)
        #expect(printed == [.printPicture(photo.id), .show(.saved(alice, photo: photo.id, printing: true))])
        #expect(session.send(.key(.character("p")), at: 6.5) == [], "a second press prints nothing more")
        #expect(session.machine.screen(now: session.instant(7)) == .saved(alice, photo: photo.id, printing: true))
    }

    @Test("The print button prints the saved picture as the key does, once; on any other screen it is ignored")
    func printButton() {
        let session = Session()
        #expect(session.send(.printPressed, at: 0.5) == [.ignored(.printPressed)])
        session.reachNaming(photo, at: 1)
        #expect(session.send(.printPressed, at: 5) == [.ignored(.printPressed)], "naming: nothing saved to print yet")
        _ = session.send(.key(.enter), at: 5.5)
        _ = session.send(.photoSaved(id: photo.id, caption: photo.placeholder), at: 5.6)
        #expect(session.send(.printPressed, at: 6) == [.printPicture(photo.id), .show(.saved(photo.placeholder, photo: photo.id, printing: true))])
        #expect(session.send(.printPressed, at: 6.5) == [], "a second press prints nothing more")
    }

    @Test("Without a print key, the saved screen's keys are as before")
    func noPrintKey() {
        let session = Session()
        session.reachNaming(photo, at: 1)
        _ = session.send(.key(.enter), at: 5)
        _ = session.send(.photoSaved(id: photo.id, caption: photo.placeholder), at: 5.1)
        #expect(session.send(.key(.character("p")), at: 6) == [.ignored(.key(.character("p")))])
    }
}

@Suite("The print key on a keyboard that sends lines")
struct PrintKeyLineTests {
    @Test("p alone on its line prints the saved picture; on the main screen a line still presses the shutter")
    func printLine() {
        var settings = BoothSettings(countdown: .seconds(3), nameTimeout: .seconds(30))
        settings.keys = .terminal(pressesShutter: true)
        settings.keys.printKey = "p"
        let session = Session(settings)
        session.reachNaming(photo, at: 1)
        _ = session.send(.key(.enter), at: 5)
        _ = session.send(.photoSaved(id: photo.id, caption: photo.placeholder), at: 5.1)
        _ = session.send(.key(.character("p")), at: 6)
        #expect(session.send(.key(.enter), at: 6.1) == [.printPicture(photo.id), .show(.saved(photo.placeholder, photo: photo.id, printing: true))])
    }
}
