import BoothCore
import Foundation

/// When a screen's render thread draws: at once when the content changes, at most once per
/// `previewInterval` for a new preview frame (the camera delivers more, and the capture path
/// needs the CPU more), and never when nothing changed.
///
/// Only the latest preview frame is kept; frames that arrive while the content shows no preview
/// are not decoded at all. A picture that moves (an animation on the naming screen, in the
/// gallery, in the slideshow) is drawn again when its next frame is due, as its drawing said.
/// The schedule is a value the render thread consults under a lock; it never reads a clock
/// itself, so tests drive it with plain instants.
package struct RenderSchedule {
    /// What the render thread does next.
    package enum Step {
        /// Draw `content`, over `frame` when there is a new one.
        case render(ScreenContent, frame: CameraFrame?)
        /// A preview frame waits for the rate limit: look again at `deadline` (or sooner when
        /// woken).
        case wait(until: MonotonicInstant)
        /// Nothing to draw: sleep until woken.
        case sleep
    }

    package let previewInterval: Duration
    private var content = ScreenContent.starting
    /// The first content is drawn as soon as the thread starts.
    private var contentChanged = true
    private var pendingFrame: CameraFrame?
    private var lastPreview: MonotonicInstant?
    /// When the content's drawing changes by itself (an animation's next frame).
    private var pictureChange: MonotonicInstant?
    /// What the printer's fault tells guests beside the content; `nil`: nothing.
    package private(set) var notice: PrinterFault?

    package init(previewInterval: Duration) {
        self.previewInterval = previewInterval
    }

    /// Takes `content` as what the screen shows; returns whether the render thread must be
    /// woken for it (it changed).
    @discardableResult
    package mutating func show(_ content: ScreenContent) -> Bool {
        guard content != self.content else { return false }
        self.content = content
        contentChanged = true
        pictureChange = nil
        return true
    }

    /// Takes `notice` as the printer's fault the screen tells beside its content; returns
    /// whether the render thread must be woken for it (it changed).
    @discardableResult
    package mutating func show(notice: PrinterFault?) -> Bool {
        guard notice != self.notice else { return false }
        self.notice = notice
        contentChanged = true
        pictureChange = nil
        return true
    }

    /// The drawing just made changes by itself at `instant` (an animation's next frame), or
    /// stays as it is (`nil`): what the render thread learns from each drawing.
    package mutating func drawn(changingAt instant: MonotonicInstant?) {
        pictureChange = contentChanged ? nil : instant
    }

    /// Keeps `frame` as the next preview, replacing one not drawn yet; returns whether the
    /// render thread must be woken for it. It need not be when a frame is already pending (the
    /// thread waits for the rate limit, or is drawing, and takes the latest next) nor when the
    /// screen shows no preview, so a camera never wakes the thread more often than it draws.
    @discardableResult
    package mutating func receive(_ frame: CameraFrame) -> Bool {
        defer { pendingFrame = frame }
        return content.showsLivePreview && pendingFrame == nil
    }

    /// Draws the current content again at the next step, although it did not change: for a
    /// new viewer of a screen that was not drawn while nobody watched.
    package mutating func redraw() {
        contentChanged = true
    }

    /// Draws the current content again at the next step when it shows photo `id`'s review
    /// picture, which has just arrived; returns whether the render thread must be woken for it.
    @discardableResult
    package mutating func redraw(showingPhoto id: UUID) -> Bool {
        guard content.reviewedPhoto == id else { return false }
        contentChanged = true
        return true
    }

    /// Whether the last drawing shows the screen as it is: the content did not change since,
    /// and no preview frame waits on a screen that shows the camera. A picture made before
    /// nobody watched stays worth showing while this holds.
    package var isUpToDate: Bool {
        !contentChanged && !(content.showsLivePreview && pendingFrame != nil)
    }

    /// What to do at `now`.
    package mutating func next(at now: MonotonicInstant) -> Step {
        if contentChanged {
            contentChanged = false
            return .render(content, frame: content.showsLivePreview ? takeFrame(at: now) : nil)
        }
        if content.showsLivePreview, pendingFrame != nil {
            if let lastPreview, now < lastPreview + previewInterval {
                return .wait(until: lastPreview + previewInterval)
            }
            return .render(content, frame: takeFrame(at: now))
        }
        guard let change = pictureChange else { return .sleep }
        guard now >= change else { return .wait(until: change) }
        pictureChange = nil
        return .render(content, frame: nil)
    }

    private mutating func takeFrame(at now: MonotonicInstant) -> CameraFrame? {
        guard let frame = pendingFrame else { return nil }
        pendingFrame = nil
        lastPreview = now
        return frame
    }
}
