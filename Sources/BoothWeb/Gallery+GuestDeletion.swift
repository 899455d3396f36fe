import BoothCore
import BoothStore
import Foundation
import Hummingbird
import NIOCore

/// A guest deletes the photo they just took: the "Saved as" screen's link carries a key
/// (``DeletionKeys``) that allows it for a while. The photo page offers it, a page asks to
/// confirm, and the confirmation (a POST with the key) moves the original to the recycle
/// folder as the admin's deletion does. An expired key, another photo's key, a photo from
/// another booth and a photo already deleted each get a page that says so, and nothing is
/// deleted.
extension Gallery {
    var guestRoutes: [Route] {
        [
            Route(.get, "/photos/{id}/delete") { request, context in
                try await deletionPage(try photoID(from: context), request)
            },
            Route(.post, "/photos/{id}/delete") { request, context in
                try await guestDelete(try photoID(from: context), request)
            },
        ]
    }

    /// The most bytes a deletion form may send: a key and little else.
    static let deletionFormLimit = 1024

    /// `GET /photos/{id}/delete?key=`: asks the guest to confirm.
    func deletionPage(_ id: UUID, _ request: Request) async throws -> Response {
        let frame = try frame(for: request)
        let key = FormValues(query: request.uri.query)["key"] ?? ""
        let (photo, until) = try await checkDeletion(id, key: key, frame: frame)
        let texts = frame.language.texts
        let view = DeletionView(
            frame: frame, photo: card(for: photo, in: frame.language), question: texts(.webDeleteQuestion, ["name": photo.caption.text]),
            explanation: texts(.webDeleteExplanation, ["time": frame.language.dayAndTime(until)]),
            actionPath: "/photos/\(id.lowercased)/delete", key: key)
        return pages.page(view, "deletion")
    }

    /// `POST /photos/{id}/delete` with the form field `key`: deletes the photo, and says so.
    func guestDelete(_ id: UUID, _ request: Request) async throws -> Response {
        let frame = try frame(for: request)
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: Self.deletionFormLimit)
        } catch is NIOTooManyBytesError {
            throw HTTPError(.contentTooLarge, message: "A deletion form is its key alone: at most \(Self.deletionFormLimit) bytes.")
        }
        let key = FormValues(query: String(buffer: body))["key"] ?? FormValues(query: request.uri.query)["key"] ?? ""
        _ = try await checkDeletion(id, key: key, frame: frame)
        do {
            try await library.offloaded { library throws(LibraryError) in _ = try library.recycle(id) }
        } catch let error as LibraryError where error.code == .unknownPhoto {
            // Deleted between the check and now, by a second press or the operator.
            throw GuestRefusal(status: .gone, message: frame.language.texts(.webDeleteGone), frame: frame)
        }
        logger.notice("Web guest: deleted photo \(id.lowercased) with its deletion link")
        return pages.page(NoticeView(frame: frame, message: frame.language.texts(.webDeleted)), "notice")
    }

    /// The photo `key` allows deleting, and until when; a page that says why not otherwise:
    /// 403 for a key that is not this photo's, has expired, or names a photo of another booth,
    /// 410 for a photo already deleted.
    func checkDeletion(_ id: UUID, key: String, frame: PageFrame) async throws -> (Photo, until: Date) {
        let texts = frame.language.texts
        guard let keys = settings.deletionKeys else {
            throw GuestRefusal(status: .forbidden, message: texts(.webDeleteWrongKey), frame: frame)
        }
        let until: Date
        switch keys.check(key, for: id) {
        case .wrong:
            throw GuestRefusal(status: .forbidden, message: texts(.webDeleteWrongKey), frame: frame)
        case .expired(let time):
            throw GuestRefusal(status: .forbidden, message: texts(.webDeleteExpired, ["time": frame.language.dayAndTime(time)]), frame: frame)
        case .valid(let time):
            until = time
        }
        // The key is this photo's, so the photo existed: if the catalog no longer has it, it was deleted.
        guard let photo = try await library.offloaded({ library throws(LibraryError) in try library.photo(id: id, includingHidden: true) })
        else {
            throw GuestRefusal(status: .gone, message: texts(.webDeleteGone), frame: frame)
        }
        guard photo.origin == nil else {
            throw GuestRefusal(status: .forbidden, message: texts(.webDeleteImported), frame: frame)
        }
        return (photo, until)
    }
}

/// A guest's deletion that cannot be done: a page in the guest's language with the status.
struct GuestRefusal: Error, Sendable {
    var status: HTTPResponse.Status
    var message: String
    var frame: PageFrame
}
