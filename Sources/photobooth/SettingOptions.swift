import ArgumentParser
import BoothCore
import BoothDevices
import BoothScreen
import BoothService

extension Option {
    /// An option that sets `setting` (and `alsoSets`: `--gpio-chip` sets the light's chip too),
    /// whose help is `abstract` followed by the keys it sets: "The camera's frame size
    /// (camera.size)."
    ///
    /// The value is read with the setting's own ``Setting/parse(_:)``, the one the
    /// configuration file uses, so that a wrong value is refused with the same message, which
    /// says what is allowed: ArgumentParser's `init?(argument:)` could only say that it failed.
    init<Parsed>(_ setting: Setting<Parsed>, _ alsoSets: Setting<Parsed>..., help abstract: String, valueName: String)
    where Parsed: ExpressibleByArgument, Value == Parsed? {
        let keys = ([setting] + alsoSets).map(\.name).joined(separator: ", ")
        self.init(
            help: ArgumentHelp("\(abstract) (\(keys)).", valueName: valueName),
            completion: Parsed.defaultCompletionKind,
            transform: { text in
                for other in alsoSets { _ = try other.parse(text) }
                return try setting.parse(text)
            })
    }
}

extension Flag where Value == Bool {
    /// A flag that sets `setting` to `value`, whose help is `abstract` followed by the key and
    /// the value it sets: "Serve no web gallery (http.enabled: false)."
    init(_ setting: Setting<Bool>, to value: Bool, help abstract: String) {
        self.init(wrappedValue: false, help: ArgumentHelp("\(abstract) (\(setting.name): \(value.settingText))."))
    }
}

extension BoothConfiguration {
    /// Sets `setting` to the value an option gave, if it gave one.
    mutating func override<Value>(_ setting: Setting<Value>, with value: Value?) {
        if let value { set(setting, to: value) }
    }
}

// The types of the settings' values are the types of their options. Each reads the spelling of
// a value the way the configuration file does.

extension FrameSize: ExpressibleByArgument {
    package init?(argument: String) { self.init(settingText: argument) }
}

extension FrameRate: ExpressibleByArgument {
    package init?(argument: String) { self.init(settingText: argument) }
}

extension Polarity: ExpressibleByArgument {}

extension GPIOBias: ExpressibleByArgument {}

extension GPIOLineSelector: ExpressibleByArgument {
    public init?(argument: String) { self.init(settingText: argument) }
}

extension LightLine: ExpressibleByArgument {
    package init?(argument: String) { self.init(settingText: argument) }
}

extension V4L2Camera.FormatPreference: ExpressibleByArgument {}

extension PictureMode: ExpressibleByArgument {}
extension VoiceMode: ExpressibleByArgument {}
extension ScreenContrast: ExpressibleByArgument {}
extension ScreenTextSize: ExpressibleByArgument {}

extension BaudRate: ExpressibleByArgument {
    package init?(argument: String) { self.init(settingText: argument) }
}

extension KeypadLayout: ExpressibleByArgument {}

extension Seconds: ExpressibleByArgument {
    package init?(argument: String) { self.init(settingText: argument) }
}

extension Milliseconds: ExpressibleByArgument {
    package init?(argument: String) { self.init(settingText: argument) }
}

extension IPAddress: ExpressibleByArgument {
    package init?(argument: String) { self.init(settingText: argument) }
}

extension TCPPort: ExpressibleByArgument {
    package init?(argument: String) { self.init(settingText: argument) }
}

extension PublicURL: ExpressibleByArgument {
    package init?(argument: String) { self.init(settingText: argument) }
}

extension BoothLanguage: ExpressibleByArgument {
    public init?(argument: String) { self.init(settingText: argument) }
}
