import BoothScreen
import Foundation
import Yams

/// A layout written by an operator: a YAML file next to the configuration, checked as strictly
/// as the configuration. Each mistake is refused with the file, the line and the key:
///
/// ```yaml
/// canvas: 600x1800            # the picture's size in pixels: a 2x6 in strip at 300 dpi
/// background: "#FFFFFF"       # a colour, or a JPEG or PNG file stretched to the canvas
/// overlay: frame.png          # drawn over everything; its transparent parts show the shots
/// slots:                      # where the shots go, in the order they are taken
///   - {x: 30, y: 30, width: 540, height: 360}
///   - {x: 30, y: 420, width: 540, height: 360, rotation: -2, fit: contain}
/// texts:
///   - {text: "{event}", x: 30, y: 1610, width: 540, size: 52, color: "#202020", align: center}
/// ```
///
/// Files it names are found next to the layout unless their path is absolute.
package enum LayoutFile {
    /// The most shots a layout may hold: more would be smaller than a thumbnail on a print.
    package static let maximumSlots = 9
    /// The largest canvas side, in pixels: 8000 is 26 in at 300 dpi.
    package static let maximumSide = 8000

    /// Reads the layout file at `path`; the layout is named after the file.
    package static func read(_ path: String) throws(LayoutError) -> Layout {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw LayoutError(.unreadable, "\(path): cannot read the layout file: \((error as NSError).localizedDescription)")
        }
        return try parse(bytes, path: path)
    }

    /// The layout `bytes` describe, the contents of the file at `path` (which messages name and
    /// relative file names start from).
    package static func parse(_ bytes: Data, path: String) throws(LayoutError) -> Layout {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw LayoutError(.notYAML, "\(path): the layout is not UTF-8 text; save it as UTF-8.")
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw LayoutError(.notYAML, "\(path): not valid YAML: \(error)")
        }
        guard let root, let mapping = root.mapping else {
            throw LayoutError(.notAMapping, "\(path):\(root?.mark?.line ?? 1): a layout is a mapping of keys (\(topKeys.joined(separator: ", "))).")
        }
        let reader = Reader(path: path)
        let entries = try reader.entries(of: mapping, allowed: topKeys, in: "the layout")
        guard let canvasNode = entries["canvas"] else {
            throw LayoutError(.missingKey, "\(path):\(root.mark?.line ?? 1): canvas is missing; give the picture's size, such as canvas: 1800x1200.")
        }
        let (width, height) = try reader.size(canvasNode, key: "canvas")
        var layout = Layout(name: name(of: path), width: width, height: height, slots: [])
        if let node = entries["background"] {
            let value = try reader.string(node, key: "background")
            if value.hasPrefix("#") {
                guard let color = PixelColor(hex: value) else {
                    throw reader.error(.notAllowed, node, key: "background", "\"\(value)\" is not a colour; write #RRGGBB, such as #FFFFFF.")
                }
                layout.background = .color(color)
            } else {
                layout.background = .image(path: try reader.file(node, key: "background", kinds: ["jpg", "jpeg", "png"]))
            }
        }
        if let node = entries["overlay"] {
            layout.overlay = try reader.file(node, key: "overlay", kinds: ["png"])
        }
        guard let slotsNode = entries["slots"] else {
            throw LayoutError(.missingKey, "\(path):\(root.mark?.line ?? 1): slots is missing; give at least one place for a shot.")
        }
        let slots = try reader.list(slotsNode, key: "slots")
        guard (1...maximumSlots).contains(slots.count) else {
            throw reader.error(.notAllowed, slotsNode, key: "slots", "a layout holds 1 to \(maximumSlots) slots, not \(slots.count).")
        }
        layout.slots = try slots.enumerated().map { (index, node) throws(LayoutError) in
            try reader.slot(node, key: "slots[\(index + 1)]", canvas: (width, height))
        }
        if let textsNode = entries["texts"] {
            layout.texts = try reader.list(textsNode, key: "texts").enumerated().map { (index, node) throws(LayoutError) in
                try reader.text(node, key: "texts[\(index + 1)]", canvas: (width, height))
            }
        }
        return layout
    }

    static let topKeys = ["canvas", "background", "overlay", "slots", "texts"]
    static let slotKeys = ["x", "y", "width", "height", "rotation", "fit"]
    static let textKeys = ["text", "x", "y", "width", "size", "color", "align", "font"]

    /// The layout's name: the file's name without its extension.
    static func name(of path: String) -> String {
        let file = URL(fileURLWithPath: path).lastPathComponent
        for suffix in [".yaml", ".yml"] where file.hasSuffix(suffix) {
            return String(file.dropLast(suffix.count))
        }
        return file
    }
}

/// The checks of one layout file, each error with the file's path, the node's line and the key.
private struct Reader {
    let path: String

    func error(_ code: LayoutError.Code, _ node: Node, key: String, _ problem: String) -> LayoutError {
        LayoutError(code, key: key, "\(path):\(node.mark?.line ?? 1): \(key): \(problem)")
    }

    /// The keys of `mapping`, each one of `allowed` (YAML itself refuses a key given twice).
    func entries(of mapping: Node.Mapping, allowed: [String], in place: String) throws(LayoutError) -> [String: Node] {
        var entries: [String: Node] = [:]
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            guard allowed.contains(key) else {
                throw LayoutError(
                    .unknownKey, key: key,
                    "\(path):\(keyNode.mark?.line ?? 1): unknown key \"\(key)\" in \(place); it has \(allowed.joined(separator: ", ")).")
            }
            entries[key] = value
        }
        return entries
    }

    func string(_ node: Node, key: String) throws(LayoutError) -> String {
        guard let scalar = node.scalar else { throw error(.notAllowed, node, key: key, "give a single value, not a list or a mapping.") }
        guard !scalar.string.isEmpty else { throw error(.notAllowed, node, key: key, "has no value.") }
        return scalar.string
    }

    func integer(_ node: Node, key: String, in range: ClosedRange<Int>) throws(LayoutError) -> Int {
        let text = try string(node, key: key)
        guard let value = Int(text), range.contains(value) else {
            throw error(
                .notAllowed, node, key: key, "\"\(text)\" is not allowed; use a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }

    func size(_ node: Node, key: String) throws(LayoutError) -> (Int, Int) {
        let text = try string(node, key: key)
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        let range = 16...LayoutFile.maximumSide
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), range.contains(width), range.contains(height) else {
            throw error(
                .notAllowed, node, key: key,
                "\"\(text)\" is not a size; write WIDTHxHEIGHT in pixels, each from 16 to \(range.upperBound), such as 1800x1200.")
        }
        return (width, height)
    }

    func list(_ node: Node, key: String) throws(LayoutError) -> [Node] {
        guard let sequence = node.sequence else { throw error(.notAllowed, node, key: key, "give a list, one item per line starting with -.") }
        return Array(sequence)
    }

    /// A file of one of `kinds`, found next to the layout unless absolute; it must exist.
    func file(_ node: Node, key: String, kinds: [String]) throws(LayoutError) -> String {
        let name = try string(node, key: key)
        let url =
            name.hasPrefix("/")
            ? URL(fileURLWithPath: name) : URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(name)
        guard kinds.contains(url.pathExtension.lowercased()) else {
            throw error(.notAllowed, node, key: key, "\(name) is not a \(kinds.map { "." + $0 }.joined(separator: " or ")) file.")
        }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw error(.missingFile, node, key: key, "\(url.path) does not exist or cannot be read.")
        }
        return url.path
    }

    func slot(_ node: Node, key: String, canvas: (width: Int, height: Int)) throws(LayoutError) -> PhotoSlot {
        guard let mapping = node.mapping else {
            throw error(.notAMapping, node, key: key, "a slot is a mapping: {x: 30, y: 30, width: 540, height: 360}.")
        }
        let entries = try self.entries(of: mapping, allowed: LayoutFile.slotKeys, in: key)
        for required in ["x", "y", "width", "height"] where entries[required] == nil {
            throw error(.missingKey, node, key: key, "\(required) is missing; a slot has x, y, width and height.")
        }
        let side = LayoutFile.maximumSide
        var slot = PhotoSlot(
            x: try integer(entries["x"]!, key: "\(key).x", in: -side...side),
            y: try integer(entries["y"]!, key: "\(key).y", in: -side...side),
            width: try integer(entries["width"]!, key: "\(key).width", in: 8...side),
            height: try integer(entries["height"]!, key: "\(key).height", in: 8...side))
        guard slot.x < canvas.width, slot.y < canvas.height, slot.x + slot.width > 0, slot.y + slot.height > 0 else {
            throw error(.notAllowed, node, key: key, "the slot is outside the \(canvas.width)x\(canvas.height) canvas.")
        }
        if let rotation = entries["rotation"] {
            let text = try string(rotation, key: "\(key).rotation")
            guard let degrees = Double(text), degrees.isFinite, (-360...360).contains(degrees) else {
                throw error(.notAllowed, rotation, key: "\(key).rotation", "\"\(text)\" is not allowed; use degrees clockwise from -360 to 360.")
            }
            slot.rotation = degrees
        }
        if let fit = entries["fit"] {
            let text = try string(fit, key: "\(key).fit")
            guard let value = PhotoSlot.Fit(rawValue: text) else {
                throw error(.notAllowed, fit, key: "\(key).fit", "\"\(text)\" is not allowed; use cover or contain.")
            }
            slot.fit = value
        }
        return slot
    }

    func text(_ node: Node, key: String, canvas: (width: Int, height: Int)) throws(LayoutError) -> TextItem {
        guard let mapping = node.mapping else {
            throw error(.notAMapping, node, key: key, "a text is a mapping: {text: \"{event}\", y: 1610, size: 52}.")
        }
        let entries = try self.entries(of: mapping, allowed: LayoutFile.textKeys, in: key)
        for required in ["text", "y", "size"] where entries[required] == nil {
            throw error(.missingKey, node, key: key, "\(required) is missing; a text has at least text, y and size.")
        }
        let words = try string(entries["text"]!, key: "\(key).text")
        if let unknown = TextBlank.unknownNames(in: words).first {
            throw error(
                .notAllowed, entries["text"]!, key: "\(key).text",
                "{\(unknown)} is not a blank; the blanks are \(TextBlank.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")).")
        }
        let x = try entries["x"].map { (node) throws(LayoutError) in try integer(node, key: "\(key).x", in: 0...(canvas.width - 1)) } ?? 0
        var item = TextItem(
            text: words, x: x,
            y: try integer(entries["y"]!, key: "\(key).y", in: 0...(canvas.height - 1)),
            width: try entries["width"].map { (node) throws(LayoutError) in try integer(node, key: "\(key).width", in: 1...(canvas.width - x)) }
                ?? canvas.width - x,
            size: try integer(entries["size"]!, key: "\(key).size", in: 4...1000))
        if let color = entries["color"] {
            let text = try string(color, key: "\(key).color")
            guard let value = PixelColor(hex: text) else {
                throw error(.notAllowed, color, key: "\(key).color", "\"\(text)\" is not a colour; write #RRGGBB, such as #202020.")
            }
            item.color = value
        }
        if let align = entries["align"] {
            let text = try string(align, key: "\(key).align")
            guard let value = TextItem.Alignment(rawValue: text) else {
                throw error(.notAllowed, align, key: "\(key).align", "\"\(text)\" is not allowed; use left, center or right.")
            }
            item.alignment = value
        }
        if let font = entries["font"] {
            item.font = try file(font, key: "\(key).font", kinds: ["ttf", "otf"])
        }
        return item
    }
}

/// A layout that cannot be used; the message names the file, the line and the key, and says
/// what is allowed.
package struct LayoutError: Error, Hashable, CustomStringConvertible {
    /// What kind of mistake it is, for callers and tests that act on it rather than on words.
    package enum Code: String, Sendable, Hashable {
        case unreadable, notYAML, notAMapping, unknownKey, missingKey, notAllowed, missingFile
        /// A file the layout names (an image, a font) that is not what it claims to be.
        case badFile
        /// A name that is neither a built-in layout nor a layout file.
        case unknownLayout
    }

    package let code: Code
    /// The key at fault (`slots[2].width`), when there is one.
    package let key: String?
    package let description: String

    package init(_ code: Code, key: String? = nil, _ description: String) {
        self.code = code
        self.key = key
        self.description = description
    }
}
