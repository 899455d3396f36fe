import BoothImaging
import Foundation
import Testing

@Suite("Thumbnails")
struct ThumbnailTests {
    @Test(
        "Thumbnails fit in 320 pixels and keep the aspect ratio",
        arguments: [
            (1920, 1080, 320, 180), (3840, 2160, 320, 180), (640, 480, 320, 240), (480, 640, 240, 320),
            (200, 100, 200, 100),
        ])
    func sizes(width: Int, height: Int, expectedWidth: Int, expectedHeight: Int) throws {
        let thumbnail = try JPEGThumbnailer().thumbnail(of: try Fixtures.jpeg(width: width, height: height))
        #expect(thumbnail.width == expectedWidth && thumbnail.height == expectedHeight)
        #expect(thumbnail.sourceWidth == width && thumbnail.sourceHeight == height)
        let header = try JPEGHeader(thumbnail.jpeg)
        #expect(header.width == expectedWidth && header.height == expectedHeight)
    }

    @Test("The scaled decode is the strongest that still covers the thumbnail")
    func scalingChoice() {
        #expect(ScalingFactor.strongest(keepingLongestSide: 320, width: 3840, height: 2160) == .eighth)
        #expect(ScalingFactor.strongest(keepingLongestSide: 320, width: 1920, height: 1080) == .quarter)
        #expect(ScalingFactor.strongest(keepingLongestSide: 320, width: 640, height: 480) == .half)
        #expect(ScalingFactor.strongest(keepingLongestSide: 320, width: 200, height: 100) == .full)
    }

    @Test("Downscaling averages the pixels each target pixel covers")
    func boxFilter() {
        let source = Bitmap(
            width: 4, height: 2, format: .rgb,
            pixels: [0, 0, 0, 100, 100, 100, 200, 200, 200, 40, 40, 40, 0, 0, 0, 100, 100, 100, 200, 200, 200, 40, 40, 40])
        #expect(source.downscaled(toWidth: 2, height: 1).pixels == [50, 50, 50, 120, 120, 120])
        // Three columns into two: each target pixel covers one and a half source pixels.
        let three = Bitmap(width: 3, height: 1, format: .rgb, pixels: [0, 0, 0, 90, 90, 90, 180, 180, 180])
        #expect(three.downscaled(toWidth: 2, height: 1).pixels == [30, 30, 30, 150, 150, 150])
    }

    @Test(
        "The integer filter gives the exact box average, within one level, at the booth's sizes and in both layouts",
        arguments: [[480, 270, 320, 180], [480, 360, 320, 240], [64, 48, 17, 13]], [PixelFormat.rgb, .bgrx])
    func integerFilter(sizes: [Int], format: PixelFormat) throws {
        let picture = TestPattern(width: sizes[0], height: sizes[1]).render(frame: 30, at: Date(timeIntervalSince1970: 0))
        let source = format == .rgb ? picture : Self.bgrx(picture)
        let fast = source.downscaled(toWidth: sizes[2], height: sizes[3])
        let exact = Self.boxAverage(source, width: sizes[2], height: sizes[3])
        #expect(fast.width == sizes[2] && fast.height == sizes[3] && fast.format == format)
        let worst = zip(fast.pixels, exact).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "\(worst) levels off")
        let plain = Fixtures.solid(width: 30, height: 20, color: (17, 203, 255))
        #expect(Set(plain.downscaled(toWidth: 7, height: 3).pixels) == [17, 203, 255], "a plain colour stays exactly that colour")
    }

    @Test(
        "A pixel that covers many source pixels keeps a plain colour, however the shares round (found by fuzzing)",
        arguments: [(101, 1), (153, 2), (299, 8), (1728, 320), (4000, 3)])
    func manyPixelsIntoFew(source: Int, target: Int) {
        let wide = Fixtures.solid(width: source, height: 2, color: (17, 203, 255))
        #expect(Set(wide.downscaled(toWidth: target, height: 1).pixels) == [17, 203, 255])
        let tall = Fixtures.solid(width: 2, height: source, color: (17, 203, 255))
        #expect(Set(tall.downscaled(toWidth: 1, height: target).pixels) == [17, 203, 255])
    }

    /// `picture` in the framebuffer's layout.
    static func bgrx(_ picture: Bitmap) -> Bitmap {
        var pixels: [UInt8] = []
        for i in stride(from: 0, to: picture.pixels.count, by: 3) {
            pixels += [picture.pixels[i + 2], picture.pixels[i + 1], picture.pixels[i], 0]
        }
        return Bitmap(width: picture.width, height: picture.height, format: .bgrx, pixels: pixels)
    }

    /// The box filter in doubles, pixel by pixel: what the fast one must give.
    static func boxAverage(_ bitmap: Bitmap, width: Int, height: Int) -> [UInt8] {
        let channels = bitmap.format.bytesPerPixel
        let scaleX = Double(bitmap.width) / Double(width)
        let scaleY = Double(bitmap.height) / Double(height)
        func overlap(_ start: Double, _ end: Double, _ pixel: Int) -> Double {
            max(0, min(end, Double(pixel + 1)) - max(start, Double(pixel)))
        }
        var result: [UInt8] = []
        for y in 0..<height {
            let top = Double(y) * scaleY
            let bottom = Double(y + 1) * scaleY
            for x in 0..<width {
                let left = Double(x) * scaleX
                let right = Double(x + 1) * scaleX
                for channel in 0..<channels {
                    var sum = 0.0
                    for row in Int(top)..<min(bitmap.height, Int(bottom.rounded(.up))) {
                        for column in Int(left)..<min(bitmap.width, Int(right.rounded(.up))) {
                            let weight = overlap(top, bottom, row) * overlap(left, right, column)
                            sum += weight * Double(bitmap.pixels[(row * bitmap.width + column) * channels + channel])
                        }
                    }
                    result.append(UInt8((sum / (scaleX * scaleY)).rounded()))
                }
            }
        }
        return result
    }
}
