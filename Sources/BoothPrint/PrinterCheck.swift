import BoothCore
import BoothImaging
import Foundation

/// What `photobooth doctor` asks of the printer: the queue, its state and what it takes, and on
/// request a test page printed to its end. Blocking: call it off Swift's cooperative pool.
package enum PrinterCheck {
    /// The queue's state in one sentence; throws with what is wrong and its fix.
    package static func check(_ settings: PrintSettings) throws(PrintError) -> String {
        let connection = CUPSConnection(server: settings.server)
        let queue = CUPSQueue(name: settings.queue, connection: connection, user: settings.user)
        let look: PrinterLook
        var device: PrinterLook.Device?
        do {
            look = try PrinterLook(queue, device: &device)
        } catch  where error.isNotFound {
            if let printer = settings.device {
                throw .fault(
                    "CUPS at \(settings.server) has no queue \(settings.queue) for \(printer) yet",
                    fix:
                        "start the booth: it sets the queue up (its user must be in lpadmin: sudo adduser photobooth lpadmin); its log says what stops it."
                )
            }
            throw .refused(status: 0x0406, message: "CUPS at \(settings.server) has no queue \(settings.queue) (`lpstat -p` lists them)")
        }
        let (attributes, status, message) = (look.attributes, look.status, look.status.message)
        let takes = attributes.formats.contains("image/jpeg") ? "takes JPEG" : "takes no JPEG (CUPS converts it)"
        let dpi = attributes.resolution.map { " at \($0) dpi" } ?? ""
        let said = message.isEmpty ? "" : " (\(message))"
        if let fault = status.faults.first(where: { !$0.isWarning }) {
            let faults = status.faults.map(\.rawValue).joined(separator: ", ")
            throw .fault("\(settings.queue) at \(settings.server): \(faults)\(said); prints wait.", fix: fault.fix)
        }
        let warnings = status.faults.isEmpty ? "" : "; warns \(status.faults.map(\.rawValue).joined(separator: ", ")): \(status.faults[0].fix)"
        return "\(settings.queue) at \(settings.server) is \(status.state.rawValue)\(said), \(takes)\(dpi), on \(settings.media)\(warnings)."
    }

    /// Prints a test page (the test pattern laid out as a picture is) and waits up to `timeout`
    /// for it to come out; says how long it took.
    package static func printTestPage(_ settings: PrintSettings, timeout: Duration = .seconds(120)) throws(PrintError) -> String {
        let connection = CUPSConnection(server: settings.server)
        let queue = CUPSQueue(name: settings.queue, connection: connection, user: settings.user)
        let attributes = try queue.attributes()
        let dpi = attributes.pageResolution
        let picture: Data
        do {
            picture = try JPEGEncoder().encode(TestPattern(width: 1800, height: 1200).render(frame: 1, at: Date()), quality: 90)
        } catch {
            throw .document("The test page cannot be made: \(error)")
        }
        let page = try settings.pageMaker().page(
            of: picture, width: 1800, height: 1200, dpi: dpi, blanks: settings.blanks(caption: "Test page", date: Date()))
        let clock = ContinuousClock()
        let start = clock.now
        let job = try queue.print(
            page, format: "image/jpeg", uuid: UUID(), title: "Photobooth test page", copies: 1, media: settings.media,
            borderless: settings.margin == 0)
        while clock.now - start < timeout {
            guard let state = try queue.job(job) else { throw .refused(status: 0, message: "CUPS lost the test page (job \(job))") }
            switch state.state {
            case .completed:
                return "test page printed (CUPS job \(job)) in \((clock.now - start).components.seconds) s."
            case .canceled, .aborted:
                throw .refused(status: 0, message: "the test page (CUPS job \(job)) was \(state.state.word): \(state.message)")
            default:
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
        throw .refused(status: 0, message: "the test page (CUPS job \(job)) did not print within \(timeout.components.seconds) s")
    }
}
