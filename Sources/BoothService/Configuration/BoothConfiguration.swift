import BoothCore
import BoothSync
import Foundation
import Yams

/// How to run the booth: where the photos go, how long each step lasts, and the hardware.
package struct BoothConfiguration: Sendable {
    /// The photo library's folder.
    package var dataDirectory: URL
    /// How long each part of the cycle lasts.
    package var settings: BoothSettings
    /// Run on simulated hardware: the test-pattern camera and the terminal, but for
    /// ``realParts``.
    package var simulate: Bool
    /// With ``simulate``, the parts that are real all the same: those whose device the command
    /// line names (`--camera`, `--shutter-line`, `--led-line`, `--keypad`, `--screen`).
    /// Without it every part is real.
    package var realParts: DeviceParts = []
    /// The real camera, button, light, keypad and screen (unused when simulating).
    package var hardware = HardwareConfiguration()
    /// The language of the booth's screens, keypad and terminal, and the web's by default.
    package var language = BoothLanguage.english
    /// The web gallery.
    package var web = WebConfiguration()
    /// The event's bucket, which every booth of the event replicates through; off by default.
    package var sync = SyncSettings()
    /// Printing; off by default.
    package var printing = PrintConfiguration()
    /// The booth's own Wi-Fi; off by default.
    package var hotspot = HotspotConfiguration()
    /// The free space the booth keeps on the library's disk: below it the booth takes no
    /// photos, and says so before a guest poses.
    ///
    /// 64 MB by default: a burst of 20 photos from a 4K webcam at up to 3 MB each (the largest
    /// frames measured here, 3840x2160 at quality 90, are 1.6 MB) and the catalog's write-ahead
    /// log, which grows to about 4 MB between checkpoints (a thumbnail adds some 30 KB per
    /// photo). So a queue of guests can finish while the operator is called, and the system's
    /// own logs still have room.
    package var storageReserveBytes: Int64 = 64 * 1_000_000

    /// How creation times are written: the operator's pattern, with the language's names of
    /// months and days, or else the language's own way ("Prise le 23/11/2026 à 14h04").
    package var dateFormat: PhotoDateFormat {
        web.dateFormat?.localized(for: language) ?? language.dateFormat
    }

    /// The configuration file applied last (``apply(file:)``), if any.
    package var file: String?
    /// `booth.layout`: a built-in layout's name or a layout file's path (relative to the
    /// configuration file); `nil` for none.
    package var pictureLayout: String?

    /// The parts as the booth opens them: the print button only when the booth prints.
    package var devices: HardwareConfiguration {
        var devices = hardware
        if printing.printer == nil { devices.printLine = nil }
        return devices
    }

    /// The keys as the booth binds them: the print key only when the booth prints.
    package var keyBindings: KeyBindings {
        var keys = settings.keys
        keys.printKey = printing.printer == nil ? nil : printing.key
        return keys
    }

    /// Where the configuration file is when `--config` does not say.
    package static let defaultFile = "/etc/photobooth/photobooth.yaml"

    package init(dataDirectory: URL, settings: BoothSettings = BoothSettings(), simulate: Bool) {
        self.dataDirectory = dataDirectory
        self.settings = settings
        self.simulate = simulate
    }

    /// Sets `setting` to `value`, as a command-line option does: a value the setting allows,
    /// one that its ``Setting/parse(_:)`` returned.
    package mutating func set<Value>(_ setting: Setting<Value>, to value: Value) {
        setting.apply(value, to: &self)
    }

    /// Applies the YAML configuration file at `path`. Every key is checked: an unknown key, a
    /// value of the wrong kind or out of range is an error naming the file, line, key and what
    /// is allowed. A file with no settings (empty, only comments, or YAML's null `~`) keeps every
    /// default, and so does a section with none (`camera:` with its keys commented out).
    package mutating func apply(file path: String) throws(ConfigurationError) {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigurationError(.unreadableFile, "\(path): cannot read the configuration file: \((error as NSError).localizedDescription)")
        }
        try apply(contents: bytes, of: path)
        file = path
    }

    /// Applies `bytes`, the contents of the configuration file at `path` (which the messages
    /// name), with the checks of ``apply(file:)``. The fuzz target (fuzz/) reads its inputs
    /// through it.
    package mutating func apply(contents bytes: Data, of path: String) throws(ConfigurationError) {
        let text = try Self.text(of: bytes, in: path)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw ConfigurationError(.notYAML, "\(path): not valid YAML: \(error)")
        }
        guard let root, !Self.isNull(root) else { return }
        guard let sections = root.mapping else {
            throw ConfigurationError(.notAMapping, "\(path):\(Self.line(root)): the file must be a mapping of sections (camera:, shutter:, ...).")
        }
        for (sectionNode, body) in sections {
            let section = sectionNode.string ?? ""
            if let key = ConfigurationKey.named(section) {
                try apply(key, body, in: path)
                continue
            }
            let keys = ConfigurationKey.all.filter { $0.name.hasPrefix(section + ".") }
            guard !keys.isEmpty else {
                let sectionNames = Set(ConfigurationKey.all.map { $0.name.split(separator: ".")[0] })
                throw ConfigurationError(
                    .unknownKey, key: section,
                    "\(path):\(Self.line(sectionNode)): unknown key \"\(section)\"; the file has \(sectionNames.sorted().joined(separator: ", ")).")
            }
            if Self.isNull(body) { continue }
            guard let entries = body.mapping else {
                throw ConfigurationError(
                    .notAMapping, key: section,
                    "\(path):\(Self.line(body)): \(section) must hold keys (\(keys.map { $0.name }.joined(separator: ", "))).")
            }
            for (keyNode, value) in entries {
                let name = "\(section).\(keyNode.string ?? "")"
                guard let key = ConfigurationKey.named(name) else {
                    throw ConfigurationError(
                        .unknownKey, key: name,
                        "\(path):\(Self.line(keyNode)): unknown key \"\(name)\"; \(section) has \(keys.map { $0.name }.joined(separator: ", ")).")
                }
                try apply(key, value, in: path)
            }
        }
    }

    private mutating func apply(_ key: ConfigurationKey, _ value: Node, in path: String) throws(ConfigurationError) {
        if Self.isNull(value) {
            throw ConfigurationError(
                .noValue, key: key.name,
                "\(path):\(Self.line(value)): \(key.name) has no value; give one (\(key.allowed)) or remove the line to keep the default.")
        }
        do throws(SettingValueError) {
            guard let scalar = value.scalar?.string else {
                throw SettingValueError(value: "a list or mapping", allowed: key.allowed)
            }
            try key.apply(&self, scalar)
        } catch {
            throw ConfigurationError(.notAllowed, key: key.name, "\(path):\(Self.line(value)): \(key.name): \(error)")
        }
    }

    /// YAML's null: nothing at all, `~` or `null`, untagged or tagged `!!null`.
    private static func isNull(_ node: Node) -> Bool {
        guard let scalar = node.scalar, scalar.style == .plain else { return false }
        return node.tag.rawValue == Tag.Name.null.rawValue || ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// The file as text; bytes that are not UTF-8 are refused with the line they are on.
    private static func text(of bytes: Data, in path: String) throws(ConfigurationError) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var (offset, line) = (0, 1)
        while case .valid(let scalar) = parser.parseScalar(from: &input) {
            if scalar.count == 1 && scalar.first == 0x0A { line += 1 }
            offset += scalar.count
        }
        throw ConfigurationError(
            .notUTF8, "\(path):\(line): the file is not UTF-8 text (byte \(offset + 1) is not); save it as UTF-8.")
    }

    private static func line(_ node: Node) -> Int { (node.mark?.line ?? 0) }
}

/// A configuration that cannot be used; the message names the file and line (or the option),
/// the key and what is allowed. ``code`` and ``key`` say the same for callers and tests that act
/// on the kind of mistake rather than on the words.
package struct ConfigurationError: Error, CustomStringConvertible {
    /// A kind of configuration error.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case unreadableFile, notUTF8, notYAML, notAMapping, unknownKey, noValue, notAllowed
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// The configuration file cannot be read (missing, not readable).
        package static let unreadableFile = Code(.unreadableFile)
        /// The file holds bytes that are not UTF-8.
        package static let notUTF8 = Code(.notUTF8)
        /// The file is not YAML.
        package static let notYAML = Code(.notYAML)
        /// The file, or a section of it, is not a mapping of keys.
        package static let notAMapping = Code(.notAMapping)
        /// A key the booth does not know (a typo).
        package static let unknownKey = Code(.unknownKey)
        /// A key without a value.
        package static let noValue = Code(.noValue)
        /// A value the key does not allow (wrong kind, out of range).
        package static let notAllowed = Code(.notAllowed)

        package var description: String {
            switch kind {
            case .unreadableFile: "the configuration file cannot be read"
            case .notUTF8: "the configuration file is not UTF-8 text"
            case .notYAML: "the configuration file is not YAML"
            case .notAMapping: "not a mapping of keys"
            case .unknownKey: "unknown key"
            case .noValue: "a key has no value"
            case .notAllowed: "a value is not allowed"
            }
        }
    }

    /// Which kind of mistake this is.
    package let code: Code
    /// The key (`camera.device`) or section (`camera`) the mistake is in, when it is in one.
    package let key: String?
    package let description: String

    init(_ code: Code, key: String? = nil, _ description: String) {
        self.code = code
        self.key = key
        self.description = description
    }
}
