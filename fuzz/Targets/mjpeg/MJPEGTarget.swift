import BoothCore
import Foundation
import FuzzSupport

@testable import BoothDevices
@testable import BoothImaging

// A Motion JPEG frame as a webcam delivers it, and the name a guest gives the photo:
//
//   [name's length: 1 byte] [name: UTF-8] [frame]
//
// The frame goes where the booth sends every frame and every shot: the capture thread's check,
// the live preview's decode, the MJPEG repair, the shot's decode (review picture, thumbnail,
// perceptual hash) and the metadata spliced into a download.

private let shots = ShotDecoder(screen: PixelSize(width: 800, height: 480))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMJPEG(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let name = Caption(sanitizing: input.take(Int(input.byte()))) ?? .placeholder(number: 1)
    let bytes = Data(input.rest())

    let buffer = CaptureStream.Buffer(bytes: bytes, damaged: false, timestamp: nil, sequence: 1)
    _ = CameraSession.problem(with: buffer, encoding: .mjpeg, width: 640, height: 480)

    let frame = CameraFrame(
        bytes: bytes, encoding: .mjpeg, width: 640, height: 480, timestamp: MonotonicInstant(nanoseconds: 0), sequence: 1)
    if let decoder = try? JPEGDecoder() {
        _ = try? frame.previewBitmap(fitting: 320, 240, decoder: decoder)
    }

    guard let repaired = try? frame.photoJPEG() else { return 0 }
    // What the repair promises: a standard JPEG with its Huffman tables, which it leaves as it is.
    let structure: JPEGSegments
    do {
        structure = try JPEGSegments(repaired)
    } catch {
        fatalError("broken promise: the repaired frame does not parse: \(error)")
    }
    require(structure.hasHuffmanTables, "the repaired frame has no Huffman tables")
    require((try? JPEGSegments.repairedMJPEG(repaired)) == repaired, "repairing a repaired frame changes it")
    let stripped = structure.removingHuffmanTables()
    require((try? JPEGSegments(stripped)) != nil, "the frame without its tables does not parse")

    _ = try? shots.decode(repaired)

    // A download: the name and time spliced in, every byte of the picture kept.
    let metadata = PhotoMetadata(
        id: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)), title: name.text,
        createdAt: Date(timeIntervalSince1970: 1_795_000_000), utcOffsetSeconds: 3600,
        camera: CameraModel(make: "Fuzz", model: "MJPEG"), software: "photobooth", booth: "booth", event: "event")
    if let tagged = try? JPEGSegments.tagged(repaired, with: metadata) {
        let image = try? JPEGSegments(tagged).imageData
        require(image == structure.imageData, "the metadata splice changed the picture's bytes")
    }
    return 0
}
