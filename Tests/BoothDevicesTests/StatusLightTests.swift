import BoothCore
import Foundation
import Testing

@testable import BoothDevices

@Suite("Status light")
struct StatusLightTests {
    @Test("The light is on wherever a press takes a photo: the main screen and the gallery; it blinks during the countdown and is off otherwise")
    func patterns() {
        let list = GalleryList(position: GalleryPosition(index: 0, count: 3))
        #expect(StatusLight.Pattern(for: .ready) == .on)
        #expect(StatusLight.Pattern(for: .gallery(list)) == .on)
        #expect(StatusLight.Pattern(for: .photo(GalleryPhoto(position: list.position))) == .on)
        #expect(StatusLight.Pattern(for: .countdown(secondsLeft: 2)) == .blinking)
        for content in [
            ScreenContent.smile, .saving, .naming(typed: "", placeholder: .placeholder(number: 1), photo: UUID()), .fault(.cameraMissing),
        ] {
            #expect(StatusLight.Pattern(for: content) == .off, "\(content)")
        }
    }

    @Test("While the printer holds prints the light still says a press takes a photo, with a wink")
    func printerFault() {
        #expect(StatusLight.Pattern(for: .ready, printerFault: .mediaEmpty) == .winking)
        #expect(StatusLight.Pattern(for: .countdown(secondsLeft: 1), printerFault: .mediaEmpty) == .blinking)
        #expect(StatusLight.Pattern(for: .saving, printerFault: .mediaEmpty) == .off)
        #expect(StatusLight.Pattern(for: .ready, printerFault: nil) == .on)
    }
}
