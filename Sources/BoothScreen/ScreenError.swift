/// Why the booth cannot draw its screens: fonts that cannot be loaded or rendered, or a picture
/// codec that cannot start. The description names the file or library and what to do.
package struct ScreenError: Error, Hashable, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
