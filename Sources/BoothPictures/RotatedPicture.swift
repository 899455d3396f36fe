import BoothImaging
import Foundation

/// A picture turned about its centre, as a print laid askew on a page.
enum RotatedPicture {
    /// `picture` (`.bgrx`, opaque) turned `degrees` clockwise: a translucent picture of the
    /// turned one's bounding box, transparent outside it, with edges smoothed by how much of
    /// each pixel the picture covers; and where the picture's centre lands in it.
    ///
    /// Each output pixel samples the source at its centre turned back, mixing the four pixels
    /// around it (bilinear).
    static func turn(_ picture: Bitmap, degrees: Double) -> (picture: TranslucentPicture, centreX: Int, centreY: Int) {
        precondition(picture.format == .bgrx, "slots are composed in the framebuffer's layout")
        let angle = degrees * .pi / 180
        let (sine, cosine) = (sin(angle), cos(angle))
        let (width, height) = (Double(picture.width), Double(picture.height))
        let boxWidth = Int((abs(width * cosine) + abs(height * sine)).rounded(.up)) + 2
        let boxHeight = Int((abs(width * sine) + abs(height * cosine)).rounded(.up)) + 2
        let (centreX, centreY) = (Double(boxWidth) / 2, Double(boxHeight) / 2)
        let sourceRow = picture.bytesPerRow
        var output = [UInt8](repeating: 0, count: boxWidth * boxHeight * 4)
        picture.pixels.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                for y in 0..<boxHeight {
                    let dy = Double(y) + 0.5 - centreY
                    for x in 0..<boxWidth {
                        let dx = Double(x) + 0.5 - centreX
                        // The output pixel's centre turned back into the source's coordinates.
                        let u = dx * cosine + dy * sine + width / 2
                        let v = -dx * sine + dy * cosine + height / 2
                        // How much of the pixel lies inside the picture: 1 a pixel in from its
                        // edges, 0 a pixel out, linear between, which smooths the edges.
                        let coverage = min(1, max(0, min(u + 0.5, width - u + 0.5))) * min(1, max(0, min(v + 0.5, height - v + 0.5)))
                        guard coverage > 0 else { continue }
                        let sx = min(max(u - 0.5, 0), width - 1)
                        let sy = min(max(v - 0.5, 0), height - 1)
                        let (x0, y0) = (Int(sx), Int(sy))
                        let (x1, y1) = (min(x0 + 1, picture.width - 1), min(y0 + 1, picture.height - 1))
                        let (fx, fy) = (sx - Double(x0), sy - Double(y0))
                        let alpha = (coverage * 255).rounded()
                        let offset = (y * boxWidth + x) * 4
                        for channel in 0..<3 {
                            func sample(_ column: Int, _ row: Int) -> Double {
                                Double(source[row * sourceRow + column * 4 + channel])
                            }
                            let top = sample(x0, y0) * (1 - fx) + sample(x1, y0) * fx
                            let bottom = sample(x0, y1) * (1 - fx) + sample(x1, y1) * fx
                            let value = (top * (1 - fy) + bottom * fy) * coverage
                            target[offset + channel] = UInt8(min(alpha, value.rounded()))
                        }
                        target[offset + 3] = UInt8(alpha)
                    }
                }
            }
        }
        let bitmap = Bitmap(width: boxWidth, height: boxHeight, format: .bgrx, pixels: output)
        return (TranslucentPicture(premultiplied: bitmap), boxWidth / 2, boxHeight / 2)
    }
}
