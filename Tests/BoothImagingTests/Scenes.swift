import BoothImaging
import Foundation

/// Pictures that look like a booth's photos rather than like test cards: smooth light, large
/// shapes, a few edges and a sensor's grain, drawn from geometry so that the tests need no
/// image files. Each is a different scene; the same scene can be drawn shifted.
enum Scene: CaseIterable {
    /// A sky fading to the horizon, a sun, rolling hills.
    case landscape
    /// A head and shoulders in front of a warm wall, lit from the left.
    case portrait
    /// A dim room with a bright window on the left, a table and two guests.
    case room
    /// A night street: dark, with rows of lit windows.
    case night

    /// The scene drawn at `width` x `height` in RGB, moved `shiftX`, `shiftY` pixels (the
    /// camera or the guests moved a little).
    func picture(width: Int, height: Int, shiftX: Int = 0, shiftY: Int = 0) -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var grain: UInt32 = 0x2545_F491
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x - shiftX) / Double(width)
                let v = Double(y - shiftY) / Double(height)
                let (red, green, blue) = colour(u, v)
                grain ^= grain << 13
                grain ^= grain >> 17
                grain ^= grain << 5
                let noise = Double(Int(grain % 13) - 6)
                let offset = (y * width + x) * 3
                pixels[offset] = UInt8(clamping: Int(red + noise))
                pixels[offset + 1] = UInt8(clamping: Int(green + noise))
                pixels[offset + 2] = UInt8(clamping: Int(blue + noise))
            }
        }
        return Bitmap(width: width, height: height, format: .rgb, pixels: pixels)
    }

    /// The colour at (`u`, `v`), both 0 to 1 from the top left corner.
    private func colour(_ u: Double, _ v: Double) -> (Double, Double, Double) {
        switch self {
        case .landscape:
            let ridge = 0.62 + 0.07 * sin(u * 2 * .pi * 1.3 + 0.4) + 0.03 * sin(u * 2 * .pi * 4.1)
            if v > ridge {
                let depth = (v - ridge) / (1 - ridge)
                return (40 + 30 * depth, 110 - 40 * depth, 40)
            }
            if hypot(u - 0.74, (v - 0.22) * 0.75) < 0.07 { return (255, 236, 160) }
            return (90 + 120 * v, 140 + 90 * v, 230 - 20 * v)
        case .portrait:
            let head = pow((u - 0.5) / 0.15, 2) + pow((v - 0.38) / 0.22, 2)
            let shoulders = pow((u - 0.5) / 0.42, 2) + pow((v - 1.05) / 0.38, 2)
            let light = 1.15 - 0.4 * u
            if head < 1 {
                if v < 0.25 { return (60, 40, 30) }
                return (220 * light, 170 * light, 140 * light)
            }
            if shoulders < 1 { return (40 * light, 60 * light, 140 * light) }
            return (200 - 60 * v, 150 - 40 * v, 100 - 30 * v)
        case .room:
            if u > 0.05 && u < 0.3 && v > 0.12 && v < 0.55 { return (240, 245, 250) }
            if v > 0.72 { return (110, 70, 40) }
            for centre in [0.52, 0.78] where pow((u - centre) / 0.08, 2) + pow((v - 0.45) / 0.12, 2) < 1 {
                return (180, 130, 100)
            }
            let glow = max(0, 1 - hypot(u - 0.18, v - 0.33) * 2)
            return (50 + 90 * glow, 45 + 85 * glow, 40 + 80 * glow)
        case .night:
            let column = Int(u * 24)
            let row = Int(v * 16)
            let lit = (column * 7 + row * 13) % 5 == 0
            if row >= 3 && row < 12 && column % 3 != 2 && lit { return (250, 200, 90) }
            if v > 0.75 { return (30, 30, 35) }
            return (10, 12 + 20 * (1 - v), 30 + 30 * (1 - v))
        }
    }
}

extension Bitmap {
    /// This RGB picture with `amount` added to every channel (a brighter exposure).
    func brightened(by amount: Int) -> Bitmap {
        Bitmap(width: width, height: height, format: format, pixels: pixels.map { UInt8(clamping: Int($0) + amount) })
    }
}
