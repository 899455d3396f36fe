import BoothSystem
import CLinuxFB
import Foundation
import Logging
import SystemPackage

/// The Linux text console, switched to graphics mode while the booth draws, so that its text
/// and blinking cursor do not draw over the screen; its previous mode comes back when the value
/// is dropped.
///
/// Best effort: switching needs the console's permission (`CAP_SYS_TTY_CONFIG`, or the console
/// as controlling terminal). Without it the booth still draws; the console may show through.
package struct VirtualConsole: ~Copyable {
    private let descriptor: FileDescriptor
    private let previousMode: Int32

    /// Switches the console at `path` (usually `/dev/tty0`, the one on screen) to graphics
    /// mode; `nil`, logged at debug level, when that is not permitted. The corresponding C
    /// call is `ioctl(KDSETMODE, KD_GRAPHICS)`.
    package init?(graphicsModeOn path: String, logger: Logger) {
        // Write-only is enough for the ioctls, and all that /dev/tty0's group (tty, mode 0620)
        // may open it for.
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(FilePath(path), .writeOnly, options: [.closeOnExec, .noControllingTerminal])
        } catch {
            logger.debug("Console \(path) stays in text mode: open failed: \(error).")
            return nil
        }
        var mode: Int32 = 0
        do {
            try SystemCall.retrying { ioctl(descriptor.rawValue, UInt(KDGETMODE), &mode) }
            try SystemCall.retrying { ioctl(descriptor.rawValue, UInt(KDSETMODE), Int32(KD_GRAPHICS)) }
        } catch {
            logger.debug("Console \(path) stays in text mode: KDSETMODE failed: \(error).")
            try? descriptor.close()
            return nil
        }
        logger.debug("Console \(path) switched to graphics mode while the booth draws.")
        self.descriptor = descriptor
        previousMode = mode
    }

    deinit {
        _ = try? SystemCall.retrying { ioctl(descriptor.rawValue, UInt(KDSETMODE), previousMode) }
        try? descriptor.close()
    }
}
