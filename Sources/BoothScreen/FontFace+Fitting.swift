/// Which end of a text gives way to an ellipsis when it is too long.
package enum Truncation {
    /// Keep the beginning ("A very long na…"): names shown as saved.
    case tail
    /// Keep the end ("…ery long name"): text being typed, where the cursor is.
    case head
}

extension FontFace {
    /// The ellipsis that marks shortened text.
    static let ellipsis = "\u{2026}"

    /// `text` at `size`, made smaller down to `minimumSize` until it fits `maxWidth` pixels, and
    /// shortened with an ellipsis when even that is too wide, so that it is never drawn off
    /// the screen.
    package func line(
        _ text: String, size: Int, minimumSize: Int, maxWidth: Int, truncating truncation: Truncation = .tail,
        haloRadius: Int = 0
    ) throws(ScreenError) -> TextLine {
        let fittedSize = try self.size(toFit: text, preferred: size, minimum: minimumSize, maxWidth: maxWidth)
        let whole = try line(text, size: fittedSize, haloRadius: haloRadius)
        guard whole.width > maxWidth else { return whole }
        // The most characters that fit with the ellipsis, by bisection: layouts are cheap once
        // the glyphs are cached.
        let characters = Array(text)
        func shortened(keeping count: Int) -> String {
            switch truncation {
            case .tail: String(characters.prefix(count)).trimmingTrailingSpaces() + Self.ellipsis
            case .head: Self.ellipsis + String(String(characters.suffix(count)).drop { $0 == " " })
            }
        }
        var fits = 0
        var tooWide = characters.count
        while tooWide - fits > 1 {
            let middle = (fits + tooWide) / 2
            if try line(shortened(keeping: middle), size: fittedSize).width <= maxWidth {
                fits = middle
            } else {
                tooWide = middle
            }
        }
        var cut = try line(shortened(keeping: fits), size: fittedSize, haloRadius: haloRadius)
        cut.isShortened = true
        return cut
    }

    /// The largest size from `preferred` down to `minimum` at which `text` fits `maxWidth`
    /// pixels; `minimum` when none does.
    func size(toFit text: String, preferred: Int, minimum: Int = 1, maxWidth: Int) throws(ScreenError) -> Int {
        var size = preferred
        var width = try line(text, size: size).width
        // Widths grow about linearly with the size: jump close, then step down.
        if width > maxWidth { size = max(minimum, size * maxWidth / width) }
        while size > minimum {
            width = try line(text, size: size).width
            if width <= maxWidth { break }
            size -= max(1, size / 32)
        }
        return max(minimum, size)
    }

    /// `text` broken at spaces into lines of at most `maxWidth` pixels, as even as they can be
    /// (no lone word on a last line), set smaller down to `minimumSize` until it takes at most
    /// `maxLines` lines; what still does not fit is cut with an ellipsis.
    func lines(wrapping text: String, size preferred: Int, minimumSize: Int? = nil, maxWidth: Int, maxLines: Int) throws(ScreenError)
        -> [TextLine]
    {
        let words = text.split(separator: " ").map(String.init)
        let minimum = min(preferred, minimumSize ?? preferred)
        var size = preferred
        var lines = try fill(words, size: size, maxWidth: maxWidth)
        while size > minimum {
            if lines.count <= maxLines, try widest(words, size: size) <= maxWidth { break }
            size = max(minimum, size - max(1, size / 16))
            lines = try fill(words, size: size, maxWidth: maxWidth)
        }
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines - 1)) + [lines[(maxLines - 1)...].joined(separator: " ")]
        } else if lines.count > 1 {
            // The narrowest width that still needs no more lines, by bisection.
            var tooNarrow = 0
            var enough = maxWidth
            while enough - tooNarrow > 1 {
                let middle = (tooNarrow + enough) / 2
                if try fill(words, size: size, maxWidth: middle).count <= lines.count {
                    enough = middle
                } else {
                    tooNarrow = middle
                }
            }
            lines = try fill(words, size: size, maxWidth: enough)
        }
        var laidOut: [TextLine] = []
        for text in lines {
            laidOut.append(try line(text, size: size, minimumSize: size, maxWidth: maxWidth))
        }
        return laidOut
    }

    /// The width of the widest of `words` at `size`: a line can be no narrower.
    private func widest(_ words: [String], size: Int) throws(ScreenError) -> Int {
        var widest = 0
        for word in words { widest = max(widest, try line(word, size: size).width) }
        return widest
    }

    /// `words` put on lines of at most `maxWidth` pixels, as many on each line as fit; a word
    /// wider than that gets a line of its own.
    private func fill(_ words: [String], size: Int, maxWidth: Int) throws(ScreenError) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in words {
            let candidate = current.isEmpty ? word : current + " " + word
            let fits = try line(candidate, size: size).width <= maxWidth
            if current.isEmpty || fits {
                current = candidate
            } else {
                lines.append(current)
                current = word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
