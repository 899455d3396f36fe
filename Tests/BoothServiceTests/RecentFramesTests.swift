import BoothCore
import Foundation
import Testing

@testable import BoothService

private func at(_ milliseconds: Int64) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 1_000_000_000_000 + milliseconds * 1_000_000)
}

@Suite("Recent frames", .timeLimit(.minutes(1)))
struct RecentFramesTests {
    @Test("A shot waits for the frame exposed after the shutter, which may be the nearest")
    func waitsForTheNextFrame() async throws {
        let frames = RecentFrames()
        frames.append(try TestFrames.frame(number: 1, at: at(0)))
        frames.append(try TestFrames.frame(number: 2, at: at(33)))
        async let shot = frames.shot(at: at(60), within: .milliseconds(250), waitingAtMost: .seconds(30))
        // The shot cannot be decided yet: frame 3 may be nearer than frame 2.
        frames.append(try TestFrames.frame(number: 3, at: at(66)))
        let candidates = await shot
        #expect(candidates.map(\.sequence) == [3, 2, 1])
    }

    @Test("A shot for an instant already covered does not wait")
    func coveredAlready() async throws {
        let frames = RecentFrames()
        for (number, milliseconds) in [(1, 0), (2, 33), (3, 66), (4, 100)] {
            frames.append(try TestFrames.frame(number: UInt64(number), at: at(Int64(milliseconds))))
        }
        let candidates = await frames.shot(at: at(40), within: .milliseconds(250), waitingAtMost: .seconds(30))
        #expect(candidates.map(\.sequence) == [2, 3, 1, 4])
    }

    @Test("Frames far from the shutter instant are not the shot")
    func staleFramesAreNotTheShot() async throws {
        let frames = RecentFrames()
        frames.append(try TestFrames.frame(number: 1, at: at(0)))
        frames.append(try TestFrames.frame(number: 2, at: at(300)))
        // The camera stalled after frame 2: nothing covers 400 ms, and frame 1 is too old.
        let candidates = await frames.shot(at: at(400), within: .milliseconds(250), waitingAtMost: .milliseconds(20))
        #expect(candidates.map(\.sequence) == [2])
        let none = await frames.shot(at: at(900), within: .milliseconds(250), waitingAtMost: .milliseconds(20))
        #expect(none.isEmpty)
    }
}
