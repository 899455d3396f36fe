import Foundation

/// Writes all of `bytes` to `descriptor` in as many `write(2)` calls as it takes, retrying
/// after `EINTR`. Stops at the first failure, a descriptor that would block included: the rest
/// is dropped, so a slow reader (a keypad's display, a terminal) never stalls the writer.
/// Returns whether every byte was written.
@discardableResult
public func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return false }
        offset += written
    }
    return true
}
