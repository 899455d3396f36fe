import ArgumentParser
import BoothDevices
import Foundation
import Logging
import SystemPackage

/// The camera process of a libcamera camera: the booth starts it (its own executable with this
/// command) and reads the frames it writes to standard output; see `LibcameraCamera`.
struct LibcameraCameraCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "libcamera-camera",
        abstract: "Stream a libcamera camera to standard output, for the booth that started it.",
        shouldDisplay: false)

    @Option(name: .long, help: "The camera: libcamera:0, or libcamera: and its id.")
    var camera: String
    @Option(name: .long, help: ArgumentHelp("The frame size asked of the camera.", valueName: "WxH"))
    var cameraSize: String
    @Option(name: .long, help: "The frame rate asked of the camera.")
    var cameraFps: Int
    @Option(name: .long, help: "Frames dropped while exposure and white balance settle.")
    var settleFrames: Int = 5
    @Option(name: .long, help: "The least important log lines written: the booth's own level.")
    var logLevel: String = "info"

    func run() throws {
        startLogging(at: Logger.Level(rawValue: logLevel) ?? .info)
        let logger = Logger(label: "photobooth")
        let sides = cameraSize.split(separator: "x").compactMap { Int($0) }
        guard sides.count == 2 else { throw ValidationError("--camera-size takes WxH, such as 1280x720.") }
        let settings = V4L2Camera.Settings(
            device: camera, width: sides[0], height: sides[1], framesPerSecond: cameraFps, settleFrames: settleFrames)
        guard let camera = LibcameraCamera(settings: settings, logger: logger) else {
            throw ValidationError("--camera names no libcamera camera (libcamera:0, or libcamera: and its id).")
        }
        do {
            try camera.serve(to: .standardOutput)
        } catch {
            logger.error("Camera \(camera.name): \(error)")
            throw ExitCode(1)
        }
    }
}
