import BoothCore
import Foundation
import HTTPTypes
import Hummingbird

/// The language a page is written in: its code (`<html lang>`, `Content-Language`), its texts
/// and how it writes dates.
struct WebLanguage: Sendable {
    /// The language's code, such as "en".
    let code: String
    let texts: BoothTexts
    /// How a day is written, as an album's title: "23/11/2026".
    let dayFormat: PhotoDateFormat

    static let english = WebLanguage(code: "en", texts: .english, dayFormat: PhotoDateFormat(pattern: "dd/MM/yyyy"))

    /// The languages the pages are written in; the first is the default.
    static let all = [english]

    /// The cookie that keeps a reader's choice of language (`?lang=` sets it).
    static let cookieName = "lang"

    /// The language for `request`: `?lang=` (which the answer then keeps in a cookie), else the
    /// cookie, else the best of the browser's `Accept-Language` that the booth has, else English.
    /// A `lang` the booth does not know is a 400 that lists those it does.
    static func of(_ request: Request) throws -> (language: WebLanguage, chosen: Bool) {
        if let asked = request.uri.queryParameters["lang"] {
            guard let language = all.first(where: { $0.code == asked.lowercased() }) else {
                throw WebError.badRequest(
                    "The lang parameter must be one of \(all.map(\.code).joined(separator: ", ")); \"\(asked.prefix(20))\" is not.")
            }
            return (language, true)
        }
        if let cookie = cookie(cookieName, in: request), let language = all.first(where: { $0.code == cookie }) {
            return (language, false)
        }
        return (best(for: request.headers[.acceptLanguage]), false)
    }

    /// The language `header` (an `Accept-Language` value) prefers most among the booth's, by
    /// quality value, the header's order breaking ties; English when it names none of them.
    static func best(for header: String?) -> WebLanguage {
        guard let header else { return english }
        var ranked: [(quality: Double, index: Int, language: WebLanguage)] = []
        for (index, item) in header.split(separator: ",").enumerated() {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first?.lowercased(), !tag.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            guard quality > 0 else { continue }
            let primary = tag.split(separator: "-").first.map(String.init) ?? tag
            let language = primary == "*" ? english : all.first { $0.code == primary }
            if let language { ranked.append((quality, index, language)) }
        }
        return ranked.min { ($0.quality, -$0.index) > ($1.quality, -$1.index) }?.language ?? english
    }

    /// The value of cookie `name` in the request's `Cookie` headers.
    static func cookie(_ name: String, in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2, parts[0] == name { return parts[1] }
            }
        }
        return nil
    }

    /// The headers of a page in this language: `Content-Language`, and the cookie that keeps a
    /// reader's choice when they just made it.
    func headers(chosen: Bool) -> HTTPFields {
        var fields: HTTPFields = [.contentLanguage: code, .vary: "Accept-Language, Cookie"]
        if chosen {
            fields[.setCookie] = "\(Self.cookieName)=\(code); Path=/; Max-Age=31536000; SameSite=Lax"
        }
        return fields
    }

    /// "1 photo", "12 photos".
    func photoCount(_ count: Int) -> String {
        texts(count == 1 ? .webPhotoCountOne : .webPhotoCountOther, ["count": "\(count)"])
    }
}
