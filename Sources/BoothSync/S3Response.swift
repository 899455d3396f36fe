import BoothCore
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One page of a bucket listing (ListObjectsV2).
package struct ListPage: Sendable, Hashable {
    package struct Object: Sendable, Hashable {
        package let key: String
        package let size: Int
        /// The store's ETag, quotes removed: it changes whenever the object is written again.
        package let etag: String
        /// When the store last took it (its own clock, which a writer cannot set); `nil` when
        /// the listing did not say.
        package var lastModified: Date? = nil
    }

    package let objects: [Object]
    /// The token for the next page; `nil` on the last.
    package let nextToken: String?
}

/// Reads the XML the store answers with: a listing, or an error's code and message. Listings
/// come from outside (a store, or whatever answers at its address), so nothing here trusts them:
/// a malformed answer is `nil`, never a crash.
enum S3Response {
    /// A ListObjectsV2 result; `nil` when `data` is not one.
    static func listing(_ data: Data) -> ListPage? {
        let reader = ElementReader(
            record: "Contents", fields: ["Key", "Size", "ETag", "LastModified"], topFields: ["IsTruncated", "NextContinuationToken"])
        guard reader.read(data), reader.root == "ListBucketResult" else { return nil }
        var objects: [ListPage.Object] = []
        for record in reader.records {
            guard let key = record["Key"], !key.isEmpty else { return nil }
            let etag = (record["ETag"] ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            let modified = record["LastModified"].flatMap { Date(utcTimestamp: $0) ?? (try? Date($0, strategy: .iso8601)) }
            objects.append(ListPage.Object(key: key, size: Int(record["Size"] ?? "") ?? 0, etag: etag, lastModified: modified))
        }
        let truncated = reader.top["IsTruncated"] == "true"
        let token = reader.top["NextContinuationToken"].flatMap { $0.isEmpty ? nil : $0 }
        // A truncated listing without a token cannot be continued: a broken answer.
        if truncated && token == nil { return nil }
        return ListPage(objects: objects, nextToken: truncated ? token : nil)
    }

    /// An S3 error document's code and message, and the server's time when it sent one
    /// (`RequestTimeTooSkewed` does).
    static func error(_ data: Data) -> (code: String, message: String, serverTime: String?)? {
        let reader = ElementReader(record: nil, fields: [], topFields: ["Code", "Message", "ServerTime"])
        guard reader.read(data), reader.root == "Error", let code = reader.top["Code"] else { return nil }
        return (code, reader.top["Message"] ?? "", reader.top["ServerTime"])
    }
}

/// Collects the text of chosen elements: those directly in the root (`topFields`) and those in
/// each repeated `record` element.
private final class ElementReader: NSObject, XMLParserDelegate {
    let recordName: String?
    let fields: Set<String>
    let topFields: Set<String>
    private(set) var root: String?
    private(set) var top: [String: String] = [:]
    private(set) var records: [[String: String]] = []
    private var path: [String] = []
    private var text = ""
    private var record: [String: String]?

    init(record: String?, fields: Set<String>, topFields: Set<String>) {
        self.recordName = record
        self.fields = fields
        self.topFields = topFields
    }

    func read(_ data: Data) -> Bool {
        // What would stop the process in FoundationXML (`<ListBucketRes\u{DC}ult>`, `<?a?>`) is a
        // malformed answer: stores answer in UTF-8, without such instructions.
        guard XMLInput.isSafe(data) else { return false }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = self
        return parser.parse()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if path.isEmpty { root = elementName }
        path.append(elementName)
        text = ""
        if path.count == 2 && elementName == recordName { record = [:] }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if path.count == 2 && topFields.contains(elementName) { top[elementName] = text }
        if path.count == 3, record != nil, fields.contains(elementName) { record?[elementName] = text }
        if path.count == 2 && elementName == recordName, let finished = record {
            records.append(finished)
            record = nil
        }
        path.removeLast()
        text = ""
    }
}

/// Parses the HTTP `Date` header (IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`).
enum HTTPDateParser {
    static func date(from text: String) -> Date? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let month = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        return Date(utcTimestamp: String(format: "%04d-%02d-%02dT%02d:%02d:%02d.000Z", year, month + 1, day, clock[0], clock[1], clock[2]))
    }
}
