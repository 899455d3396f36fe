import BoothCore
import BoothStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Turns every error of a route into an answer a person can read: JSON `{"error": "..."}` under
/// `/api`, a small HTML page elsewhere. Unexpected errors are logged and answered 500 without
/// their details.
struct ErrorPresentation<Context: RequestContext>: RouterMiddleware {
    let pages: PageRenderer
    let boothName: String
    /// The booth's language, for a reader who asks for none it speaks.
    let fallback: BoothLanguage

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as WebError {
            return answer(error, to: request)
        } catch let refusal as GuestRefusal {
            return pages.page(NoticeView(frame: refusal.frame, message: refusal.message), "notice", status: refusal.status)
        } catch let error as LibraryError {
            context.logger.error("Web request \(request.method) \(request.uri.path) failed: \(error)")
            return answer(.libraryFailed, to: request)
        } catch let error as HTTPError {
            return answer(Self.webError(for: error), to: request)
        } catch {
            context.logger.error("Web request \(request.method) \(request.uri.path) failed: \(error)")
            return answer(
                WebError(
                    status: .internalServerError,
                    message: "Something went wrong on the booth. Try again; if it keeps failing, the booth's log says why.",
                    text: .webSomethingWentWrong),
                to: request)
        }
    }

    /// Hummingbird's own errors (no route for the path) in the gallery's words.
    static func webError(for error: HTTPError) -> WebError {
        switch error.status {
        case .notFound:
            return .notFound("There is nothing at this address. The gallery starts at /.", text: .webNothingHere)
        default:
            return WebError(status: error.status, message: error.body ?? error.status.reasonPhrase, headers: error.headers)
        }
    }

    private func answer(_ error: WebError, to request: Request) -> Response {
        var response: Response
        if Self.isAPI(request.uri.path) {
            response = .json(["error": error.message], status: error.status)
        } else {
            // The page is in the reader's language, or English when the language asked is the error.
            let language = (try? BoothLanguage.of(request, fallback: fallback))?.language ?? fallback
            response = pages.errorPage(error, frame: PageFrame(boothName: boothName, language: language, chosen: false, request: nil))
        }
        for field in error.headers { response.headers.append(field) }
        return response
    }

    /// Whether a path belongs to the JSON API, whose errors are JSON too.
    static func isAPI(_ path: String) -> Bool {
        path == "/api" || path.hasPrefix("/api/")
    }
}

extension Response {
    /// `value` as a JSON answer: UTF-8, slashes not escaped (URLs stay readable).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        KeptAnswer.json(value, status: status, headers: headers).response
    }

    /// A plain text answer.
    static func text(_ text: String, status: HTTPResponse.Status = .ok, contentType: String = "text/plain; charset=utf-8") -> Response {
        Response(status: status, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

extension KeptAnswer {
    /// `value` as a JSON answer: UTF-8, slashes not escaped (URLs stay readable).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> KeptAnswer {
        // The gallery's JSON types hold strings, integers and Booleans, which always encode.
        let data = try! JSONEncoder.booth().encode(value)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return KeptAnswer(status: status, headers: fields, body: ByteBuffer(bytes: data))
    }
}
