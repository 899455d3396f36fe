import BoothCore
import BoothImaging
import Foundation
import Synchronization

/// The photos just taken, as the naming and saved screens show them: decoded once by the
/// photo writer, at the size of the screens, and read by every screen that draws them. An
/// animation's are its frames, which the screens play.
///
/// The naming screen appears the moment the shot is taken, before its decode is done; the
/// picture follows. A screen that shows review pictures registers its size (so the writer
/// decodes at the size that fills it) and a wake-up: when a picture arrives for the photo it
/// shows, it draws again. Only the last few pictures are kept: a screen shows the newest shot.
package final class ReviewPictures: Sendable {
    private struct State {
        /// Newest last.
        var pictures: [(id: UUID, picture: ScreenPicture)] = []
        var screens: [(size: PixelSize, arrived: @Sendable (UUID) -> Void)] = []
    }

    /// How many pictures are kept: the shot being named, and the one before it, whose saved
    /// screen may still be drawn.
    static let kept = 2

    private let state = Mutex(State())

    package init() {}

    /// Registers a screen of `size` that shows review pictures; `arrived` is called with the
    /// photo's id whenever a picture comes (from the writer's thread: it must return at once).
    package func register(screen size: PixelSize, arrived: @escaping @Sendable (UUID) -> Void) {
        state.withLock { $0.screens.append((size, arrived)) }
    }

    /// The size review pictures are decoded for: as wide and as high as every registered
    /// screen; `nil` when no screen shows them.
    package var screenSize: PixelSize? {
        state.withLock { state in
            guard let first = state.screens.first?.size else { return nil }
            return state.screens.reduce(first) { PixelSize(width: max($0.width, $1.size.width), height: max($0.height, $1.size.height)) }
        }
    }

    /// Keeps `picture` (in the framebuffer's layout, `.bgrx`; an animation's frames) as the
    /// review picture of photo `id` and tells the screens.
    package func add(_ picture: ScreenPicture, of id: UUID) {
        precondition(picture.frames.allSatisfy { $0.format == .bgrx }, "review pictures are decoded in the screen's layout")
        let screens = state.withLock { state in
            state.pictures.removeAll { $0.id == id }
            state.pictures.append((id, picture))
            state.pictures.removeFirst(max(0, state.pictures.count - Self.kept))
            return state.screens.map(\.arrived)
        }
        for arrived in screens { arrived(id) }
    }

    /// Lets go of the pictures kept (each as large as the screen, megabytes): the booth calls it
    /// once it has been idle a while, when no naming or saved screen can show them any more.
    package func removeAll() {
        state.withLock { $0.pictures.removeAll() }
    }

    /// The review picture of photo `id`; `nil` before it arrives, once newer shots pushed it out,
    /// or once the booth let go of it (``removeAll()``).
    package func picture(of id: UUID) -> ScreenPicture? {
        state.withLock { state in state.pictures.last { $0.id == id }?.picture }
    }
}
