import BoothCore
import Foundation
import HTTPTypes
import Hummingbird

/// How the web picks a page's language among those the booth speaks (``BoothLanguage/all``),
/// and what a page in a language says of itself.
extension BoothLanguage {
    /// The cookie that keeps a reader's choice of language (`?lang=` sets it).
    static let cookieName = "lang"

    /// The language for `request`: `?lang=` (which the answer then keeps in a cookie), else the
    /// cookie, else the best of the browser's `Accept-Language` the booth speaks, else
    /// `fallback` (the booth's own). A `lang` the booth does not speak is a 400 that lists those
    /// it does.
    static func of(_ request: Request, fallback: BoothLanguage) throws -> (language: BoothLanguage, chosen: Bool) {
        if let asked = request.uri.queryParameters["lang"] {
            guard let language = withCode(String(asked)) else {
                throw WebError.badRequest(
                    "The lang parameter must be one of \(all.map(\.code).joined(separator: ", ")); \"\(asked.prefix(20))\" is not.")
            }
            return (language, true)
        }
        if let cookie = cookie(cookieName, in: request), let language = withCode(cookie) {
            return (language, false)
        }
        return (best(for: request.headers[.acceptLanguage], fallback: fallback), false)
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

    /// The headers of an answer in this language: `Content-Language`, `Vary` (the answer
    /// depends on them), and the cookie that keeps a reader's choice when they just made it.
    func headers(chosen: Bool) -> HTTPFields {
        var fields: HTTPFields = [.contentLanguage: code, .vary: "Accept-Language, Cookie"]
        if chosen {
            fields[.setCookie] = "\(Self.cookieName)=\(code); Path=/; Max-Age=31536000; SameSite=Lax"
        }
        return fields
    }

    /// "1 photo", "12 photos", in this language's plural forms.
    func photoCount(_ count: Int) -> String {
        texts(.photoCount, count: count)
    }

    /// A day as this language writes it, in the booth's time zone: "23/11/2026", "23.11.2026".
    func day(_ date: Date) -> String {
        texts(.webDate, Self.parts(of: date))
    }

    /// A day and a time as this language writes them: "23/11/2026 14:04".
    func dayAndTime(_ date: Date) -> String {
        texts(.webDateTime, Self.parts(of: date))
    }

    /// The blanks of ``BoothText/webDate`` and ``BoothText/webDateTime``, two digits each (the
    /// year four).
    private static func parts(of date: Date) -> [String: String] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ number: Int?) -> String { String(format: "%02d", number ?? 0) }
        return [
            "year": String(format: "%04d", parts.year ?? 0), "month": two(parts.month), "day": two(parts.day), "hour": two(parts.hour),
            "minute": two(parts.minute),
        ]
    }
}
