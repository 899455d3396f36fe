import BoothCore
import BoothSystem
import Foundation
import Logging
import Synchronization

/// The shutter button on a GPIO line, through the GPIO character device (libgpiod 1.6).
///
/// Edge events carry the kernel's monotonic timestamp of the edge, so the countdown starts at
/// the instant the guest pressed, however late the thread reads the event; ``ButtonDebouncer``
/// works on those timestamps.
public final class GPIOButton: ShutterButton {
    /// Where the button is wired and how.
    public struct Settings: Sendable, Hashable {
        public var chip: String
        public var line: GPIOLineSelector
        /// The button connects the line to ground (with a pull-up): pressed reads low.
        public var activeLow: Bool
        public var bias: GPIOBias
        public var debounce: Duration

        public init(
            chip: String = "gpiochip0", line: GPIOLineSelector = .name("GPIO17"), activeLow: Bool = true,
            bias: GPIOBias = .pullUp, debounce: Duration = .milliseconds(30)
        ) {
            self.chip = chip
            self.line = line
            self.activeLow = activeLow
            self.bias = bias
            self.debounce = debounce
        }
    }

    package let presses: AsyncStream<MonotonicInstant>
    private let thread: DedicatedThread

    /// Requests the line at once, so a wrong chip or line stops the booth before it starts;
    /// afterwards a failing line is reopened by the button's thread.
    /// `name` is what it does, in the log ("Shutter", "Boomerang").
    public init(settings: Settings, logger: Logger, named name: String = "Shutter") throws(DeviceError) {
        let (presses, sink) = AsyncStream.makeStream(of: MonotonicInstant.self)
        self.presses = presses
        let first = try Self.open(settings)
        logger.info(
            "\(name) button on \(first.label) (\(settings.activeLow ? "active-low" : "active-high"), \(settings.bias.rawValue), debounce \(settings.debounce))."
        )
        // The line opened here is handed to the thread, which owns it from then on.
        let firstLine = Mutex<GPIOLine?>(first)
        thread = .device(name: "\(name.lowercased()) button", logger: logger) { wakeup, worked in
            let line = try firstLine.withLock { $0.take() } ?? Self.open(settings)
            worked = true
            var debouncer = ButtonDebouncer(window: settings.debounce, pressed: try line.value())
            let clock = MonotonicClock()
            while true {
                let deadline = debouncer.settleAt ?? clock.now + .seconds(60)
                switch try wakeup.wait(for: line.eventDescriptor, until: deadline, device: line.label) {
                case .woken: return
                case .timedOut:
                    // Quiet for the debounce window: the level says where the button is.
                    if debouncer.settleAt.map({ clock.now >= $0 }) ?? false {
                        debouncer.settle(pressed: try line.value())
                    }
                case .ready:
                    let edge = try line.readEdge()
                    // Kernels before 5.7 stamped edges with the wall clock; such a stamp is far
                    // from the monotonic now and is replaced by the time of reading.
                    let now = clock.now
                    let stamp = abs(edge.nanoseconds - now.nanoseconds) < 10_000_000_000 ? edge : now
                    if let press = debouncer.edge(at: stamp) {
                        logger.debug("\(name) pressed at \(press).")
                        sink.yield(press)
                    }
                }
            }
        }
    }

    deinit { thread.requestStop() }

    private static func open(_ settings: Settings) throws(DeviceError) -> GPIOLine {
        let line = try GPIOLine(chip: settings.chip, line: settings.line)
        try line.requestEdges(activeLow: settings.activeLow, bias: settings.bias)
        return line
    }
}

extension GPIOButton {
    /// Requests the button's line as the booth would, and releases it (for `photobooth doctor`);
    /// returns the line's description.
    package static func check(_ settings: Settings) throws(DeviceError) -> String {
        let line = try GPIOLine(chip: settings.chip, line: settings.line)
        if let user = line.user {
            throw DeviceError.unavailable.detailed("\(line.label) is in use by \(user).")
        }
        try line.requestEdges(activeLow: settings.activeLow, bias: settings.bias)
        return line.label
    }
}
