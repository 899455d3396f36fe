import BoothCore
import BoothImaging
import Foundation
import Testing

@testable import BoothScreen

@Suite("The layer over a preview plane")
struct PreviewLayerTests {
    @Test("Over a preview shown by a plane below, the countdown's layer lets the camera through, and laid over it gives the framebuffer's screen")
    func countdownLayer() throws {
        let frame = try ScreenFixtures.mjpegFrame(width: 1280, height: 720)
        let preview = try frame.previewBitmap(fitting: 1280, 800, decoder: JPEGDecoder())
        var composed = try ScreenRenderer(width: 1280, height: 800, logger: ScreenFixtures.logger)
        composed.render(.countdown(secondsLeft: 3), newFrame: frame)
        var layered = try ScreenRenderer(width: 1280, height: 800, logger: ScreenFixtures.logger)
        layered.renderLayer(.countdown(secondsLeft: 3), previewBelow: PixelSize(width: 1280, height: 720))
        let layer = layered.canvas
        #expect(layer.alpha(x: 40, y: 100) == 0, "the camera shows through away from the digit")
        #expect(layer.alpha(x: 640, y: 20) == 255 && layer[640, 20] == .black, "the bars are black")
        let digit = (40..<760).filter { layer.alpha(x: 640, y: $0) == 255 }
        #expect(!digit.isEmpty, "the digit covers the middle of the picture")
        // The layer laid over the preview (premultiplied, as the display blends it) is the
        // screen the framebuffer shows, to rounding.
        var largest = 0
        for y in stride(from: 40, to: 760, by: 3) {
            for x in stride(from: 0, to: 1280, by: 3) {
                let over = layer.pixels[y * 1280 + x]
                let keep = 255 - Int(over >> 24)
                let offset = (y - 40) * preview.bytesPerRow + x * 4
                let under = [Int(preview.pixels[offset + 2]), Int(preview.pixels[offset + 1]), Int(preview.pixels[offset])]
                let top = [Int(over >> 16 & 0xFF), Int(over >> 8 & 0xFF), Int(over & 0xFF)]
                let expected = composed.canvas[x, y]
                let shown = (0..<3).map { top[$0] + (under[$0] * keep + 127) / 255 }
                largest = max(
                    largest, abs(shown[0] - Int(expected.red)), abs(shown[1] - Int(expected.green)), abs(shown[2] - Int(expected.blue)))
            }
        }
        #expect(largest <= 2)
    }

    @Test("Before the first frame the preview's place is black; a screen without the camera is opaque")
    func opaqueLayers() throws {
        var renderer = try ScreenRenderer(width: 640, height: 480, logger: ScreenFixtures.logger)
        renderer.renderLayer(.ready, previewBelow: nil)
        #expect(renderer.canvas.alpha(x: 320, y: 100) == 255 && renderer.canvas[320, 100] == .black)
        renderer.renderLayer(.saving, previewBelow: PixelSize(width: 640, height: 360))
        let canvas = renderer.canvas
        #expect((0..<480).allSatisfy { canvas.alpha(x: 5, y: $0) == 255 && canvas.alpha(x: 320, y: $0) == 255 })
    }

    @Test("On a transparent canvas, translucent paint keeps its coverage, premultiplied; on an opaque one it stays opaque")
    func premultiplied() {
        var canvas = Canvas(width: 4, height: 1)
        canvas.clear(PixelRect(x: 0, y: 0, width: 2, height: 1))
        canvas.fill(canvas.bounds, with: .white, opacity: 110)
        #expect(canvas.alpha(x: 0, y: 0) == 110 && canvas[0, 0] == PixelColor(red: 110, green: 110, blue: 110))
        #expect(canvas.alpha(x: 3, y: 0) == 255 && canvas[3, 0] == PixelColor(red: 110, green: 110, blue: 110))
        // Half-covered twice: 110 + 145 x 110 / 255 = 173.
        canvas.fill(canvas.bounds, with: .black, opacity: 110)
        #expect(canvas.alpha(x: 0, y: 0) == 173 && canvas.alpha(x: 3, y: 0) == 255)
    }
}
