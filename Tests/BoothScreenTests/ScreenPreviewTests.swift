import BoothCore
import BoothImaging
import Foundation
import Testing

@testable import BoothScreen

@Suite("Screen preview")
struct ScreenPreviewTests {
    @Test("A 16:9 MJPEG frame without Huffman tables fits 1280x800 with letterbox bars")
    func mjpegLetterbox() throws {
        let frame = try ScreenFixtures.mjpegFrame(width: 1280, height: 720)
        let preview = try frame.previewBitmap(fitting: 1280, 800, decoder: JPEGDecoder())
        #expect(preview.width == 1280 && preview.height == 720 && preview.format == .bgrx)

        var renderer = try ScreenRenderer(width: 1280, height: 800, keys: KeyLabels(view: "View"), logger: ScreenFixtures.logger)
        renderer.render(.countdown(secondsLeft: 3), newFrame: frame)
        let canvas = renderer.canvas
        let bars = [PixelRect(x: 0, y: 0, width: 1280, height: 40), PixelRect(x: 0, y: 760, width: 1280, height: 40)]
        for bar in bars { #expect(canvas.count(in: bar) { $0 != .black } == 0) }
        // The test pattern's first bar is light grey, its seventh blue.
        #expect(abs(canvas[40, 60].brightness - 192) < 20)
        let blue = canvas[1280 * 13 / 16, 60]
        #expect(blue.blue > 150 && blue.red < 50 && blue.green < 50)
    }

    @Test("The layout's frame for the shot being posed for lies over the preview, not over the bars")
    func poseGuide() throws {
        let frame = try ScreenFixtures.mjpegFrame(width: 1280, height: 720)
        // Shot 1's guide: an opaque red band across its top quarter; shot 2's: a green band.
        func band(_ red: UInt8, _ green: UInt8) -> TranslucentPicture {
            let pixels: [UInt8] = (0..<(64 * 36)).flatMap { index in index / 64 < 9 ? [0, green, red, 255] : [0, 0, 0, 0] }
            return TranslucentPicture(premultiplied: Bitmap(width: 64, height: 36, format: .bgrx, pixels: pixels))
        }
        let guides = PoseGuides()
        guides.set([band(255, 0), band(0, 255)])
        var renderer = try ScreenRenderer(width: 1280, height: 800, guides: guides, logger: ScreenFixtures.logger)
        renderer.render(.ready, newFrame: frame)
        // The preview is 1280x720 from y = 40: the band covers its top 180 rows.
        #expect(renderer.canvas[640, 60] == PixelColor(red: 255, green: 0, blue: 0))
        #expect(renderer.canvas[640, 30] == .black, "the bars stay black")
        #expect(renderer.canvas[1280 * 13 / 16, 300].blue > 150, "under the band the camera's picture shows")
        // A collage's second countdown shows the second shot's guide, and which shot it is.
        renderer.render(.countdown(secondsLeft: 3, shot: ShotCount(number: 2, of: 4)))
        #expect(renderer.canvas[40, 200] == PixelColor(red: 0, green: 255, blue: 0))
        // A guide the layout does not have draws nothing.
        renderer.render(.countdown(secondsLeft: 3, shot: ShotCount(number: 3, of: 4)))
        #expect(abs(renderer.canvas[40, 60].brightness - 192) < 20)
    }

    @Test("Large frames decode scaled: a 1920x1080 frame fits 640x480 from a quarter-size decode")
    func scaledDecode() throws {
        let frame = try ScreenFixtures.mjpegFrame(width: 1920, height: 1080)
        let preview = try frame.previewBitmap(fitting: 640, 480, decoder: JPEGDecoder())
        #expect(preview.width == 640 && preview.height == 360)
        var canvas = Canvas(width: 640, height: 360)
        canvas.draw(preview, atX: 0, y: 0)
        #expect(abs(canvas[20, 30].brightness - 192) < 20, "the first bar is light grey")
        let blue = canvas[640 * 13 / 16, 30]
        #expect(blue.blue > 150 && blue.red < 50 && blue.green < 50, "the seventh bar is blue")
        // A tall frame is pillarboxed instead.
        let tall = try ScreenFixtures.mjpegFrame(width: 480, height: 640)
        let pillar = try tall.previewBitmap(fitting: 1280, 800, decoder: JPEGDecoder())
        #expect(pillar.width == 600 && pillar.height == 800)
    }

    @Test(
        "YUYV converts with BT.601 limited range",
        arguments: [
            (y: 81, u: 90, v: 240, rgb: (255, 0, 0)),
            (y: 145, u: 54, v: 34, rgb: (0, 255, 0)),
            (y: 41, u: 240, v: 110, rgb: (0, 0, 255)),
            (y: 235, u: 128, v: 128, rgb: (255, 255, 255)),
            (y: 16, u: 128, v: 128, rgb: (0, 0, 0)),
            (y: 126, u: 128, v: 128, rgb: (128, 128, 128)),
        ])
    func yuyv(sample: (y: Int, u: Int, v: Int, rgb: (Int, Int, Int))) throws {
        let (width, height, bytesPerRow) = (64, 48, 64 * 2 + 16)
        var bytes = [UInt8](repeating: 0, count: bytesPerRow * height)
        for row in 0..<height {
            for pair in 0..<(width / 2) {
                let offset = row * bytesPerRow + pair * 4
                bytes[offset..<(offset + 4)] = [UInt8(sample.y), UInt8(sample.u), UInt8(sample.y), UInt8(sample.v)]
            }
        }
        let frame = CameraFrame(
            bytes: Data(bytes), encoding: .yuyv(bytesPerRow: bytesPerRow), width: width, height: height,
            timestamp: MonotonicInstant(nanoseconds: 0), sequence: 1)
        let preview = try frame.previewBitmap(fitting: 32, 32, decoder: JPEGDecoder())
        #expect(preview.width == 32 && preview.height == 24)
        let pixel = preview.pixels[(10 * 32 + 10) * 4..<(10 * 32 + 11) * 4].map(Int.init)
        #expect(abs(pixel[2] - sample.rgb.0) <= 3 && abs(pixel[1] - sample.rgb.1) <= 3 && abs(pixel[0] - sample.rgb.2) <= 3)
    }

    @Test("RGB24 frames with row padding keep their layout, enlarged smoothly to fit")
    func rgb24() throws {
        // Left half red, right half blue, each row padded with 5 bytes of garbage.
        let (width, height, bytesPerRow) = (40, 30, 40 * 3 + 5)
        var bytes = [UInt8](repeating: 0xAA, count: bytesPerRow * height)
        for row in 0..<height {
            for column in 0..<width {
                let offset = row * bytesPerRow + column * 3
                bytes[offset..<(offset + 3)] = column < width / 2 ? [255, 0, 0] : [0, 0, 255]
            }
        }
        let frame = CameraFrame(
            bytes: Data(bytes), encoding: .rgb24(bytesPerRow: bytesPerRow), width: width, height: height,
            timestamp: MonotonicInstant(nanoseconds: 0), sequence: 1)
        let preview = try frame.previewBitmap(fitting: 160, 160, decoder: JPEGDecoder())
        #expect(preview.width == 160 && preview.height == 120)
        var canvas = Canvas(width: 160, height: 120)
        canvas.draw(preview, atX: 0, y: 0)
        #expect(canvas[5, 60] == PixelColor(red: 255, green: 0, blue: 0))
        #expect(canvas[155, 60] == PixelColor(red: 0, green: 0, blue: 255))
        #expect(canvas[80, 60].red > 0 && canvas[80, 60].blue > 0, "the edge is interpolated")
    }

    @Test("A raw frame shorter than it claims is rejected as truncated")
    func shortRawFrame() {
        for encoding in [CameraFrame.Encoding.yuyv(bytesPerRow: 128), .rgb24(bytesPerRow: 192)] {
            let frame = CameraFrame(
                bytes: Data(count: 1000), encoding: encoding, width: 64, height: 48,
                timestamp: MonotonicInstant(nanoseconds: 0), sequence: 1)
            #expect(throws: ImageError.truncated) { try frame.previewBitmap(fitting: 32, 32, decoder: JPEGDecoder()) }
        }
    }

    @Test("A frame that cannot be decoded leaves the last good picture on screen")
    func undecodableFrame() throws {
        var renderer = try ScreenRenderer(width: 640, height: 480, keys: KeyLabels(view: "View"), logger: ScreenFixtures.logger)
        renderer.render(.ready, newFrame: try ScreenFixtures.mjpegFrame(width: 640, height: 480))
        let good = renderer.canvas
        var broken = try ScreenFixtures.mjpegFrame(width: 640, height: 480, sequence: 2)
        broken.bytes = broken.bytes.prefix(broken.bytes.count / 2)
        renderer.render(.ready, newFrame: broken)
        #expect(renderer.canvas == good)
    }
}
