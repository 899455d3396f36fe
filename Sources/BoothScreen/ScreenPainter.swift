import BoothCore
import BoothImaging
import Foundation

/// Draws what the booth's screen shows into a canvas of any size.
///
/// Every length is a fraction of the canvas, so the same screens work from 640x480 to
/// 1920x1080; headlines are a tenth of the screen's height, which reads from two metres. Text
/// that would not fit is set smaller and then shortened with an ellipsis, never drawn past
/// the edge. The painter knows nothing of devices: a framebuffer, a web preview and the tests
/// all read the same canvas.
///
/// The gallery's pictures (thumbnails, the full-screen photo, the QR code) are decoded by the
/// painter and kept between paints, so a redraw costs no decode: like the fonts, a painter
/// belongs to the one thread that draws. The shot being named or just saved is not decoded
/// here: the photo writer decodes it once for every screen (``ReviewPictures``).
package struct ScreenPainter {
    let bold: FontFace
    let regular: FontFace
    let pictures: GalleryPictures
    /// What the keypad's keys are called, for the screens' hints.
    let keys: KeyLabels
    /// The words the screens say.
    let texts: BoothTexts
    /// Where the naming and saved screens find the shot's picture; `nil`: they show none.
    let reviews: ReviewPictures?
    /// Who sees the canvas: the saved screen's code carries the guest's deletion key only for
    /// the guest.
    let audience: ScreenAudience
    /// The layout's frame over the live preview, by shot; `nil`: none.
    let guides: PoseGuides?
    /// The colours and the size of the words.
    let theme: ScreenTheme
    var palette: Palette { theme.palette }

    /// Loads the fonts.
    ///
    /// - Parameters:
    ///   - keys: what the keypad's keys are called, for the screens' hints.
    ///   - texts: the words the screens say.
    ///   - reviews: the pictures of the shots just taken, for the naming and saved screens.
    ///   - audience: who sees what is painted; anyone unless the screen is the guest's own.
    ///   - guides: the layout's frame the live preview shows, so that guests pose inside it.
    ///   - theme: the screen's contrast and text size.
    package init(
        fonts: ScreenFonts = .dejaVu, keys: KeyLabels = .keyboard, texts: BoothTexts = .english, reviews: ReviewPictures? = nil,
        audience: ScreenAudience = .anyone, guides: PoseGuides? = nil, theme: ScreenTheme = .standard
    ) throws(ScreenError) {
        bold = try FontFace(path: fonts.bold)
        regular = try FontFace(path: fonts.regular)
        pictures = try GalleryPictures()
        self.keys = keys
        self.texts = texts
        self.reviews = reviews
        self.audience = audience
        self.guides = guides
        self.theme = theme
    }

    /// The lengths of a screen of `canvas`'s size, the text's in the theme's size.
    func layout(_ canvas: Canvas) -> Layout {
        Layout(canvas: canvas, textPercent: theme.textSize.percent)
    }

    /// Paints `content` over the whole canvas, on top of `preview` (a camera picture already
    /// sized to fit the canvas) for the screens that show the camera; an animation shows its
    /// frame of `now`, counted from when the painter first drew it. Returns when the picture
    /// painted changes next (an animation's next frame); `nil` when it stays as it is.
    @discardableResult
    package func paint(
        _ content: ScreenContent, preview: Bitmap?, notice: PrinterFault? = nil, at now: MonotonicInstant = MonotonicInstant(nanoseconds: 0),
        into canvas: inout Canvas
    ) throws(ScreenError) -> MonotonicInstant? {
        try paint(content, backdrop: .painted(preview), notice: notice, at: now, into: &canvas)
    }

    /// Paints `content` as ``paint(_:preview:notice:at:into:)`` does, over `backdrop` on the
    /// screens that show the camera: a picture painted here, or one a display plane shows
    /// under the canvas, which then stays transparent over it.
    @discardableResult
    package func paint(
        _ content: ScreenContent, backdrop: PreviewBackdrop, notice: PrinterFault? = nil,
        at now: MonotonicInstant = MonotonicInstant(nanoseconds: 0), into canvas: inout Canvas
    ) throws(ScreenError) -> MonotonicInstant? {
        pictures.beginPaint(at: now)
        try paintContent(content, backdrop: backdrop, into: &canvas)
        // A fault of the booth's own says more than the printer's; the countdown and the
        // instant of the shot keep the whole screen for the guest's pose.
        switch content {
        case .fault, .countdown, .smile: break
        default: if let notice { try paintNotice(notice, &canvas) }
        }
        return pictures.nextChange
    }

    /// The printer's fault across the top of the screen, on a dark band, where it hides
    /// neither the main screen's options nor the name being typed: what is wrong, and what
    /// becomes of the guest's print.
    private func paintNotice(_ fault: PrinterFault, _ canvas: inout Canvas) throws(ScreenError) {
        let layout = self.layout(canvas)
        let size = max(layout.minimum, layout.hint)
        let first = try bold.line(texts(fault.guestText), size: size, minimumSize: layout.minimum, maxWidth: layout.textWidth)
        // What becomes of the print, broken over two lines where one is too narrow.
        let later = try regular.lines(
            wrapping: texts(.printerWillPrintLater), size: max(layout.minimum, size * 4 / 5), minimumSize: layout.minimum,
            maxWidth: layout.textWidth, maxLines: 2)
        // Each line's height its size and a half.
        let firstHeight = first.size * 3 / 2
        let laterHeight = later.reduce(0) { $0 + $1.size * 3 / 2 }
        let height = firstHeight + laterHeight + size
        canvas.fill(PixelRect(x: 0, y: 0, width: canvas.width, height: height), with: .black, opacity: palette.notice)
        canvas.draw(first, centredAt: layout.midX, baseline: size / 2 + firstHeight * 3 / 4, color: palette.accent)
        var top = size / 2 + firstHeight
        for line in later {
            canvas.draw(line, centredAt: layout.midX, baseline: top + line.size * 9 / 8, color: palette.text)
            top += line.size * 3 / 2
        }
    }

    private func paintContent(_ content: ScreenContent, backdrop: PreviewBackdrop, into canvas: inout Canvas) throws(ScreenError) {
        let layout = self.layout(canvas)
        if content.showsLivePreview {
            paintPreview(backdrop, &canvas)
            paintGuide(for: content, over: backdrop.size, &canvas)
        } else {
            canvas.fill(canvas.bounds, with: palette.background)
        }
        switch content {
        case .starting:
            try paintMessage(texts(.starting), layout, &canvas)
        case .ready:
            try paintOptions(layout, &canvas)
        case .countdown(let secondsLeft, let shot):
            try paintOverPreview("\(secondsLeft)", size: layout.height * 6 / 10, color: .white, layout, &canvas)
            if let shot {
                let line = try bold.line(
                    texts(.shotOfCount, ["number": "\(shot.number)", "count": "\(shot.count)"]), size: layout.hint * 3 / 2,
                    minimumSize: layout.minimum, maxWidth: layout.textWidth, haloRadius: haloRadius(forSize: layout.hint * 3 / 2))
                canvas.draw(line, atX: layout.midX - line.width / 2, baseline: layout.height / 10, color: palette.accent)
            }
        case .smile:
            canvas.fill(canvas.bounds, with: .white, opacity: 110)
            try paintOverPreview(texts(.smile), size: layout.scaled(layout.height / 5), color: palette.accent, layout, &canvas)
        case .review(let shot, let number, let count):
            paintReview(shot, in: Self.namingPhotoBox(layout), &canvas)
            let line = try bold.line(
                texts(.shotOfCount, ["number": "\(number)", "count": "\(count)"]), size: layout.headline, minimumSize: layout.minimum,
                maxWidth: layout.textWidth)
            canvas.draw(line, centredAt: layout.midX, baseline: layout.height * 80 / 100, color: palette.accent)
        case .naming(let typed, let placeholder, let photo):
            try paintNaming(typed: typed, placeholder: placeholder.text, photo: photo, layout, &canvas)
        case .saving:
            try paintMessage(texts(.saving), layout, &canvas)
        case .saved(let caption, let photo, let link, let pendingName, let printing):
            try paintSaved(caption, photo: photo, link: link, pendingName: pendingName, printing: printing, layout, &canvas)
        case .fault(let fault):
            try paintFault(fault, layout, &canvas)
        case .gallery(let list):
            try paintGallery(list, layout, &canvas)
        case .photo(let photo):
            try paintPhoto(photo, layout, &canvas)
        case .attract(let slide):
            try paintAttract(slide, layout, &canvas)
        }
    }

    // MARK: Screens

    /// The camera picture centred on black: bars above and below (or beside) a picture whose
    /// shape is not the screen's. Only the bars are filled, since this runs for every preview
    /// frame; a picture a plane shows below leaves its place transparent.
    private func paintPreview(_ backdrop: PreviewBackdrop, _ canvas: inout Canvas) {
        guard let size = backdrop.size else {
            canvas.fill(canvas.bounds, with: .black)
            return
        }
        let picture = PixelRect(
            x: (canvas.width - size.width) / 2, y: (canvas.height - size.height) / 2, width: size.width, height: size.height)
        let bars = [
            PixelRect(x: 0, y: 0, width: canvas.width, height: picture.y),
            PixelRect(x: 0, y: picture.maxY, width: canvas.width, height: canvas.height - picture.maxY),
            PixelRect(x: 0, y: picture.y, width: picture.x, height: picture.height),
            PixelRect(x: picture.maxX, y: picture.y, width: canvas.width - picture.maxX, height: picture.height),
        ]
        for bar in bars { canvas.fill(bar, with: .black) }
        switch backdrop {
        case .painted(let preview?): canvas.draw(preview, atX: picture.x, y: picture.y)
        case .painted(nil), .below: canvas.clear(picture)
        }
    }

    /// The layout's frame over the preview of `size`, for the shot being posed for: the first
    /// on the main screen, a collage's next one during its countdown.
    private func paintGuide(for content: ScreenContent, over size: (width: Int, height: Int)?, _ canvas: inout Canvas) {
        guard let guides, let size else { return }
        let shot =
            switch content {
            case .countdown(_, let shot): (shot?.number ?? 1) - 1
            default: 0
            }
        guard let guide = guides.guide(forShot: shot, width: size.width, height: size.height) else { return }
        canvas.draw(guide, atX: (canvas.width - size.width) / 2, y: (canvas.height - size.height) / 2)
    }

    /// One headline in the middle of the screen.
    func paintMessage(_ text: String, _ layout: Layout, _ canvas: inout Canvas) throws(ScreenError) {
        let line = try bold.line(text, size: layout.headline, minimumSize: layout.minimum, maxWidth: layout.textWidth)
        canvas.draw(line, centredAt: layout.midX, baseline: layout.height / 2 + line.inkAscent / 2, color: palette.text)
    }

    /// The main screen's two options, on a dark band over the bottom of the preview.
    private func paintOptions(_ layout: Layout, _ canvas: inout Canvas) throws(ScreenError) {
        let options = (keys.invitations(button: texts(.theButton), in: texts) + [texts.runs(.readyToBrowse, ["key": keys.view])])
            .map { runs in runs.map { ($0.text, $0.emphasized ? palette.accent : palette.text) } }
        // Both options in the same size, whichever is longer: they matter equally.
        var size = layout.scaled(layout.height / 13)
        for option in options {
            size = try bold.size(toFit: option.map(\.0).joined(), preferred: size, maxWidth: layout.textWidth)
        }
        // Two options in the bottom 27 %; each mode's key adds a line above them.
        let lineGap = size * 135 / 100
        let bandHeight = max(layout.height * 27 / 100 + lineGap * (options.count - 2), lineGap * options.count + size * 2 / 3)
        let band = PixelRect(x: 0, y: layout.height - bandHeight, width: layout.width, height: bandHeight)
        canvas.fill(band, with: .black, opacity: palette.band)
        let capHeight = size * 73 / 100
        for (index, option) in options.enumerated() {
            let baseline = band.midY + capHeight / 2 + (2 * index - (options.count - 1)) * lineGap / 2
            var runs: [(TextLine, PixelColor)] = []
            for (text, color) in option { runs.append((try bold.line(text, size: size), color)) }
            var x = layout.midX - runs.reduce(0) { $0 + $1.0.width } / 2
            for (line, color) in runs {
                canvas.draw(line, atX: x, baseline: baseline, color: color)
                x += line.width
            }
        }
    }

    /// Large text centred over the preview, outlined by a dark halo so that it reads over any
    /// picture.
    private func paintOverPreview(
        _ text: String, size: Int, color: PixelColor, _ layout: Layout, _ canvas: inout Canvas
    ) throws(ScreenError) {
        let line = try bold.line(
            text, size: size, minimumSize: layout.minimum, maxWidth: layout.textWidth, haloRadius: haloRadius(forSize: size))
        canvas.draw(line, centredAt: layout.midX, baseline: layout.height / 2 + line.inkAscent / 2, color: color)
    }

    /// How far the dark outline of text of `size` over the preview reaches: thicker in high
    /// contrast, so that the letters' surroundings are the outline, never the picture.
    private func haloRadius(forSize size: Int) -> Int {
        max(2, size / palette.haloDivisor)
    }

    /// The photo just taken, large, over the prompt, the name typed so far in a field with a
    /// cursor (or the placeholder, greyed, while nothing is typed), and how to finish. The
    /// photo's place stays empty until its picture arrives, so nothing moves when it does.
    private func paintNaming(typed: String, placeholder: String, photo: UUID, _ layout: Layout, _ canvas: inout Canvas)
        throws(ScreenError)
    {
        paintReview(photo, in: Self.namingPhotoBox(layout), &canvas)
        let prompt = try bold.line(
            texts(.namingPrompt), size: layout.body, minimumSize: layout.minimum, maxWidth: layout.textWidth)
        canvas.draw(prompt, centredAt: layout.midX, baseline: layout.height * 67 / 100, color: palette.text)

        let field = Self.nameField(layout)
        canvas.fill(field, with: palette.accent)
        canvas.fill(field.inset(by: max(2, layout.height / 200)), with: palette.field)

        // Large, but never more than the field holds.
        let preferred = min(layout.scaled(layout.height * 2 / 23), field.height * 70 / 100)
        let padding = field.height / 4
        let cursorWidth = max(3, preferred / 14)
        let cursorGap = preferred / 12
        let room = field.width - 2 * padding - cursorWidth - cursorGap
        let textX = field.x + padding
        // A long name is set smaller only down to the body size, to stay legible; then it is
        // shortened at the start, keeping the end in view, where the guest is typing.
        let line =
            typed.isEmpty
            ? try regular.line(placeholder, size: preferred, minimumSize: layout.body, maxWidth: room, truncating: .tail)
            : try bold.line(typed, size: preferred, minimumSize: layout.body, maxWidth: room, truncating: .head)
        let baseline = field.midY + line.size * 36 / 100
        let cursorX: Int
        if typed.isEmpty {
            cursorX = textX
            canvas.draw(line, atX: textX + cursorWidth + cursorGap, baseline: baseline, color: palette.secondary)
        } else {
            cursorX = textX + line.width + cursorGap
            canvas.draw(line, atX: textX, baseline: baseline, color: palette.text)
        }
        canvas.fill(
            PixelRect(x: cursorX, y: baseline - line.size * 80 / 100, width: cursorWidth, height: line.size * 95 / 100),
            with: palette.accent)

        let hint = try regular.line(
            keys.namingHint(keeping: placeholder, in: texts), size: layout.hint, minimumSize: layout.minimum,
            maxWidth: layout.textWidth)
        canvas.draw(hint, centredAt: layout.midX, baseline: layout.height * 95 / 100, color: palette.secondary)
    }

    /// Where the naming screen shows the photo: the top three fifths of the screen.
    static func namingPhotoBox(_ layout: Layout) -> PixelRect {
        PixelRect(x: layout.margin, y: layout.height * 2 / 100, width: layout.textWidth, height: layout.height * 57 / 100)
    }

    /// The naming screen's field, under the photo and the prompt.
    static func nameField(_ layout: Layout) -> PixelRect {
        PixelRect(x: layout.margin, y: layout.height * 71 / 100, width: layout.textWidth, height: layout.height * 16 / 100)
    }

    /// Photo `id`'s review picture, as large as fits `box`, centred in it; nothing before it arrives.
    private func paintReview(_ id: UUID, in box: PixelRect, _ canvas: inout Canvas) {
        guard let reviews, let picture = pictures.review(id, from: reviews, fitting: box.width, box.height) else { return }
        canvas.draw(picture, atX: box.midX - picture.width / 2, y: box.midY - picture.height / 2)
    }

    /// The photo, "Saved as" and its caption under it, on two lines if it needs them; with a
    /// link, they move left and the link's QR code stands on the right, "Scan to download" under
    /// it. A booth with its own Wi-Fi stacks two codes there, each under its step: "1. Join the
    /// booth's Wi-Fi" over the network's join code, "2. Open your photo" over the page's. A
    /// name that could not be written yet is promised under the caption. The code carries
    /// the guest's deletion key only on the guest's own screen; anyone else (the web's mirror)
    /// scans the page alone, which still shows an operator where the guest is sent.
    ///
    /// A code alone is about 40% of the screen's height, two about 34% each, each module a
    /// whole number of pixels (a scanner reads sharp squares best), black on white with its
    /// quiet zone: a phone reads it from arm's length. Nothing else on this screen is pure
    /// white, so the codes are easy to find in a screenshot too.
    private func paintSaved(
        _ caption: Caption, photo: UUID, link: PhotoLink?, pendingName: Caption?, printing: Bool, _ layout: Layout, _ canvas: inout Canvas
    ) throws(ScreenError) {
        let printLine = try self.printLine(printing: printing, layout)
        var column = PixelRect(x: layout.margin, y: 0, width: layout.textWidth, height: layout.height)
        // The codes keep clear of the print line.
        let bottom = printLine.map { layout.height * 96 / 100 - $0.inkAscent - layout.hint / 2 } ?? layout.height
        if let link, let page = pictures.qrCode(for: link.address(for: audience)) {
            var codes = [(code: page, label: texts(link.join == nil ? .scanToDownload : .openYourPhoto))]
            if let join = link.join, let network = pictures.qrCode(for: join.code) {
                codes.insert((network, texts(.joinBoothWiFi)), at: 0)
            }
            let left = try paintCodes(codes, above: bottom, layout, &canvas)
            column.width = left - layout.margin - column.x
        }
        if let printLine {
            canvas.draw(printLine, centredAt: layout.midX, baseline: layout.height * 96 / 100, color: printing ? palette.accent : palette.secondary)
        }
        paintReview(photo, in: Self.savedPhotoBox(column: column, layout), &canvas)
        // The sentence's own words above, the name it sets apart large below.
        let runs = texts.runs(.savedAs, ["name": caption.text])
        let words = runs.filter { !$0.emphasized }.map(\.text).joined().trimmingCharacters(in: .whitespaces)
        let name = runs.filter(\.emphasized).map(\.text).joined()
        let title = try regular.line(words, size: layout.body, minimumSize: layout.minimum, maxWidth: column.width)
        canvas.draw(title, centredAt: column.midX, baseline: layout.height * 61 / 100, color: palette.secondary)
        let size = layout.headline
        let lines = try bold.lines(wrapping: name, size: size, maxWidth: column.width, maxLines: 2)
        for (index, line) in lines.enumerated() {
            let baseline = layout.height * 73 / 100 + index * size * 112 / 100
            canvas.draw(line, centredAt: column.midX, baseline: baseline, color: palette.accent)
        }
        guard let pendingName else { return }
        let note = try regular.lines(
            wrapping: texts(.savedPendingName, ["name": pendingName.text]), size: layout.hint, minimumSize: layout.minimum,
            maxWidth: column.width, maxLines: 2)
        for (index, line) in note.enumerated() {
            let baseline =
                layout.height * 73 / 100 + (lines.count - 1) * size * 112 / 100 + layout.hint * 160 / 100 + index * layout.hint * 125 / 100
            canvas.draw(line, centredAt: column.midX, baseline: baseline, color: palette.secondary)
        }
    }

    /// `codes` stacked on the right of the screen, each with its label (under a code alone,
    /// over each of two, where it reads as a step), all between the top of the screen and
    /// `bottom`; returns the left edge of what was drawn. A label too long for one line takes
    /// two, smaller if need be; codes shrink where the labels need the height.
    private func paintCodes(_ codes: [(code: QRCode, label: String)], above bottom: Int, _ layout: Layout, _ canvas: inout Canvas)
        throws(ScreenError) -> Int
    {
        let gap = layout.hint * 3 / 4
        let spacing = layout.hint * 3 / 2
        func side(_ code: QRCode, within target: Int) -> (moduleSize: Int, side: Int) {
            let modules = code.size + 2 * QRCode.quietZone
            let moduleSize = max(1, target / modules)
            return (moduleSize, moduleSize * modules)
        }
        // A step's label may be wider than its code; a code alone keeps within its own width.
        func labels(within target: Int, size: Int) throws(ScreenError) -> [[TextLine]] {
            var labels: [[TextLine]] = []
            for (code, label) in codes {
                let width = codes.count == 1 ? side(code, within: target).side : max(target, layout.width * 28 / 100)
                labels.append(
                    try (codes.count == 1 ? regular : bold).lines(
                        wrapping: label, size: size, minimumSize: layout.minimum, maxWidth: width, maxLines: 2))
            }
            return labels
        }
        func height(_ label: [TextLine]) -> Int { label.reduce(0) { $0 + $1.size * 125 / 100 } }
        // The codes matter most: the labels are set smaller, down to the smallest text, before
        // the codes give up more than a tenth of their size.
        let preferred = layout.height * (codes.count == 1 ? 40 : 34) / 100
        var labelSize = layout.hint
        var labelLines: [[TextLine]]
        var target: Int
        repeat {
            labelLines = try labels(within: preferred, size: labelSize)
            let room = bottom - 2 * layout.margin / 3 - labelLines.map(height).reduce(0, +) - (gap + spacing) * codes.count + spacing
            target = min(preferred, room / codes.count)
            labelSize -= max(1, labelSize / 12)
        } while target < preferred * 9 / 10 && labelSize >= layout.minimum
        if target < preferred { labelLines = try labels(within: target, size: labelLines.first?.first?.size ?? layout.hint) }
        let drawn = codes.enumerated().map { index, item in
            let (moduleSize, side) = side(item.code, within: target)
            return (code: item.code, moduleSize: moduleSize, side: side, label: labelLines[index], labelHeight: height(labelLines[index]))
        }
        let right = layout.width - layout.margin
        let column = max(drawn.map(\.side).max() ?? 0, labelLines.flatMap { $0.map(\.width) }.max() ?? 0)
        let centre = right - column / 2
        let total = drawn.reduce(0) { $0 + $1.side + gap + $1.labelHeight } + spacing * (drawn.count - 1)
        var top = min((layout.height - total) / 2, bottom - total)
        for item in drawn {
            let left = right - column + (column - item.side) / 2
            // A code alone has its label under it; each of two, its step over it.
            let codeTop = drawn.count == 1 ? top : top + item.labelHeight + gap
            var baseline = drawn.count == 1 ? top + item.side + gap : top
            canvas.draw(item.code, atX: left, y: codeTop, moduleSize: item.moduleSize)
            for line in item.label {
                baseline += line.size * 95 / 100
                canvas.draw(line, centredAt: centre, baseline: baseline, color: drawn.count == 1 ? palette.secondary : palette.text)
                baseline += line.size * 30 / 100
            }
            top += item.side + gap + item.labelHeight + spacing
        }
        return right - column
    }

    /// The saved screen's last line: the print key's invitation, or, once pressed, that the
    /// print is on its way; `nil` when the booth has no print key.
    private func printLine(printing: Bool, _ layout: Layout) throws(ScreenError) -> TextLine? {
        let text: String
        if printing {
            text = texts(.printQueued)
        } else if let key = keys.print {
            text = texts(.printInvitation, ["key": key])
        } else {
            return nil
        }
        return try bold.line(text, size: layout.hint, minimumSize: layout.minimum, maxWidth: layout.textWidth)
    }

    /// Where the saved screen shows the photo: the top half of the text's column.
    static func savedPhotoBox(column: PixelRect, _ layout: Layout) -> PixelRect {
        PixelRect(x: column.x, y: layout.height * 4 / 100, width: column.width, height: layout.height * 48 / 100)
    }

    /// What went wrong in a headline, and what it means below, under an accent bar.
    private func paintFault(_ fault: BoothFault, _ layout: Layout, _ canvas: inout Canvas) throws(ScreenError) {
        canvas.fill(PixelRect(x: 0, y: 0, width: layout.width, height: max(4, layout.height / 60)), with: palette.accent)
        let headline = try bold.line(
            texts(fault.headline), size: layout.headline, minimumSize: layout.minimum, maxWidth: layout.textWidth)
        canvas.draw(headline, centredAt: layout.midX, baseline: layout.height * 40 / 100, color: palette.text)
        let lines = try regular.lines(
            wrapping: texts(fault.message), size: layout.body, minimumSize: layout.minimum, maxWidth: layout.textWidth, maxLines: 3)
        for (index, line) in lines.enumerated() {
            let baseline = layout.height * 56 / 100 + index * layout.body * 135 / 100
            canvas.draw(line, centredAt: layout.midX, baseline: baseline, color: palette.secondary)
        }
    }
}

/// Lengths on a canvas of one size, as fractions of it.
struct Layout {
    let width: Int
    let height: Int

    /// Percent of the normal text sizes (``ScreenTextSize``).
    let textPercent: Int

    init(canvas: Canvas, textPercent: Int = 100) {
        width = canvas.width
        height = canvas.height
        self.textPercent = textPercent
    }

    /// A text size chosen for the normal theme, in the theme's size.
    func scaled(_ size: Int) -> Int { size * textPercent / 100 }

    var midX: Int { width / 2 }
    /// Between the text and the screen's left and right edges.
    var margin: Int { width / 20 }
    /// The widest a line of text may be.
    var textWidth: Int { width - 2 * margin }
    /// Pixels per em of the main line of each screen: a tenth of the height.
    var headline: Int { scaled(height / 10) }
    /// Pixels per em of explanations.
    var body: Int { scaled(height / 16) }
    /// Pixels per em of hints.
    var hint: Int { scaled(height / 22) }
    /// The smallest text is set in when it is too long, still legible from two metres: in
    /// every theme, as small as the normal hints can get.
    var minimum: Int { max(12, height / 30) }
}

extension ScreenContent {
    /// Whether the screen shows the live camera picture: while the guest waits for the
    /// button and during the countdown, so they can pose.
    package var showsLivePreview: Bool {
        switch self {
        case .ready, .countdown, .smile: true
        case .starting, .review, .naming, .saving, .saved, .fault, .gallery, .photo, .attract: false
        }
    }

    /// The photo just taken that the screen shows (naming it, or saved): its review picture
    /// may arrive after the screen was first drawn.
    var reviewedPhoto: UUID? {
        switch self {
        case .naming(_, _, let photo), .saved(_, let photo, _, _, _), .review(let photo, _, _): photo
        case .starting, .ready, .countdown, .smile, .saving, .fault, .gallery, .photo, .attract: nil
        }
    }
}

extension Canvas {
    /// Draws `line` centred on `x`.
    mutating func draw(_ line: TextLine, centredAt x: Int, baseline: Int, color: PixelColor) {
        draw(line, atX: x - line.width / 2, baseline: baseline, color: color)
    }
}

/// What lies under the booth's words on the screens that show the camera.
package enum PreviewBackdrop {
    /// The camera's picture, already fitted to the canvas, painted with the words; `nil`: no
    /// picture yet (black).
    case painted(Bitmap?)
    /// The camera's picture at this size, centred, shown by a display plane under the canvas:
    /// the canvas stays transparent over it.
    case below(width: Int, height: Int)

    /// The picture's size on the canvas; `nil` when there is none.
    var size: (width: Int, height: Int)? {
        switch self {
        case .painted(let preview): preview.map { ($0.width, $0.height) }
        case .below(let width, let height): (width, height)
        }
    }
}
