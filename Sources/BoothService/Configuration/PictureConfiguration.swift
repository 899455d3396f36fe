import BoothCore
import BoothPictures
import BoothPrint
import Foundation

extension BoothConfiguration {
    /// The layout the booth composes its pictures in, read now so that a mistake stops the
    /// start with its file and line: `booth.layout` (a layout file next to the configuration
    /// file unless its path is absolute), or `strip-4` when the booth makes collages and names
    /// none; `nil` when it makes single photos without a layout.
    package func loadedLayout() throws(ConfigurationError) -> LoadedLayout? {
        let makesCollages = settings.modes.standard == .collage || settings.keys.modeKeys.values.contains(.collage)
        guard let name = pictureLayout ?? (makesCollages ? "strip-4" : nil) else { return nil }
        var path = name
        if Layout.builtIn(named: name) == nil, !name.hasPrefix("/"), let file {
            path = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(name).path
        }
        do {
            return try LoadedLayout.named(path)
        } catch {
            throw ConfigurationError(.notAllowed, key: "booth.layout", "booth.layout: \(error)")
        }
    }

    /// How the print thread prints: `print:` with its layout (`print.layout`) read now and
    /// checked against the paper, so that a mistake stops the start with its file and line;
    /// `nil` when the booth does not print.
    package func printSettings() throws(ConfigurationError) -> PrintSettings? {
        guard var settings = PrintSettings(printing) else { return nil }
        settings.blanks = layoutBlanks
        settings.dateFormat = dateFormat
        settings.defaultFont = hardware.screen.fonts.bold
        guard let name = printing.layout else { return settings }
        var path = name
        if !name.hasPrefix("/"), let file { path = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(name).path }
        do {
            let layout = try LayoutFile.read(path)
            guard PageMaker.fits(layout, on: printing.media) else {
                let sheet = "\(Double(printing.media.shortSide) / 2540) x \(Double(printing.media.longSide) / 2540) in"
                throw LayoutError(
                    .unreadable,
                    "\(path): the canvas \(layout.width)x\(layout.height) is not the shape of the paper (\(printing.media), \(sheet)); make it so, such as 1200x1800 for 4x6 at 300 dpi."
                )
            }
            _ = try LoadedLayout(layout)
            settings.layout = layout
        } catch {
            throw ConfigurationError(.notAllowed, key: "print.layout", "print.layout: \(error)")
        }
        return settings
    }

    /// The most a picture's sequence writes, for the longest mode the booth takes (its button's
    /// and its keys'): each shot as the camera's JPEG (at most a byte for every two pixels at
    /// quality 90) with its sidecar, and the composed picture as much again as its shots. A
    /// single photo's is its one shot.
    package var sequenceBytes: Int64 {
        let modes = Set([settings.modes.standard] + settings.keys.modeKeys.values)
        let shots = modes.map { settings.modes.shots(for: $0) }.max() ?? 1
        let shot = Int64(hardware.camera.width * hardware.camera.height / 2 + 8_192)
        return shot * Int64(shots > 1 ? 2 * shots : 1)
    }

    /// What the texts of a layout say besides the picture's date: the event, the booth.
    package var layoutBlanks: [TextBlank: String] {
        [.event: sync.event ?? web.boothName, .booth: web.boothName]
    }

    /// The settings of the booth's modes once its layout is known: a collage takes as many
    /// shots as the layout has slots, and a single photo is composed when a layout is named.
    package func modes(with layout: LoadedLayout?) -> PictureModes {
        var modes = settings.modes
        if let layout {
            modes.collageShots = layout.layout.slots.count
            modes.composesSingles = pictureLayout != nil
        }
        return modes
    }
}
