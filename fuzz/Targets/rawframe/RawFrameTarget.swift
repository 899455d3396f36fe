import BoothCore
import Foundation
import FuzzSupport

@testable import BoothDevices
@testable import BoothImaging

// A raw frame as the V4L2 driver describes and delivers it:
//
//   [format: 1 byte, even YUYV, odd RGB24 from libv4l2] [width: 4 bytes] [height: 4 bytes]
//   [bytes per row: 4 bytes] (big-endian, the driver's 32-bit fields) [the buffer's bytes]
//
// The sizes go through the session's own acceptance and encoding, the buffer through the
// capture thread's check; a frame that passes is encoded as the shot's JPEG and sampled for the
// live preview, or refused with an error.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRawFrame(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let plan: CameraSession.Plan = input.byte() & 1 == 0 ? .yuyv : .converted
    let fourCC: FourCC = plan == .yuyv ? .yuyv : .rgb24
    let mode = VideoDevice.NegotiatedFormat(
        fourCC: fourCC, width: Int(input.uint32()), height: Int(input.uint32()), bytesPerRow: Int(input.uint32()), frameBytes: 0)
    let bytes = Data(input.rest())
    guard CameraSession.accepts(mode, asked: fourCC) else { return 0 }
    let encoding = CameraSession.encoding(of: plan, in: mode)

    let buffer = CaptureStream.Buffer(bytes: bytes, damaged: false, timestamp: nil, sequence: 1)
    guard CameraSession.problem(with: buffer, encoding: encoding, width: mode.width, height: mode.height) == nil else { return 0 }

    let frame = CameraFrame(
        bytes: bytes, encoding: encoding, width: mode.width, height: mode.height, timestamp: MonotonicInstant(nanoseconds: 0),
        sequence: 1)
    // A frame the encoder cannot take (wider than JPEG allows, a YUYV row of an odd width) is
    // refused with an error, which the shot reports; one it takes keeps its size.
    if let jpeg = try? frame.photoJPEG() {
        let header = try? JPEGHeader(jpeg)
        require(header?.width == mode.width && header?.height == mode.height, "the shot's JPEG is \(String(describing: header))")
    }
    if let decoder = try? JPEGDecoder(), let preview = try? frame.previewBitmap(fitting: 320, 240, decoder: decoder) {
        require(preview.width <= 320 && preview.height <= 240, "a \(preview.width)x\(preview.height) preview")
    }
    return 0
}
