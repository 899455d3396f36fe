import BoothSystem
import Dispatch
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// SIGHUP (`systemctl reload photobooth`), trapped once for the whole process: a signal's
/// disposition belongs to the process, and a hangup that arrives while nobody waits is kept
/// for the next ``next()``.
///
/// Not service-lifecycle's signal support: a `ServiceGroup` traps its signals only while it
/// runs, and a `UnixSignalsSequence` only from when it is made, in an async context; the
/// reloader's service runs once the devices, the library and the first disk check are open.
/// A hangup before that would end the process (SIGHUP's default) or be lost, and one between
/// a reload's `exec` and the new run's trap would end it too. Here SIGHUP is ignored from the
/// first use on, which `exec` keeps, and remembered until the reloader asks.
final class HangupSignal: Sendable {
    static let shared = HangupSignal()

    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Bool, Never>?
    }

    private let state = Mutex(State())
    // Kept alive for the process's lifetime; Dispatch serializes its handler.
    nonisolated(unsafe) private let source: any DispatchSourceSignal

    private init() {
        // Ignored as a signal, so it does not end the process; Dispatch still reports it.
        // An ignored signal stays ignored across exec, so a re-executed booth is never killed
        // by a hangup that comes before it traps its own.
        signal(SIGHUP, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        // The process-wide instance lives as long as the process.
        source.setEventHandler { [unowned self] in received() }
        source.resume()
    }

    private func received() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: true)
    }

    /// Waits for a hangup; `false` when the waiting task is cancelled.
    func next() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow: Bool? = state.withLock { state in
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    if Task.isCancelled { return false }
                    state.waiter = continuation
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: false)
        }
    }
}

/// Reads the configuration again on each SIGHUP. When it reads well, `accept` is called (the
/// booth then stops once no photo is in flight and starts again with it); when it does not,
/// the error is logged and the booth goes on with the configuration it runs.
struct ConfigurationReloader: Service {
    let hangups: HangupSignal
    let read: @Sendable () throws -> BoothConfiguration
    let logger: Logger
    let accept: @Sendable () -> Void

    func run() async {
        await cancelWhenGracefulShutdown {
            while await hangups.next() {
                logger.notice("SIGHUP: reading the configuration again.")
                do {
                    // Reading a file blocks: not on the cooperative pool.
                    _ = try await DedicatedThread.run(name: "reading config", read)
                    accept()
                } catch {
                    logger.error("The configuration was not reloaded; the booth goes on with the one it runs. \(error)")
                }
            }
        }
    }
}
