import BoothCore
import Foundation
import Hummingbird
import Mustache

/// Renders the gallery's HTML pages from ``PageTemplates``.
struct PageRenderer: Sendable {
    private let library: MustacheLibrary
    private let boothName: String

    init(boothName: String) {
        self.boothName = boothName
        var library = MustacheLibrary()
        for (name, text) in PageTemplates.all {
            do {
                try library.register(text, named: name)
            } catch {
                // The templates are constants of this module, and a test renders every one.
                preconditionFailure("The page template \(name) does not parse: \(error)")
            }
        }
        self.library = library
    }

    /// A page of the gallery grid.
    func gallery(_ view: GalleryView) -> Response {
        html(render(view, "gallery"))
    }

    /// A photo's page.
    func photo(_ view: PhotoView) -> Response {
        html(render(view, "photo"))
    }

    /// The page for an error, with its status.
    func errorPage(_ error: WebError) -> Response {
        let view = ErrorView(boothName: boothName, reason: error.status.reasonPhrase, message: error.message)
        return html(render(view, "error"), status: error.status)
    }

    private func render(_ view: Any, _ template: String) -> String {
        library.render(view, withTemplate: template) ?? ""
    }

    private func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// What the gallery template shows. Mustache reads stored properties only (by reflection),
/// so the flags are stored, not computed.
struct GalleryView {
    var boothName: String
    var photos: [PhotoCard]
    var page: Int
    var pageCount: Int
    var pageSize: Int
    var newerPath: String?
    var olderPath: String?
    /// Page 1 shows new photos as they are taken.
    var isFirstPage: Bool
    /// The page number and links show only when there is more than one page.
    var showsPageNumber: Bool

    init(boothName: String, photos: [PhotoCard], page: Int, pageCount: Int, pageSize: Int) {
        self.boothName = boothName
        self.photos = photos
        self.page = page
        self.pageCount = pageCount
        self.pageSize = pageSize
        newerPath = page > 1 ? GalleryPaths.gallery(page: page - 1) : nil
        olderPath = page < pageCount ? GalleryPaths.gallery(page: page + 1) : nil
        isFirstPage = page == 1
        showsPageNumber = pageCount > 1
    }
}

/// What the photo template shows.
struct PhotoView {
    var boothName: String
    var photo: PhotoCard
    var backPath: String
}

/// What the error template shows.
struct ErrorView {
    var boothName: String
    var reason: String
    var message: String
}

// Mustache finds a value by reflection unless the value names its children itself; a page of
// 30 photos looked up by reflection costs milliseconds per request, a switch nothing.

/// The booth's texts, for a template: `{{text.webDownload}}` is ``BoothText/webDownload``.
struct TextsContext: MustacheParent {
    let texts: BoothTexts

    static let english = TextsContext(texts: .english)

    func child(named name: String) -> Any? {
        BoothText(rawValue: name).map { texts($0) }
    }
}

extension GalleryView: MustacheParent {
    /// "Page 2 of 7", from the booth's texts.
    var pageText: String { TextsContext.english.texts(.webPage, ["page": "\(page)", "count": "\(pageCount)"]) }

    func child(named name: String) -> Any? {
        switch name {
        case "text": TextsContext.english
        case "pageText": pageText
        case "boothName": boothName
        case "photos": photos
        case "page": page
        case "pageCount": pageCount
        case "pageSize": pageSize
        case "newerPath": newerPath
        case "olderPath": olderPath
        case "isFirstPage": isFirstPage
        case "showsPageNumber": showsPageNumber
        default: nil
        }
    }
}

extension PhotoView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": TextsContext.english
        case "boothName": boothName
        case "photo": photo
        case "backPath": backPath
        default: nil
        }
    }
}

extension ErrorView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": TextsContext.english
        case "boothName": boothName
        case "reason": reason
        case "message": message
        default: nil
        }
    }
}

extension PhotoCard: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "caption": caption
        case "width": width
        case "height": height
        case "createdAt": createdAt
        case "createdText": createdText
        case "pagePath": pagePath
        case "thumbnailPath": thumbnailPath
        case "originalPath": originalPath
        case "downloadPath": downloadPath
        default: nil
        }
    }
}
