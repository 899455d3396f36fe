import BoothCore
import BoothStore
import Foundation
import HTTPTypes
import Hummingbird

/// A guest prints a photo from its page, when the operator allows it (`print.guests`): the
/// page links to a question that says how many prints are left, and the answer (a POST, so
/// that no link preview or prefetch prints) queues the print, then sends the browser to a page
/// that says so (303, so that reloading it prints nothing more). The limits of a photo and of
/// the event (``BoothCore/PrintLimits``) are read and the print queued in one transaction of
/// the catalog, so the booth never gives out more than the operator allowed; a refusal is a
/// page in the guest's language that says which limit holds. A POST that another site's page
/// sent is refused (``isFromThisGallery(_:)``): no page elsewhere spends the event's paper.
extension WebContext {
    var guestPrintRoutes: [Route] {
        [
            Route(.get, "/photos/{id}/print") { request, context in try await printPage(try photoID(from: context), request) },
            Route(.post, "/photos/{id}/print") { request, context in try await guestPrint(try photoID(from: context), request) },
        ]
    }

    /// The limits and copies of a guest's print; `nil` when guests do not print here.
    var guestPrints: (limits: PrintLimits, copies: Int)? {
        guard let limits = settings.guestPrinting, let copies = settings.printCopies else { return nil }
        return (limits, copies)
    }

    /// `GET /photos/{id}/print`: what printing it does, and how many prints are left; with
    /// `printed=1` (where a print's answer leads), that the print is on its way.
    func printPage(_ id: UUID, _ request: Request) async throws -> Response {
        let frame = try frame(for: request)
        let texts = frame.language.texts
        if FormValues(query: request.uri.query)["printed"] == "1" {
            guard guestPrints != nil else { throw guestPrintingOff(frame) }
            let message = [texts(.webPrinted), printerNotice(in: frame.language)].compactMap { $0 }.joined(separator: " ")
            return pages.page(NoticeView(frame: frame, message: message), "notice")
        }
        let (photo, allowance) = try await checkGuestPrint(id, frame: frame)
        var explanation = [allowance.left.map { texts(.webPrintLeft, ["count": "\($0)"]) } ?? "", texts(.webPrintWhere)]
        if let notice = printerNotice(in: frame.language) { explanation.append(notice) }
        let view = QuestionView(
            frame: frame, photo: card(for: photo, in: frame.language), question: texts(.webPrintQuestion, ["name": photo.caption.text]),
            explanation: explanation.filter { !$0.isEmpty }.joined(separator: " "), actionPath: GalleryPaths.print(of: id), key: nil,
            confirm: texts(.webPrintConfirm), cancel: texts(.webPrintCancel))
        return pages.page(view, "question")
    }

    /// `POST /photos/{id}/print`: queues the print (`print.copies`, fewer when the limits leave
    /// fewer), and sends the browser to the page that says where to collect it.
    func guestPrint(_ id: UUID, _ request: Request) async throws -> Response {
        let frame = try frame(for: request)
        guard Self.isFromThisGallery(request) else {
            throw WebError(status: .forbidden, message: "A print is asked for from the gallery's own photo page, not from another site's.")
        }
        _ = try await checkGuestPrint(id, frame: frame)
        guard let (limits, copies) = guestPrints else { throw guestPrintingOff(frame) }
        let (queued, allowance) = try await library.offloaded { library throws(LibraryError) in
            try library.prints.guestRequest(id, copies: copies, under: limits)
        }
        guard let queued else { throw limitReached(allowance, frame) }
        logger.notice("Web guest: print \(queued.number) of photo \(id.lowercased) (\(queued.copies) cop\(queued.copies == 1 ? "y" : "ies"))")
        return Response(status: .seeOther, headers: [.location: GalleryPaths.print(of: id) + "?printed=1"])
    }

    /// Whether a form was sent from this gallery's own page: as the browser says it
    /// (`Sec-Fetch-Site`), else as its `Origin` does when it names one (a page with no referrer
    /// sends `null`, which tells nothing). A client that sends neither, such as curl, is let
    /// through: the limits still hold.
    static func isFromThisGallery(_ request: Request) -> Bool {
        if let site = request.headers[secFetchSite] { return site == "same-origin" || site == "none" }
        guard let origin = request.headers[.origin], origin != "null" else { return true }
        return URL(string: origin)?.hostAndPort == request.head.authority?.lowercased()
    }

    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!

    /// The photo a guest may print, and what is left: 404 when guests do not print here or the
    /// photo is not in the gallery, 409 when a limit leaves none.
    func checkGuestPrint(_ id: UUID, frame: PageFrame) async throws -> (Photo, PrintAllowance) {
        guard let (limits, _) = guestPrints else { throw guestPrintingOff(frame) }
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

extension URL {
    /// `host:port` as a `Host` header writes it (the port only when the address has one).
    fileprivate var hostAndPort: String? {
        guard let host = host?.lowercased() else { return nil }
        return port.map { "\(host):\($0)" } ?? host
    }
}
