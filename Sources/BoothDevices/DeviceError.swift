import Foundation

/// Why a device could not be used. The description names the device and says what to do.
public struct DeviceError: Error, Hashable, CustomStringConvertible {
    private enum Code: Hashable {
        case unavailable
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

    /// A system call on `device` failed with `errno`.
    static func systemCall(_ call: String, on device: String, errno code: Int32) -> DeviceError {
        DeviceError(.unavailable, "\(device): \(call) failed: \(String(cString: strerror(code))).")
    }
}
