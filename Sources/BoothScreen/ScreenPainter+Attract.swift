import BoothCore
import BoothImaging

/// The slideshow the main screen becomes while nobody is at the booth.
extension ScreenPainter {
    /// A photo of the library as large as the screen allows, letterboxed on black, with its
    /// name and the invitation to take one in a dark band over the bottom. Without a photo to
    /// show (an empty library, an original that does not decode) the invitation stands alone:
    /// a slideshow never says that something is wrong to a guest who did not ask.
    ///
    /// Each slide is drawn once, without a fade: the render thread draws when the content
    /// changes, and a fade would have it draw a dozen pictures a second for nobody. An
    /// animation's slide plays: it is drawn again at each of its frames.
    func paintAttract(_ slide: AttractSlide, _ layout: Layout, _ canvas: inout Canvas) throws(ScreenError) {
        let invitation = keys.invitations(button: texts(.theButton), in: texts)[0]
        guard let entry = slide.entry, let originals = slide.originals,
            let picture = pictures.photo(entry.id, from: originals, fitting: layout.width, layout.height)
        else {
            try paint(invitation, size: layout.headline, centredAt: layout.height / 2 + layout.headline * 36 / 100, layout, &canvas)
            return
        }
        canvas.fill(canvas.bounds, with: .black)
        canvas.draw(picture, atX: (layout.width - picture.width) / 2, y: (layout.height - picture.height) / 2)
        let band = Self.attractBand(layout)
        canvas.fill(band, with: .black, opacity: palette.band)
        let captionSize = band.height * 34 / 100
        let caption = try bold.line(
            entry.caption.text, size: captionSize, minimumSize: captionSize * 3 / 4, maxWidth: layout.textWidth, truncating: .tail)
        canvas.draw(caption, centredAt: layout.midX, baseline: band.y + band.height * 44 / 100, color: palette.text)
        try paint(invitation, size: band.height * 22 / 100, centredAt: band.y + band.height * 82 / 100, layout, &canvas)
    }

    /// The band over the bottom of a slide: a fifth of the screen, more for larger text.
    static func attractBand(_ layout: Layout) -> PixelRect {
        let height = layout.scaled(layout.height * 20 / 100)
        return PixelRect(x: 0, y: layout.height - height, width: layout.width, height: height)
    }

    /// `runs` on one line centred on the screen, the words they set apart in the accent colour.
    private func paint(_ runs: [BoothTexts.Run], size: Int, centredAt baseline: Int, _ layout: Layout, _ canvas: inout Canvas)
        throws(ScreenError)
    {
        let fitted = try bold.size(toFit: runs.map(\.text).joined(), preferred: size, maxWidth: layout.textWidth)
        var lines: [(TextLine, PixelColor)] = []
        for run in runs { lines.append((try bold.line(run.text, size: fitted), run.emphasized ? palette.accent : palette.text)) }
        var x = layout.midX - lines.reduce(0) { $0 + $1.0.width } / 2
        for (line, color) in lines {
            canvas.draw(line, atX: x, baseline: baseline, color: color)
            x += line.width
        }
    }
}
