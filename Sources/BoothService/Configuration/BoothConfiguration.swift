import BoothCore
import Foundation
import Yams

/// How to run the booth: where the photos go, how long each step lasts, and the hardware.
public struct BoothConfiguration: Sendable {
    /// The photo library's folder.
    public var dataDirectory: URL
    /// How long each part of the cycle lasts.
    public var settings: BoothSettings
    /// Run on simulated hardware: the test-pattern camera and the terminal.
    public var simulate: Bool
    /// The real camera, button, light, keypad and screen (unused when simulating).
    public var hardware = HardwareConfiguration()
    /// The web gallery.
    public var web = WebConfiguration()

    /// Where the configuration file is when `--config` does not say.
    public static let defaultFile = "/etc/photobooth/photobooth.yaml"

    public init(dataDirectory: URL, settings: BoothSettings = BoothSettings(), simulate: Bool) {
        self.dataDirectory = dataDirectory
        self.settings = settings
        self.simulate = simulate
    }

    /// Sets `key` to `value`, as a command-line option does; `source` names the option in the
    /// error (`--camera`).
    public mutating func set(_ key: String, to value: String, from source: String) throws(ConfigurationError) {
        guard let definition = ConfigurationKey.named(key) else {
            preconditionFailure("no configuration key \(key)")
        }
        guard definition.apply(&self, value) else {
            throw ConfigurationError("\(source): \"\(value)\" is not allowed; use \(definition.allowed).")
        }
    }

    /// Applies the YAML configuration file at `path`. Every key is checked: an unknown key, a
    /// value of the wrong kind or out of range is an error naming the file, line, key and what
    /// is allowed.
    public mutating func apply(file path: String) throws(ConfigurationError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError("\(path): cannot read the configuration file: \((error as NSError).localizedDescription)")
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw ConfigurationError("\(path): not valid YAML: \(error)")
        }
        guard let root else { return }  // An empty file keeps every default.
        guard let sections = root.mapping else {
            throw ConfigurationError("\(path):\(Self.line(root)): the file must be a mapping of sections (camera:, shutter:, ...).")
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
                    "\(path):\(Self.line(sectionNode)): unknown key \"\(section)\"; the file has \(sectionNames.sorted().joined(separator: ", ")).")
            }
            guard let entries = body.mapping else {
                throw ConfigurationError("\(path):\(Self.line(body)): \(section) must hold keys (\(keys.map { $0.name }.joined(separator: ", "))).")
            }
            for (keyNode, value) in entries {
                let name = "\(section).\(keyNode.string ?? "")"
                guard let key = ConfigurationKey.named(name) else {
                    throw ConfigurationError(
                        "\(path):\(Self.line(keyNode)): unknown key \"\(name)\"; \(section) has \(keys.map { $0.name }.joined(separator: ", ")).")
                }
                try apply(key, value, in: path)
            }
        }
    }

    private mutating func apply(_ key: ConfigurationKey, _ value: Node, in path: String) throws(ConfigurationError) {
        guard let scalar = value.scalar?.string, key.apply(&self, scalar) else {
            let shown = value.scalar?.string ?? "a list or mapping"
            throw ConfigurationError(
                "\(path):\(Self.line(value)): \(key.name): \"\(shown)\" is not allowed; use \(key.allowed).")
        }
    }

    private static func line(_ node: Node) -> Int { (node.mark?.line ?? 0) }
}

/// A configuration that cannot be used; the message names the file and line (or the option),
/// the key and what is allowed.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
