import BoothCore
import BoothStore
import Foundation
import Hummingbird
import NIOCore

/// A guest deletes the photo they just took: the "Saved as" screen's link carries a key
/// (``DeletionKeys``) that allows it for a while. The photo page offers it, a page asks to
/// confirm, and the confirmation (a POST with the key) moves the original to the recycle
/// folder as the admin's deletion does.
///
/// A photo of another booth of the event (on `photobooth serve`, where the QR code may point)
/// is checked against the digest of its key that its booth published, hidden here at once, and
/// its deletion asked of its booth through the bucket (``BoothStore/PhotoLibrary/requestDeletion(of:key:at:)``),
/// which deletes it everywhere. An expired key, another photo's key, a photo whose booth
/// published no key, and a photo already deleted (or hidden by the operator, which a guest
/// cannot tell from deleted) each get a page that says so, and nothing is deleted.
extension WebContext {
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
        let view = QuestionView(
            frame: frame, photo: card(for: photo, in: frame.language), question: texts(.webDeleteQuestion, ["name": photo.caption.text]),
            explanation: texts(.webDeleteExplanation, ["time": frame.language.dayAndTime(until)]),
            actionPath: "/photos/\(id.lowercased)/delete", key: key, confirm: texts(.webDeleteConfirm), cancel: texts(.webDeleteCancel))
        return pages.page(view, "question")
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
        let (photo, _) = try await checkDeletion(id, key: key, frame: frame)
        do {
            if photo.origin == nil {
                try await library.offloaded { library throws(LibraryError) in _ = try library.recycle(id) }
                logger.notice("Web guest: deleted photo \(id.lowercased) with its deletion link")
            } else {
                try await library.offloaded { library throws(LibraryError) in try library.requestDeletion(of: id, key: key, at: Date()) }
                logger.notice("Web guest: hid photo \(id.lowercased) with its deletion link and asked its booth to delete it")
            }
        } catch let error as LibraryError where error.code == .unknownPhoto {
            // Deleted between the check and now, by a second press or the operator.
            throw GuestRefusal(status: .gone, message: frame.language.texts(.webDeleteGone), frame: frame)
        }
        return pages.page(NoticeView(frame: frame, message: frame.language.texts(.webDeleted)), "notice")
    }

    /// The photo `key` allows deleting, and until when; a page that says why not otherwise:
    /// 403 for a key that is not this photo's, has expired, or names a photo whose booth
    /// publishes no key; 410 for a photo already deleted or hidden, when the key was its own.
    func checkDeletion(_ id: UUID, key: String, frame: PageFrame) async throws -> (Photo, until: Date) {
        let texts = frame.language.texts
        let (found, requested) = try await library.offloaded { library throws(LibraryError) in
            (try library.gallery.photo(id: id), try library.outbox.deletionRequest(of: id))
        }
        guard let photo = found else {
            // Gone, or hidden (which a guest must not tell from gone): the photo's own key learns
            // that it is gone, any other key nothing.
            let itsKey = settings.deletionKeys?.isKey(key, of: id) == true || requested.map { DeletionKeys.same(key, $0.key) } == true
            throw GuestRefusal(status: itsKey ? .gone : .forbidden, message: texts(itsKey ? .webDeleteGone : .webDeleteWrongKey), frame: frame)
        }
        switch try await verdict(of: key, for: photo) {
        case nil:
            throw GuestRefusal(status: .forbidden, message: texts(photo.origin == nil ? .webDeleteWrongKey : .webDeleteImported), frame: frame)
        case .wrong?:
            throw GuestRefusal(status: .forbidden, message: texts(.webDeleteWrongKey), frame: frame)
        case .expired(let time)?:
            throw GuestRefusal(status: .forbidden, message: texts(.webDeleteExpired, ["time": frame.language.dayAndTime(time)]), frame: frame)
        case .valid(let until)?:
            return (photo, until)
        }
    }

    /// How `key` stands for deleting `photo` here: judged by this booth's keys for its own
    /// photos, by the digest its booth published for another booth's; `nil` when guests cannot
    /// delete `photo` here at all (this booth's links delete nothing, or the photo's booth
    /// published no key).
    func verdict(of key: String, for photo: Photo) async throws -> DeletionKeys.Verdict? {
        guard photo.origin != nil else { return settings.deletionKeys?.check(key, for: photo) }
        let id = photo.id
        guard let published = try await library.offloaded({ library throws(LibraryError) in try library.outbox.deletionKey(of: id) }) else {
            return nil
        }
        return DeletionKeys.check(key, digest: published.sha256, until: published.until)
    }

    /// What the photo page says of the key its link carries: where to delete the photo, or why
    /// the key does not allow it (nothing when guests cannot delete here at all).
    func deletionOffer(for photo: Photo, key: String, in language: BoothLanguage) async throws -> (path: String?, notice: String?) {
        let texts = language.texts
        switch try await verdict(of: key, for: photo) {
        case .valid?: return (GalleryPaths.deletion(of: photo.id, key: key), nil)
        case .expired(let time)?: return (nil, texts(.webDeleteExpired, ["time": language.dayAndTime(time)]))
        case .wrong?: return (nil, texts(.webDeleteWrongKey))
        case nil: return (nil, photo.origin == nil ? nil : texts(.webDeleteImported))
        }
    }
}

/// A guest's deletion that cannot be done: a page in the guest's language with the status.
struct GuestRefusal: Error, Sendable {
    var status: HTTPResponse.Status
    var message: String
    var frame: PageFrame
}
