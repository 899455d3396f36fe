import BoothCore
import Foundation
import FuzzSupport

@testable import WebReading

// What a browser sends the gallery besides the path's photo id, which is a UUID or a 400:
//
//   [what: 1 byte] [the rest]
//
//   0: a `Range` header; the rest: [the file's size: 4 bytes] [the header]
//   1: a query string or a form's body (`q`, `album`, `page`, `lang`, `key`, `download`)
//   2: an `Accept-Language` header
//   3: a name as a search or an album names it

private let names = ["q", "album", "page", "lang", "key", "download"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    switch input.choice(4) {
    case 0:
        let size = Int(input.uint32())
        let header = String(decoding: input.rest(), as: UTF8.self)
        switch ByteRange(header: header, size: size) {
        case .part(let range):
            require(range.lowerBound >= 0 && range.upperBound < size, "the range \(range) of a file of \(size) bytes")
        case .whole, .unsatisfiable:
            break
        }
    case 1:
        let query = String(decoding: input.rest(), as: UTF8.self)
        let form = FormValues(query: query)
        // The page's links in other languages carry the same values.
        let relinked = FormValues(query: form.encoded(adding: ("lang", "fr")))
        for name in names where name != "lang" {
            require(relinked[name] == form[name], "\(name) is \(String(describing: form[name])), then \(String(describing: relinked[name]))")
        }
        require(FormValues(query: "q=" + FormValues.encoded(query))["q"] == query, "the search \(query.debugDescription) does not come back")
    case 2:
        let header = String(decoding: input.rest(), as: UTF8.self)
        require(BoothLanguage.all.contains(BoothLanguage.best(for: header, fallback: .german)), "a language the booth does not speak")
    default:
        let name = String(decoding: input.rest(), as: UTF8.self)
        // An album's address holds the folded name, which is folded again when it is read.
        let key = NameKey.fold(name)
        require(NameKey.fold(key) == key, "\(name.debugDescription) folds to \(key.debugDescription), then to \(NameKey.fold(key).debugDescription)")
        _ = NameKey.words(name)
    }
    return 0
}
