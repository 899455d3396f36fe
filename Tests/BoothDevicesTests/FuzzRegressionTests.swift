import BoothCore
import Foundation
import FuzzRegressions
import Testing

@testable import BoothDevices

@Suite("What the fuzz targets found in the devices")
struct DevicesFuzzRegressionTests {
    /// A mode as the driver answered it, with `bytesPerRow` bytes a row.
    func mode(_ fourCC: FourCC, _ width: Int, _ height: Int, bytesPerRow: Int = 0) -> VideoDevice.NegotiatedFormat {
        VideoDevice.NegotiatedFormat(fourCC: fourCC, width: width, height: height, bytesPerRow: bytesPerRow, frameBytes: 0)
    }

    @Test("A mode with sides beyond any camera is refused, so that no frame's size check overflows")
    func driverSizesOverflow() throws {
        // fuzz/regressions/rawframe/driver-sizes-overflow: a format byte, then the driver's width,
        // height and bytes per row, 32 bits each; their product overflowed the capture check.
        let input = [UInt8](try FuzzRegression.bytes("rawframe", "driver-sizes-overflow"))
        let field = { (offset: Int) in input[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(!CameraSession.accepts(mode(.rgb24, field(1), field(5), bytesPerRow: field(9)), asked: .rgb24))
        #expect(!CameraSession.accepts(mode(.yuyv, 640, 0), asked: .yuyv))
        #expect(!CameraSession.accepts(mode(.yuyv, 16385, 480), asked: .yuyv))
        #expect(!CameraSession.accepts(mode(.mjpeg, 640, 480), asked: .yuyv))

        // The largest mode accepted, with the longest rows a driver can claim: a frame is
        // checked, and dropped as short.
        let largest = mode(.yuyv, 16384, 16384, bytesPerRow: Int(UInt32.max))
        #expect(CameraSession.accepts(largest, asked: .yuyv))
        let buffer = CaptureStream.Buffer(bytes: Data(count: 64), damaged: false, timestamp: nil, sequence: 1)
        let problem = CameraSession.problem(
            with: buffer, encoding: CameraSession.encoding(of: .yuyv, in: largest), width: largest.width, height: largest.height)
        #expect(problem?.hasPrefix("short: 64 of ") == true)
    }
}
