import BoothCore
import Foundation
import Testing

@Suite("Photo link")
struct PhotoLinkTests {
    let link = PhotoLink(page: "http://booth.local/photos/3f2c9a4e-0b1d-4c6e-9f8a-2d4b6c8e0a1f", deletionKey: "Z0wIAHXlYlY7mR3K9QTLsPq8cQE")

    @Test("The guest gets the page with the deletion key; anyone else the page alone")
    func addresses() {
        #expect(link.address(for: .guest) == "http://booth.local/photos/3f2c9a4e-0b1d-4c6e-9f8a-2d4b6c8e0a1f?key=Z0wIAHXlYlY7mR3K9QTLsPq8cQE")
        #expect(link.address(for: .anyone) == "http://booth.local/photos/3f2c9a4e-0b1d-4c6e-9f8a-2d4b6c8e0a1f")
        let keyless: PhotoLink = "http://booth.local/photos/3f2c9a4e-0b1d-4c6e-9f8a-2d4b6c8e0a1f"
        #expect(keyless.address(for: .guest) == keyless.page && keyless.deletionKey == nil)
    }

    @Test("A link's text, alone or in a screen's content as an error message writes it, never carries the key")
    func textWithoutKey() {
        let content = ScreenContent.saved(Caption(sanitizing: "Ann")!, photo: UUID(), link: link)
        #expect("\(link)" == link.page)
        for text in ["\(content)", String(reflecting: content), String(describing: [content]), "\(Optional(link) as Any)"] {
            #expect(text.contains(link.page), "\(text)")
            #expect(!text.contains("Z0wIAHXlYlY7mR3K9QTLsPq8cQE"), "\(text)")
        }
    }
}
