import Foundation
import SystemPackage

/// Why a device could not be used. The description names the device and says what to do;
/// ``code`` says which kind of failure it is, for callers and tests that act on the kind (the
/// booth waits for a ``Code/disconnected`` device to come back).
///
/// Two errors are equal when they have the same code, whatever their message, so a caller can
/// also match on the static members (`error == .disconnected`).
public struct DeviceError: Error, Hashable, CustomStringConvertible {
    /// A kind of device error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case unavailable, disconnected, unsupported
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// The device cannot be opened or used at all.
        package static let unavailable = Code(.unavailable)
        /// The device went away (unplugged, its driver unloaded) or its node does not exist.
        package static let disconnected = Code(.disconnected)
        /// The device works but cannot do what the booth needs (no usable format, wrong pixel
        /// layout).
        package static let unsupported = Code(.unsupported)

        public var description: String {
            switch kind {
            case .unavailable: "device unavailable"
            case .disconnected: "device disconnected"
            case .unsupported: "device unsupported"
            }
        }
    }

    /// Which kind of failure this is.
    public let code: Code
    public let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    public static func == (lhs: DeviceError, rhs: DeviceError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The device cannot be opened or used at all.
    package static let unavailable = DeviceError(.unavailable, Code.unavailable.description)
    /// The device went away (unplugged, its driver unloaded) or its node does not exist.
    package static let disconnected = DeviceError(.disconnected, Code.disconnected.description)
    /// The device works but cannot do what the booth needs (no usable format, wrong pixel layout).
    package static let unsupported = DeviceError(.unsupported, Code.unsupported.description)

    /// The same kind of error with a message of its own.
    package func detailed(_ description: String) -> DeviceError { DeviceError(code, description) }

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
