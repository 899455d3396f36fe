import Foundation
import Synchronization
import Testing

@testable import BoothCore

/// Ids the machine mints, in order: 1, 2, 3, ... as UUIDs, so a test knows which is which.
private final class Ids: Sendable {
    private let next = Mutex(1)

    func mint() -> UUID {
        next.withLock { n in
            defer { n += 1 }
            return Ids.id(n)
        }
    }

    static func id(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))! }
}

/// A booth on a manual timeline (`t` in seconds), with a collage key `c` and an animation key
/// `a` on the main screen.
private final class Booth {
    var machine: BoothMachine
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    init(modes: PictureModes = PictureModes(collageShots: 4, nextCountdown: .seconds(2), shotReview: .seconds(1))) {
        var keys = KeyBindings()
        keys.modeKeys = ["c": .collage, "a": .animation, "b": .boomerang]
        let ids = Ids()
        machine = BoothMachine(settings: BoothSettings(countdown: .seconds(3), keys: keys, modes: modes), newPhotoID: { ids.mint() })
        _ = machine.handle(.cameraReady, at: start)
    }

    /// The instant `t` seconds after the start, to the millisecond, so that sums of times
    /// land on the same instants.
    func instant(_ t: Double) -> MonotonicInstant { start + .milliseconds(Int((t * 1000).rounded())) }

    @discardableResult
    func send(_ event: BoothEvent, at t: Double) -> [BoothEffect] { machine.handle(event, at: instant(t)) }

    /// The shots asked for among `effects`.
    func requests(_ effects: [BoothEffect]) -> [ShotRequest] {
        effects.compactMap { if case .takeShot(let request) = $0 { request } else { nil } }
    }

    /// The shot `request` answered as taken, its picture numbered 12.
    @discardableResult
    func taken(_ request: ShotRequest, at t: Double) -> [BoothEffect] {
        send(.shotTaken(TakenPhoto(id: request.photo, placeholder: .placeholder(number: 12)), shutterAt: request.exposedAt), at: t)
    }
}

private func shows(_ effects: [BoothEffect]) -> [ScreenContent] {
    effects.compactMap { if case .show(let content) = $0 { content } else { nil } }
}

@Suite("Pictures made of several shots")
struct PictureSequenceTests {
    @Test func aCollageTakesEachShotAfterItsCountdownThenAsksForTheName() throws {
        let booth = Booth()
        #expect(shows(booth.send(.key(.character("c")), at: 0)) == [.countdown(secondsLeft: 3, shot: ShotCount(number: 1, of: 4))])
        var parts: [UUID] = []
        var t = 3.0
        for number in 1...4 {
            let effects = booth.send(.tick, at: t)
            let request = try #require(booth.requests(effects).first, "shot \(number) at \(t): \(effects)")
            #expect(request.exposedAt == booth.instant(t))
            // The picture's id comes first, then each shot's.
            #expect(request.part == ShotPart(picture: Ids.id(1), mode: .collage, index: number - 1, count: 4))
            parts.append(request.photo)
            let answer = booth.taken(request, at: t + 0.1)
            if number < 4 {
                // The shot just taken, "n of 4", then the next countdown of its own length.
                #expect(shows(answer) == [.review(shot: request.photo, number: number, of: 4)])
                #expect(booth.machine.nextDeadline(after: booth.instant(t + 0.1)) == booth.instant(t + 1.1))
                #expect(shows(booth.send(.tick, at: t + 1.1)) == [.countdown(secondsLeft: 2, shot: ShotCount(number: number + 1, of: 4))])
                t += 1.1 + 2
            } else {
                let picture = TakenPhoto(id: Ids.id(1), placeholder: .placeholder(number: 12))
                #expect(answer.first == .composePicture(PictureOrder(picture: picture, mode: .collage, parts: parts)))
                #expect(booth.machine.state.kind == .naming)
                #expect(shows(answer) == [.naming(typed: "", placeholder: .placeholder(number: 12), photo: Ids.id(1))])
            }
        }
        #expect(parts == (2...5).map(Ids.id))
        let named = booth.send(.key(.enter), at: t + 5)
        #expect(named.contains(.finishPhoto(TakenPhoto(id: Ids.id(1), placeholder: .placeholder(number: 12)), caption: .placeholder(number: 12))))
    }

    @Test func pressesDuringTheSequenceAreIgnored() {
        let booth = Booth()
        booth.send(.key(.character("c")), at: 0)
        #expect(booth.send(.shutterPressed(at: booth.instant(1)), at: 1) == [.ignored(.shutterPressed(at: booth.instant(1)))])
        let request = booth.requests(booth.send(.tick, at: 3))[0]
        booth.taken(request, at: 3.1)
        #expect(booth.send(.key(.character("c")), at: 3.5) == [.ignored(.key(.character("c")))])
        #expect(booth.send(.shutterPressed(at: booth.instant(3.6)), at: 3.6).allSatisfy { if case .ignored = $0 { true } else { false } })
        #expect(booth.machine.state == .reviewing(shot: request.photo, until: booth.instant(3.1) + .seconds(1)))
        // A stop waits for the picture, as for a photo in flight.
        #expect(booth.send(.stopRequested(.restart), at: 3.7).isEmpty)
        #expect(booth.machine.awaitedInput == [])
    }

    @Test func theCameraLostAtTheThirdShotKeepsTheTwoTaken() {
        let booth = Booth()
        booth.send(.key(.character("c")), at: 0)
        var taken: [UUID] = []
        var t = 3.0
        for _ in 1...2 {
            let request = booth.requests(booth.send(.tick, at: t))[0]
            taken.append(request.photo)
            booth.taken(request, at: t + 0.1)
            booth.send(.tick, at: t + 1.1)
            t += 3.1
        }
        // The third countdown is under way when the camera goes.
        #expect(booth.machine.state.kind == .countdown)
        let lost = booth.send(.cameraLost, at: t - 1)
        #expect(shows(lost) == [.fault(.cameraMissing)])
        #expect(lost.contains(.abandonPicture(Ids.id(1), parts: taken)))
        #expect(booth.machine.sequence == nil)
        // The camera back, the next press starts a picture of its own.
        booth.send(.cameraReady, at: t + 5)
        booth.send(.key(.character("c")), at: t + 6)
        let next = booth.requests(booth.send(.tick, at: t + 9))[0]
        #expect(next.part?.picture != Ids.id(1))
        #expect(next.part?.index == 0)
    }

    @Test func aShotMissedOrLateGivesThePictureUp() {
        let booth = Booth()
        booth.send(.key(.character("c")), at: 0)
        let first = booth.requests(booth.send(.tick, at: 3))[0]
        booth.taken(first, at: 3.1)
        booth.send(.tick, at: 4.1)
        let second = booth.requests(booth.send(.tick, at: 6.1))[0]
        let failed = booth.send(.shotFailed(shutterAt: second.exposedAt), at: 6.3)
        #expect(shows(failed) == [.fault(.shotFailed)])
        #expect(failed.contains(.abandonPicture(Ids.id(1), parts: [first.photo])))
        // The late answer for the missed shot is not taken for anything.
        #expect(booth.taken(second, at: 6.4).allSatisfy { if case .ignored = $0 { true } else { false } })

        // A collage given up before its first shot leaves nothing to keep.
        let other = Booth()
        other.send(.key(.character("c")), at: 0)
        #expect(!other.send(.cameraLost, at: 1).contains { if case .abandonPicture = $0 { true } else { false } })
    }

    @Test func theStorageFailingBetweenShotsStopsBeforeTheNextCountdown() {
        let booth = Booth()
        booth.send(.key(.character("c")), at: 0)
        let first = booth.requests(booth.send(.tick, at: 3))[0]
        booth.taken(first, at: 3.1)
        // A guest is shown the shot; the disk fills meanwhile: no countdown for a shot that
        // could not be saved.
        booth.send(.storageChecked(.storageFull), at: 3.5)
        let after = booth.send(.tick, at: 4.1)
        #expect(shows(after) == [.fault(.storageFull)])
        #expect(after.contains(.abandonPicture(Ids.id(1), parts: [first.photo])))
    }

    @Test func anAnimationTakesItsFramesInOneBurstAtTheirOwnInstants() {
        let booth = Booth(modes: PictureModes(animationFrames: 10, animationInterval: .milliseconds(150)))
        booth.send(.key(.character("a")), at: 0)
        let effects = booth.send(.tick, at: 3)
        let requests = booth.requests(effects)
        #expect(requests.count == 10)
        #expect(requests.map(\.exposedAt) == (0..<10).map { booth.instant(3) + .milliseconds(150 * $0) })
        #expect(requests.map(\.part?.index) == Array(0..<10))
        #expect(requests.allSatisfy { $0.part?.picture == Ids.id(1) && $0.part?.mode == .animation && $0.part?.count == 10 })
        // The burst is given time to end before the booth gives up on it.
        guard case .capturing(_, _, let giveUpAt) = booth.machine.state else {
            Issue.record("not capturing: \(booth.machine.state)")
            return
        }
        #expect(giveUpAt == booth.instant(3) + .milliseconds(1350) + booth.machine.settings.captureTimeout)
        for (index, request) in requests.enumerated().dropLast() {
            #expect(booth.taken(request, at: 3.2 + Double(index) * 0.15).isEmpty, "frame \(index) waits for the others")
        }
        let last = booth.taken(requests[9], at: 5)
        let picture = TakenPhoto(id: Ids.id(1), placeholder: .placeholder(number: 12))
        #expect(last.first == .composePicture(PictureOrder(picture: picture, mode: .animation, parts: requests.map(\.photo))))
        #expect(booth.machine.state.kind == .naming)
    }

    @Test func aBurstCutShortKeepsTheFramesTaken() {
        let booth = Booth(modes: PictureModes(animationFrames: 4, animationInterval: .milliseconds(100)))
        booth.send(.key(.character("b")), at: 0)
        let requests = booth.requests(booth.send(.tick, at: 3))
        booth.taken(requests[0], at: 3.05)
        booth.taken(requests[1], at: 3.15)
        let late = booth.send(.tick, at: 7)
        #expect(shows(late) == [.fault(.shotFailed)])
        #expect(late.contains(.abandonPicture(Ids.id(1), parts: [requests[0].photo, requests[1].photo])))
    }

    @Test func aSinglePhotoIsComposedOnlyWithALayoutForIt() {
        let plain = Booth()
        plain.send(.shutterPressed(at: plain.instant(0)), at: 0)
        let request = plain.requests(plain.send(.tick, at: 3))[0]
        #expect(request.part == nil)
        #expect(request.photo == Ids.id(1))
        let named = plain.taken(request, at: 3.1)
        #expect(!named.contains { if case .composePicture = $0 { true } else { false } })

        let framed = Booth(modes: PictureModes(composesSingles: true))
        framed.send(.shutterPressed(at: framed.instant(0)), at: 0)
        let shot = framed.requests(framed.send(.tick, at: 3))[0]
        #expect(shot.part == ShotPart(picture: Ids.id(1), mode: .single, index: 0, count: 1))
        let picture = TakenPhoto(id: Ids.id(1), placeholder: .placeholder(number: 12))
        #expect(framed.taken(shot, at: 3.1).first == .composePicture(PictureOrder(picture: picture, mode: .single, parts: [Ids.id(2)])))
    }

    @Test func aButtonOfItsOwnMakesItsMode() {
        let booth = Booth()
        booth.send(.shutterPressed(at: booth.instant(0), mode: .boomerang), at: 0)
        #expect(booth.requests(booth.send(.tick, at: 3)).count == PictureModes().animationFrames)
        #expect(booth.machine.sequence?.mode == .boomerang)
    }

    @Test func aTerminalLineOfAModesKeyMakesThatMode() {
        var keys = KeyBindings.terminal(pressesShutter: true)
        keys.modeKeys = ["c": .collage]
        var machine = BoothMachine(settings: BoothSettings(keys: keys), newPhotoID: { UUID() })
        let start = MonotonicInstant(nanoseconds: 0)
        _ = machine.handle(.cameraReady, at: start)
        _ = machine.handle(.key(.character("C")), at: start)
        _ = machine.handle(.key(.enter), at: start)
        #expect(machine.sequence?.mode == .collage)
        #expect(machine.sequence?.count == 4)
    }
}
