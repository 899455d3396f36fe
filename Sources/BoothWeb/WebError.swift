import BoothCore
import BoothStore
import Foundation
import HTTPTypes
import Hummingbird

/// A request the gallery cannot answer as asked: the status, and a message for the person who
/// reads it (in the JSON `error` field or on the HTML error page) that says what failed and what
/// to do.
struct WebError: Error, Sendable {
    var status: HTTPResponse.Status
    var message: String
    /// Extra headers of the answer (`Allow`, `WWW-Authenticate`).
    var headers: HTTPFields = [:]
    /// What the HTML page says instead of ``message``, in the reader's language, for the errors
    /// a guest meets by following links; the JSON API and the logs keep ``message``.
    var text: BoothText?

    static func badRequest(_ message: String) -> WebError {
        WebError(status: .badRequest, message: message)
    }

    static func notFound(_ message: String, text: BoothText? = nil) -> WebError {
        WebError(status: .notFound, message: message, text: text)
    }

    /// The catalog has no visible photo with this id (or it is hidden, which guests cannot tell).
    static func unknownPhoto(_ id: UUID) -> WebError {
        .notFound(
            "There is no photo \(id.lowercased) in the gallery. It may have been removed; the gallery at / lists every photo.",
            text: .webNoSuchPhoto)
    }

    /// A photo page for an id the gallery does not have: the photo may be on its way (taken a
    /// moment ago at another booth of the event, or on its way to the bucket that feeds a public
    /// gallery), so the page says so and looks again every 5 seconds (`Refresh`), showing the
    /// photo once it is there.
    static func photoOnItsWay(_ id: UUID) -> WebError {
        WebError(
            status: .notFound,
            message: """
                This photo is not in the gallery yet. A photo just taken arrives within a minute or so: this page \
                looks again every few seconds and shows it as soon as it is here. (A photo that was removed does not \
                come back; the gallery at / lists every photo.)
                """,
            headers: [HTTPField.Name("Refresh")!: "5"], text: .webPhotoOnItsWay)
    }

    /// The photo library failed. Its own message (file paths, SQLite's words) goes to the log
    /// for the operator, not to guests.
    static let libraryFailed = WebError(
        status: .internalServerError,
        message: "The booth cannot read its photos right now. Try again; if it keeps failing, the booth's log says why.",
        text: .webCannotReadPhotos)
}
