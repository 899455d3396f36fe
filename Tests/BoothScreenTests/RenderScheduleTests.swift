import BoothCore
import Foundation
import Testing

@testable import BoothScreen

@Suite("Screen render schedule")
struct ScreenScheduleTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)
    let interval = Duration.seconds(1) / 15

    func frame(_ sequence: UInt64) -> CameraFrame {
        CameraFrame(bytes: Data(), encoding: .mjpeg, width: 1, height: 1, timestamp: start, sequence: sequence)
    }

    @Test("The first screen and every content change are drawn at once")
    func contentAtOnce() {
        var schedule = RenderSchedule(previewInterval: interval)
        guard case .render(.starting, nil) = schedule.next(at: start) else {
            Issue.record("draws the first screen")
            return
        }
        guard case .sleep = schedule.next(at: start) else {
            Issue.record("nothing new: sleeps")
            return
        }
        let again = schedule.show(.starting)
        #expect(!again, "the same content again is nothing new")
        guard case .sleep = schedule.next(at: start) else {
            Issue.record("nothing new: sleeps")
            return
        }
        let changed = schedule.show(.naming(typed: "A", placeholder: .placeholder(number: 1), photo: UUID()))
        #expect(changed, "new content wakes the thread")
        guard case .render(.naming, nil) = schedule.next(at: start) else {
            Issue.record("new content at once")
            return
        }
    }

    @Test("Preview frames are drawn at most once per interval, the latest one")
    func previewRate() {
        var schedule = RenderSchedule(previewInterval: interval)
        schedule.show(.ready)
        let firstWakes = schedule.receive(frame(1))
        #expect(firstWakes, "a frame for a sleeping thread wakes it")
        guard case .render(.ready, frame: let first?) = schedule.next(at: start) else {
            Issue.record("draws")
            return
        }
        #expect(first.sequence == 1)
        let secondWakes = schedule.receive(frame(2))
        let thirdWakes = schedule.receive(frame(3))
        #expect(secondWakes)
        #expect(!thirdWakes, "the thread already has a frame to wait for")
        let soon = start + .milliseconds(10)
        guard case .wait(until: let deadline) = schedule.next(at: soon) else {
            Issue.record("waits for the rate limit")
            return
        }
        #expect(deadline == start + interval)
        guard case .render(_, frame: let latest?) = schedule.next(at: deadline) else {
            Issue.record("draws")
            return
        }
        #expect(latest.sequence == 3, "frame 2 was replaced before it was drawn")
        guard case .sleep = schedule.next(at: deadline + interval) else {
            Issue.record("no frame: sleeps")
            return
        }
    }

    @Test("A content change draws at once, even within the preview interval, with the latest frame")
    func contentBeatsRateLimit() {
        var schedule = RenderSchedule(previewInterval: interval)
        schedule.show(.ready)
        schedule.receive(frame(1))
        _ = schedule.next(at: start)
        schedule.receive(frame(2))
        schedule.show(.countdown(secondsLeft: 3))
        guard case .render(.countdown(secondsLeft: 3, shot: nil), frame: let frame?) = schedule.next(at: start + .milliseconds(1)) else {
            Issue.record("draws the countdown at once")
            return
        }
        #expect(frame.sequence == 2)
    }

    @Test("Frames are not drawn on screens without a preview")
    func noPreviewScreens() {
        var schedule = RenderSchedule(previewInterval: interval)
        schedule.show(.saving)
        let wakes = schedule.receive(frame(1))
        #expect(!wakes, "no preview to draw it on: the thread sleeps on")
        guard case .render(.saving, nil) = schedule.next(at: start) else {
            Issue.record("draws saving")
            return
        }
        guard case .sleep = schedule.next(at: start + .seconds(1)) else {
            Issue.record("ignores the frame")
            return
        }
        // Back on the main screen, the frame kept is drawn at once.
        schedule.show(.ready)
        guard case .render(.ready, frame: _?) = schedule.next(at: start + .seconds(1)) else {
            Issue.record("draws it")
            return
        }
    }

    @Test("The last drawing is up to date until the content changes, a frame waits on a preview screen, or the shown photo's picture arrives")
    func upToDate() {
        var schedule = RenderSchedule(previewInterval: interval)
        #expect(!schedule.isUpToDate, "nothing drawn yet")
        _ = schedule.next(at: start)
        #expect(schedule.isUpToDate)
        schedule.receive(frame(1))
        #expect(schedule.isUpToDate, "a frame changes nothing on a screen without the camera")
        schedule.show(.ready)
        #expect(!schedule.isUpToDate)
        _ = schedule.next(at: start)
        #expect(schedule.isUpToDate)
        schedule.receive(frame(2))
        #expect(!schedule.isUpToDate, "the preview moved on")
        _ = schedule.next(at: start + interval)
        #expect(schedule.isUpToDate)
        let photo = UUID()
        schedule.show(.saved(.placeholder(number: 1), photo: photo))
        _ = schedule.next(at: start + interval)
        schedule.redraw(showingPhoto: UUID())
        #expect(schedule.isUpToDate, "another photo's picture is not on this screen")
        schedule.redraw(showingPhoto: photo)
        #expect(!schedule.isUpToDate)
    }
}
