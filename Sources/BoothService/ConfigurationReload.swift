import BoothSystem
import Dispatch
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Reads the configuration again on each SIGHUP. When it reads well, `accept` is called (the
/// booth then stops once no photo is in flight and starts again with it); when it does not,
/// the error is logged and the booth goes on with the configuration it runs.
struct ConfigurationReloader: Service {
    let hangups: TrappedSignal
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
