import CCUPS
import Foundation

/// An IPP request or response (libcups's `ipp_t`), owned: freed with the value.
///
/// Only the booth's print thread makes and reads them; libcups's IPP values are not shared
/// between threads, so this type is not `Sendable`.
final class IPPMessage {
    let pointer: OpaquePointer
    /// Whether this value frees the message: not once a libcups call that frees it has it.
    private var owned = true

    /// A new request for `operation`, with the attributes every request starts with
    /// (`attributes-charset`, `attributes-natural-language`), and `requesting-user-name`.
    init(_ operation: ipp_op_t, user: String) {
        pointer = ippNewRequest(operation)
        add(.operation, .name, "requesting-user-name", user)
    }

    /// A response libcups made; `nil` stays `nil`.
    init?(taking response: OpaquePointer?) {
        guard let response else { return nil }
        pointer = response
    }

    deinit {
        if owned { ippDelete(pointer) }
    }

    /// The message for a libcups call that frees it (`cupsDoRequest`).
    func handedOver() -> OpaquePointer {
        owned = false
        return pointer
    }

    /// A response's status code.
    var status: ipp_status_t { ippGetStatusCode(pointer) }

    // MARK: Adding

    enum Group {
        case operation, job, printer
        var tag: ipp_tag_t {
            switch self {
            case .operation: IPP_TAG_OPERATION
            case .job: IPP_TAG_JOB
            case .printer: IPP_TAG_PRINTER
            }
        }
    }

    enum StringKind {
        case name, uri, keyword, text, mimeType
        var tag: ipp_tag_t {
            switch self {
            case .name: IPP_TAG_NAME
            case .uri: IPP_TAG_URI
            case .keyword: IPP_TAG_KEYWORD
            case .text: IPP_TAG_TEXT
            case .mimeType: IPP_TAG_MIMETYPE
            }
        }
    }

    func add(_ group: Group, _ kind: StringKind, _ name: String, _ value: String) {
        ippAddString(pointer, group.tag, kind.tag, name, nil, value)
    }

    /// A multi-valued keyword attribute (`requested-attributes`).
    func add(_ group: Group, keywords name: String, _ values: [String]) {
        let copies = values.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) }
        ippAddStrings(pointer, group.tag, IPP_TAG_KEYWORD, name, Int32(values.count), nil, pointers)
    }

    func add(_ group: Group, integer name: String, _ value: Int) {
        ippAddInteger(pointer, group.tag, IPP_TAG_INTEGER, name, Int32(clamping: value))
    }

    /// An enumeration's value (`printer-state`).
    func add(_ group: Group, enumeration name: String, _ value: Int) {
        ippAddInteger(pointer, group.tag, IPP_TAG_ENUM, name, Int32(clamping: value))
    }

    /// IPP's `media-col` for a sheet of `width` by `length` hundredths of a millimetre with no
    /// margins: the borderless print of that size, where the printer has one.
    func addBorderlessMedia(width: Int, length: Int) {
        guard let size = ippNew(), let collection = ippNew() else { return }
        defer {
            ippDelete(size)
            ippDelete(collection)
        }
        ippAddInteger(size, IPP_TAG_ZERO, IPP_TAG_INTEGER, "x-dimension", Int32(width))
        ippAddInteger(size, IPP_TAG_ZERO, IPP_TAG_INTEGER, "y-dimension", Int32(length))
        ippAddCollection(collection, IPP_TAG_ZERO, "media-size", size)
        for margin in ["media-bottom-margin", "media-left-margin", "media-right-margin", "media-top-margin"] {
            ippAddInteger(collection, IPP_TAG_ZERO, IPP_TAG_INTEGER, margin, 0)
        }
        // The message holds a reference of its own to the collection (its use count).
        ippAddCollection(pointer, IPP_TAG_JOB, "media-col", collection)
    }

    func add(_ group: Group, boolean name: String, _ value: Bool) {
        ippAddBoolean(pointer, group.tag, name, value ? 1 : 0)
    }

    // MARK: Reading

    /// The first value of attribute `name` as text (a keyword, a name, a URI, a text).
    func string(_ name: String) -> String? {
        strings(name).first
    }

    /// Every value of attribute `name` as text.
    func strings(_ name: String) -> [String] {
        guard let attribute = ippFindAttribute(pointer, name, IPP_TAG_ZERO) else { return [] }
        return (0..<ippGetCount(attribute)).compactMap { index in ippGetString(attribute, index, nil).map { String(cString: $0) } }
    }

    /// The first value of attribute `name` as an integer or enum.
    func integer(_ name: String) -> Int? {
        guard let attribute = ippFindAttribute(pointer, name, IPP_TAG_ZERO), ippGetCount(attribute) > 0 else { return nil }
        let tag = ippGetValueTag(attribute)
        guard tag == IPP_TAG_INTEGER || tag == IPP_TAG_ENUM else { return nil }
        return Int(ippGetInteger(attribute, 0))
    }

    /// Every value of attribute `name` as an integer.
    func integers(_ name: String) -> [Int] {
        guard let attribute = ippFindAttribute(pointer, name, IPP_TAG_ZERO) else { return [] }
        let tag = ippGetValueTag(attribute)
        guard tag == IPP_TAG_INTEGER || tag == IPP_TAG_ENUM else { return [] }
        return (0..<ippGetCount(attribute)).map { Int(ippGetInteger(attribute, $0)) }
    }

    func boolean(_ name: String) -> Bool? {
        guard let attribute = ippFindAttribute(pointer, name, IPP_TAG_BOOLEAN), ippGetCount(attribute) > 0 else { return nil }
        return ippGetBoolean(attribute, 0) != 0
    }

    /// The first value of a resolution attribute, in dots per inch across and down.
    func resolution(_ name: String) -> (x: Int, y: Int)? {
        guard let attribute = ippFindAttribute(pointer, name, IPP_TAG_RESOLUTION), ippGetCount(attribute) > 0 else { return nil }
        var y: Int32 = 0
        var units = IPP_RES_PER_INCH
        let x = ippGetResolution(attribute, 0, &y, &units)
        // Dots per centimetre, as a printer may say, in dots per inch.
        return units == IPP_RES_PER_CM ? (Int(Double(x) * 2.54), Int(Double(y) * 2.54)) : (Int(x), Int(y))
    }

    /// Each job of a Get-Jobs response: the attributes of one job are a group of their own.
    func jobGroups() -> [[String: String]] {
        var groups: [[String: String]] = []
        var current: [String: String]?
        var attribute = ippFirstAttribute(pointer)
        while let found = attribute {
            let group = ippGetGroupTag(found)
            if group == IPP_TAG_JOB, let name = ippGetName(found) {
                var values: [String] = []
                for index in 0..<ippGetCount(found) {
                    let tag = ippGetValueTag(found)
                    if tag == IPP_TAG_INTEGER || tag == IPP_TAG_ENUM {
                        values.append(String(ippGetInteger(found, index)))
                    } else if let text = ippGetString(found, index, nil) {
                        values.append(String(cString: text))
                    }
                }
                current = current ?? [:]
                current?[String(cString: name)] = values.joined(separator: ",")
            } else if let finished = current {
                // A separator (no name) or another group ends the job's attributes.
                groups.append(finished)
                current = nil
            }
            attribute = ippNextAttribute(pointer)
        }
        if let finished = current { groups.append(finished) }
        return groups
    }
}
