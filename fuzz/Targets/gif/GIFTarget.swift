import BoothCore
import Foundation
import FuzzSupport

@testable import BoothImaging

// An animation's GIF as another booth's bucket or a library's folder may hand it over: its
// block structure, the first frame (thumbnail, check), every frame as the booth's screen plays
// them, and the copy that carries the picture's XMP. A GIF that reads keeps its frames and
// canvas through the copy; one that does not is refused with an error.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let side = Int(input.byte() % 64) + 1
    let data = Data(input.rest())
    guard let file = try? GIFFile(data) else { return 0 }
    require(file.frameCount >= 1, "a GIF that reads has an image")
    if let first = try? file.firstFrame() {
        require(first.width == file.width && first.height == file.height, "the first frame is \(first.width)x\(first.height)")
    }
    // Small limits: the fuzzer's GIFs claim canvases of up to 65535 pixels a side.
    if let picture = try? file.screenPicture(fitting: PixelSize(width: side, height: side), byteLimit: 1 << 20) {
        require(picture.width <= side && picture.height <= side, "a frame of \(picture.width)x\(picture.height) for \(side)")
        require(picture.sequence.count <= file.frameCount, "more steps than images")
        require(picture.byteCount <= (1 << 20) || picture.frames.count == 1, "\(picture.byteCount) bytes of frames kept")
        if picture.isMoving {
            let (_, next) = picture.frame(at: .milliseconds(Int64(side) * 37))
            require(next != nil && next! > .milliseconds(Int64(side) * 37), "the next frame is not later")
        }
    }
    let copy = file.tagged(with: "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">fuzz</x:xmpmeta>")
    guard let again = try? GIFFile(copy) else {
        require(false, "the tagged copy of a GIF that reads does not read")
        return 0
    }
    require(again.frameCount == file.frameCount && again.width == file.width, "the copy changed the GIF")
    return 0
}
