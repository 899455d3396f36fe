/// The addresses of the booth's captive portal, for phones that join its own Wi-Fi: the page
/// they are sent to and the RFC 8908 API that the DHCP server announces (RFC 8910).
package enum GalleryPortal {
    /// "Just taken": the last pictures, newest first.
    package static let justTakenPath = "/just-taken"
    /// The captive-portal API (RFC 8908).
    package static let apiPath = "/captive-portal/api"
}
