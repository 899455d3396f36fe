import BoothCore
import BoothPictures
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
