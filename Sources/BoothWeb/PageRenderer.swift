import BoothCore
import Foundation
import Hummingbird
import Mustache

/// Renders the gallery's HTML pages, each in its reader's language, from the Mustache
/// templates in `Templates/`, which the build compiles into the binary (the booth is installed
/// without a resource bundle). Every page but the slideshow inherits `layout`. `{{name}}`
/// escapes HTML, so captions can hold any text safely; no template uses the unescaped
/// `{{{name}}}`. Every word comes from the booth's texts (`{{text.KEY}}`) or from the view, in
/// the reader's language. Templates read the views' properties by their names.
struct PageRenderer: Sendable {
    private let library: MustacheLibrary
    private let boothName: String

    /// Each template by the name pages use for it (`{{<layout}}`), as the build embeds it.
    static let templates: [(name: String, text: [UInt8])] = [
        ("layout", PackageResources.layout_mustache), ("gallery", PackageResources.gallery_mustache),
        ("albums", PackageResources.albums_mustache), ("photo", PackageResources.photo_mustache),
        ("question", PackageResources.question_mustache), ("notice", PackageResources.notice_mustache),
        ("slideshow", PackageResources.slideshow_mustache), ("admin", PackageResources.admin_mustache),
        ("error", PackageResources.error_mustache),
    ]

    init(boothName: String) {
        self.boothName = boothName
        var library = MustacheLibrary()
        for (name, text) in Self.templates {
            do {
                try library.register(String(decoding: text, as: UTF8.self), named: name)
            } catch {
                // The templates are part of the binary, and a test renders every one.
                preconditionFailure("The page template \(name) does not parse: \(error)")
            }
        }
        self.library = library
    }

    /// `view` through `template`, as an HTML answer in the frame's language.
    func page(_ view: some PageView, _ template: String, status: HTTPResponse.Status = .ok) -> Response {
        rendered(view, template, status: status).response
    }

    /// `view` through `template`, as an HTML answer in the frame's language, to keep.
    func rendered(_ view: some PageView, _ template: String, status: HTTPResponse.Status = .ok) -> KeptAnswer {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"]
        for field in view.frame.headers { headers.append(field) }
        return KeptAnswer(status: status, headers: headers, body: ByteBuffer(string: library.render(view, withTemplate: template) ?? ""))
    }

    /// The page for an error, with its status, in the language `frame` says: a heading for the
    /// kind of error, and the error's words for guests where it has some.
    func errorPage(_ error: WebError, frame: PageFrame) -> Response {
        let texts = frame.language.texts
        let heading =
            switch error.status.code {
            case 400: texts(.webBadAddress)
            case 404, 410: texts(.webNotFound)
            case 500...: texts(.webSomethingWentWrong)
            default: error.status.reasonPhrase
            }
        let message = error.text.map { texts($0) } ?? error.message
        return page(ErrorView(frame: frame, reason: heading, message: message), "error", status: error.status)
    }
}

/// What every page shows around its content: the booth's name, the language (`<html lang>`,
/// the texts, the switch to the others). Templates draw the page inside it (`{{#frame}}`).
struct PageFrame: Sendable {
    var boothName: String
    /// The language's code, for `<html lang>`.
    var lang: String
    /// The texts, as templates name them: `{{text.webDownload}}`.
    var text: TextsContext
    /// The same page in each language, the reader's own marked.
    var languages: [LanguageLink]
    var language: BoothLanguage
    /// Whether the reader just chose the language (`?lang=`), which the answer keeps in a cookie.
    var chosen: Bool

    /// The frame of a page in `language`; `request` gives the address of the same page in the
    /// other languages.
    init(boothName: String, language: BoothLanguage, chosen: Bool, request: Request?) {
        self.boothName = boothName
        self.language = language
        self.chosen = chosen
        lang = language.code
        text = TextsContext(texts: language.texts)
        var form = request.map { FormValues(query: $0.uri.query) } ?? FormValues(query: nil)
        form.remove("lang")
        let path = request?.uri.path ?? "/"
        languages = BoothLanguage.all.map { other in
            LanguageLink(
                code: other.code, name: other.nativeName, path: path + "?" + form.encoded(adding: ("lang", other.code)),
                isCurrent: other.code == language.code)
        }
    }

    var headers: HTTPFields { language.headers(chosen: chosen) }
}

/// A link to the current page in one language.
struct LanguageLink: Sendable {
    var code: String
    var name: String
    var path: String
    var isCurrent: Bool
}

/// A view that a page template renders: its own values, and its frame's.
protocol PageView: Sendable {
    var frame: PageFrame { get }
}

/// The booth's texts, for a template: `{{text.webDownload}}` is ``BoothText/webDownload``.
struct TextsContext: Sendable, MustacheParent {
    let texts: BoothTexts

    func child(named name: String) -> Any? {
        BoothText(rawValue: name).map { texts($0) }
    }
}

/// What the gallery template shows: a page of a listing (every photo, a search, an album).
/// Mustache reads what the view names, so the flags are stored, not computed.
struct GalleryView: PageView {
    var frame: PageFrame
    var photos: [PhotoCard]
    /// "Page 2 of 7".
    var pageText: String
    var newerPath: String?
    var olderPath: String?
    /// Page 1 of the whole gallery shows new photos as they are taken.
    var isLive: Bool
    /// The page number and links show only when there is more than one page.
    var showsPageNumber: Bool
    /// The heading above the grid: the search or the album; none for the whole gallery.
    var heading: String?
    /// "12 photos", under a heading.
    var countText: String?
    /// What the grid says when it has no photo.
    var emptyText: String
    /// What the search box holds.
    var searchText: String
    /// The operator's welcome, on the whole gallery's pages.
    var welcome: String?
    /// The page's title: the heading, or the booth's name, with the page number past page 1.
    var title: String
}

/// What the albums template shows.
struct AlbumsView: PageView {
    var frame: PageFrame
    var albums: [AlbumCard]
}

/// An album on the albums page.
struct AlbumCard: Sendable {
    var title: String
    var countText: String
    var path: String
    var coverPath: String
    var coverWidth: Int
    var coverHeight: Int
}

/// What the photo template shows.
struct PhotoView: PageView {
    var frame: PageFrame
    var photo: PhotoCard
    var backPath: String
    var newerPath: String?
    var olderPath: String?
    /// "By Anna & Ben's wedding".
    var authorText: String
    /// The question of a guest's print, when guests print here.
    var printPath: String?
    /// The confirmation page of a guest's deletion, when the page was opened with a valid key.
    var deletePath: String?
    /// Why the key the page was opened with cannot delete the photo.
    var keyNotice: String?
    /// A composed picture's shots, each to download ("Photo 1 of 4"); none for a photo.
    var shots: [ShotLink] = []
    /// Whether it has ``shots``: the templates test values, not lists.
    var hasShots = false
}

/// One shot of a composed picture on its page.
struct ShotLink: Sendable, Encodable {
    var path: String
    var label: String
}

/// What the deletion template shows: the question, and the form that deletes.
struct QuestionView: PageView {
    var frame: PageFrame
    var photo: PhotoCard
    var question: String
    var explanation: String
    var actionPath: String
    /// The guest's deletion key, sent back with the answer.
    var key: String?
    /// The answers' words.
    var confirm: String
    var cancel: String
}

/// A page that says one thing to a guest, such as the outcome of a deletion.
struct NoticeView: PageView {
    var frame: PageFrame
    var message: String
}

/// What the slideshow template shows: the photos in the order they are shown.
struct SlideshowView: PageView {
    var frame: PageFrame
    var slides: [PhotoCard]
}

/// The admin page, whose script does the rest with the admin token.
struct AdminView: PageView {
    var frame: PageFrame
    /// Whether the booth prints: the page offers printing and shows the print queue.
    var prints = false
}

/// What the error template shows.
struct ErrorView: PageView {
    var frame: PageFrame
    var reason: String
    var message: String
}
