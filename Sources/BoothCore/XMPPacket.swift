/// An XMP packet as the booth writes one: simple properties as attributes of one
/// `rdf:Description`, and language alternatives (`dc:title`, `dc:description`) with their
/// default-language text. Used for the sidecar beside each original and for the XMP segment of
/// every JPEG that leaves the booth, so both speak the same namespaces.
public struct XMPPacket: Sendable, Hashable {
    /// The booth's own XMP namespace, for what no standard schema has.
    public static let boothNamespace = "https://photobooth.invalid/xmp/1.0/"

    /// The namespaces a packet declares, by prefix.
    package static let namespaces: KeyValuePairs<String, String> = [
        "dc": "http://purl.org/dc/elements/1.1/",
        "xmp": "http://ns.adobe.com/xap/1.0/",
        "photoshop": "http://ns.adobe.com/photoshop/1.0/",
        "exif": "http://ns.adobe.com/exif/1.0/",
        "tiff": "http://ns.adobe.com/tiff/1.0/",
        "photobooth": boothNamespace,
    ]

    /// Simple properties, by qualified name (`xmp:CreateDate`), in the order written.
    package var properties: [(name: String, value: String)]
    /// Language alternatives, by qualified name (`dc:title`): their `x-default` text.
    package var alternatives: [(name: String, value: String)]

    public init(properties: [(name: String, value: String)], alternatives: [(name: String, value: String)]) {
        self.properties = properties
        self.alternatives = alternatives
    }

    public static func == (left: XMPPacket, right: XMPPacket) -> Bool { left.text == right.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// The packet as text, with its `xpacket` wrapper.
    public var text: String {
        let declarations = Self.namespaces.map { "\n    xmlns:\($0.key)=\"\($0.value)\"" }.joined()
        let attributes = properties.map { "\n    \($0.name)=\"\($0.value.xmlEscaped)\"" }.joined()
        let elements = alternatives.map {
            "\n   <\($0.name)><rdf:Alt><rdf:li xml:lang=\"x-default\">\($0.value.xmlEscaped)</rdf:li></rdf:Alt></\($0.name)>"
        }.joined()
        return """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""\(declarations)\(attributes)>\(elements)
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>

            """
    }
}

extension String {
    /// The text as XML character data or an attribute value: markup escaped, tab and line
    /// breaks as character references, and what XML 1.0 cannot hold at all (other controls,
    /// U+FFFE, U+FFFF) left out, so that what is written always parses, and reads back as it
    /// was. Captions have none of these; a booth's name might.
    package var xmlEscaped: String {
        var result = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            // A parser reads a raw one in an attribute as a space, and a raw CR as LF (the fuzz
            // target `bucket` found a booth's name that changed so); a reference it keeps.
            case "\t", "\n", "\r": result += "&#\(scalar.value);"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
