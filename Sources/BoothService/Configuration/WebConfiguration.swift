import BoothCore
import Foundation

/// The web gallery's part of the configuration: where it listens, how guests reach it, and who
/// may administer it.
public struct WebConfiguration: Sendable, Hashable {
    /// Whether the booth serves the gallery at all (`--no-http` turns it off).
    public var enabled = true
    /// The address to listen on: all interfaces by default.
    public var address = "0.0.0.0"
    public var port = 8080
    /// How guests' phones reach the booth, such as `http://booth.local:8080`: the QR code after
    /// each save links to a page under it. `nil`: the booth's own address on its network.
    public var publicURL: String?
    /// The secret that allows hiding and deleting photos over the web; `nil` turns those off.
    public var adminToken: String?
    /// The name on the gallery's pages, and the "author" of every photo in the API.
    public var boothName = "Photobooth"
    /// How creation times are written, on the screen and in the gallery, when the operator
    /// gives a pattern; `nil`: the booth's language's way (see ``BoothConfiguration/dateFormat``).
    public var dateFormat: PhotoDateFormat?
    /// The words at the top of the gallery, which a guest can close; empty for none.
    public var welcome = ""
    /// How long the "Saved as" screen's link lets the guest delete their photo, in hours; 0
    /// gives links without that power.
    public var guestDeleteHours = 24

    public init() {}
}
