/// Why the booth cannot draw its screens: fonts that cannot be loaded or rendered, or a picture
/// codec that cannot start. The description names the file or library and what to do.
public struct ScreenError: Error, Hashable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
