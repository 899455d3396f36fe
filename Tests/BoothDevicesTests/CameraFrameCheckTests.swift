import BoothCore
import BoothImaging
import Foundation
import Testing

@testable import BoothDevices

@Suite("Camera frames the booth drops")
struct CameraFrameCheckTests {
    let jpeg: Data = {
        let pattern = TestPattern(width: 64, height: 48)
        return try! JPEGEncoder().encode(pattern.render(frame: 1, at: Date(timeIntervalSince1970: 0)), quality: 80)
    }()

    func problem(_ bytes: Data, damaged: Bool = false, encoding: CameraFrame.Encoding = .mjpeg) -> String? {
        CameraSession.problem(
            with: CaptureStream.Buffer(bytes: bytes, damaged: damaged, timestamp: nil, sequence: 1),
            encoding: encoding, width: 64, height: 48)
    }

    @Test("A whole JPEG passes, also padded with zeros to the buffer's size")
    func whole() {
        #expect(problem(jpeg) == nil)
        #expect(problem(jpeg + Data(count: 3000)) == nil)
    }

    @Test("Damaged, empty, not a JPEG, and cut short are dropped with the reason")
    func dropped() {
        #expect(problem(jpeg, damaged: true) == "flagged as damaged by the driver")
        #expect(problem(Data()) == "empty")
        #expect(problem(Data(repeating: 0x42, count: 500)) == "not a JPEG")
        #expect(problem(jpeg.prefix(jpeg.count / 2))?.hasPrefix("cut short") == true)
    }

    @Test("A raw frame shorter than its rows is dropped")
    func shortRaw() {
        let rows = Data(count: 64 * 2 * 48)
        #expect(problem(rows, encoding: .yuyv(bytesPerRow: 128)) == nil)
        #expect(problem(rows.dropLast(), encoding: .yuyv(bytesPerRow: 128)) == "short: 6143 of 6144 bytes")
        #expect(problem(rows, encoding: .rgb24(bytesPerRow: 192))?.hasPrefix("short") == true)
    }
}
