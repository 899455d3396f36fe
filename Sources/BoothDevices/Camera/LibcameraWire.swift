import BoothCore
import Foundation

/// How the camera process (`photobooth libcamera-camera`) hands frames to the booth over a
/// pipe: for each frame, a header of ``headerSize`` bytes (little-endian), the camera's model,
/// then the frame's bytes as libcamera delivered them.
enum LibcameraWire {
    static let magic: UInt32 = 0x434C_4250  // "PBLC"
    static let headerSize = 44
    /// The longest model name a record carries.
    static let maximumModel = 256
    /// The most bytes a frame may claim: a 4K frame of RGB with room to spare.
    static let maximumLength = 64 << 20

    struct Header: Sendable, Hashable {
        /// DRM fourcc of the frame's format.
        var format: UInt32
        var width: Int
        var height: Int
        var stride: Int
        var sequence: UInt32
        /// Nanoseconds of the monotonic clock: the sensor's timestamp.
        var timestamp: Int64
        var length: Int
        var modelLength: Int
    }

    /// The header and the model of `frame`'s record; `nil` for an encoding libcamera never gives.
    static func record(of frame: CameraFrame) -> (header: [UInt8], model: [UInt8])? {
        let format: UInt32
        let stride: Int
        switch frame.encoding {
        case .yuv420(let bytesPerRow): (format, stride) = (LibcameraCamera.fourcc("YU12"), bytesPerRow)
        case .rgb24(let bytesPerRow): (format, stride) = (LibcameraCamera.fourcc("BG24"), bytesPerRow)
        case .mjpeg: (format, stride) = (LibcameraCamera.fourcc("MJPG"), 0)
        case .yuyv: return nil
        }
        let model = Array((frame.source?.model ?? "").utf8.prefix(maximumModel))
        var header = [UInt8]()
        header.reserveCapacity(headerSize)
        for word in [magic, format, UInt32(frame.width), UInt32(frame.height), UInt32(stride), UInt32(truncatingIfNeeded: frame.sequence)] {
            withUnsafeBytes(of: word.littleEndian) { header += $0 }
        }
        withUnsafeBytes(of: frame.timestamp.nanoseconds.littleEndian) { header += $0 }
        for word in [UInt32(frame.bytes.count), UInt32(model.count), 0] {
            withUnsafeBytes(of: word.littleEndian) { header += $0 }
        }
        return (header, model)
    }

    /// Reads a header; throws when it is not one (the camera process wrote something else).
    static func header(_ bytes: UnsafeRawBufferPointer) throws(DeviceError) -> Header {
        precondition(bytes.count >= headerSize)
        func word(_ index: Int) -> UInt32 { UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)) }
        guard word(0) == magic else {
            throw DeviceError.unsupported.detailed("the camera process wrote something that is not a frame (\(String(word(0), radix: 16))).")
        }
        let header = Header(
            format: word(1), width: Int(word(2)), height: Int(word(3)), stride: Int(word(4)), sequence: word(5),
            timestamp: Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: Int64.self)), length: Int(word(8)),
            modelLength: Int(word(9)))
        guard header.length <= maximumLength, header.modelLength <= maximumModel else {
            throw DeviceError.unsupported.detailed(
                "the camera process announced a frame of \(header.length) bytes and a model of \(header.modelLength), more than a frame can be.")
        }
        return header
    }

    /// The frame a record holds; `nil` when its format is none the booth reads, its size is
    /// out of bounds, or its bytes are fewer than its size needs.
    static func frame(_ header: Header, model: String, bytes: Data) -> CameraFrame? {
        let shape = FrameShape(width: header.width, height: header.height, stride: header.stride, format: header.format)
        guard let encoding = shape.encoding, shape.isReadable,
            bytes.count >= encoding.bytesNeeded(width: header.width, height: header.height) ?? 1
        else { return nil }
        return CameraFrame(
            bytes: bytes, encoding: encoding, width: header.width, height: header.height,
            timestamp: MonotonicInstant(nanoseconds: header.timestamp), sequence: UInt64(header.sequence),
            source: model.isEmpty ? nil : CameraModel(make: nil, model: model))
    }
}
