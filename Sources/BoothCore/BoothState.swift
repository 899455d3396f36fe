import Foundation

/// A photo that has been shot and is being saved, as the state machine knows it.
public struct TakenPhoto: Sendable, Hashable {
    /// The photo's permanent id.
    public var id: UUID
    /// The caption it keeps when nobody names it.
    public var placeholder: Caption

    public init(id: UUID, placeholder: Caption) {
        self.id = id
        self.placeholder = placeholder
    }
}

/// Why the booth cannot take photos right now.
public enum BoothFault: Sendable, Hashable, CaseIterable {
    /// No camera, or the camera stopped delivering frames.
    case cameraMissing
    /// The camera delivered no usable frame for the shot.
    case shotFailed
    /// The disk is full.
    case storageFull
    /// Writing to the disk or the catalog failed or stalled.
    case storageFailing

    /// Whether the fault is the storage's: full, or not writable.
    package var isStorage: Bool { self == .storageFull || self == .storageFailing }
}

/// Where the booth is in its cycle. Every state that waits has a deadline that leads back to
/// `idle` (directly or through a fault), so the booth never stays stuck.
public enum BoothState: Sendable, Hashable {
    /// Waiting for the camera's first frame, so that "ready" is only shown when a shot can be
    /// taken. The camera reports either frames or a failure, which moves the booth on.
    case starting
    /// Main screen with the live preview.
    case idle
    /// Counting down to the shot, which is taken at `shutterAt`.
    case countdown(shutterAt: MonotonicInstant)
    /// Waiting for the frame exposed at `shutterAt`, to be photo `photo`; gives up at
    /// `giveUpAt`.
    case capturing(shutterAt: MonotonicInstant, photo: UUID, giveUpAt: MonotonicInstant)
    /// Showing shot `shot` of a collage, just taken, until `until`; the next countdown follows.
    case reviewing(shot: UUID, until: MonotonicInstant)
    /// The photo is being written; the guest types its name until `until`.
    case naming(TakenPhoto, draft: CaptionDraft, until: MonotonicInstant)
    /// The name is chosen; waiting for the photo and its caption to be committed.
    case saving(TakenPhoto, caption: Caption, giveUpAt: MonotonicInstant)
    /// Showing "Saved as …" until `until`. `pendingName` is the name the guest typed when it
    /// could not be stored yet (the disk is full): the photo is saved under `caption`, and the
    /// name follows once it can be written.
    case saved(TakenPhoto, caption: Caption, pendingName: Caption?, until: MonotonicInstant)
    /// Cannot take photos; tries again at `retryAt`, or waits for the camera or the storage to
    /// come back when it is `nil`.
    case fault(BoothFault, retryAt: MonotonicInstant?)
    /// The gallery's list, until `until` (each key moves it on).
    case browsing(GalleryPosition, until: MonotonicInstant)
    /// One photo of the gallery on the whole screen, until `until`.
    case viewing(GalleryPosition, until: MonotonicInstant)
    /// Nobody came for a while: the main screen shows the library's photos one after the
    /// other, slide `slide` until `nextAt`. A key or the button brings the main screen back.
    case attract(slide: Int, nextAt: MonotonicInstant)

    /// What kind of state this is, whatever its details: what logs, metrics and systemd's status
    /// follow, since a change of kind is a change they report.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        case starting, idle, countdown, capturing, reviewing, naming, saving, saved
        case fault(BoothFault)
        case browsing, viewing, attract

        /// A short name for logs and metrics.
        public var description: String {
            switch self {
            case .starting: "starting"
            case .idle: "idle"
            case .countdown: "countdown"
            case .capturing: "capturing"
            case .reviewing: "reviewing"
            case .naming: "naming"
            case .saving: "saving"
            case .saved: "saved"
            case .fault(let fault): "fault(\(fault))"
            case .browsing: "gallery"
            case .viewing: "photo"
            case .attract: "attract"
            }
        }
    }

    public var kind: Kind {
        switch self {
        case .starting: .starting
        case .idle: .idle
        case .countdown: .countdown
        case .capturing: .capturing
        case .reviewing: .reviewing
        case .naming: .naming
        case .saving: .saving
        case .saved: .saved
        case .fault(let fault, _): .fault(fault)
        case .browsing: .browsing
        case .viewing: .viewing
        case .attract: .attract
        }
    }

    /// A short name for logs.
    package var name: String { kind.description }

    /// Whether a photo is in flight: being counted down to, taken, named or saved. A booth asked
    /// to stop or restart waits for such a state to end.
    package var hasPhotoInFlight: Bool {
        switch self {
        case .countdown, .capturing, .reviewing, .naming, .saving: true
        case .starting, .idle, .saved, .fault, .browsing, .viewing, .attract: false
        }
    }
}
