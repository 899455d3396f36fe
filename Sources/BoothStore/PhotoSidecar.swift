import BoothCore
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What the library knows of one photo, kept beside its original as a standard XMP sidecar
/// (`<uuid>.xmp`): its name, when it was taken, its number, the booth, the camera and whether it
/// is hidden. Originals and sidecars are the whole library: the catalog can be rebuilt from them,
/// and photo tools (digiKam, darktable, exiftool) read the name and time.
///
/// Names are Dublin Core's `dc:title` and `dc:description`, the time XMP's `xmp:CreateDate`
/// (with `photoshop:DateCreated` and `exif:DateTimeOriginal`, which other tools look for), the
/// camera and size TIFF's `tiff:Make`, `tiff:Model`, `tiff:ImageWidth` and `tiff:ImageLength`,
/// the rest the booth's own namespace.
///
/// The same description is the photo's record in the event's bucket (BoothSync), with what the
/// other booths need besides: the event, the SHA-256 of the original as uploaded, whether the
/// photo was deleted (a tombstone, which keeps no name), and what lets another reader take a
/// guest's deletion (the SHA-256 of the photo's deletion key, and until when it is valid).
package struct PhotoSidecar: Sendable, Hashable {
    package var id: UUID
    package var number: Int
    package var caption: Caption
    package var createdAt: Date
    package var booth: String
    package var hidden: Bool
    /// Whether the operator marked it a favourite; tools read it as a five-star rating.
    package var favourite = false
    package var camera: CameraModel?
    package var width: Int?
    package var height: Int?
    /// The booth folder it was imported from; `nil` for a photo taken here.
    package var origin: String?
    /// In the bucket's record only: the event, the original's SHA-256 in hex as uploaded, and
    /// whether the photo was deleted.
    package var event: String?
    package var sha256: String?
    package var deleted = false
    /// In the bucket's record only: the SHA-256 in hex of the guest's deletion key (its bytes),
    /// and when the key expires; `nil` when guests cannot delete the photo. A reader can tell
    /// a guest's key from this without being able to make one.
    package var deletionKeySHA256: String?
    package var deletableUntil: Date?
    /// What kind of picture it is, its layout, and its shots in order (a composed picture's).
    package var kind: PictureKind = .photo
    package var layout: String?
    package var parts: [UUID] = []
    /// A shot's sidecar: the picture it is a part of, and its place there (from 0). Its number
    /// and name are the picture's as they were when the shot was taken.
    package var partOf: UUID?
    package var partIndex: Int?

    /// The booth's own XMP namespace, for what no standard schema has.
    static let namespace = XMPPacket.boothNamespace

    /// The sidecar of `photo`.
    package init(_ photo: Photo, booth: String, hidden: Bool) {
        self.init(
            id: photo.id, number: photo.number, caption: photo.caption, createdAt: photo.createdAt, booth: booth, hidden: hidden,
            camera: photo.camera)
        width = photo.width
        height = photo.height
        origin = photo.origin
        favourite = photo.favourite
        kind = photo.kind
        layout = photo.layout
        parts = photo.parts.map(\.id)
    }

    package init(
        id: UUID, number: Int, caption: Caption, createdAt: Date, booth: String, hidden: Bool, camera: CameraModel? = nil
    ) {
        self.id = id
        self.number = number
        self.caption = caption
        self.createdAt = createdAt
        self.booth = booth
        self.hidden = hidden
        self.camera = camera
    }

    /// The tombstone of a deleted photo: its id, booth and time, and that it is gone; no name.
    package static func tombstone(id: UUID, number: Int, createdAt: Date, booth: String, event: String) -> PhotoSidecar {
        var record = PhotoSidecar(
            id: id, number: number, caption: .placeholder(number: number), createdAt: createdAt, booth: booth, hidden: true)
        record.event = event
        record.deleted = true
        return record
    }

    /// The XMP packet, UTF-8.
    package var xmp: Data {
        let time = createdAt.utcTimestamp
        var properties: [(name: String, value: String)] = [
            ("xmp:CreateDate", time), ("photoshop:DateCreated", time), ("exif:DateTimeOriginal", time),
            ("photobooth:Id", id.lowercased), ("photobooth:Number", "\(number)"), ("photobooth:Booth", booth),
            ("photobooth:Hidden", hidden ? "True" : "False"),
        ]
        if favourite { properties += [("photobooth:Favourite", "True"), ("xmp:Rating", "5")] }
        if let camera {
            if let make = camera.make { properties.append(("tiff:Make", make)) }
            properties.append(("tiff:Model", camera.model))
        }
        if let width, let height { properties += [("tiff:ImageWidth", "\(width)"), ("tiff:ImageLength", "\(height)")] }
        if let origin { properties.append(("photobooth:Origin", origin)) }
        if let event { properties.append(("photobooth:Event", event)) }
        if let sha256 { properties.append(("photobooth:SHA256", sha256)) }
        if deleted { properties.append(("photobooth:Deleted", "True")) }
        if kind != .photo { properties.append(("photobooth:Kind", kind.rawValue)) }
        if let layout { properties.append(("photobooth:Layout", layout)) }
        if !parts.isEmpty { properties.append(("photobooth:Parts", parts.map(\.lowercased).joined(separator: " "))) }
        if let partOf, let partIndex { properties += [("photobooth:PartOf", partOf.lowercased), ("photobooth:PartIndex", "\(partIndex)")] }
        if let deletionKeySHA256, let deletableUntil {
            properties += [("photobooth:DeletionKeySHA256", deletionKeySHA256), ("photobooth:DeletableUntil", deletableUntil.utcTimestamp)]
        }
        let packet = XMPPacket(properties: properties, alternatives: [("dc:title", caption.text), ("dc:description", caption.text)])
        return Data(packet.text.utf8)
    }

    /// Reads a sidecar, whether written here or rewritten by another tool (which may turn
    /// attributes into elements, or drop what it does not know); `nil` when it is not XMP in
    /// UTF-8 or lacks the photo's id, number, name or time.
    package init?(xmp data: Data) {
        // What would stop the process in FoundationXML (a name that is not UTF-8, `<?a?>`) is not
        // a sidecar: the booth and the tools that rewrite sidecars write neither.
        guard XMLInput.isSafe(data) else { return nil }
        let reader = XMPReader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.delegate = reader
        guard parser.parse() else { return nil }
        let values = reader.values
        func value(_ namespace: String, _ name: String) -> String? { values[namespace + name] }
        let dc = "http://purl.org/dc/elements/1.1/"
        let tiff = "http://ns.adobe.com/tiff/1.0/"
        guard let idText = value(Self.namespace, "Id"), let id = UUID(uuidString: idText),
            let numberText = value(Self.namespace, "Number"), let number = Int(numberText),
            let captionText = value(dc, "title") ?? value(dc, "description"), let caption = Caption(sanitizing: captionText),
            let timeText = value("http://ns.adobe.com/xap/1.0/", "CreateDate") ?? value("http://ns.adobe.com/photoshop/1.0/", "DateCreated"),
            let createdAt = Self.date(timeText)
        else { return nil }
        self.init(
            id: id, number: number, caption: caption, createdAt: createdAt, booth: value(Self.namespace, "Booth") ?? "",
            hidden: value(Self.namespace, "Hidden")?.lowercased() == "true",
            camera: value(tiff, "Model").map { CameraModel(make: value(tiff, "Make"), model: $0) })
        // A size is both sides or none: one side alone would not be written back (the fuzz
        // target `bucket` found a record that lost it so).
        let side = { (name: String) in value(tiff, name).flatMap { Int($0) }.flatMap { (1...65535).contains($0) ? $0 : nil } }
        if let width = side("ImageWidth"), let height = side("ImageLength") {
            self.width = width
            self.height = height
        }
        origin = value(Self.namespace, "Origin")
        event = value(Self.namespace, "Event")
        sha256 = value(Self.namespace, "SHA256").flatMap(Self.hexDigest)
        deleted = value(Self.namespace, "Deleted")?.lowercased() == "true"
        favourite = value(Self.namespace, "Favourite")?.lowercased() == "true"
        // A kind this version does not know (a newer booth's) reads as a photo.
        kind = value(Self.namespace, "Kind").flatMap(PictureKind.init(rawValue:)) ?? .photo
        layout = value(Self.namespace, "Layout")
        parts = (value(Self.namespace, "Parts") ?? "").split(separator: " ").compactMap { UUID(uuidString: String($0)) }
        // Both or neither, as they are written.
        if let picture = value(Self.namespace, "PartOf").flatMap(UUID.init(uuidString:)),
            let index = value(Self.namespace, "PartIndex").flatMap(Int.init), (0..<PhotoPart.maximumCount).contains(index)
        {
            partOf = picture
            partIndex = index
        }
        // Both or neither, as they are written.
        if let digest = value(Self.namespace, "DeletionKeySHA256").flatMap(Self.hexDigest),
            let until = value(Self.namespace, "DeletableUntil").flatMap(Self.date)
        {
            deletionKeySHA256 = digest
            deletableUntil = until
        }
    }

    /// `text` when it is a SHA-256 in lowercase hex.
    private static func hexDigest(_ text: String) -> String? {
        text.wholeMatch(of: /[0-9a-f]{64}/) != nil ? text : nil
    }

    /// An XMP date: ISO 8601 with milliseconds, as written here, or to the second, with a zone;
    /// kept to the millisecond, as the catalog keeps it and the sidecar writes it (the fuzz
    /// target `bucket` found a time of `05.12026` that changed when written again).
    private static func date(_ text: String) -> Date? {
        if let date = Date(utcTimestamp: text) { return date }
        return (try? Date(text, strategy: .iso8601))?.roundedToMilliseconds
    }
}

/// Collects an XMP packet's simple properties, keyed by namespace URI and local name: those
/// written as attributes of `rdf:Description`, those written as elements with text, and the
/// first (default-language) item of a language alternative such as `dc:title`.
private final class XMPReader: NSObject, XMLParserDelegate {
    private static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    private(set) var values: [String: String] = [:]
    /// Prefixes in scope, most recent last, to resolve the prefixes of attributes.
    private var prefixes: [(prefix: String, uri: String)] = []
    /// The property being read (namespace + name) and its text so far.
    private var property: String?
    private var text = ""

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        prefixes.append((prefix, namespaceURI))
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let namespace = namespaceURI ?? ""
        if namespace == Self.rdf {
            if elementName == "Description" {
                for (name, value) in attributes {
                    let parts = name.split(separator: ":", maxSplits: 1).map(String.init)
                    guard parts.count == 2, let uri = prefixes.last(where: { $0.prefix == parts[0] })?.uri, uri != Self.rdf
                    else { continue }
                    values[uri + parts[1]] = value
                }
            }
            // rdf:Alt, rdf:li and the like belong to the property around them.
            text = ""
            return
        }
        property = namespace + elementName
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard let property else { return }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // The first item of a language alternative is the default language's.
        if !trimmed.isEmpty && values[property] == nil {
            values[property] = text.trimmingCharacters(in: .newlines)
        }
        if namespaceURI != Self.rdf && property == (namespaceURI ?? "") + elementName { self.property = nil }
        text = ""
    }
}
