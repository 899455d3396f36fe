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
        let thumbnail = try JPEGThumbnailer().thumbnail(forJPEG: try Fixtures.jpeg(width: width, height: height))
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
}
