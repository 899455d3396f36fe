/// A value of a setting, spelled the same way in the configuration file and on the command line.
///
/// Each type reads its spelling in one place, ``init(settingText:)``, which both the file and
/// the command-line option use, so they accept the same values and refuse the same ones.
package protocol SettingValue: Sendable {
    /// The value `text` spells, or `nil` when it spells no value of this type.
    init?(settingText text: String)

    /// The value as the file and the command line spell it; reading it back gives this value.
    var settingText: String { get }

    /// `text` as a message may repeat it: itself, unless it may hold a secret.
    static func shown(_ text: String) -> String
}

extension SettingValue {
    package static func shown(_ text: String) -> String { text }
}

/// A value of a setting that is a number: a setting allows those in a range.
package protocol NumericSettingValue: SettingValue, Comparable {
    /// What a setting that allows `range` says it allows: "a whole number from 1 to 120".
    static func allowed(in range: ClosedRange<Self>) -> String
}

/// A value a setting does not allow; the message says what the setting allows.
package struct SettingValueError: Error, Hashable, CustomStringConvertible {
    /// The value as it was written.
    package let value: String
    /// What the setting allows: "active-low or active-high".
    package let allowed: String

    package var description: String { "\"\(value)\" is not allowed; use \(allowed)." }
}

/// One setting of the booth: its key in the configuration file (`camera.size`), the values it
/// allows, and where a value goes in the configuration.
///
/// The file and the command-line option that set it both read a value with ``parse(_:)``, so
/// a wrong value gets the same message from either. The settings are the static members of
/// `Setting` (``cameraSize``, ...), and ``ConfigurationKey/all`` lists them for the file.
package struct Setting<Value: SettingValue>: Sendable {
    /// The key in the file: section and name, `camera.size`.
    package let name: String
    /// The values allowed, for messages: "WIDTHxHEIGHT, each from 16 to 8192, such as 1280x720".
    package let allowed: String
    private let allows: @Sendable (Value) -> Bool
    private let store: @Sendable (inout BoothConfiguration, Value) -> Void

    /// A setting that takes the values of its type that `allows` accepts, and puts them in the
    /// configuration with `store`.
    init(
        _ name: String, allowed: String, where allows: @escaping @Sendable (Value) -> Bool = { _ in true },
        store: @escaping @Sendable (inout BoothConfiguration, Value) -> Void
    ) {
        self.name = name
        self.allowed = allowed
        self.allows = allows
        self.store = store
    }

    /// The value `text` spells, if the setting allows it.
    package func parse(_ text: String) throws(SettingValueError) -> Value {
        guard let value = Value(settingText: text), allows(value) else {
            throw SettingValueError(value: Value.shown(text), allowed: allowed)
        }
        return value
    }

    /// Puts `value` in `configuration`; `value` is one the setting allows (one ``parse(_:)``
    /// returned).
    func apply(_ value: Value, to configuration: inout BoothConfiguration) {
        precondition(allows(value), "\(name) does not allow \(value.settingText)")
        store(&configuration, value)
    }

    /// The setting as the file reads it: by name, from text.
    var key: ConfigurationKey {
        ConfigurationKey(name: name, allowed: allowed) { configuration, text throws(SettingValueError) in
            store(&configuration, try parse(text))
        }
    }
}

extension Setting where Value: NumericSettingValue {
    /// A setting that takes the numbers in `range`.
    init(_ name: String, in range: ClosedRange<Value>, store: @escaping @Sendable (inout BoothConfiguration, Value) -> Void) {
        self.init(name, allowed: Value.allowed(in: range), where: { range.contains($0) }, store: store)
    }
}

extension Setting where Value: CaseIterable & RawRepresentable<String> {
    /// A setting that takes any case of its type: "auto, mjpeg, yuyv, converted".
    init(_ name: String, store: @escaping @Sendable (inout BoothConfiguration, Value) -> Void) {
        self.init(name, allowed: Value.allCases.map(\.rawValue).joined(separator: ", "), store: store)
    }
}

extension Setting<String> {
    /// A setting that takes an absolute path.
    static func path(
        _ name: String, allowed: String = "an absolute path, such as /dev/...",
        store: @escaping @Sendable (inout BoothConfiguration, String) -> Void
    ) -> Self {
        Setting(name, allowed: allowed, where: { $0.hasPrefix("/") }, store: store)
    }
}

/// A setting with its value's type erased, as the configuration file reads it: by name, from
/// text.
struct ConfigurationKey: Sendable {
    /// The dotted name: section and key.
    let name: String
    /// The values allowed, for messages.
    let allowed: String
    /// Applies the value `text` spells, or throws what the key allows.
    let apply: @Sendable (inout BoothConfiguration, String) throws(SettingValueError) -> Void

    /// The key called `name`, if there is one.
    static func named(_ name: String) -> ConfigurationKey? { all.first { $0.name == name } }
}
