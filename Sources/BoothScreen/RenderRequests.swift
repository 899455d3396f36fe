import BoothCore
import BoothSystem
import Foundation
import Synchronization

/// What a screen's render thread is asked to do, from any thread: draw new content, draw a
/// camera frame. The framebuffer and the web's mirror each have one; their threads take the
/// next step from it and sleep on its ``wakeup``, which is also how they are stopped.
package final class RenderRequests: Sendable {
    private let schedule: Mutex<RenderSchedule>
    /// Signalled whenever the render thread has something new to consider: the render
    /// thread's own wake-up (``DedicatedThread/init(name:priority:wakeup:startingWith:)``).
    package let wakeup = Wakeup()

    package init(previewInterval: Duration) {
        schedule = Mutex(RenderSchedule(previewInterval: previewInterval))
    }

    /// Takes `content` as what the screen shows; wakes the thread when it changed.
    package func show(_ content: ScreenContent) {
        if schedule.withLock({ $0.show(content) }) { wakeup.signal() }
    }

    /// Takes `notice` as the printer's fault the screen tells; wakes the thread when it changed.
    package func show(notice: PrinterFault?) {
        if schedule.withLock({ $0.show(notice: notice) }) { wakeup.signal() }
    }

    /// The printer's fault the screen tells beside its content, for the render thread.
    package var notice: PrinterFault? {
        schedule.withLock { $0.notice }
    }

    /// Takes `frame` as the next preview, replacing one not drawn yet.
    package func receive(_ frame: CameraFrame) {
        if schedule.withLock({ $0.receive(frame) }) { wakeup.signal() }
    }

    /// Draws the screen again if it shows photo `id`, whose review picture has just arrived.
    package func redraw(showingPhoto id: UUID) {
        if schedule.withLock({ $0.redraw(showingPhoto: id) }) { wakeup.signal() }
    }

    /// The render thread's drawing changes by itself at `instant` (an animation's next frame),
    /// or stays (`nil`); the thread calls it after each drawing.
    package func drawn(changingAt instant: MonotonicInstant?) {
        schedule.withLock { $0.drawn(changingAt: instant) }
    }

    /// Whether the last drawing shows the screen as it is (``RenderSchedule/isUpToDate``).
    package var isUpToDate: Bool {
        schedule.withLock { $0.isUpToDate }
    }

    /// The render thread's next step at `now`; `redraw` first asks for the current content
    /// again (a new viewer without a picture).
    package func next(at now: MonotonicInstant, redraw: Bool = false) -> RenderSchedule.Step {
        schedule.withLock { schedule in
            if redraw { schedule.redraw() }
            return schedule.next(at: now)
        }
    }
}
