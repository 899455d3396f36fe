import CTurboJPEG
import Foundation

/// Encodes bitmaps as JPEG with TurboJPEG.
///
/// Like ``JPEGDecoder``, an encoder owns a handle that one thread uses at a time.
package struct JPEGEncoder: ~Copyable {
    private let handle: tjhandle

    /// Creates an encoder. The corresponding C function is `tjInitCompress`.
    package init() throws(ImageError) {
        guard let handle = tjInitCompress() else {
            throw ImageError.unencodable.detailed("TurboJPEG could not create an encoder: \(String(cString: tjGetErrorStr2(nil)))")
        }
        self.handle = handle
    }

    deinit {
        tjDestroy(handle)
    }

    /// Encodes `bitmap` at `quality` (1...100) with 4:2:0 chroma subsampling and the standard
    /// Huffman tables. The corresponding C function is `tjCompress2`.
    package func encode(_ bitmap: Bitmap, quality: Int) throws(ImageError) -> Data {
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = bitmap.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(
                handle, pixels.baseAddress, Int32(bitmap.width), 0, Int32(bitmap.height),
                bitmap.format.turboJPEGFormat, &buffer, &size, Int32(TJSAMP_420.rawValue),
                Int32(min(max(quality, 1), 100)), 0)
        }
        return try takeOver(buffer, size: size, status: status)
    }

    /// Encodes planar 4:2:2 YUV (a camera's YUYV, deinterleaved) at `quality` without converting
    /// colours. The corresponding C function is `tjCompressFromYUVPlanes`.
    func encode(_ planes: YUV422Planes, quality: Int) throws(ImageError) -> Data {
        try planes.y.withUnsafeBufferPointer { y throws(ImageError) in
            try planes.u.withUnsafeBufferPointer { u throws(ImageError) in
                try planes.v.withUnsafeBufferPointer { v throws(ImageError) in
                    try encode(
                        planes: [y.baseAddress!, u.baseAddress!, v.baseAddress!], strides: [planes.width, planes.width / 2, planes.width / 2],
                        width: planes.width, height: planes.height, subsampling: .halfWidth, quality: quality)
                }
            }
        }
    }

    /// Encodes planar YUV (full-range BT.601, JPEG's own) at `quality` without converting colours:
    /// the luma, U and V planes at `planes`, their rows `strides` bytes apart, the chroma
    /// subsampled as `subsampling`. The corresponding C function is `tjCompressFromYUVPlanes`.
    func encode(
        planes: [UnsafePointer<UInt8>], strides: [Int], width: Int, height: Int, subsampling: ChromaSampling, quality: Int
    ) throws(ImageError) -> Data {
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        var sources: [UnsafePointer<UInt8>?] = planes
        let status = tjCompressFromYUVPlanes(
            handle, &sources, Int32(width), strides.map { Int32($0) }, Int32(height), subsampling.turboJPEG, &buffer, &size,
            Int32(min(max(quality, 1), 100)), 0)
        return try takeOver(buffer, size: size, status: status)
    }

    /// Wraps the buffer TurboJPEG allocated in `Data`, which frees it the TurboJPEG way.
    private func takeOver(_ buffer: UnsafeMutablePointer<UInt8>?, size: UInt, status: Int32) throws(ImageError) -> Data {
        guard status == 0, let buffer else {
            tjFree(buffer)
            throw ImageError.unencodable.detailed("cannot encode JPEG: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return Data(
            bytesNoCopy: buffer, count: Int(size),
            deallocator: .custom { pointer, _ in
                tjFree(pointer.assumingMemoryBound(to: UInt8.self))
            })
    }
}
