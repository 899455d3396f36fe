import BoothImaging
import CDRM
import Glibc

/// How a KMS buffer stores its pixels: the booth's canvas (XRGB), its transparent layer
/// (premultiplied ARGB), or a camera's decoded YUV, one plane per component.
package enum KMSPixelFormat: Sendable, Hashable, CustomStringConvertible {
    /// 32 bits, `0xXXRRGGBB`: the canvas's own layout.
    case xrgb8888
    /// 32 bits, `0xAARRGGBB`, the colour premultiplied by alpha: the layer over the preview.
    case argb8888
    /// Three planes, chroma at half width and half height (a JPEG's 4:2:0).
    case yuv420
    /// Three planes, chroma at half width (most webcams' 4:2:2).
    case yuv422
    /// Three planes, all at full size.
    case yuv444

    /// The kernel's code for the format (`DRM_FORMAT_...`).
    var fourcc: UInt32 {
        switch self {
        case .xrgb8888: CDRM_FORMAT_XRGB8888
        case .argb8888: CDRM_FORMAT_ARGB8888
        case .yuv420: CDRM_FORMAT_YUV420
        case .yuv422: CDRM_FORMAT_YUV422
        case .yuv444: CDRM_FORMAT_YUV444
        }
    }

    var isYUV: Bool { self != .xrgb8888 && self != .argb8888 }

    /// How much narrower and shorter than the picture the chroma planes are.
    var chromaDivisors: (width: Int, height: Int) {
        switch self {
        case .yuv420: (2, 2)
        case .yuv422: (2, 1)
        case .xrgb8888, .argb8888, .yuv444: (1, 1)
        }
    }

    /// The bytes per row a buffer of `width` pixels is asked for: for YUV, luma rows a multiple
    /// of 64 bytes, so that chroma rows start aligned too.
    package func requestedRowLength(width: Int) -> Int {
        isYUV ? (width + 63) / 64 * 64 : width * 4
    }

    /// Where each plane starts in one buffer of `height` rows whose first plane's rows are
    /// `bytesPerRow` long, and the bytes from one row to the next in it: the Y plane, then U
    /// and V below it (each chroma row as much shorter as the chroma is narrower); one plane for
    /// RGB. `length` is the buffer's size.
    package func planes(bytesPerRow: Int, height: Int) -> (planes: [(offset: Int, bytesPerRow: Int)], length: Int) {
        guard isYUV else { return ([(0, bytesPerRow)], bytesPerRow * height) }
        let chromaPitch = bytesPerRow / chromaDivisors.width
        let chromaLength = chromaPitch * height / chromaDivisors.height
        let luma = bytesPerRow * height
        return ([(0, bytesPerRow), (luma, chromaPitch), (luma + chromaLength, chromaPitch)], luma + 2 * chromaLength)
    }

    package var description: String {
        switch self {
        case .xrgb8888: "XRGB8888"
        case .argb8888: "ARGB8888"
        case .yuv420: "YUV420"
        case .yuv422: "YUV422"
        case .yuv444: "YUV444"
        }
    }
}

extension KMSPixelFormat {
    /// The planar YUV format that holds a JPEG's planes of `sampling`.
    package init(_ sampling: ChromaSampling) {
        switch sampling {
        case .full: self = .yuv444
        case .halfWidth: self = .yuv422
        case .halfWidthAndHeight: self = .yuv420
        }
    }
}

/// Where a buffer's pixels are, for whoever fills it: one plane for RGB, three for YUV (Y, U,
/// V), each with its start and the bytes from one row to the next.
package struct KMSPicture {
    package let format: KMSPixelFormat
    package let width: Int
    package let height: Int
    package let planes: [(base: UnsafeMutableRawPointer, bytesPerRow: Int)]
}

/// A buffer the display scans out: a "dumb" buffer of the driver's memory, mapped into ours, and
/// the framebuffer object that shows it on a plane. It belongs to the display's render thread
/// and is freed exactly once, when the last reference goes.
final class KMSBuffer {
    let picture: KMSPicture
    /// The framebuffer object's id, what a plane's `FB_ID` names.
    let framebuffer: UInt32
    private let card: Int32
    private let handle: UInt32
    private let mapping: UnsafeMutableRawPointer
    private let mappedLength: Int

    /// Allocates and maps a `width` x `height` buffer in `format` (even sizes for YUV). The
    /// corresponding C functions are `drmModeCreateDumbBuffer`, `drmModeMapDumbBuffer`, `mmap`
    /// and `drmModeAddFB2`.
    init(card: Int32, device: String, width: Int, height: Int, format: KMSPixelFormat) throws(DeviceError) {
        // A YUV picture is one buffer of bytes (``KMSPixelFormat/planes(bytesPerRow:height:)``),
        // asked for as rows of 8-bit pixels.
        let requested = format.requestedRowLength(width: width)
        let bitsPerPixel: UInt32 = format.isYUV ? 8 : 32
        let allocatedWidth = format.isYUV ? requested : width
        let rows = format.planes(bytesPerRow: requested, height: height).length / requested
        var handle: UInt32 = 0
        var pitch: UInt32 = 0
        var size: UInt64 = 0
        var status = drmModeCreateDumbBuffer(card, UInt32(allocatedWidth), UInt32(rows), bitsPerPixel, 0, &handle, &pitch, &size)
        guard status == 0 else { throw DeviceError.systemCall("DRM_IOCTL_MODE_CREATE_DUMB", on: device, errno: -status) }
        var offset: UInt64 = 0
        status = drmModeMapDumbBuffer(card, handle, &offset)
        let mapping =
            status == 0 ? mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, card, off_t(truncatingIfNeeded: offset)) : nil
        guard let mapping, mapping != MAP_FAILED else {
            let code = status == 0 ? errno : -status
            _ = drmModeDestroyDumbBuffer(card, handle)
            throw DeviceError.systemCall("mapping a display buffer", on: device, errno: code)
        }
        let lumaPitch = Int(pitch)
        let planes = format.planes(bytesPerRow: lumaPitch, height: height).planes.map {
            (base: mapping + $0.offset, bytesPerRow: $0.bytesPerRow)
        }
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, format.isYUV ? handle : 0, format.isYUV ? handle : 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &pitches) { pitches in
            withUnsafeMutableBytes(of: &offsets) { offsets in
                for (index, plane) in planes.enumerated() {
                    pitches.storeBytes(of: UInt32(plane.bytesPerRow), toByteOffset: index * 4, as: UInt32.self)
                    offsets.storeBytes(of: UInt32(mapping.distance(to: plane.base)), toByteOffset: index * 4, as: UInt32.self)
                }
            }
        }
        var framebuffer: UInt32 = 0
        status = withUnsafePointer(to: &handles.0) { handles in
            withUnsafePointer(to: &pitches.0) { pitches in
                withUnsafePointer(to: &offsets.0) { offsets in
                    drmModeAddFB2(card, UInt32(width), UInt32(height), format.fourcc, handles, pitches, offsets, &framebuffer, 0)
                }
            }
        }
        guard status == 0 else {
            munmap(mapping, Int(size))
            _ = drmModeDestroyDumbBuffer(card, handle)
            throw DeviceError.systemCall("DRM_IOCTL_MODE_ADDFB2 (\(format), \(width)x\(height))", on: device, errno: -status)
        }
        // A new buffer shows black (or nothing, on a transparent layer) until drawn.
        if format.isYUV {
            planes[0].base.initializeMemory(as: UInt8.self, repeating: 16, count: lumaPitch * height)
            mapping.advanced(by: lumaPitch * height).initializeMemory(
                as: UInt8.self, repeating: 128, count: Int(size) - lumaPitch * height)
        } else {
            mapping.initializeMemory(as: UInt8.self, repeating: 0, count: Int(size))
        }
        picture = KMSPicture(format: format, width: width, height: height, planes: planes)
        self.framebuffer = framebuffer
        self.card = card
        self.handle = handle
        self.mapping = mapping
        mappedLength = Int(size)
    }

    deinit {
        _ = drmModeRmFB(card, framebuffer)
        munmap(mapping, mappedLength)
        _ = drmModeDestroyDumbBuffer(card, handle)
    }
}

extension KMSPicture {
    /// Copies a picture of `pixelWidth` by `pixelHeight` 32-bit pixels (the booth's canvas:
    /// `0xAARRGGBB`, rows top to bottom) into this XRGB or ARGB buffer, a row at a time; a
    /// picture of another size is clipped.
    package func copy(pixels: [UInt32], width pixelWidth: Int, height pixelHeight: Int) {
        precondition(!format.isYUV, "only an RGB buffer takes the canvas's pixels")
        precondition(pixels.count >= pixelWidth * pixelHeight, "fewer pixels than the picture's size")
        let (target, bytesPerRow) = planes[0]
        let columns = min(width, pixelWidth)
        pixels.withUnsafeBytes { source in
            for row in 0..<min(height, pixelHeight) {
                (target + row * bytesPerRow).copyMemory(from: source.baseAddress! + row * pixelWidth * 4, byteCount: columns * 4)
            }
        }
    }

    /// Shows `bitmap` (`.bgrx`, no larger than this buffer) centred in this XRGB buffer, on
    /// black: a preview the display cannot scale, fitted by the booth.
    package func showCentred(_ bitmap: Bitmap) {
        precondition(format == .xrgb8888 && bitmap.format == .bgrx, "a fitted preview is XRGB")
        let (base, bytesPerRow) = planes[0]
        let columns = min(width, bitmap.width)
        let rows = min(height, bitmap.height)
        let left = (width - columns) / 2
        let top = (height - rows) / 2
        bitmap.pixels.withUnsafeBytes { source in
            for row in 0..<height {
                let target = base + row * bytesPerRow
                guard row >= top, row < top + rows else {
                    target.initializeMemory(as: UInt8.self, repeating: 0, count: width * 4)
                    continue
                }
                target.initializeMemory(as: UInt8.self, repeating: 0, count: left * 4)
                (target + left * 4).copyMemory(
                    from: source.baseAddress! + (row - top) * bitmap.bytesPerRow, byteCount: columns * 4)
                (target + (left + columns) * 4).initializeMemory(as: UInt8.self, repeating: 0, count: (width - left - columns) * 4)
            }
        }
    }
}
