import BoothCore
import BoothSystem
import Foundation

/// A serial port in raw mode (8 data bits, no parity, 1 stop bit, no flow control), as a keypad
/// needs it: every byte as it arrives, nothing echoed or translated by the kernel.
final class SerialPort {
    let path: String
    let descriptor: Int32

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
        let descriptor = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .systemCall("open", on: path, errno: errno) }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            let code = errno
            close(descriptor)
            throw .systemCall("tcgetattr (is it a serial port?)", on: path, errno: code)
        }
        cfmakeraw(&settings)
        settings.c_cflag &= ~(tcflag_t(PARENB | CSTOPB | CSIZE) | tcflag_t(CRTSCTS))
        settings.c_cflag |= tcflag_t(CS8 | CLOCAL | CREAD)
        settings.c_iflag &= ~tcflag_t(IXON | IXOFF | IXANY)
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else {
            let code = errno
            close(descriptor)
            throw .systemCall("tcsetattr", on: path, errno: code)
        }
        tcflush(descriptor, TCIFLUSH)
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Reads what has arrived. An empty result means nothing was there; a port that is gone
    /// (unplugged USB adapter) throws.
    func read() throws(DeviceError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        if count > 0 { return Array(buffer.prefix(count)) }
        if count == 0 { throw DeviceError.disconnected.detailed("\(path) hung up.") }
        if errno == EAGAIN || errno == EINTR { return [] }
        throw .systemCall("read", on: path, errno: errno)
    }

    /// Writes `bytes` without waiting: a keypad display that cannot keep up loses text, the
    /// booth never stalls for it.
    func write(_ bytes: [UInt8]) {
        writeAll(bytes, to: descriptor)
    }
}
