import BoothSystem
import SystemPackage

/// Opening a display's device node (a framebuffer, a KMS card), read-write and close-on-exec,
/// with what to do when it fails: a node that does not exist yet, or whose device is gone, is
/// ``DeviceError/disconnected`` (the booth waits for the display), and `missing` says where it
/// comes from; a node the booth may not open says which group to join.
enum DisplayNode {
    static func open(_ device: String, missing: String) throws(DeviceError) -> FileDescriptor {
        do {
            return try Errno.catching { try FileDescriptor.open(FilePath(device), .readWrite, options: .closeOnExec) }
        } catch {
            let gone = [Errno.noSuchFileOrDirectory, .operationNotSupportedByDevice, .noSuchAddressOrDevice].contains(error)
            let advice = error == .permissionDenied ? " Add the booth's user to the video group." : gone ? " \(missing)" : ""
            throw (gone ? DeviceError.disconnected : .unavailable).detailed("\(device): open failed: \(error).\(advice)")
        }
    }
}
