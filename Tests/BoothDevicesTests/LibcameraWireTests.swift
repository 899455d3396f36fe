import BoothCore
import Foundation
import Testing

@testable import BoothDevices

@Suite("The libcamera camera process's frames")
struct LibcameraWireTests {
    func frame(_ encoding: CameraFrame.Encoding, width: Int, height: Int, count: Int, model: String? = "imx708") -> CameraFrame {
        CameraFrame(
            bytes: Data((0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) }), encoding: encoding, width: width, height: height,
            timestamp: MonotonicInstant(nanoseconds: 12_085_051_000), sequence: 41, source: model.map { CameraModel(make: nil, model: $0) })
    }

    /// `frame` through the pipe's record and back.
    func roundTrip(_ frame: CameraFrame) throws -> CameraFrame? {
        let (header, model) = try #require(LibcameraWire.record(of: frame))
        #expect(header.count == LibcameraWire.headerSize)
        let parsed = try header.withUnsafeBytes { try LibcameraWire.header($0) }
        #expect(parsed.length == frame.bytes.count && parsed.modelLength == model.count)
        return LibcameraWire.frame(parsed, model: String(decoding: model, as: UTF8.self), bytes: frame.bytes)
    }

    @Test(
        "A frame comes out of the pipe as it went in: bytes, size, encoding, sensor time, sequence, model",
        arguments: [
            CameraFrame.Encoding.yuv420(bytesPerRow: 704), .rgb24(bytesPerRow: 1920),
        ])
    func roundTrips(encoding: CameraFrame.Encoding) throws {
        let sent = frame(encoding, width: 640, height: 480, count: encoding.bytesNeeded(width: 640, height: 480)!)
        let received = try #require(try roundTrip(sent))
        #expect(received.bytes == sent.bytes && received.encoding == sent.encoding)
        #expect(received.width == 640 && received.height == 480)
        #expect(received.timestamp == sent.timestamp && received.sequence == 41 && received.source?.model == "imx708")
    }

    @Test("A frame shorter than its size needs, or of no size, is dropped, not read past its end")
    func shortFrames() throws {
        #expect(try roundTrip(frame(.yuv420(bytesPerRow: 640), width: 640, height: 480, count: 640 * 480)) == nil)
        #expect(try roundTrip(frame(.rgb24(bytesPerRow: 0), width: 0, height: 480, count: 100)) == nil)
    }

    @Test("Bytes that are not a record, or claim more than a frame can be, are refused")
    func garbage() throws {
        let (header, _) = try #require(LibcameraWire.record(of: frame(.rgb24(bytesPerRow: 48), width: 16, height: 16, count: 768)))
        var wrong = header
        wrong[0] ^= 0xFF
        #expect(throws: DeviceError.self) { try wrong.withUnsafeBytes { try LibcameraWire.header($0) } }
        var huge = header
        huge.replaceSubrange(32..<36, with: [0xFF, 0xFF, 0xFF, 0x7F])
        #expect(throws: DeviceError.self) { try huge.withUnsafeBytes { try LibcameraWire.header($0) } }
    }

    @Test("camera.device names a libcamera camera by its place or its id, and nothing else")
    func choice() {
        #expect(LibcameraCamera.Choice(device: "libcamera:0") == .index(0))
        #expect(LibcameraCamera.Choice(device: "libcamera:/base/soc/i2c0mux/i2c@1/imx708@1a") == .id("/base/soc/i2c0mux/i2c@1/imx708@1a"))
        #expect(LibcameraCamera.Choice(device: "libcamera:platform/vimc.0 Sensor B") == .id("platform/vimc.0 Sensor B"))
        #expect(LibcameraCamera.Choice(device: "libcamera:") == nil)
        #expect(LibcameraCamera.Choice(device: "/dev/video0") == nil)
        #expect(LibcameraCamera.Choice(device: "libcamera:0")?.description == "libcamera:0")
    }
}
