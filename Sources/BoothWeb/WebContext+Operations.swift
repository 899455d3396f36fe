import BoothCore
import BoothStore
import Hummingbird

/// For the operator's tools: `/healthz` for a watchdog or a load balancer, `/metrics` for
/// Prometheus.
extension WebContext {
    var operationRoutes: [Route] {
        [
            Route(.get, "/healthz") { _, _ in await health() },
            Route(.get, "/metrics") { _, _ in await metricsText() },
        ]
    }

    /// 200 `ok` when the catalog answers a read, the camera delivers frames and photos can be
    /// saved; otherwise 503 with one line per failing part, saying why.
    func health() async -> Response {
        var failures: [String] = []
        do {
            _ = try await library.offloaded { library throws(LibraryError) in try library.gallery.count() }
        } catch {
            failures.append("store: the catalog cannot be read: \(error)")
        }
        let status = live.status()
        if !status.cameraConnected {
            failures.append("camera: not connected (the booth gets no frames from it)")
        }
        if let problem = status.storageProblem {
            failures.append("storage: \(problem)")
        }
        if let printer = status.printer, printer.isHoldingPrints {
            let said = printer.message.isEmpty ? "" : " (\(printer.message))"
            failures.append("printer: \(printer.faults.joined(separator: ", "))\(said); prints wait. \(printer.fix ?? "")")
        }
        guard failures.isEmpty else {
            return .text(failures.joined(separator: "\n") + "\n", status: .serviceUnavailable)
        }
        return .text("ok\n")
    }

    /// The booth's metrics, the web's, and the library's size, in Prometheus' text format.
    func metricsText() async -> Response {
        var text = live.metrics()
        metrics.write(into: &text)
        do {
            let (visible, all) = try await library.offloaded { library throws(LibraryError) in
                (try library.gallery.count(), try library.gallery.count(includingHidden: true))
            }
            text.add("photobooth_library_photos", .gauge, help: "Photos in the library that guests can see.", value: visible)
            text.add("photobooth_library_hidden_photos", .gauge, help: "Photos hidden from guests.", value: all - visible)
        } catch {
            logger.warning("/metrics leaves out the library's size: \(error)")
        }
        return .text(text.description, contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
