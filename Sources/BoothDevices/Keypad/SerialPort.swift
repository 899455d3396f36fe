import BoothCore
import BoothSystem
import Foundation
import SystemPackage

/// A serial port in raw mode (8 data bits, no parity, 1 stop bit, no flow control), as a keypad
/// needs it: every byte as it arrives, nothing echoed or translated by the kernel.
final class SerialPort {
    let path: String
    let descriptor: FileDescriptor

    /// The speeds termios knows, in bits per second.
    static let speeds: [Int: speed_t] = [
        1200: speed_t(B1200), 2400: speed_t(B2400), 4800: speed_t(B4800), 9600: speed_t(B9600),
        19200: speed_t(B19200), 38400: speed_t(B38400), 57600: speed_t(B57600), 115200: speed_t(B115200),
        230400: speed_t(B230400),
    ]

    init(path: String, baud: Int) throws(DeviceError) {
        guard let speed = Self.speeds[baud] else {
            throw DeviceError.unsupported.detailed(
                "\(path): \(baud) baud is not a serial speed; use one of \(Self.speeds.keys.sorted().map(String.init).joined(separator: ", ")).")
        }
        self.path = path
        // Kept in a local until the port is set up: a failure below closes it once, here.
        let descriptor: FileDescriptor
        do {
            descriptor = try Errno.catching {
                try FileDescriptor.open(FilePath(path), .readWrite, options: [.noControllingTerminal, .nonBlocking, .closeOnExec])
            }
        } catch {
            throw .systemCall("open", on: path, errno: error)
        }
        var settings = termios()
        do {
            try SystemCall.retrying { tcgetattr(descriptor.rawValue, &settings) }
        } catch {
            try? descriptor.close()
            throw .systemCall("tcgetattr (is it a serial port?)", on: path, errno: error)
        }
        cfmakeraw(&settings)
        settings.c_cflag &= ~(tcflag_t(PARENB | CSTOPB | CSIZE) | tcflag_t(CRTSCTS))
        settings.c_cflag |= tcflag_t(CS8 | CLOCAL | CREAD)
        settings.c_iflag &= ~tcflag_t(IXON | IXOFF | IXANY)
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        do {
            try SystemCall.retrying { tcsetattr(descriptor.rawValue, TCSANOW, &settings) }
        } catch {
            try? descriptor.close()
            throw .systemCall("tcsetattr", on: path, errno: error)
        }
        _ = try? SystemCall.retrying { tcflush(descriptor.rawValue, TCIFLUSH) }
        self.descriptor = descriptor
    }

    deinit { try? descriptor.close() }

    /// Reads what has arrived. An empty result means nothing was there; a port that is gone
    /// (unplugged USB adapter) throws.
    func read() throws(DeviceError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count: Int
        do {
            count = try Errno.catching { try buffer.withUnsafeMutableBytes { try descriptor.read(into: $0) } }
        } catch  where error == .resourceTemporarilyUnavailable {
            return []
        } catch {
            throw .systemCall("read", on: path, errno: error)
        }
        if count == 0 { throw DeviceError.disconnected.detailed("\(path) hung up.") }
        return Array(buffer.prefix(count))
    }

    /// Writes `bytes` without waiting: a keypad display that cannot keep up loses text, the
    /// booth never stalls for it.
    func write(_ bytes: [UInt8]) {
        _ = try? descriptor.writeAll(bytes)
    }
}
