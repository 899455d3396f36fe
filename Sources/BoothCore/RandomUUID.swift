import Foundation

extension UUID {
    /// A new random UUID (version 4, RFC 9562) from the system's generator, which on Linux is
    /// the `getrandom` system call: it needs no file descriptor, and it waits (only early in
    /// boot, until the kernel's pool is ready) rather than give anything but random bits.
    ///
    /// Every id the booth mints comes from here, not from Foundation's `UUID()`: on Linux that
    /// reads `/dev/urandom`, which needs a free file descriptor, and yields all zeros when it
    /// cannot open it, so a process out of descriptors would give every photo the same id.
    package static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }
}
