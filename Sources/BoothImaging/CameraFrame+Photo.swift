import BoothCore
import Foundation

extension CameraFrame {
    /// The JPEG file this frame is saved as: the camera's own bytes, made standard (Huffman
    /// tables inserted when missing, buffer padding dropped), never re-encoded.
    public func photoJPEG() throws(ImageError) -> Data {
        switch encoding {
        case .mjpeg: try JPEGSegments.repairedMJPEG(bytes)
        }
    }
}
