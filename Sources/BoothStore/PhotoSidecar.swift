import BoothCore
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// What the library knows of one photo, kept beside its original as a standard XMP sidecar
/// (`<uuid>.xmp`): its name, when it was taken, its number, the booth and whether it is hidden.
/// Originals and sidecars are the whole library: the catalog can be rebuilt from them, and
/// photo tools (digiKam, darktable, exiftool) read the name and time.
///
/// Names are Dublin Core's `dc:title` and `dc:description`, the time XMP's `xmp:CreateDate`
/// (with `photoshop:DateCreated` and `exif:DateTimeOriginal`, which other tools look for),
/// the rest the booth's own namespace.
struct PhotoSidecar: Sendable, Hashable {
    var id: UUID
    var number: Int
    var caption: Caption
    var createdAt: Date
    var booth: String
    var hidden: Bool

    /// The booth's own XMP namespace, for what no standard schema has.
    static let namespace = "https://photobooth.invalid/xmp/1.0/"

    /// The sidecar of `photo`.
    init(_ photo: Photo, booth: String, hidden: Bool) {
        self.init(id: photo.id, number: photo.number, caption: photo.caption, createdAt: photo.createdAt, booth: booth, hidden: hidden)
    }

    init(id: UUID, number: Int, caption: Caption, createdAt: Date, booth: String, hidden: Bool) {
        self.id = id
        self.number = number
        self.caption = caption
        self.createdAt = createdAt
        self.booth = booth
        self.hidden = hidden
    }

    /// The XMP packet, UTF-8.
    var xmp: Data {
        let time = createdAt.utcTimestamp
        let name = Self.escaped(caption.text)
        let text = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:dc="http://purl.org/dc/elements/1.1/"
                xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
                xmlns:exif="http://ns.adobe.com/exif/1.0/"
                xmlns:photobooth="\(Self.namespace)"
                xmp:CreateDate="\(time)"
                photoshop:DateCreated="\(time)"
                exif:DateTimeOriginal="\(time)"
                photobooth:Id="\(id.lowercased)"
                photobooth:Number="\(number)"
                photobooth:Booth="\(Self.escaped(booth))"
                photobooth:Hidden="\(hidden ? "True" : "False")">
               <dc:title><rdf:Alt><rdf:li xml:lang="x-default">\(name)</rdf:li></rdf:Alt></dc:title>
               <dc:description><rdf:Alt><rdf:li xml:lang="x-default">\(name)</rdf:li></rdf:Alt></dc:description>
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>

            """
        return Data(text.utf8)
    }

    /// Reads a sidecar, whether written here or rewritten by another tool (which may turn
    /// attributes into elements, or drop what it does not know); `nil` when it is not XMP or
    /// lacks the photo's id, number, name or time.
    init?(xmp data: Data) {
        let reader = XMPReader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.delegate = reader
        guard parser.parse() else { return nil }
        let values = reader.values
        func value(_ namespace: String, _ name: String) -> String? { values[namespace + name] }
        let dc = "http://purl.org/dc/elements/1.1/"
        guard let idText = value(Self.namespace, "Id"), let id = UUID(uuidString: idText),
            let numberText = value(Self.namespace, "Number"), let number = Int(numberText),
            let captionText = value(dc, "title") ?? value(dc, "description"), let caption = Caption(sanitizing: captionText),
            let timeText = value("http://ns.adobe.com/xap/1.0/", "CreateDate") ?? value("http://ns.adobe.com/photoshop/1.0/", "DateCreated"),
            let createdAt = Self.date(timeText)
        else { return nil }
        self.init(
            id: id, number: number, caption: caption, createdAt: createdAt, booth: value(Self.namespace, "Booth") ?? "",
            hidden: value(Self.namespace, "Hidden")?.lowercased() == "true")
    }

    /// An XMP date: ISO 8601 with milliseconds, as written here, or to the second, with a zone.
    private static func date(_ text: String) -> Date? {
        if let date = Date(utcTimestamp: text) { return date }
        return try? Date(text, strategy: .iso8601)
    }

    /// `text` as XML character data or an attribute value: markup escaped, and what XML 1.0
    /// cannot hold at all (controls other than tab and line breaks, U+FFFE, U+FFFF) left out, so
    /// that the sidecar always parses. Captions have none of these; a booth's name might.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
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
