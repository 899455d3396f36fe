import BoothCore
import BoothStore
import Foundation
import Hummingbird

/// A guest prints a photo from its page, when the operator allows it (`print.guests`): the
/// page links to a question that says how many prints are left, and the answer (a POST, so
/// that no link preview or prefetch prints) queues the print. The limits of a photo and of
/// the event (``BoothStore/PrintLimits``) are read and the print queued in one transaction
/// of the catalog, so the booth never gives out more than the operator allowed; a refusal is
/// a page in the guest's language that says which limit holds.
extension WebContext {
    var guestPrintRoutes: [Route] {
        [
            Route(.get, "/photos/{id}/print") { request, context in try await printPage(try photoID(from: context), request) },
            Route(.post, "/photos/{id}/print") { request, context in try await guestPrint(try photoID(from: context), request) },
        ]
    }

    /// `GET /photos/{id}/print`: what printing it does, and how many prints are left.
    func printPage(_ id: UUID, _ request: Request) async throws -> Response {
        let frame = try frame(for: request)
        let (photo, allowance) = try await checkGuestPrint(id, frame: frame)
        let texts = frame.language.texts
        var explanation = [allowance.left.map { texts(.webPrintLeft, ["count": "\($0)"]) } ?? "", texts(.webPrintWhere)]
        if let notice = printerNotice(in: frame.language) { explanation.append(notice) }
        let view = QuestionView(
            frame: frame, photo: card(for: photo, in: frame.language), question: texts(.webPrintQuestion, ["name": photo.caption.text]),
            explanation: explanation.filter { !$0.isEmpty }.joined(separator: " "), actionPath: GalleryPaths.print(of: id), key: nil,
            confirm: texts(.webPrintConfirm), cancel: texts(.webPrintCancel))
        return pages.page(view, "question")
    }

    /// `POST /photos/{id}/print`: queues the print (`print.copies`, fewer when the limits leave
    /// fewer), and says where to collect it, and what the printer is waiting for if it is.
    func guestPrint(_ id: UUID, _ request: Request) async throws -> Response {
        let frame = try frame(for: request)
        _ = try await checkGuestPrint(id, frame: frame)
        guard let limits = settings.guestPrinting, let copies = settings.printCopies else { throw guestPrintingOff(frame) }
        let (queued, allowance) = try await library.offloaded { library throws(LibraryError) in
            try library.prints.guestRequest(id, copies: copies, under: limits)
        }
        guard let queued else { throw limitReached(allowance, frame) }
        logger.notice("Web guest: print \(queued.number) of photo \(id.lowercased) (\(queued.copies) cop\(queued.copies == 1 ? "y" : "ies"))")
        let message = [frame.language.texts(.webPrinted), printerNotice(in: frame.language)].compactMap { $0 }.joined(separator: " ")
        return pages.page(NoticeView(frame: frame, message: message), "notice")
    }

    /// The photo a guest may print, and what is left: 404 when guests do not print here or the
    /// photo is not in the gallery, 409 when a limit leaves none.
    func checkGuestPrint(_ id: UUID, frame: PageFrame) async throws -> (Photo, PrintAllowance) {
        guard let limits = settings.guestPrinting, settings.printCopies != nil else { throw guestPrintingOff(frame) }
        let found = try await library.offloaded { library throws(LibraryError) -> (Photo, PrintAllowance)? in
            guard let photo = try library.gallery.photo(id: id) else { return nil }
            return (photo, try library.prints.allowance(of: id, under: limits))
        }
        guard let found else { throw WebError.photoOnItsWay(id) }
        guard found.1.left != 0 else { throw limitReached(found.1, frame) }
        return found
    }

    private func guestPrintingOff(_ frame: PageFrame) -> GuestRefusal {
        GuestRefusal(status: .notFound, message: frame.language.texts(.webPrintOff), frame: frame)
    }

    private func limitReached(_ allowance: PrintAllowance, _ frame: PageFrame) -> GuestRefusal {
        let texts = frame.language.texts
        let message =
            allowance.eventIsSpent
            ? texts(.webPrintLimitEvent) : texts(.webPrintLimitPhoto, ["count": "\(allowance.limits.perPicture ?? allowance.ofPicture)"])
        return GuestRefusal(status: .conflict, message: message, frame: frame)
    }

    /// What the printer is waiting for, as the booth's screen says it; `nil` while it prints.
    func printerNotice(in language: BoothLanguage) -> String? {
        guard let report = live.status().printer, report.isHoldingPrints else { return nil }
        let fault = report.faults.lazy.compactMap(PrinterFault.init(rawValue:)).first { !$0.isWarning } ?? .offline
        return fault.notice(in: language.texts)
    }
}
