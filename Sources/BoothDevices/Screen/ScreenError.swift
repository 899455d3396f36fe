import Foundation

/// Why the booth's screen cannot draw. The description names the file or device and says what
/// to do.
public struct ScreenError: Error, Hashable, CustomStringConvertible {
    private enum Code: Hashable {
        case fontUnavailable, decoderUnavailable, framebufferUnavailable, framebufferUnsupported
    }

    private let code: Code
    public let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    public static func == (lhs: ScreenError, rhs: ScreenError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// A font cannot be found or read.
    public static let fontUnavailable = ScreenError(.fontUnavailable, "font unavailable")
    /// The JPEG decoder for preview frames cannot be created.
    public static let decoderUnavailable = ScreenError(.decoderUnavailable, "preview decoder unavailable")
    /// The framebuffer device cannot be opened or mapped.
    public static let framebufferUnavailable = ScreenError(.framebufferUnavailable, "framebuffer unavailable")
    /// The framebuffer uses a pixel format the booth does not draw.
    public static let framebufferUnsupported = ScreenError(.framebufferUnsupported, "framebuffer format unsupported")

    /// The same kind of error with a message of its own.
    func detailed(_ description: String) -> ScreenError {
        ScreenError(code, description)
    }

    /// A system call on the framebuffer `device` failed with `errno`.
    static func systemCall(_ call: String, on device: String, errno code: Int32) -> ScreenError {
        framebufferUnavailable.detailed("\(device): \(call) failed: \(String(cString: strerror(code))).")
    }
}
