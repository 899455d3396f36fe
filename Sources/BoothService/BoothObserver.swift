import BoothCore
import Foundation

/// Who hears what the booth does besides its screen: the web's status page, the metrics and
/// systemd.
/// Called on the booth's loop and on the photo writer's queue, so each call must return at once.
struct BoothObserver: Sendable {
    /// The state machine entered `state`.
    var stateChanged: @Sendable (BoothState) -> Void = { _ in }
    /// What the booth waits for changed, or how much input it handled: what paces input faster
    /// than a guest (a script piped into the simulated booth's terminal).
    var inputReadiness: @Sendable (InputReadiness) -> Void = { _ in }
    /// A photo is on disk and in the catalog; `duration` is from the frame's choice to the
    /// commit (JPEG, thumbnail, durable write, catalog).
    var photoStored: @Sendable (_ id: UUID, _ duration: Duration) -> Void = { _, _ in }
    /// A photo has its final caption in the catalog: it is ready to be shown with its name,
    /// whatever the booth's screen does meanwhile.
    var photoNamed: @Sendable (_ id: UUID) -> Void = { _ in }
    /// The booth has begun to stop for good: it finishes its saves, then exits.
    var stopping: @Sendable () -> Void = {}
    /// The photo writer wrote to the library, or tried to (a photo, a name): time to look at the
    /// disk again. `failed`: the library refused the write, so the next look tries a write too.
    var libraryWritten: @Sendable (_ failed: Bool) -> Void = { _ in }
}
