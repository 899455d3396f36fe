import BoothCore
import Foundation

/// The web gallery's part of the configuration: where it listens, how guests reach it, and who
/// may administer it.
package struct WebConfiguration: Sendable, Hashable {
    /// Whether the booth serves the gallery at all (`--no-http` turns it off).
    package var enabled = true
    /// The address to listen on: all interfaces by default.
    package var address = "0.0.0.0"
    package var port = 8080
    /// How guests' phones reach the booth, such as `http://booth.local:8080`: the QR code after
    /// each save links to a page under it. `nil`: the booth's own address on its network.
    package var publicURL: String?
    /// The secret that allows hiding and deleting photos over the web; `nil` turns those off.
    package var adminToken: String?
    /// The name on the gallery's pages, and the "author" of every photo in the API.
    package var boothName = "Photobooth"
    /// How creation times are written, on the screen and in the gallery, when the operator
    /// gives a pattern; `nil`: the booth's language's way (see ``BoothConfiguration/dateFormat``).
    package var dateFormat: PhotoDateFormat?
    /// The words at the top of the gallery, which a guest can close; empty for none.
    package var welcome = ""
    /// How long the "Saved as" screen's link lets the guest delete their photo, in hours; 0
    /// gives links without that power.
    package var guestDeleteHours = 24

    package init() {}
}
