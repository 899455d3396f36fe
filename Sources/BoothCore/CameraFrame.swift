import Foundation

/// One frame as a camera delivered it, with the kernel time at which it was exposed.
public struct CameraFrame: Sendable {
    /// How the frame's bytes are encoded.
    public enum Encoding: Sendable, Hashable {
        /// Motion JPEG: one JPEG per frame, possibly without Huffman tables.
        case mjpeg
        /// Packed 4:2:2 YUV (Y0 U Y1 V), `bytesPerRow` bytes per row.
        case yuyv(bytesPerRow: Int)
        /// Red, green, blue, 3 bytes per pixel, `bytesPerRow` bytes per row: what libv4l2 converts
        /// Bayer and vendor formats to.
        case rgb24(bytesPerRow: Int)
        /// Planar 4:2:0 YUV (I420), full-range BT.601 as JPEG has it: the luma plane's rows
        /// `bytesPerRow` bytes apart, then the U plane and the V plane, a row half as long for
        /// every two rows of luma. What the Raspberry Pi's camera modules give through libcamera.
        case yuv420(bytesPerRow: Int)

        /// The fewest bytes a raw frame of `width` x `height` holds (the last row need not be
        /// padded); `nil` for Motion JPEG, whose length says nothing of its size.
        public func bytesNeeded(width: Int, height: Int) -> Int? {
            switch self {
            case .mjpeg: nil
            case .yuyv(let bytesPerRow): bytesPerRow * (height - 1) + width * 2
            case .rgb24(let bytesPerRow): bytesPerRow * (height - 1) + width * 3
            case .yuv420(let bytesPerRow): bytesPerRow * height + 2 * (bytesPerRow / 2) * ((height + 1) / 2)
            }
        }
    }

    /// The bytes exactly as the camera delivered them.
    public var bytes: Data
    /// How ``bytes`` are encoded.
    public var encoding: Encoding
    /// Width and height in pixels.
    public var width: Int
    public var height: Int
    /// When the frame was exposed, on the monotonic clock.
    public var timestamp: MonotonicInstant
    /// The camera's frame counter; gaps mean dropped frames.
    public var sequence: UInt64
    /// The camera that delivered it, where known: a photo made from the frame names it.
    public var source: CameraModel?

    public init(
        bytes: Data, encoding: Encoding, width: Int, height: Int, timestamp: MonotonicInstant, sequence: UInt64,
        source: CameraModel? = nil
    ) {
        self.bytes = bytes
        self.encoding = encoding
        self.width = width
        self.height = height
        self.timestamp = timestamp
        self.sequence = sequence
        self.source = source
    }
}
