import Foundation

/// What the booth's screen shows, as content rather than pixels, so that a framebuffer, a
/// terminal and a web page can each render it their own way.
public enum ScreenContent: Sendable, Hashable {
    /// The camera is starting.
    case starting
    /// Live preview, waiting for the button.
    case ready
    /// The countdown over the live preview; `shot` says which of a collage's shots it is for.
    case countdown(secondsLeft: Int, shot: ShotCount? = nil)
    /// The instant of the shot.
    case smile
    /// Shot `number` of `count` of a collage (from 1), just taken: the screen shows it, and
    /// the next countdown follows.
    case review(shot: UUID, number: Int, of: Int)
    /// Asking for a name for photo `photo`, which the screen shows; `typed` is the name so far,
    /// `placeholder` what is kept without one.
    case naming(typed: String, placeholder: Caption, photo: UUID)
    /// The photo is being made safe on disk.
    case saving
    /// Photo `photo` is on disk and in the catalog under this caption; the screen shows it.
    /// `link` is the photo's web page, for a QR code, with the guest's deletion key apart (each
    /// screen shows what its ``Screen/audience`` may see); `nil` when the booth has no address
    /// to give (the state machine leaves it to the booth to fill in). `pendingName` is the name
    /// the guest typed when it could not be written yet: the screen says it will follow.
    /// `printing`: the guest asked for a print of it (the print key), which the screen confirms.
    case saved(Caption, photo: UUID, link: PhotoLink? = nil, pendingName: Caption? = nil, printing: Bool = false)
    /// The gallery's list of photos, newest first.
    case gallery(GalleryList)
    /// One photo of the gallery on the whole screen.
    case photo(GalleryPhoto)
    /// Something is wrong; the booth says what and waits.
    case fault(BoothFault)
    /// A slide of the main screen's slideshow while nobody is at the booth.
    case attract(AttractSlide)
}

/// Which shot of a picture of several this is: `number` of `count`, from 1.
public struct ShotCount: Sendable, Hashable {
    public var number: Int
    public var count: Int

    public init(number: Int, of count: Int) {
        self.number = number
        self.count = count
    }
}

/// The booth's screen.
package protocol Screen: Sendable {
    /// Who sees what this screen shows, which decides whether it shows what is the guest's
    /// alone (the key that deletes their photo). Anyone, unless the screen says otherwise; a
    /// screen that passes content on (a group of screens) leaves it to the screens it feeds.
    var audience: ScreenAudience { get }

    /// Shows `content`. Returns at once; drawing happens on the screen's own thread.
    func show(_ content: ScreenContent)

    /// Tells guests, beside whatever the screen shows, that the printer holds prints for
    /// `fault` and what becomes of theirs; `nil` ends it. A screen that cannot say it ignores it.
    func showPrinterNotice(_ fault: PrinterFault?)
}

extension Screen {
    package func showPrinterNotice(_ fault: PrinterFault?) {}

    /// A screen that does not say who sees it shows nothing that is the guest's alone.
    package var audience: ScreenAudience { .anyone }
}

/// Who sees a screen. The guest at the booth gets the link that deletes the photo they just
/// took; a screen others see (the web's mirror, which anyone on the network may watch) shows
/// the photo's page without it.
public enum ScreenAudience: Sendable, Hashable {
    /// Only the guest at the booth: the booth's display, the keypad's, the terminal of
    /// `--simulate`.
    case guest
    /// Anyone: a mirror of the screen, a terminal whose lines go to a file or the journal.
    case anyone
}

/// A device that shows the bytes it is given: a terminal, a keypad's character display on a
/// serial line. What the bytes say is the screen's business (BoothScreen's text screens); the
/// device only carries them.
package protocol ByteSink: Sendable {
    /// Writes `bytes`, in order after those written before. Screens call it from their own
    /// thread, never from Swift's cooperative pool: it may block while the device takes them.
    func write(_ bytes: [UInt8])
}
