import BoothCore
import BoothImaging
import BoothPictures
import BoothScreen
import BoothStore
import Foundation

/// Makes a composed picture again from its shots, for `photobooth check --repair`: an
/// animation from its frames, a collage (or a framed photo) in its layout, when that is a
/// built-in one or the one the booth's configuration names; its texts as the booth wrote them,
/// with the first shot's date.
package struct PictureRecomposer: Sendable {
    /// The booth's configuration, when it reads: its layout file, fonts, event and date format.
    let configuration: BoothConfiguration?

    package init(configuration: BoothConfiguration?) {
        self.configuration = configuration
    }

    /// Why a picture cannot be made again.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    package func recompose(_ photo: Photo, shots: [Data]) throws -> Data {
        if photo.kind.isAnimated {
            return try AnimatedGIF.animation(
                of: shots, boomerang: photo.kind == .boomerang, delay: AnimatedGIF.frameDelay(photo.parts.map(\.createdAt)),
                memory: DecodeMemory())
        }
        guard let name = photo.layout else { throw Failure(description: "it names no layout") }
        let layout: LoadedLayout
        if let configured = try configuration?.loadedLayout(), configured.layout.name == name {
            layout = configured
        } else if Layout.builtIn(named: name) != nil {
            layout = try LoadedLayout.named(name)
        } else {
            throw Failure(description: "its layout \(name) is neither built in nor the one the configuration names")
        }
        let font = configuration?.hardware.screen.fonts.bold ?? ScreenFonts.dejaVu.bold
        let composer = try PictureComposer(layout, defaultFont: font)
        var blanks = configuration?.layoutBlanks ?? [:]
        if let first = photo.parts.first {
            blanks[.date] = (configuration?.dateFormat ?? BoothLanguage.english.dateFormat).string(from: first.createdAt)
        }
        return try composer.jpeg(shots: shots, blanks: blanks)
    }

    /// As the library's repair takes it.
    package var recomposer: Recomposer {
        { photo, shots in try recompose(photo, shots: shots) }
    }
}
