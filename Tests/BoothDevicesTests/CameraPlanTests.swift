import Testing

@testable import BoothDevices

@Suite("Camera format choice")
struct CameraPlanTests {
    let bayer = FourCC(rawValue: 0x3138_4142)  // "BA81"

    func offered(_ codes: [FourCC]) -> [OfferedFormat] {
        codes.map { OfferedFormat(fourCC: $0, name: $0.description, emulated: false) }
    }

    @Test("Auto prefers Motion JPEG, then YUYV, then libv4l2's conversion")
    func auto() throws {
        #expect(try CameraSession.plan(for: offered([.yuyv, .mjpeg]), preference: .auto, device: "cam") == .passThrough(.mjpeg))
        #expect(try CameraSession.plan(for: offered([bayer, .yuyv]), preference: .auto, device: "cam") == .yuyv)
        #expect(try CameraSession.plan(for: offered([bayer]), preference: .auto, device: "cam") == .converted)
        #expect(bayer.description == "BA81" && FourCC.mjpeg.description == "MJPG")
    }

    @Test("A format the camera lacks is refused with what it offers")
    func missing() {
        #expect {
            try CameraSession.plan(for: offered([bayer]), preference: .mjpeg, device: "/dev/video9")
        } throws: { error in
            let text = "\(error)"
            return text.contains("/dev/video9") && text.contains("BA81") && (error as? DeviceError)?.code == .unsupported
        }
    }
}
