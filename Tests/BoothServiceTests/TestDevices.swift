import BoothCore
import BoothImaging
import Foundation
import Synchronization

/// A camera whose frames, timestamps and failures the test decides.
final class ControlledCamera: Camera {
    struct Unplugged: Error {}

    private struct State {
        /// The stream the booth reads, while the camera is open.
        var stream: AsyncThrowingStream<CameraFrame, any Error>.Continuation?
        /// Deliveries waiting for the booth to open the camera.
        var waiting: [CheckedContinuation<AsyncThrowingStream<CameraFrame, any Error>.Continuation, Never>] = []
    }

    private let state = Mutex(State())

    var name: String { "controlled camera" }

    func frames() -> AsyncThrowingStream<CameraFrame, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: CameraFrame.self)
        let waiting = state.withLock { state in
            state.stream = continuation
            defer { state.waiting = [] }
            return state.waiting
        }
        for delivery in waiting { delivery.resume(returning: continuation) }
        return stream
    }

    /// Delivers a frame as soon as the booth has the camera open (a camera only delivers while
    /// it streams), so a test never loses a frame to the booth starting up or reopening.
    func deliver(_ frame: CameraFrame) async {
        let stream = await withCheckedContinuation { delivery in
            let open = state.withLock { state in
                if state.stream == nil { state.waiting.append(delivery) }
                return state.stream
            }
            if let open { delivery.resume(returning: open) }
        }
        stream.yield(frame)
    }

    /// Ends the current stream with an error, as when the cable is pulled.
    func unplug() {
        state.withLock { state in
            state.stream?.finish(throwing: Unplugged())
            state.stream = nil
        }
    }
}

/// Real MJPEG frames, as a webcam sends them (no Huffman tables), stamped with chosen instants.
enum TestFrames {
    static func frame(number: UInt64, at timestamp: MonotonicInstant) throws -> CameraFrame {
        let bitmap = TestPattern(width: 160, height: 120).render(frame: number, at: Date())
        let jpeg = try JPEGSegments(try JPEGEncoder().encode(bitmap, quality: 80)).removingHuffmanTables()
        return CameraFrame(bytes: jpeg, encoding: .mjpeg, width: 160, height: 120, timestamp: timestamp, sequence: number)
    }

    /// A frame whose data ends early, as a camera delivers when USB drops packets.
    static func truncatedFrame(number: UInt64, at timestamp: MonotonicInstant) throws -> CameraFrame {
        var frame = try frame(number: number, at: timestamp)
        frame.bytes = frame.bytes.prefix(frame.bytes.count / 2)
        return frame
    }
}

/// A button and a keypad the test presses.
final class TestControls: ShutterButton, Keypad {
    let presses: AsyncStream<MonotonicInstant>
    let keys: AsyncStream<KeypadKey>
    private let pressSink: AsyncStream<MonotonicInstant>.Continuation
    private let keySink: AsyncStream<KeypadKey>.Continuation

    init() {
        (presses, pressSink) = AsyncStream.makeStream(of: MonotonicInstant.self)
        (keys, keySink) = AsyncStream.makeStream(of: KeypadKey.self)
    }

    func press(at instant: MonotonicInstant) { pressSink.yield(instant) }

    /// One key, as a keypad sends it.
    func send(_ key: KeypadKey) { keySink.yield(key) }

    func type(_ text: String) {
        for character in text { keySink.yield(.character(character)) }
        keySink.yield(.enter)
    }

    /// Ends input for good: the booth finishes and stops.
    func endInput() { keySink.finish() }
}

/// A screen that remembers what it showed; the test waits for what it expects, in order.
final class RecordingScreen: Screen {
    private struct State {
        var history: [ScreenContent] = []
        /// Where the next search starts: contents before it have been waited for or skipped.
        var cursor = 0
        var waiter: (matches: @Sendable (ScreenContent) -> Bool, continuation: CheckedContinuation<ScreenContent, Never>)?
    }

    private let state = Mutex(State())

    func show(_ content: ScreenContent) {
        let resumed = state.withLock { state -> CheckedContinuation<ScreenContent, Never>? in
            state.history.append(content)
            guard let waiter = state.waiter, waiter.matches(content) else { return nil }
            state.waiter = nil
            state.cursor = state.history.count
            return waiter.continuation
        }
        resumed?.resume(returning: content)
    }

    /// Everything shown so far.
    var contents: [ScreenContent] { state.withLock { $0.history } }

    /// Waits for the next content, after those already waited for, that matches. A wait that
    /// is cancelled (a test past its time limit) returns the last content shown, so that the
    /// test fails on it rather than hanging the run.
    @discardableResult
    func next(where matches: @escaping @Sendable (ScreenContent) -> Bool) async -> ScreenContent {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let found = state.withLock { state -> ScreenContent? in
                    if let index = state.history[state.cursor...].firstIndex(where: matches) {
                        state.cursor = index + 1
                        return state.history[index]
                    }
                    state.cursor = state.history.count
                    // Cancelled before it waits: the cancellation handler found no waiter.
                    if Task.isCancelled { return state.history.last ?? .starting }
                    state.waiter = (matches, continuation)
                    return nil
                }
                if let found { continuation.resume(returning: found) }
            }
        } onCancel: {
            let waiting = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter.map { (continuation: $0.continuation, last: state.history.last ?? .starting) }
            }
            if let waiting { waiting.continuation.resume(returning: waiting.last) }
        }
    }

    @discardableResult
    func next(_ expected: ScreenContent) async -> ScreenContent {
        await next { $0 == expected }
    }
}

/// A screen on which the guest types the moment the naming screen appears, in the same call,
/// as a fast keypad or a piped script can.
final class TypingScreen: Screen {
    private let screen: any Screen
    private let controls: TestControls
    private let name: String
    private let typed = Mutex(false)

    init(forwardingTo screen: any Screen, controls: TestControls, name: String) {
        self.screen = screen
        self.controls = controls
        self.name = name
    }

    func show(_ content: ScreenContent) {
        screen.show(content)
        guard case .naming(typed: "", _, _) = content, !typed.withLock({ $0 }) else { return }
        typed.withLock { $0 = true }
        controls.type(name)
    }
}
