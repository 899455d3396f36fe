import BoothCore
import Foundation
import Synchronization
import Testing

@testable import BoothService

/// A speaker that keeps what it is asked to play, in order.
final class RecordingSpeaker: Speaker {
    enum Call: Equatable, Sendable {
        case play(BoothSound, MonotonicInstant)
        case silence
    }

    private struct Waiter {
        let condition: @Sendable (Call) -> Bool
        let continuation: CheckedContinuation<Call, Never>
    }

    private let state = Mutex<(calls: [Call], waiters: [Waiter])>(([], []))

    /// Every call so far, in order.
    var calls: [Call] { state.withLock { $0.calls } }

    func play(_ sound: BoothSound, at instant: MonotonicInstant) { record(.play(sound, instant)) }
    func silence() { record(.silence) }

    private func record(_ call: Call) {
        let ready = state.withLock { state in
            state.calls.append(call)
            let ready = state.waiters.filter { $0.condition(call) }
            state.waiters.removeAll { $0.condition(call) }
            return ready
        }
        for waiter in ready { waiter.continuation.resume(returning: call) }
    }

    /// The first call that satisfies `condition`, once there is one.
    func next(_ condition: @escaping @Sendable (Call) -> Bool) async -> Call {
        await withCheckedContinuation { continuation in
            let found = state.withLock { state -> Call? in
                if let found = state.calls.first(where: condition) { return found }
                state.waiters.append(Waiter(condition: condition, continuation: continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }
}

private let isShutter: @Sendable (RecordingSpeaker.Call) -> Bool = { call in
    if case .play(.shutter, _) = call { true } else { false }
}

@Suite("The booth's sounds, played", .timeLimit(.minutes(1)))
struct SoundRuntimeTests {
    @Test("The shutter sounds when the frame nearest the shutter instant is expected, at the pace of the frames just before it")
    func shutterAtTheFrame() async throws {
        let speaker = RecordingSpeaker()
        let rig = try Rig(countdown: .seconds(3), speaker: speaker)
        let start = rig.clock.now
        @Sendable func at(_ milliseconds: Int) -> MonotonicInstant { start + .milliseconds(milliseconds) }
        try await rig.run {
            // 10 frames a second before the press.
            for (number, milliseconds) in [0, 100, 200].enumerated() {
                await rig.camera.deliver(try TestFrames.frame(number: UInt64(number + 1), at: at(milliseconds)))
            }
            await rig.screen.next(.ready)
            rig.controls.press(at: at(0))
            await rig.screen.next(.countdown(secondsLeft: 3))
            // The seconds are asked for at once; the shutter is not placed yet.
            _ = await speaker.next { $0 == .play(.beep, at(2000)) }
            #expect(!speaker.calls.contains(where: isShutter))
            // Then the camera runs a little faster: 95 ms a frame.
            for index in 0..<8 {
                await rig.camera.deliver(try TestFrames.frame(number: UInt64(4 + index), at: at(2000 + 95 * index)))
            }
            // 300 ms before the shutter instant (3000 ms), the shutter is placed at the frame
            // expected nearest it at the new pace: 2665 + 4 × 95 = 3045 ms, where the pace of
            // the press's time would have said 3000.
            rig.clock.advance(by: .milliseconds(2700))
            #expect(await speaker.next(isShutter) == .play(.shutter, at(3045)))
            rig.clock.advance(by: .milliseconds(300))
            await rig.camera.deliver(try TestFrames.frame(number: 12, at: at(3045)))
            await rig.screen.next { if case .naming = $0 { true } else { false } }
        }
        #expect(speaker.calls.prefix(3) == [.play(.beep, at(0)), .play(.beep, at(1000)), .play(.beep, at(2000))])
    }

    @Test("A countdown cut short drops its shutter before it is placed")
    func silencedShutter() async throws {
        let speaker = RecordingSpeaker()
        let rig = try Rig(countdown: .seconds(3), speaker: speaker)
        try await rig.run {
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: rig.clock.now))
            await rig.screen.next(.ready)
            rig.controls.press(at: rig.clock.now)
            await rig.screen.next(.countdown(secondsLeft: 3))
            rig.camera.unplug()
            await rig.screen.next(.fault(.cameraMissing))
            _ = await speaker.next { $0 == .silence }
            // Past the instant the shutter would have been placed at.
            rig.clock.advance(by: .seconds(4))
            await rig.camera.deliver(try TestFrames.frame(number: 2, at: rig.clock.now))
            await rig.screen.next(.ready)
        }
        // The booth has stopped, and every task of its with it: none played the shutter.
        #expect(!speaker.calls.contains(where: isShutter))
    }
}
