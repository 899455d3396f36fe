import Foundation
import SystemPackage

/// The booth's one way to make a system call that swift-system's `FileDescriptor` does not
/// wrap (`ioctl`, `poll`, `fsync`, `flock`, `fcntl`, termios): the call is made again when a
/// signal interrupts it (`EINTR`), and any other failure is thrown as an `Errno`.
///
/// Descriptors are `FileDescriptor`s; such calls take their `rawValue`. Opening, reading,
/// writing and closing go through `FileDescriptor` itself, which retries on `EINTR` the same way.
package enum SystemCall {
    /// Calls `call`, a C function that returns -1 and sets `errno` on failure, until it is not
    /// interrupted; returns what it returned, or throws its `errno`.
    @discardableResult
    package static func retrying<Result: FixedWidthInteger>(_ call: () -> Result) throws(Errno) -> Result {
        while true {
            let result = call()
            guard result == -1 else { return result }
            let code = Errno.lastError
            guard code == .interrupted else { throw code }
        }
    }
}

extension Errno {
    /// The calling thread's `errno`, as left by the last C call that failed.
    package static var lastError: Errno { Errno(rawValue: errno) }
}

extension Errno {
    /// Runs `call`, made of swift-system's calls, and throws what it throws as the `Errno` it
    /// is: swift-system declares its errors untyped, but every one is an `Errno`.
    @discardableResult
    package static func catching<Value>(_ call: () throws -> Value) throws(Errno) -> Value {
        do {
            return try call()
        } catch let error as Errno {
            throw error
        } catch {
            preconditionFailure("swift-system threw \(error), which is not an Errno")
        }
    }
}

extension FileDescriptor.OpenOptions {
    /// Opening a terminal does not make it the process's controlling terminal (`O_NOCTTY`).
    package static var noControllingTerminal: Self { Self(rawValue: O_NOCTTY) }
}
