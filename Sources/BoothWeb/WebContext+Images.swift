import BoothCore
import BoothImaging
import BoothStore
import Foundation
import HTTPTypes
import Hummingbird

/// The JPEGs: thumbnails from the catalog and originals from their files. Both never change
/// once stored, so they are cached for a year (`immutable`) and revalidated by a strong ETag.
/// Hidden or deleted photos answer 404 to new requests; a browser that cached an image keeps
/// its copy.
extension WebContext {
    var imageRoutes: [Route] {
        [
            Route(.get, "/thumbnails/{id}.jpg") { request, context in try await thumbnail(try photoID(from: context), request) },
            Route(.get, "/photos/{id}.jpg") { request, context in try await original(try photoID(from: context), animated: false, request, context) },
            Route(.get, "/photos/{id}/shots/{number}.jpg") { request, context in
                try await shot(try photoID(from: context), number: context.parameters.get("number") ?? "")
            },
            Route(.get, "/photos/{id}.gif") { request, context in try await original(try photoID(from: context), animated: true, request, context) },
        ]
    }

    static let foreverCache = "public, max-age=31536000, immutable"

    /// `/photos/{id}/shots/{number}.jpg`: shot `number` (from 1) of a visible composed
    /// picture, as the camera took it, with the picture's name and the shot's own time inside,
    /// as a download named "Alice, shot 1 of 4.jpg". A shot never changes, but its name does.
    func shot(_ id: UUID, number raw: String) async throws -> Response {
        // Digits name a shot (as a byte range reads them); shot 0, or one past any picture's, is
        // one this picture has not.
        guard let number = ByteRange.number(raw[...]) else {
            throw WebError.badRequest("\"\(raw.prefix(20))\" is not a shot's number: shots are numbered from 1.")
        }
        guard (1...PhotoPart.maximumCount).contains(number) else {
            throw WebError.notFound("This picture has no shot \(raw.prefix(20)): shots are numbered from 1.")
        }
        let event = settings.event
        let found = try await library.offloaded { library throws(LibraryError) -> (Data, String)? in
            guard let photo = try library.gallery.photo(id: id) else { return nil }
            let parts = try library.parts(of: id)
            guard number <= parts.count else { return nil }
            let copy = try library.outgoingCopy(of: parts[number - 1], of: photo, event: event, tagger: PictureTagger())
            return (copy, "\(PhotoLibrary.fileName(for: photo.caption)), shot \(number) of \(parts.count).jpg")
        }
        guard let (jpeg, name) = found else { throw WebError.notFound("This picture has no shot \(number).") }
        let headers: HTTPFields = [
            .contentType: "image/jpeg", .cacheControl: "no-cache", .contentDisposition: Self.attachment(named: name),
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: jpeg)))
    }

    /// `/thumbnails/{id}.jpg`: the catalog's thumbnail, kept in memory with its ETag until the
    /// photos change (a hidden or deleted photo's then answers 404).
    func thumbnail(_ id: UUID, _ request: Request) async throws -> Response {
        let generation = kept.generation.current
        let answer: KeptAnswer
        if let found = kept.thumbnails.value(for: id.lowercased, generation: generation) {
            answer = found
        } else {
            guard let jpeg = try await library.offloaded({ library throws(LibraryError) in try library.gallery.thumbnail(of: id) }) else {
                throw WebError.unknownPhoto(id)
            }
            let headers: HTTPFields = [
                .contentType: "image/jpeg", .eTag: "\"\(id.lowercased)-t\(Self.digest(jpeg))\"", .cacheControl: Self.foreverCache,
            ]
            answer = KeptAnswer(headers: headers, body: ByteBuffer(bytes: jpeg))
            kept.thumbnails.keep(answer, for: id.lowercased, generation: generation, cost: jpeg.count + 256)
        }
        serveAgain(ServedAnswer(answer), to: request, generation: generation)
        return answer.response
    }

    /// `/photos/{id}.jpg`: the original with its name and time spliced in (EXIF and XMP, as
    /// every copy that leaves the booth), whole or one range of it; with `?download=1` as an
    /// attachment named after the caption. The path is the catalog's, never the request's.
    /// An animation's is `/photos/{id}.gif` (`animated`), its XMP in the GIF; asked for by the
    /// other extension, a photo is not found.
    ///
    /// The tagged start of the copy is made once per change of the photos and kept
    /// (``OriginalParts``); the rest is the original's own bytes, read from its file as they
    /// are sent, never the whole file at once.
    ///
    /// The bytes change when the photo is renamed, so the answer is revalidated (`no-cache`)
    /// against an ETag made of the photo's id, its original's size and its metadata.
    func original(_ id: UUID, animated: Bool, _ request: Request, _ context: GalleryRequestContext) async throws -> Response {
        let download = request.uri.queryParameters["download"].map(String.init)
        guard download == nil || download == "1" else {
            throw WebError.badRequest("The download parameter must be 1 (or left out); \"\(download!.prefix(40))\" is not.")
        }
        let generation = kept.generation.current
        let parts = try await originalParts(id, generation: generation)
        guard parts.isAnimation == animated else { throw WebError.unknownPhoto(id) }
        let size = parts.size
        var headers: HTTPFields = [
            .contentType: animated ? "image/gif" : "image/jpeg", .eTag: parts.etag, .cacheControl: "no-cache", .acceptRanges: "bytes",
        ]
        if download != nil {
            headers[.contentDisposition] = Self.attachment(named: parts.fileName)
        }
        serveAgain(ServedAnswer(parts, headers: headers), to: request, generation: generation)

        // A Range with an If-Range that names another version is answered with the whole copy.
        let ifRange = request.headers[.ifRange]
        let range = ifRange == nil || ifRange == parts.etag ? ByteRange(header: request.headers[.range], size: size) : .whole
        switch range {
        case .whole:
            return Response(status: .ok, headers: headers, body: parts.body(0...(size - 1)))
        case .part(let bytes):
            headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(size)"
            return Response(status: .partialContent, headers: headers, body: parts.body(bytes))
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(size)"
            headers[.contentType] = nil
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
    }

    /// The parts of the tagged copy of a visible photo's original, kept or made now from the
    /// catalog of `generation` (read before); a 404 for an unknown or hidden photo, or a
    /// missing original.
    func originalParts(_ id: UUID, generation: UInt64) async throws -> OriginalParts {
        if let parts = kept.originals.value(for: id.lowercased, generation: generation) { return parts }
        let event = settings.event
        let found = try await library.offloaded { library throws(LibraryError) -> (URL, OriginalParts?)? in
            guard let photo = try library.gallery.photo(id: id) else { return nil }
            let url = library.url(of: photo)
            guard let original = FileManager.default.contents(atPath: url.path) else { return (url, nil) }
            let copy = try library.outgoingCopy(of: photo, event: event, tagger: PictureTagger())
            return (
                url,
                OriginalParts(
                    tagged: copy, original: original, path: url.path,
                    etag: "\"\(id.lowercased)-\(copy.count)-\(Self.digest(copy.prefix(Self.metadataSpan)))\"",
                    fileName: PhotoLibrary.fileName(for: photo.caption) + "." + photo.kind.fileExtension, isAnimation: photo.kind.isAnimated)
            )
        }
        guard let (url, foundParts) = found else { throw WebError.unknownPhoto(id) }
        guard let parts = foundParts else {
            logger.warning("The original of photo \(id.lowercased) is missing: \(url.path). `photobooth check` reports it.")
            throw WebError.notFound("The original of this photo is missing on the booth. The operator can run `photobooth check` to find out why.")
        }
        kept.originals.keep(parts, for: id.lowercased, generation: generation, cost: parts.head.readableBytes + parts.path.utf8.count + 256)
        return parts
    }

    /// How much of a tagged copy its ETag digests: the start of the file, where the metadata
    /// is (the whole EXIF and XMP segments fit in it; the image data after them never changes).
    static let metadataSpan = 16 * 1024

    /// `Content-Disposition: attachment` for `name`: a plain ASCII `filename` for old clients
    /// and the exact UTF-8 name as `filename*` (RFC 6266, RFC 5987).
    static func attachment(named name: String) -> String {
        let ascii = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { scalar in
                    scalar.isASCII && scalar.value >= 0x20 && scalar.value != 0x7F && scalar != "\"" && scalar != "\\" ? scalar : "_"
                }))
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$&+-.^_`|~".utf8)
        let encoded = name.utf8.map { byte in
            allowed.contains(byte) ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
        return "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }

    /// A short fingerprint of bytes for an ETag (FNV-1a, 64 bits): stable across restarts,
    /// unlike `hashValue`.
    static func digest(_ bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }
}
