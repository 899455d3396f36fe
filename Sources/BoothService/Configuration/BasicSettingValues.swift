import BoothCore
import BoothScreen
import Foundation

extension SettingValue where Self: RawRepresentable<String> {
    /// A case, by its raw value: `pull-up`.
    package init?(settingText text: String) { self.init(rawValue: text) }
    package var settingText: String { rawValue }
}

/// Text: any but the empty string (a setting may allow less, such as an absolute path).
extension String: SettingValue {
    package init?(settingText text: String) {
        guard !text.isEmpty else { return nil }
        self = text
    }

    package var settingText: String { self }
}

/// A whole number, written with digits only: `Int("+5")` would also take a sign, which no
/// setting needs. Nine digits at most.
extension Int: NumericSettingValue {
    package init?(settingText text: String) {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text) else {
            return nil
        }
        self = number
    }

    package var settingText: String { String(self) }

    package static func allowed(in range: ClosedRange<Int>) -> String {
        "a whole number from \(range.lowerBound) to \(range.upperBound)"
    }
}

/// `true`, `yes` or `on`; `false`, `no` or `off`, in any case.
extension PictureMode: SettingValue {}
extension VoiceMode: SettingValue {}
extension ScreenContrast: SettingValue {}
extension ScreenTextSize: SettingValue {}

extension Bool: SettingValue {
    package init?(settingText text: String) {
        switch text.lowercased() {
        case "true", "yes", "on": self = true
        case "false", "no", "off": self = false
        default: return nil
        }
    }

    package var settingText: String { self ? "true" : "false" }
}

/// A language by its code: `en`, `fr`, `de`, in any case.
extension BoothLanguage: SettingValue {
    package init?(settingText text: String) {
        guard let language = BoothLanguage.withCode(text) else { return nil }
        self = language
    }

    package var settingText: String { code }
}

/// A date pattern that writes the date: one made only of quoted text would print the same
/// words under every photo.
extension PhotoDateFormat: SettingValue {
    package init?(settingText text: String) {
        let format = PhotoDateFormat(pattern: text)
        let morning = format.string(from: Date(timeIntervalSince1970: 0), timeZone: .gmt)
        let evening = format.string(from: Date(timeIntervalSince1970: 86_400 * 400 + 3600 * 20 + 60 * 7), timeZone: .gmt)
        guard !text.isEmpty, morning != evening else { return nil }
        self = format
    }

    package var settingText: String { pattern }
}
