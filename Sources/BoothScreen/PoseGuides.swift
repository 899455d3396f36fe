import BoothImaging
import Synchronization

/// What the live preview shows over the camera's picture so that guests pose inside the frame:
/// for each shot of the booth's pictures, the part of its layout's overlay over that shot's
/// slot. Set when the booth starts (and at a reload), read by every screen as it paints a
/// preview; each guide is stretched once per screen size, not per frame.
package final class PoseGuides: Sendable {
    private struct State {
        /// By shot, from 0; `nil` for a shot whose slot the overlay leaves clear.
        var guides: [TranslucentPicture?] = []
        /// The guides stretched to a screen's preview, by shot and size.
        var stretched: [Stretch: TranslucentPicture] = [:]
    }

    private struct Stretch: Hashable {
        let shot: Int
        let width: Int
        let height: Int
    }

    private let state = Mutex(State())

    package init() {}

    /// The guides of the booth's layout, by shot.
    package func set(_ guides: [TranslucentPicture?]) {
        state.withLock { $0 = State(guides: guides) }
    }

    /// The guide of shot `shot` (from 0) stretched to `width` x `height`; `nil` when it has none.
    package func guide(forShot shot: Int, width: Int, height: Int) -> TranslucentPicture? {
        let key = Stretch(shot: shot, width: width, height: height)
        let (known, guide) = state.withLock { state in
            (state.stretched[key], state.guides.indices.contains(shot) ? state.guides[shot] : nil)
        }
        if let known { return known }
        guard let guide, width > 0, height > 0 else { return nil }
        let stretched = guide.stretched(toWidth: width, height: height)
        state.withLock { state in
            // A screen has one size, and a mirror another: a few entries at most.
            if state.stretched.count > 16 { state.stretched.removeAll() }
            state.stretched[key] = stretched
        }
        return stretched
    }
}
