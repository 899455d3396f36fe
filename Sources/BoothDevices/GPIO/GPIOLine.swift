import BoothCore
import CGPIOD
import Foundation
import SystemPackage

/// Which line of a GPIO chip: by offset, or by the name the board gives it ("GPIO17").
public enum GPIOLineSelector: Sendable, Hashable, CustomStringConvertible {
    case offset(Int)
    case name(String)

    /// A number is an offset, anything else a line name.
    public init(_ text: String) {
        if let offset = Int(text), offset >= 0 { self = .offset(offset) } else { self = .name(text) }
    }

    public var description: String {
        switch self {
        case .offset(let offset): "line \(offset)"
        case .name(let name): "line \"\(name)\""
        }
    }
}

/// The internal resistor a line is requested with.
public enum GPIOBias: String, CaseIterable, Sendable {
    case pullUp = "pull-up"
    case pullDown = "pull-down"
    case disabled
    /// Leave the line's bias as the board configured it.
    case asIs = "as-is"

    var requestFlag: Int32 {
        switch self {
        case .pullUp: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
        case .pullDown: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
        case .disabled: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE)
        case .asIs: 0
        }
    }
}

/// One requested line of a GPIO character device (libgpiod 1.6), for edge events or output.
/// The chip and the request are released when the line goes away.
final class GPIOLine {
    /// The chip as configured (name, number or path) and the line, for messages.
    let label: String
    private let chip: OpaquePointer
    private let line: OpaquePointer
    private var requested = false

    /// The consumer name other programs see (`gpioinfo`).
    static let consumer = "photobooth"

    /// Finds `selector` on `chipName` ("gpiochip0", "0" or "/dev/gpiochip0").
    init(chip chipName: String, line selector: GPIOLineSelector) throws(DeviceError) {
        label = "GPIO \(chipName) \(selector)"
        guard let chip = gpiod_chip_open_lookup(chipName) else {
            throw .systemCall("opening the GPIO chip", on: "GPIO \(chipName)", errno: errno)
        }
        let line: OpaquePointer? =
            switch selector {
            case .offset(let offset): offset < Int(gpiod_chip_num_lines(chip)) ? gpiod_chip_get_line(chip, UInt32(offset)) : nil
            case .name(let name): gpiod_chip_find_line(chip, name)
            }
        guard let line else {
            let count = gpiod_chip_num_lines(chip)
            gpiod_chip_close(chip)
            throw DeviceError.unavailable.detailed(
                "GPIO \(chipName) has no \(selector) (it has \(count) lines; `gpioinfo \(chipName)` lists them).")
        }
        self.chip = chip
        self.line = line
    }

    deinit {
        if requested { gpiod_line_release(line) }
        gpiod_chip_close(chip)
    }

    /// Whether another program (or the kernel) holds the line, and who.
    var user: String? {
        guard gpiod_line_is_used(line) else { return nil }
        return gpiod_line_consumer(line).map { String(cString: $0) } ?? "the kernel"
    }

    /// Requests edge events on both edges. With `activeLow`, a press that pulls the line to
    /// ground reads as a rising edge.
    func requestEdges(activeLow: Bool, bias: GPIOBias) throws(DeviceError) {
        var config = gpiod_line_request_config()
        var flags = bias.requestFlag
        if activeLow { flags |= Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) }
        config.request_type = Int32(GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES)
        config.flags = flags
        let status = Self.consumer.withCString { consumer in
            config.consumer = consumer
            return gpiod_line_request(line, &config, 0)
        }
        guard status == 0 else { throw requestError(errno) }
        requested = true
    }

    /// Requests the line as an output, initially at `value` (logical, after `activeLow`).
    func requestOutput(activeLow: Bool, value: Bool) throws(DeviceError) {
        let flags = activeLow ? Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) : 0
        guard gpiod_line_request_output_flags(line, Self.consumer, flags, value ? 1 : 0) == 0 else {
            throw requestError(errno)
        }
        requested = true
    }

    private func requestError(_ code: Int32) -> DeviceError {
        if code == EBUSY, let user {
            return DeviceError.unavailable.detailed("\(label) is in use by \(user); stop it or pick another line.")
        }
        return .systemCall("requesting the line", on: label, errno: code)
    }

    /// The descriptor that becomes readable when an edge event is waiting.
    var eventDescriptor: FileDescriptor { FileDescriptor(rawValue: gpiod_line_event_get_fd(line)) }

    /// Reads the waiting edge event; returns when it happened, on the kernel's monotonic clock.
    /// (Its rising/falling label is not returned: during contact bounce it is unreliable.)
    func readEdge() throws(DeviceError) -> MonotonicInstant {
        var event = gpiod_line_event()
        guard gpiod_line_event_read(line, &event) == 0 else { throw .systemCall("reading an edge event", on: label, errno: errno) }
        return MonotonicInstant(seconds: Int64(event.ts.tv_sec), nanoseconds: Int64(event.ts.tv_nsec))
    }

    /// The line's logical level now (active is true, after active-low).
    func value() throws(DeviceError) -> Bool {
        let value = gpiod_line_get_value(line)
        guard value >= 0 else { throw .systemCall("reading the line", on: label, errno: errno) }
        return value == 1
    }

    func set(_ value: Bool) throws(DeviceError) {
        guard gpiod_line_set_value(line, value ? 1 : 0) == 0 else { throw .systemCall("setting the line", on: label, errno: errno) }
    }
}
