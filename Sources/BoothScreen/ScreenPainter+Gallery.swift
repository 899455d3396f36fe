import BoothCore
import BoothImaging

/// The gallery's screens: the list of photos, one photo full screen, and the empty library.
extension ScreenPainter {
    /// A title with the position ("3 of 120"), a page of rows (thumbnail, caption, time) with
    /// the selected one highlighted, and a line of hints at the bottom, or the name being found
    /// while a guest types one.
    func paintGallery(_ list: GalleryList, _ layout: Layout, _ canvas: inout Canvas) throws(ScreenError) {
        let position = list.position
        let headerBaseline = layout.height * 9 / 100
        let title = try bold.line(
            texts(.galleryTitle), size: layout.scaled(layout.height / 14), minimumSize: layout.minimum, maxWidth: layout.textWidth / 2)
        canvas.draw(title, atX: layout.margin, baseline: headerBaseline, color: palette.text)
        guard position.count > 0 else {
            try paintEmptyGallery(layout, &canvas)
            return
        }
        let counter = try regular.line(
            texts(.galleryPosition, ["index": "\(position.index + 1)", "count": "\(position.count)"]), size: layout.body, minimumSize: layout.minimum,
            maxWidth: layout.textWidth / 2)
        canvas.draw(counter, atX: layout.width - layout.margin - counter.width, baseline: headerBaseline, color: palette.secondary)
        if let search = list.search {
            try paintHint(keys.findingLine(search, in: texts), layout, &canvas)
        } else {
            try paintHint(keys.galleryHint(in: texts), layout, &canvas)
        }
        guard !list.rows.isEmpty else {
            try paintMessage(texts(.galleryUnreadable), layout, &canvas)
            return
        }
        for (offset, row) in list.rows.enumerated() {
            try paintRow(row, frame: Self.rowFrame(offset, layout), selected: list.page.lowerBound + offset == position.index, &canvas)
        }
    }

    /// Where row `offset` of a page is: the rows share the screen between the title (the top
    /// 14%) and the hint (the bottom 14%), with a small gap between them.
    static func rowFrame(_ offset: Int, _ layout: Layout) -> PixelRect {
        let top = layout.height * 14 / 100
        let pitch = (layout.height * 72 / 100) / GalleryList.rowsPerPage
        return PixelRect(x: layout.margin, y: top + offset * pitch, width: layout.textWidth, height: pitch - pitch / 12)
    }

    /// Where a row's thumbnail goes: a 3:2 box at the row's left (between 4:3 and 16:9
    /// cameras, so either loses little to its bars).
    static func thumbnailBox(in row: PixelRect) -> PixelRect {
        let padding = row.height / 10
        let height = row.height - 2 * padding
        return PixelRect(x: row.x + 2 * padding, y: row.y + padding, width: height * 3 / 2, height: height)
    }

    /// One row: the thumbnail letterboxed on black in its box, the caption and the time beside
    /// it; the selected row stands out on a lighter band with an accent bar.
    private func paintRow(_ row: GalleryList.Row, frame: PixelRect, selected: Bool, _ canvas: inout Canvas) throws(ScreenError) {
        if selected {
            canvas.fill(frame, with: palette.selection)
            canvas.fill(PixelRect(x: frame.x, y: frame.y, width: max(4, frame.height / 16), height: frame.height), with: palette.accent)
        }
        let box = Self.thumbnailBox(in: frame)
        canvas.fill(box, with: .black)
        if let thumbnail = pictures.thumbnail(of: row, fitting: box.width, box.height) {
            canvas.draw(thumbnail, atX: box.midX - thumbnail.width / 2, y: box.midY - thumbnail.height / 2)
        }
        let padding = frame.height / 10
        let textX = box.maxX + 2 * padding
        let room = frame.maxX - padding - textX
        let captionSize = frame.height * 36 / 100
        let caption = try bold.line(
            row.entry.caption.text, size: captionSize, minimumSize: captionSize * 3 / 4, maxWidth: room, truncating: .tail)
        canvas.draw(caption, atX: textX, baseline: frame.y + frame.height * 47 / 100, color: selected ? palette.accent : palette.text)
        let timeSize = frame.height * 24 / 100
        let time = try regular.line(row.entry.takenOn, size: timeSize, minimumSize: timeSize * 3 / 4, maxWidth: room)
        canvas.draw(time, atX: textX, baseline: frame.y + frame.height * 80 / 100, color: palette.secondary)
    }

    /// What an empty library shows: what to do about it.
    private func paintEmptyGallery(_ layout: Layout, _ canvas: inout Canvas) throws(ScreenError) {
        let headline = try bold.line(texts(.galleryEmpty), size: layout.headline, minimumSize: layout.minimum, maxWidth: layout.textWidth)
        canvas.draw(headline, centredAt: layout.midX, baseline: layout.height * 44 / 100, color: palette.text)
        let lines = try regular.lines(
            wrapping: texts(.galleryEmptyHint, ["button": texts(.theButton)]), size: layout.body, minimumSize: layout.minimum,
            maxWidth: layout.textWidth, maxLines: 2)
        for (index, line) in lines.enumerated() {
            canvas.draw(line, centredAt: layout.midX, baseline: layout.height * 58 / 100 + index * layout.body * 135 / 100, color: palette.accent)
        }
        try paintHint(texts(.galleryEmptyBack, ["back": keys.back]), layout, &canvas)
    }

    /// The photo as large as the screen allows, letterboxed on black, with its caption, time
    /// and position in a dark band over the bottom.
    func paintPhoto(_ photo: GalleryPhoto, _ layout: Layout, _ canvas: inout Canvas) throws(ScreenError) {
        canvas.fill(canvas.bounds, with: .black)
        if let entry = photo.entry, let originals = photo.originals,
            let picture = pictures.photo(entry.id, from: originals, fitting: layout.width, layout.height)
        {
            canvas.draw(picture, atX: (layout.width - picture.width) / 2, y: (layout.height - picture.height) / 2)
        } else {
            try paintMessage(texts(.photoUnreadable), layout, &canvas)
        }
        let band = Self.photoBand(layout)
        canvas.fill(band, with: .black, opacity: palette.band)
        let half = layout.textWidth / 2
        let firstBaseline = band.y + band.height * 45 / 100
        let secondBaseline = band.y + band.height * 82 / 100
        let counter = try regular.line(
            texts(.galleryPosition, ["index": "\(photo.position.index + 1)", "count": "\(photo.position.count)"]), size: layout.hint,
            minimumSize: layout.minimum,
            maxWidth: half)
        canvas.draw(counter, atX: layout.width - layout.margin - counter.width, baseline: firstBaseline, color: palette.secondary)
        let hint = try regular.line(
            texts(.photoHint, ["up": keys.up, "down": keys.down, "back": keys.back]), size: layout.hint * 8 / 10,
            minimumSize: 10, maxWidth: half)
        canvas.draw(hint, atX: layout.width - layout.margin - hint.width, baseline: secondBaseline, color: palette.secondary)
        guard let entry = photo.entry else { return }
        let captionSize = band.height * 36 / 100
        let caption = try bold.line(
            entry.caption.text, size: captionSize, minimumSize: captionSize * 3 / 4, maxWidth: half, truncating: .tail)
        canvas.draw(caption, atX: layout.margin, baseline: firstBaseline, color: palette.text)
        let time = try regular.line(entry.takenOn, size: band.height * 24 / 100, minimumSize: 10, maxWidth: half)
        canvas.draw(time, atX: layout.margin, baseline: secondBaseline, color: palette.secondary)
    }

    /// The band over the bottom of a full-screen photo: a seventh of the screen, more for
    /// larger text.
    static func photoBand(_ layout: Layout) -> PixelRect {
        let height = layout.scaled(layout.height * 14 / 100)
        return PixelRect(x: 0, y: layout.height - height, width: layout.width, height: height)
    }

    /// The keys to press, small and grey at the bottom of the screen.
    private func paintHint(_ text: String, _ layout: Layout, _ canvas: inout Canvas) throws(ScreenError) {
        let hint = try regular.line(text, size: layout.hint, minimumSize: layout.minimum, maxWidth: layout.textWidth)
        canvas.draw(hint, centredAt: layout.midX, baseline: layout.height * 95 / 100, color: palette.secondary)
    }

    /// A line of hints whose marked words (the name being found) stand out in the accent colour.
    private func paintHint(_ runs: [BoothTexts.Run], _ layout: Layout, _ canvas: inout Canvas) throws(ScreenError) {
        let size = try regular.size(toFit: runs.map(\.text).joined(), preferred: layout.hint, maxWidth: layout.textWidth)
        var lines: [(TextLine, PixelColor)] = []
        for run in runs { lines.append((try regular.line(run.text, size: size), run.emphasized ? palette.accent : palette.secondary)) }
        var x = layout.midX - lines.reduce(0) { $0 + $1.0.width } / 2
        for (line, color) in lines {
            canvas.draw(line, atX: x, baseline: layout.height * 95 / 100, color: color)
            x += line.width
        }
    }
}
