import BoothScreen

extension Layout {
    /// The layouts every booth has, usable by name without a file: `single-frame`, `strip-3`,
    /// `strip-4`, `grid-2x2`.
    package static let builtIn: [Layout] = [singleFrame, strip3, strip4, grid2x2]

    /// The built-in layout called `name`, if there is one.
    package static func builtIn(named name: String) -> Layout? {
        builtIn.first { $0.name == name }
    }

    /// One photo in a white frame on a 6x4 in print (1800x1200 at 300 dpi), the event's name
    /// and the date below it.
    static let singleFrame = Layout(
        name: "single-frame", width: 1800, height: 1200,
        slots: [PhotoSlot(x: 60, y: 60, width: 1680, height: 945)],
        texts: [
            TextItem(text: "{event}", x: 60, y: 1040, width: 1680, size: 64),
            TextItem(text: "{date}", x: 60, y: 1120, width: 1680, size: 40, color: .grey),
        ])

    /// Three shots down a 2x6 in strip (600x1800), the event's name and the date at the
    /// bottom.
    static let strip3 = Layout(
        name: "strip-3", width: 600, height: 1800,
        slots: (0..<3).map { PhotoSlot(x: 30, y: 30 + $0 * 435, width: 540, height: 405) },
        texts: [
            TextItem(text: "{event}", x: 30, y: 1400, width: 540, size: 56),
            TextItem(text: "{date}", x: 30, y: 1500, width: 540, size: 36, color: .grey),
        ])

    /// Four shots down a 2x6 in strip (600x1800), the classic booth strip.
    static let strip4 = Layout(
        name: "strip-4", width: 600, height: 1800,
        slots: (0..<4).map { PhotoSlot(x: 30, y: 30 + $0 * 390, width: 540, height: 360) },
        texts: [
            TextItem(text: "{event}", x: 30, y: 1610, width: 540, size: 52),
            TextItem(text: "{date}", x: 30, y: 1690, width: 540, size: 34, color: .grey),
        ])

    /// Four shots in two rows on a 6x4 in print, a band for the event's name and the date.
    static let grid2x2 = Layout(
        name: "grid-2x2", width: 1800, height: 1200,
        slots: [(40, 40), (910, 40), (40, 560), (910, 560)].map { PhotoSlot(x: $0.0, y: $0.1, width: 850, height: 500) },
        texts: [
            TextItem(text: "{event}", x: 40, y: 1100, width: 1000, size: 52, alignment: .left),
            TextItem(text: "{date}", x: 1060, y: 1108, width: 700, size: 40, color: .grey, alignment: .right),
        ])
}

extension PixelColor {
    /// The built-in layouts' dates.
    static let grey = PixelColor(red: 0x55, green: 0x55, blue: 0x55)
}
