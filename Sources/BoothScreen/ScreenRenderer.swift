import BoothCore
import BoothImaging
import Logging

/// The booth's screen drawn off-screen, without any device: what a framebuffer presents, and
/// what a web preview or a test reads.
///
/// A renderer owns a TurboJPEG decoder and FreeType faces, which one thread uses at a time: it
/// is neither copyable nor `Sendable`; the thread that draws makes it and keeps it.
package struct ScreenRenderer: ~Copyable {
    /// The picture as last rendered.
    package private(set) var canvas: Canvas
    private let painter: ScreenPainter
    private let decoder: JPEGDecoder
    /// The last preview frame that decoded, sized for the canvas; it stays on screen when a
    /// frame cannot be decoded.
    private var preview: Bitmap?
    private var undecodableFrames = 0
    private var failedPaints = 0
    private let logger: Logger

    /// A renderer for a `width` x `height` screen.
    ///
    /// - Parameters:
    ///   - theme: the screen's contrast and text size.
    ///   - keys: what the keypad's keys are called, for the screens' hints.
    ///   - texts: the words the screens say, in the booth's language.
    ///   - reviews: the pictures of the shots just taken, for the naming and saved screens.
    ///   - audience: who sees the screen (``Screen/audience``); anyone unless it is the guest's
    ///     own.
    package init(
        width: Int, height: Int, fonts: ScreenFonts = .dejaVu, theme: ScreenTheme = .standard, keys: KeyLabels = .keyboard,
        texts: BoothTexts = .english, reviews: ReviewPictures? = nil, audience: ScreenAudience = .anyone, guides: PoseGuides? = nil,
        logger: Logger
    ) throws(ScreenError) {
        // Everything that can fail first: a half-made renderer cannot be taken apart.
        let painter = try ScreenPainter(
            fonts: fonts, keys: keys, texts: texts, reviews: reviews, audience: audience, guides: guides, theme: theme)
        decoder = try Self.makeDecoder()
        self.painter = painter
        canvas = Canvas(width: width, height: height)
        self.logger = logger
    }

    private static func makeDecoder() throws(ScreenError) -> JPEGDecoder {
        do {
            return try JPEGDecoder()
        } catch {
            throw ScreenError("The screen cannot decode preview frames: \(error)")
        }
    }

    /// Draws `content`, over `newFrame` when the camera delivered one since the last call (and
    /// over the last preview otherwise), as it is at `now`. Returns when the picture drawn
    /// changes by itself (an animation's next frame): draw it again then. `nil`: it stays.
    @discardableResult
    package mutating func render(
        _ content: ScreenContent, newFrame: CameraFrame? = nil, notice: PrinterFault? = nil,
        at now: MonotonicInstant = MonotonicInstant(nanoseconds: 0)
    ) -> MonotonicInstant? {
        if let newFrame {
            do {
                preview = try newFrame.previewBitmap(fitting: canvas.width, canvas.height, decoder: decoder)
            } catch {
                undecodableFrames += 1
                // Log the first and then every 100th: a camera that sends damaged frames sends many.
                if undecodableFrames % 100 == 1 {
                    logger.warning(
                        "Preview frame \(newFrame.sequence) cannot be shown (\(error)); \(undecodableFrames) so far. The last good picture stays."
                    )
                }
            }
        }
        return paint(content, backdrop: .painted(preview), notice: notice, at: now)
    }

    /// Draws `content` as a layer over a live preview that a display plane shows at
    /// `previewSize`, centred: the canvas stays transparent where the preview shows through
    /// (`nil`: no preview yet, black). Returns when the picture drawn changes by itself, as
    /// ``render(_:newFrame:notice:at:)`` does.
    @discardableResult
    package mutating func renderLayer(
        _ content: ScreenContent, previewBelow previewSize: PixelSize?, notice: PrinterFault? = nil,
        at now: MonotonicInstant = MonotonicInstant(nanoseconds: 0)
    ) -> MonotonicInstant? {
        paint(content, backdrop: previewSize.map { .below(width: $0.width, height: $0.height) } ?? .painted(nil), notice: notice, at: now)
    }

    private mutating func paint(
        _ content: ScreenContent, backdrop: PreviewBackdrop, notice: PrinterFault?, at now: MonotonicInstant
    ) -> MonotonicInstant? {
        do {
            return try painter.paint(content, backdrop: backdrop, notice: notice, at: now, into: &canvas)
        } catch {
            failedPaints += 1
            if failedPaints % 100 == 1 {
                logger.error("The screen cannot draw \(content): \(error) (\(failedPaints) times so far).")
            }
            return nil
        }
    }
}
