import BoothSystem
import CV4L2
import Foundation
import SystemPackage

/// An open V4L2 video capture device: the file descriptor, and the ioctls the booth uses on it.
///
/// A device is opened either directly (MJPEG and YUYV, the formats the booth handles itself) or
/// through libv4l2, whose user-space conversion turns Bayer and vendor formats into RGB. Every
/// call goes through the same three functions (ioctl, mmap, munmap), picked at open.
final class VideoDevice {
    /// How the device is reached.
    enum Access {
        /// System calls on the device node.
        case direct
        /// libv4l2, converting formats the booth cannot read into RGB.
        case converting
    }

    let path: String
    let access: Access
    let descriptor: FileDescriptor

    /// Opens `path` for capture. A missing node or an unplugged device is
    /// ``DeviceError/disconnected``.
    init(path: String, access: Access = .direct) throws(DeviceError) {
        self.path = path
        self.access = access
        let descriptor: FileDescriptor
        do {
            descriptor = try Errno.catching { try FileDescriptor.open(FilePath(path), .readWrite, options: [.nonBlocking, .closeOnExec]) }
        } catch {
            throw .systemCall("open", on: path, errno: error)
        }
        if access == .converting {
            guard cv4l2_libv4l2_open(descriptor.rawValue) == descriptor.rawValue else {
                let code = Errno.lastError
                try? descriptor.close()
                throw .systemCall("v4l2_fd_open (libv4l2)", on: path, errno: code)
            }
        }
        self.descriptor = descriptor
    }

    deinit {
        switch access {
        case .direct: try? descriptor.close()
        case .converting: _ = cv4l2_libv4l2_close(descriptor.rawValue)
        }
    }

    /// Runs one ioctl, throwing the errno as a typed error that names the request.
    func control<Argument>(_ request: UInt, _ name: String, _ argument: inout Argument) throws(DeviceError) {
        do {
            try call(request, &argument)
        } catch {
            throw .systemCall(name, on: path, errno: error)
        }
    }

    /// Like ``control(_:_:_:)`` for enumerations and optional requests: `false` when the index is
    /// past the end (EINVAL) or the driver lacks the request (ENOTTY).
    func enumerate<Argument>(_ request: UInt, _ name: String, _ argument: inout Argument) throws(DeviceError) -> Bool {
        do {
            try call(request, &argument)
            return true
        } catch  where error == .invalidArgument || error == .inappropriateIOCTLForDevice {
            return false
        } catch {
            throw .systemCall(name, on: path, errno: error)
        }
    }

    /// One ioctl, through libv4l2 when converting.
    func call<Argument>(_ request: UInt, _ argument: inout Argument) throws(Errno) {
        try withUnsafeMutablePointer(to: &argument) { pointer throws(Errno) in
            _ = try SystemCall.retrying {
                switch access {
                case .direct: cv4l2_ioctl(descriptor.rawValue, request, pointer)
                case .converting: cv4l2_libv4l2_ioctl(descriptor.rawValue, request, pointer)
                }
            }
        }
    }

    func map(length: Int, offset: UInt32) throws(DeviceError) -> UnsafeMutableRawPointer {
        let address: UnsafeMutableRawPointer? =
            switch access {
            case .direct: mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor.rawValue, off_t(offset))
            case .converting:
                cv4l2_libv4l2_mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor.rawValue, Int64(offset))
            }
        guard let address, address != MAP_FAILED else { throw .systemCall("mmap", on: path, errno: errno) }
        return address
    }

    func unmap(_ address: UnsafeMutableRawPointer, length: Int) {
        switch access {
        case .direct: munmap(address, length)
        case .converting: _ = cv4l2_libv4l2_munmap(address, length)
        }
    }
}

// MARK: - What the device offers

/// A four-character pixel format code, as V4L2 spells formats.
struct FourCC: Hashable, CustomStringConvertible {
    let rawValue: UInt32

    static let mjpeg = FourCC(rawValue: cv4l2_PIX_FMT_MJPEG)
    static let jpeg = FourCC(rawValue: cv4l2_PIX_FMT_JPEG)
    static let yuyv = FourCC(rawValue: cv4l2_PIX_FMT_YUYV)
    static let rgb24 = FourCC(rawValue: cv4l2_PIX_FMT_RGB24)

    /// The four characters, such as `MJPG` or `BA81`.
    var description: String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (8 * $0)) }
        return String(decoding: bytes.map { (32...126).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}

/// A frame size a device offers for a format.
enum FrameSizes: Equatable, CustomStringConvertible {
    case discrete([(width: Int, height: Int)])
    case range(minWidth: Int, maxWidth: Int, minHeight: Int, maxHeight: Int)

    static func == (lhs: FrameSizes, rhs: FrameSizes) -> Bool { lhs.description == rhs.description }

    var description: String {
        switch self {
        case .discrete(let sizes): sizes.map { "\($0.width)x\($0.height)" }.joined(separator: " ")
        case .range(let minWidth, let maxWidth, let minHeight, let maxHeight):
            "\(minWidth)x\(minHeight) to \(maxWidth)x\(maxHeight)"
        }
    }
}

/// One format in a device's list.
struct OfferedFormat {
    let fourCC: FourCC
    let name: String
    /// Produced by libv4l2's conversion rather than by the device.
    let emulated: Bool
}

extension VideoDevice {
    /// The driver, card and bus, and whether the device can stream video frames at all.
    struct Capabilities {
        let driver: String
        let card: String
        let bus: String
        let canCapture: Bool
        let canStream: Bool
    }

    func capabilities() throws(DeviceError) -> Capabilities {
        var capability = v4l2_capability()
        try control(cv4l2_VIDIOC_QUERYCAP, "VIDIOC_QUERYCAP", &capability)
        // device_caps describes this node; capabilities the whole physical device.
        let caps =
            capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0
            ? capability.device_caps : capability.capabilities
        return Capabilities(
            driver: Self.string(capability.driver), card: Self.string(capability.card),
            bus: Self.string(capability.bus_info),
            canCapture: caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0,
            canStream: caps & UInt32(V4L2_CAP_STREAMING) != 0)
    }

    /// Every capture format, in the driver's order.
    func formats() throws(DeviceError) -> [OfferedFormat] {
        var formats: [OfferedFormat] = []
        for index in 0..<256 {
            var description = v4l2_fmtdesc()
            description.index = UInt32(index)
            description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            guard try enumerate(cv4l2_VIDIOC_ENUM_FMT, "VIDIOC_ENUM_FMT", &description) else { break }
            formats.append(
                OfferedFormat(
                    fourCC: FourCC(rawValue: description.pixelformat), name: Self.string(description.description),
                    emulated: description.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0))
        }
        return formats
    }

    /// The sizes offered for `format`; `nil` when the driver does not enumerate them.
    func frameSizes(for format: FourCC) throws(DeviceError) -> FrameSizes? {
        var sizes: [(width: Int, height: Int)] = []
        for index in 0..<256 {
            var size = v4l2_frmsizeenum()
            size.index = UInt32(index)
            size.pixel_format = format.rawValue
            guard try enumerate(cv4l2_VIDIOC_ENUM_FRAMESIZES, "VIDIOC_ENUM_FRAMESIZES", &size) else { break }
            if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                sizes.append((Int(size.discrete.width), Int(size.discrete.height)))
            } else {
                return .range(
                    minWidth: Int(size.stepwise.min_width), maxWidth: Int(size.stepwise.max_width),
                    minHeight: Int(size.stepwise.min_height), maxHeight: Int(size.stepwise.max_height))
            }
        }
        return sizes.isEmpty ? nil : .discrete(sizes)
    }

    /// The frame rates offered for `format` at a size, in frames per second, fastest first.
    func frameRates(for format: FourCC, width: Int, height: Int) throws(DeviceError) -> [Double] {
        var rates: [Double] = []
        for index in 0..<64 {
            var interval = v4l2_frmivalenum()
            interval.index = UInt32(index)
            interval.pixel_format = format.rawValue
            interval.width = UInt32(width)
            interval.height = UInt32(height)
            guard try enumerate(cv4l2_VIDIOC_ENUM_FRAMEINTERVALS, "VIDIOC_ENUM_FRAMEINTERVALS", &interval) else { break }
            // Stepwise intervals: the fastest end of the range stands for all of it.
            let fraction = interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue ? interval.discrete : interval.stepwise.min
            if fraction.numerator > 0 { rates.append(Double(fraction.denominator) / Double(fraction.numerator)) }
            if interval.type != V4L2_FRMIVAL_TYPE_DISCRETE.rawValue { break }
        }
        return rates.sorted(by: >)
    }

    /// The format the driver agreed to: it may change the size (to the nearest it has) and
    /// says how many bytes a row and a frame take.
    struct NegotiatedFormat {
        let fourCC: FourCC
        let width: Int
        let height: Int
        let bytesPerRow: Int
        let frameBytes: Int
    }

    /// Asks for `format` at `width` x `height` (VIDIOC_S_FMT) and returns what the driver chose.
    func setFormat(_ format: FourCC, width: Int, height: Int) throws(DeviceError) -> NegotiatedFormat {
        var request = v4l2_format()
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.fmt.pix.width = UInt32(width)
        request.fmt.pix.height = UInt32(height)
        request.fmt.pix.pixelformat = format.rawValue
        request.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try control(cv4l2_VIDIOC_S_FMT, "VIDIOC_S_FMT", &request)
        let pix = request.fmt.pix
        return NegotiatedFormat(
            fourCC: FourCC(rawValue: pix.pixelformat), width: Int(pix.width), height: Int(pix.height),
            bytesPerRow: Int(pix.bytesperline), frameBytes: Int(pix.sizeimage))
    }

    /// Asks for `framesPerSecond` (VIDIOC_S_PARM); returns the rate the driver chose, or `nil`
    /// when the driver does not let applications choose.
    func setFrameRate(_ framesPerSecond: Int) throws(DeviceError) -> Double? {
        var parameters = v4l2_streamparm()
        parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        guard try enumerate(cv4l2_VIDIOC_G_PARM, "VIDIOC_G_PARM", &parameters),
            parameters.parm.capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0
        else { return nil }
        parameters.parm.capture.timeperframe = v4l2_fract(numerator: 1, denominator: UInt32(framesPerSecond))
        // A driver that will not take the rate streams at its own: not a reason to fail.
        guard try enumerate(cv4l2_VIDIOC_S_PARM, "VIDIOC_S_PARM", &parameters) else { return nil }
        let chosen = parameters.parm.capture.timeperframe
        return chosen.numerator > 0 ? Double(chosen.denominator) / Double(chosen.numerator) : nil
    }

    /// A fixed-size C character array as a Swift string.
    private static func string<Tuple>(_ tuple: Tuple) -> String {
        withUnsafeBytes(of: tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
