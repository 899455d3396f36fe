import Foundation
import Testing

@testable import BoothSync

@Suite struct BucketLayoutTests {
    let layout = BucketLayout(event: "Anna & Ben", booth: "Booth 2")
    let id = UUID(uuidString: "3f2c9a4e-0b1d-4c6e-9f8a-2d4b6c8e0a1f")!

    @Test func eachKindOfObjectHasItsFolderAndAnOriginalIsAJPEGOrAGIF() {
        #expect(layout.originalKey(of: id, animated: false) == "anna-ben/booth-2/photos/3f2c9a4e-0b1d-4c6e-9f8a-2d4b6c8e0a1f.jpg")
        #expect(layout.originalKey(of: id, animated: true) == "anna-ben/booth-2/photos/3f2c9a4e-0b1d-4c6e-9f8a-2d4b6c8e0a1f.gif")
        #expect(layout.key(.part, of: id) == "anna-ben/booth-2/parts/3f2c9a4e-0b1d-4c6e-9f8a-2d4b6c8e0a1f.jpg")
        for key in layout.originalKeys(of: id, booth: "booth-1") {
            let parsed = layout.parse(key)
            #expect(parsed?.booth == "booth-1" && parsed?.kind == .photo && parsed?.id == id, "\(key)")
        }
        #expect(layout.parse(layout.key(.part, of: id))?.kind == .part)
        // What the booth never writes is not taken for one of its objects.
        #expect(layout.parse("anna-ben/booth-2/photos/\(id.lowercased).png") == nil)
        #expect(layout.parse("anna-ben/booth-2/thumbnails/\(id.lowercased).gif") == nil)
        #expect(layout.parse("anna-ben/booth-2/records/\(id.lowercased).jpg") == nil)
    }
}
