import Foundation
import SystemPackage

/// Why a device could not be used. The description names the device and says what to do.
public struct DeviceError: Error, Hashable, CustomStringConvertible {
    private enum Code: Hashable {
        case unavailable
        case disconnected
        case unsupported
    }

    private let code: Code
    public let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    public static func == (lhs: DeviceError, rhs: DeviceError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The device cannot be opened or used at all.
    public static let unavailable = DeviceError(.unavailable, "device unavailable")
    /// The device went away (unplugged, its driver unloaded) or its node does not exist.
    public static let disconnected = DeviceError(.disconnected, "device disconnected")
    /// The device works but cannot do what the booth needs (no usable format, wrong pixel layout).
    public static let unsupported = DeviceError(.unsupported, "device unsupported")

    /// The same kind of error with a message of its own.
    func detailed(_ description: String) -> DeviceError { DeviceError(code, description) }

    /// A system call on `device` failed with `errno`. A device that is gone (ENODEV, ENOENT,
    /// ENXIO) is ``disconnected``; the booth waits for it to come back.
    static func systemCall(_ call: String, on device: String, errno code: Errno) -> DeviceError {
        let gone = [Errno.operationNotSupportedByDevice, .noSuchFileOrDirectory, .noSuchAddressOrDevice].contains(code)
        return DeviceError(gone ? .disconnected : .unavailable, "\(device): \(call) failed: \(String(cString: strerror(code.rawValue))).")
    }

    /// ``systemCall(_:on:errno:)`` for a C call that left its error in `errno`.
    static func systemCall(_ call: String, on device: String, errno code: Int32) -> DeviceError {
        systemCall(call, on: device, errno: Errno(rawValue: code))
    }
}
