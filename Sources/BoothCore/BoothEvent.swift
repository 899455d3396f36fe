import Foundation

/// Something that happened to the booth: input from a guest, a device, the save queue or time.
public enum BoothEvent: Sendable, Hashable {
    /// The shutter button was pressed at this kernel time: a button of its own for `mode`, or
    /// the booth's standard mode when `nil`.
    case shutterPressed(at: MonotonicInstant, mode: PictureMode? = nil)
    /// A key on the keypad.
    case key(KeypadKey)
    /// The print button (`gpio.print_line`) was pressed: as the print key, it prints the
    /// picture on the saved screen.
    case printPressed
    /// Time has passed; deadlines are checked against the current time.
    case tick
    /// The shot for the shutter instant `shutterAt` was taken and is being saved.
    case shotTaken(TakenPhoto, shutterAt: MonotonicInstant)
    /// No usable frame was found for the shot at `shutterAt`.
    case shotFailed(shutterAt: MonotonicInstant)
    /// The photo is committed to disk and catalog under `caption`. When the chosen name could
    /// not be stored yet, `caption` is the placeholder and `pendingName` the name, which the
    /// booth keeps and writes once it can.
    case photoSaved(id: UUID, caption: Caption, pendingName: Caption? = nil)
    /// The photo could not be saved.
    case photoNotSaved(id: UUID, fault: BoothFault)
    /// The camera stopped delivering frames.
    case cameraLost
    /// The camera delivers frames (again).
    case cameraReady
    /// What the booth's storage can take now, after every check of the disk: `nil` when a
    /// photo can be saved, else why not (``BoothFault/storageFull`` below the reserve,
    /// ``BoothFault/storageFailing`` when the library cannot be written).
    case storageChecked(BoothFault?)
    /// The answer to ``BoothEffect/countPhotos``: how many photos the library holds, `nil` when
    /// its catalog cannot be read.
    case photosCounted(Int?)
    /// The answer to ``BoothEffect/findName(startingWith:)``: where the newest photo whose name
    /// starts with `prefix` is in the gallery's list (0 is the newest photo), `nil` when no
    /// name does or the catalog cannot be read.
    case nameFound(prefix: String, at: Int?)
    /// The booth is asked to stop; the machine says when (``BoothEffect/stop(restarting:)``).
    case stopRequested(StopRequest)
    /// The printer holds prints for this fault (out of paper, jammed, a stopped queue), or
    /// prints again (`nil`). Photos are still taken: the screens say it beside what they show.
    case printerChanged(PrinterFault?)
}

/// Why the booth is asked to stop, strongest first.
public enum StopRequest: Int, Sendable, Hashable, Comparable {
    /// SIGTERM or SIGINT: stop now. Photos being saved still finish; a name being typed is not
    /// waited for (the photo keeps its placeholder).
    case shutdown = 2
    /// Input has ended for good (a piped script is over): the cycle under way finishes (a name
    /// being typed is given up for the placeholder, as Escape would), then the booth stops.
    case endOfInput = 1
    /// Stop once no photo is in flight, to start again (a new configuration, a catalog to open
    /// for writing).
    case restart = 0

    public static func < (lhs: StopRequest, rhs: StopRequest) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The shot the machine asks for: which frame, for which photo.
public struct ShotRequest: Sendable, Hashable {
    /// The photo's permanent id, decided by the machine when the countdown ends.
    public var photo: UUID
    /// The shutter instant: the frame exposed nearest it is the photo.
    public var exposedAt: MonotonicInstant
    /// How far from the shutter instant a frame may be exposed and still be the shot.
    package var window: Duration
    /// How long to wait for a frame exposed at or after the shutter instant, which may be the
    /// nearest.
    package var waitingAtMost: Duration
    /// The picture the shot is a part of (a collage's shot, an animation's frame); `nil` for a
    /// photo of its own.
    public var part: ShotPart?

    package init(photo: UUID, exposedAt: MonotonicInstant, window: Duration, waitingAtMost: Duration, part: ShotPart? = nil) {
        self.photo = photo
        self.exposedAt = exposedAt
        self.window = window
        self.waitingAtMost = waitingAtMost
        self.part = part
    }
}

/// What the state machine asks the outside world to do.
public enum BoothEffect: Sendable, Hashable {
    /// Change what the screen shows.
    case show(ScreenContent)
    /// Take the frame exposed nearest to the shutter instant and start saving it as the photo
    /// the request names; answer with ``BoothEvent/shotTaken(_:shutterAt:)`` or
    /// ``BoothEvent/shotFailed(shutterAt:)``.
    case takeShot(ShotRequest)
    /// Compose the picture from its shots, all taken (and being saved as its parts), and save
    /// it; ``finishPhoto(_:caption:)`` follows for it as for a photo.
    case composePicture(PictureOrder)
    /// The picture whose shots `parts` are will not be made (the camera went away, a shot
    /// failed): the shots taken stay, as photos of their own.
    case abandonPicture(UUID, parts: [UUID])
    /// Give the photo its final caption (when it differs from the one stored) and answer with
    /// ``BoothEvent/photoSaved(id:caption:pendingName:)`` once the photo and caption are
    /// committed.
    case finishPhoto(TakenPhoto, caption: Caption)
    /// Count the photos in the library (the view key opens the gallery) and answer with
    /// ``BoothEvent/photosCounted(_:)``. The machine never reads the library itself.
    case countPhotos
    /// Find where the newest photo whose name starts with `prefix` is in the gallery's list,
    /// names compared without case or accents (`NameKey`), and answer with
    /// ``BoothEvent/nameFound(prefix:at:)``.
    case findName(startingWith: String)
    /// Stop the booth now: no photo is in flight (or a shutdown does not wait). `restarting`
    /// when it stops to start again.
    case stop(restarting: Bool)
    /// Queue a print of the picture just saved, which its guest asked for (the print key).
    case printPicture(UUID)
    /// Tell guests, beside whatever the screens show, that the printer holds prints for this
    /// fault and what becomes of theirs; `nil` ends it.
    case showPrinterNotice(PrinterFault?)
    /// Play `sound` so that it is heard from `instant` on (a countdown's seconds and its
    /// shutter are asked for as the countdown starts); a speaker that cannot be on time plays
    /// it as soon as it can.
    case play(BoothSound, at: MonotonicInstant)
    /// Drop the sounds asked for that have not started: the sequence they belonged to ended
    /// before its shot.
    case silence
    /// The event had no effect in the current state (a press during the countdown, say); worth
    /// a log line.
    case ignored(BoothEvent)
}
