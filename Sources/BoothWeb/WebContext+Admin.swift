import BoothCore
import BoothStore
import Foundation
import HTTPTypes
import Hummingbird

/// Admin actions: hide a photo from guests, show it again, delete it (its original moves to
/// the library's recycle folder), mark and unmark favourites, list near-duplicates, print a
/// photo, list the print queue, cancel and retry a print. Each needs
/// `Authorization: Bearer <token>` with the token of ``WebSettings/adminToken``; without a
/// configured token they are off. The page `/admin` does them from a browser: it holds no
/// secret, and its script sends the token the operator types. Wrong tokens are logged and
/// slowed per client (``WrongTokens``).
extension WebContext {
    var adminRoutes: [Route] {
        [
            Route(.get, "/admin") { request, _ in pages.page(AdminView(frame: try frame(for: request), prints: settings.printCopies != nil), "admin")
            },
            Route(.get, "/api/duplicates") { request, context in try await duplicates(request, context) },
            Route(.post, "/api/photos/{id}/favourite") { request, context in
                try await administer(request, context, "favourite") { library, id throws(LibraryError) in try library.setFavourite(true, of: id) }
            },
            Route(.post, "/api/photos/{id}/unfavourite") { request, context in
                try await administer(request, context, "unfavourite") { library, id throws(LibraryError) in
                    try library.setFavourite(false, of: id)
                }
            },
            Route(.post, "/api/photos/{id}/hide") { request, context in
                try await administer(request, context, "hide") { library, id throws(LibraryError) in try library.setHidden(true, of: id) }
            },
            Route(.post, "/api/photos/{id}/unhide") { request, context in
                try await administer(request, context, "unhide") { library, id throws(LibraryError) in try library.setHidden(false, of: id) }
            },
            Route(.post, "/api/photos/{id}/print") { request, context in try await print(request, context) },
            Route(.get, "/api/prints") { request, context in try await printQueue(request, context) },
            Route(.post, "/api/prints/{number}/cancel") { request, context in try await changePrint(request, context, retry: false) },
            Route(.post, "/api/prints/{number}/retry") { request, context in try await changePrint(request, context, retry: true) },
            Route(.delete, "/api/photos/{id}") { request, context in
                try await administer(request, context, "delete") { library, id throws(LibraryError) in try library.recycle(id) }
            },
        ]
    }

    /// `/api/duplicates`: the visible photos that look alike (perceptual hashes within
    /// ``WebSettings/duplicateDistance`` bits), in groups, each newest first; the groups with
    /// the newest photo first.
    func duplicates(_ request: Request, _ context: GalleryRequestContext) async throws -> Response {
        try authorize(request, context)
        let distance = settings.duplicateDistance
        let groups = try await library.offloaded { library throws(LibraryError) in try library.gallery.duplicateGroups(maxDistance: distance) }
        let origin = origin(of: request)
        return .json(groups.map { group in group.map { resource(for: $0, origin: origin) } })
    }

    /// `/api/photos/{id}/print`: queues a print of the photo for the booth's printer (`print.copies`
    /// copies): 202 with the request's number and state, which `photobooth print status` and
    /// `/api/status` follow; 409 when the booth does not print.
    func print(_ request: Request, _ context: GalleryRequestContext) async throws -> Response {
        try authorize(request, context)
        let id = try photoID(from: context)
        guard let copies = settings.printCopies else {
            throw WebError(status: .conflict, message: "This booth does not print: no printer is configured (print.printer).")
        }
        let queued: PrintRequest
        do {
            queued = try await library.offloaded { library throws(LibraryError) in
                try library.prints.request(id, copies: copies, reason: .admin)
            }
        } catch let error as LibraryError where error.code == .unknownPhoto {
            throw WebError.notFound("There is no photo \(id.lowercased) in the library.")
        }
        logger.notice("Web admin: print \(queued.number) of photo \(id.lowercased) (\(copies) cop\(copies == 1 ? "y" : "ies"))")
        return .json(PrintQueued(number: queued.number, state: queued.state.rawValue, copies: copies), status: .accepted)
    }

    /// `/api/prints`: the latest print requests, newest first, as `photobooth print status`
    /// lists them; 409 when the booth does not print.
    func printQueue(_ request: Request, _ context: GalleryRequestContext) async throws -> Response {
        try authorize(request, context)
        guard settings.printCopies != nil else {
            throw WebError(status: .conflict, message: "This booth does not print: no printer is configured (print.printer).")
        }
        let requests = try await library.offloaded { library throws(LibraryError) in try library.prints.recent(limit: Self.printsListed) }
        return .json(requests.map(PrintEntry.init))
    }

    /// How many requests `/api/prints` lists.
    static let printsListed = 100

    /// `/api/prints/{number}/cancel` and `/retry`: the operator cancels a print request (one
    /// CUPS has is canceled there by the print thread) or asks for a failed or canceled one
    /// again, as a new request; 404 for no such request, 409 for a retry of one that neither
    /// failed nor was canceled.
    func changePrint(_ request: Request, _ context: GalleryRequestContext, retry: Bool) async throws -> Response {
        try authorize(request, context)
        let raw = context.parameters.get("number") ?? ""
        guard let number = ByteRange.number(Substring(raw)) else {
            throw WebError.badRequest("\"\(raw.prefix(40))\" is not a print's number: photobooth print status lists them (1, 2, ...).")
        }
        guard settings.printCopies != nil else {
            throw WebError(status: .conflict, message: "This booth does not print: no printer is configured (print.printer).")
        }
        let (before, after) = try await library.offloaded { library throws(LibraryError) in
            let before = try library.prints.request(number: number)
            guard before != nil else { return (before, PrintRequest?.none) }
            return (before, retry ? try library.prints.retry(number) : try library.prints.cancel(number))
        }
        guard let before else { throw WebError.notFound("There is no print \(number).") }
        guard let after else {
            throw WebError(status: .conflict, message: "Print \(number) is \(before.state.rawValue): only a failed or canceled print is tried again.")
        }
        logger.notice("Web admin: \(retry ? "retry" : "cancel") print \(number)\(retry ? " as print \(after.number)" : "")")
        return .json(PrintQueued(number: after.number, state: after.state.rawValue, copies: after.copies), status: retry ? .accepted : .ok)
    }

    /// Checks the token, then the id, then runs `action` on the library: 204 when done, 404 for
    /// an unknown photo.
    func administer(
        _ request: Request, _ context: GalleryRequestContext, _ name: String,
        _ action: @escaping @Sendable (PhotoLibrary, UUID) throws(LibraryError) -> Void
    ) async throws -> Response {
        try authorize(request, context)
        let id = try photoID(from: context)
        do {
            try await library.offloaded { library throws(LibraryError) in try action(library, id) }
        } catch let error as LibraryError where error.code == .unknownPhoto {
            throw WebError.notFound("There is no photo \(id.lowercased) in the library.")
        } catch let error as LibraryError where error.code == .notOurs {
            throw WebError(status: .conflict, message: error.description)
        }
        logger.notice("Web admin: \(name) photo \(id.lowercased)")
        return Response(status: .noContent)
    }

    /// Lets the request through only with the configured admin token. A request without the
    /// header is 401 whether or not admin actions are on, as for any request that lacks the
    /// credentials it needs; one that sends a token to a booth without one is 403. A client
    /// that sent too many wrong tokens is answered 429 until its wait is over, its token not
    /// looked at.
    func authorize(_ request: Request, _ context: GalleryRequestContext) throws {
        let token = settings.adminToken.flatMap { $0.isEmpty ? nil : $0 }
        guard let header = request.headers[.authorization] else {
            let off = token == nil ? " Admin actions are off on this booth: no admin token is configured." : ""
            throw WebError(
                status: .unauthorized,
                message: "This action needs the booth's admin token, sent as the header `Authorization: Bearer <token>`.\(off)",
                headers: [.wwwAuthenticate: "Bearer realm=\"\(Self.realm)\""])
        }
        guard let token else {
            throw WebError(
                status: .forbidden,
                message: """
                    Admin actions are off on this booth: no admin token is configured. \
                    Set one in the booth's configuration to hide and delete photos from the web.
                    """)
        }
        let client = ClientAddress(context.channel.remoteAddress)
        let now = settings.clock()
        if let (wait, report) = wrongTokens.wait(for: client, at: now) {
            if let report { logger.warning("\(report)") }
            throw Self.tooManyWrongTokens(wait)
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer",
            Self.sameToken(parts[1].trimmingCharacters(in: .whitespaces), token)
        else {
            let (wait, report) = wrongTokens.failed(client, at: now)
            if let report { logger.warning("\(report)") }
            let waiting = wait.map { " This address must now wait \(Self.seconds($0)) s before its next try." } ?? ""
            throw WebError(
                status: .unauthorized,
                message: "The admin token does not match the booth's. Check the token in the booth's configuration.\(waiting)",
                headers: [.wwwAuthenticate: "Bearer realm=\"\(Self.realm)\", error=\"invalid_token\""])
        }
        wrongTokens.succeeded(client)
    }

    /// The 429 for a client that must wait `wait` before its next try.
    static func tooManyWrongTokens(_ wait: Duration) -> WebError {
        let seconds = seconds(wait)
        return WebError(
            status: .tooManyRequests,
            message: """
                Too many wrong admin tokens came from this address: wait \(seconds) s before the next try (Retry-After \
                says when). Check the token in the booth's configuration.
                """,
            headers: [.retryAfter: String(seconds)])
    }

    /// `duration` in whole seconds, rounded up: a client that waits that long may try.
    static func seconds(_ duration: Duration) -> Int {
        max(1, Int(duration.inSeconds.rounded(.up)))
    }

    static let realm = "Photobooth"

    /// Compares a token in a time that depends only on the expected token's length, so that
    /// timing does not tell an attacker how many leading characters were right.
    static func sameToken(_ given: String, _ expected: String) -> Bool {
        let given = Array(given.utf8)
        let expected = Array(expected.utf8)
        var difference = given.count ^ expected.count
        for index in expected.indices {
            let byte = given.isEmpty ? 0 : given[index % given.count]
            difference |= Int(byte ^ expected[index])
        }
        return difference == 0
    }
}

/// A print request in the JSON API (schema `PrintRequest` of `docs/openapi.yaml`).
struct PrintEntry: Encodable, Sendable {
    var number: Int
    var photoId: String
    var copies: Int
    var reason: String
    var state: String
    var cupsJob: Int?
    var detail: String?
    var requestedAt: String
    var finishedAt: String?

    init(_ request: PrintRequest) {
        number = request.number
        photoId = request.photo.lowercased
        copies = request.copies
        reason = request.reason.rawValue
        state = request.state.rawValue
        cupsJob = request.cupsJob
        detail = request.detail
        requestedAt = request.requestedAt.utcTimestamp
        finishedAt = request.finishedAt?.utcTimestamp
    }
}

/// A print request just queued (schema `PrintQueued` of `docs/openapi.yaml`).
struct PrintQueued: Encodable, Sendable {
    var number: Int
    var state: String
    var copies: Int
}
