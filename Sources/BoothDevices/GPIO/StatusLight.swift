import BoothCore
import BoothSystem
import Foundation
import Logging
import Synchronization

/// A light on a GPIO line (the shutter button's own LED, usually) that tells guests what the
/// booth expects: on when a press takes a photo (the main screen, and the gallery, where the
/// button starts the countdown too), blinking during the countdown, off otherwise, and off in a
/// fault. While the printer holds prints it is still on where a press takes a photo, but goes
/// dark for a moment every two seconds: the operator sees it from across the room. It follows
/// the screen, so it is a ``Screen`` of its own.
public final class StatusLight: Screen {
    /// Where the light is wired.
    public struct Settings: Sendable, Hashable {
        public var chip: String
        public var line: GPIOLineSelector
        /// The line sinks the LED's current: low is lit.
        public var activeLow: Bool

        public init(chip: String = "gpiochip0", line: GPIOLineSelector, activeLow: Bool = false) {
            self.chip = chip
            self.line = line
            self.activeLow = activeLow
        }
    }

    /// What the light does.
    enum Pattern: Equatable {
        case off
        case on
        case blinking
        /// On, but dark for ``winkDark`` every ``winkPeriod``: photos are taken, the printer
        /// holds prints.
        case winking

        init(for content: ScreenContent, printerFault: PrinterFault? = nil) {
            switch content {
            case .ready, .gallery, .photo, .attract: self = printerFault == nil ? .on : .winking
            case .countdown: self = .blinking
            default: self = .off
            }
        }
    }

    static let winkPeriod = Duration.seconds(2)
    static let winkDark = Duration.milliseconds(200)

    /// Half a blink: 4 changes a second are seen at once and do not look like a fault.
    static let blinkPhase = Duration.milliseconds(250)

    /// What the light shows now, which its thread follows.
    private final class Shown: Sendable {
        let pattern = Mutex(Pattern.off)
        /// What the screen shows and the printer's fault, which make the pattern.
        let inputs = Mutex<(content: ScreenContent, fault: PrinterFault?)>((.starting, nil))
    }

    private let shown: Shown
    private let thread: DedicatedThread

    /// Requests the line (off) at once, so a wrong line stops the booth before it starts.
    public init(settings: Settings, logger: Logger) throws(DeviceError) {
        let line = try GPIOLine(chip: settings.chip, line: settings.line)
        try line.requestOutput(activeLow: settings.activeLow, value: false)
        logger.info("Status light on \(line.label).")
        let owned = Mutex<GPIOLine?>(line)
        let shown = Shown()
        self.shown = shown
        thread = DedicatedThread(name: "status light") { wakeup in
            if let line = owned.withLock({ $0.take() }) { Self.drive(line, following: shown, wakeup: wakeup, logger: logger) }
        }
    }

    package func show(_ content: ScreenContent) {
        let inputs = shown.inputs.withLock { inputs in
            inputs.content = content
            return inputs
        }
        follow(Pattern(for: inputs.content, printerFault: inputs.fault))
    }

    package func showPrinterNotice(_ fault: PrinterFault?) {
        let inputs = shown.inputs.withLock { inputs in
            inputs.fault = fault
            return inputs
        }
        follow(Pattern(for: inputs.content, printerFault: inputs.fault))
    }

    private func follow(_ new: Pattern) {
        let changed = shown.pattern.withLock { pattern in
            defer { pattern = new }
            return new != pattern
        }
        // Each second of the countdown is a new screen but the same blinking: no wake-up, or
        // the blink would lose its rhythm.
        if changed { thread.wake() }
    }

    /// Turns the light off, ends its thread, and returns once the line is off: a released line
    /// keeps its last value, so the process must not exit before.
    package func stop() async {
        await thread.stop()
    }

    /// ``stop()`` for a thread that may block (never Swift's cooperative pool).
    package func stopWaiting() {
        thread.stopWaiting()
    }

    /// The light's loop: sets the line whenever the pattern changes, and every phase while
    /// blinking. A failing line is logged once and the loop goes on (the light is a courtesy;
    /// the booth works without it).
    private static func drive(_ line: GPIOLine, following shown: Shown, wakeup: Wakeup, logger: Logger) {
        var lit = false
        var failing = false
        let clock = MonotonicClock()
        var nextToggle: MonotonicInstant?
        while !wakeup.isStopping {
            let now = clock.now
            let pattern = shown.pattern.withLock { $0 }
            let toggle = nextToggle.map { now >= $0 } ?? true
            if pattern == .blinking, toggle { nextToggle = now + blinkPhase }
            // Winking: lit for the period less the dark moment, then dark for the moment.
            if pattern == .winking, toggle { nextToggle = now + (lit ? winkDark : winkPeriod - winkDark) }
            let wanted =
                switch pattern {
                case .off: false
                case .on: true
                case .blinking, .winking: toggle ? !lit : lit
                }
            if wanted != lit {
                do {
                    try line.set(wanted)
                    lit = wanted
                    failing = false
                } catch {
                    if !failing { logger.error("Status light: \(error)") }
                    failing = true
                }
            }
            wakeup.wait(until: pattern == .blinking || pattern == .winking ? nextToggle : nil)
        }
        try? line.set(false)
    }
}

extension StatusLight {
    /// Requests the light's line as an output (off) and releases it (for `photobooth doctor`).
    package static func check(_ settings: Settings) throws(DeviceError) -> String {
        let line = try GPIOLine(chip: settings.chip, line: settings.line)
        if let user = line.user {
            throw DeviceError.unavailable.detailed("\(line.label) is in use by \(user).")
        }
        try line.requestOutput(activeLow: settings.activeLow, value: false)
        return line.label
    }
}
