import CTurboJPEG
import Foundation

/// What a JPEG's header says, read without decoding the image.
package struct JPEGHeader: Sendable, Hashable {
    /// The longest side the booth decodes: twice 8K, far beyond any webcam.
    package static let maximumSide = 16384

    public let width: Int
    public let height: Int
    /// How the colour is sampled, where a display plane can take the JPEG's own YUV planes;
    /// `nil` for grey, 4:4:0 and 4:1:1.
    package let sampling: ChromaSampling?

    /// Reads the header of `jpeg`. The corresponding C function is `tjDecompressHeader3`.
    package init(_ jpeg: Data) throws(ImageError) {
        let decoder = try JPEGDecoder()
        self = try decoder.header(of: jpeg)
    }

    init(width: Int, height: Int, sampling: ChromaSampling? = nil) {
        self.width = width
        self.height = height
        self.sampling = sampling
    }
}

/// Decodes JPEG images with TurboJPEG.
///
/// A decoder owns one TurboJPEG handle, which is not safe to share between threads: a
/// decoder is not copyable and not `Sendable`, so each thread that decodes makes its own.
package struct JPEGDecoder: ~Copyable {
    let handle: tjhandle

    /// Creates a decoder. The corresponding C function is `tjInitDecompress`.
    package init() throws(ImageError) {
        guard let handle = tjInitDecompress() else {
            throw ImageError.undecodable.detailed("TurboJPEG could not create a decoder: \(String(cString: tjGetErrorStr2(nil)))")
        }
        self.handle = handle
    }

    deinit {
        tjDestroy(handle)
    }

    /// Reads the size of `jpeg` without decoding it. The corresponding C function is
    /// `tjDecompressHeader3`.
    package func header(of jpeg: Data) throws(ImageError) -> JPEGHeader {
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = jpeg.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return Int32(-1) }
            return tjDecompressHeader3(handle, base, UInt(raw.count), &width, &height, &subsampling, &colorspace)
        }
        guard status == 0, width > 0, height > 0 else {
            throw ImageError.notJPEG.detailed("not a readable JPEG header: \(lastError(or: "no data"))")
        }
        return JPEGHeader(width: Int(width), height: Int(height), sampling: ChromaSampling(turboJPEG: subsampling))
    }

    /// Decodes `jpeg`, reduced by `scale` while decoding.
    ///
    /// Any warning (such as data ending early) is an error here: a frame that decodes only
    /// partly is not a photo. The corresponding C function is `tjDecompress2`.
    ///
    /// - Parameter fast: trade a little accuracy for speed, for live previews.
    package func decode(
        _ jpeg: Data, scale: ScalingFactor = .full, format: PixelFormat = .rgb, fast: Bool = false
    ) throws(ImageError) -> Bitmap {
        let (width, height) = try decodedSize(of: jpeg, scale: scale)
        var status: ImageError?
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * format.bytesPerPixel) { buffer, count in
            do throws(ImageError) {
                try decode(jpeg, scale: scale, format: format, fast: fast, into: buffer)
            } catch {
                status = error
            }
            // On failure the buffer's content is undefined; it is thrown away below.
            count = buffer.count
        }
        if let status { throw status }
        return Bitmap(width: width, height: height, format: format, pixels: pixels)
    }

    /// The size `jpeg` decodes to, reduced by `scale`; an error for a header that claims more
    /// than any camera (it is untrusted: a damaged one must not make us allocate gigabytes).
    package func decodedSize(of jpeg: Data, scale: ScalingFactor) throws(ImageError) -> (width: Int, height: Int) {
        let header = try header(of: jpeg)
        guard header.width <= JPEGHeader.maximumSide, header.height <= JPEGHeader.maximumSide else {
            throw ImageError.undecodable.detailed(
                "the JPEG claims \(header.width)x\(header.height) pixels, more than any camera the booth supports")
        }
        return (scale.scaled(header.width), scale.scaled(header.height))
    }

    /// Decodes `jpeg`, reduced by `scale`, into `buffer`, which holds exactly its pixels
    /// (``decodedSize(of:scale:)``): for a caller that owns the memory the pixels go to, so that
    /// the thread decoding allocates nothing large of its own.
    package func decode(
        _ jpeg: Data, scale: ScalingFactor, format: PixelFormat, fast: Bool = false, into buffer: UnsafeMutableBufferPointer<UInt8>
    ) throws(ImageError) {
        let (width, height) = try decodedSize(of: jpeg, scale: scale)
        precondition(buffer.count == width * height * format.bytesPerPixel, "the buffer holds the decoded pixels exactly")
        var flags = TJFLAG_STOPONWARNING
        if fast { flags |= TJFLAG_FASTDCT | TJFLAG_FASTUPSAMPLE }
        let status = jpeg.withUnsafeBytes { raw in
            tjDecompress2(
                handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count), buffer.baseAddress,
                Int32(width), 0, Int32(height), format.turboJPEGFormat, flags)
        }
        guard status == 0 else {
            let message = lastError(or: "unknown error")
            let truncated = message.localizedCaseInsensitiveContains("premature end")
            throw (truncated ? ImageError.truncated : ImageError.undecodable).detailed("cannot decode JPEG: \(message)")
        }
    }

    func lastError(or fallback: String) -> String {
        guard let message = tjGetErrorStr2(handle) else { return fallback }
        return String(cString: message)
    }
}

extension PixelFormat {
    var turboJPEGFormat: Int32 {
        switch self {
        case .rgb: Int32(TJPF_RGB.rawValue)
        case .bgrx: Int32(TJPF_BGRX.rawValue)
        }
    }
}
