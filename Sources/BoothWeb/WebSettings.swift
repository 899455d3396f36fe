import BoothCore
import BoothSystem

/// How the web gallery is served: where it listens, whose photos it shows, who may administer
/// them.
package struct WebSettings: Sendable {
    /// The address to listen on; "0.0.0.0" is every network interface of the booth.
    package var address: String
    /// The TCP port to listen on; 0 lets the system pick a free one (tests).
    package var port: Int
    /// The booth's name: the title of the pages, and the `author` of every photo in the JSON API.
    package var boothName: String
    /// The token that admin requests send as `Authorization: Bearer <token>`. `nil` (or empty)
    /// turns the admin actions off.
    package var adminToken: String?
    /// How creation times are written on the pages.
    package var dateFormat: PhotoDateFormat
    /// The booth's language (`booth.language`): the pages' language for a browser that asks
    /// for none the booth speaks.
    package var language = BoothLanguage.english
    /// How long a connection may stay silent before it is closed: a client that opens a
    /// connection and sends nothing, or a request too slowly, does not hold it forever. An
    /// answer being made is not cut by it (see ``stallLimit`` for one being sent).
    package var idleTimeout: Duration
    /// How long an answer written to a client (a live stream's picture, a download) may wait
    /// for the client to take it before the connection is closed; `nil`: ``idleTimeout``.
    package var stallLimit: Duration?
    /// The event the booth belongs to, written into every original the gallery hands out.
    package var event: String
    /// How many photo events may wait for one client of `/api/events`: one more and the
    /// client is disconnected (its browser reconnects and reloads the page), since a client
    /// must never miss one unknowingly. Photos come every few seconds at most, so 64 is a
    /// client that has not read for minutes.
    package var eventBacklog = 64
    /// The operator's words at the top of the gallery (`booth.welcome`), which a guest can
    /// close; empty for none.
    package var welcome: String
    /// What signs the links that let a guest delete the photo they just took; `nil` turns
    /// those links off.
    package var deletionKeys: DeletionKeys?
    /// The clock that times the waits of clients that sent wrong admin tokens; tests set their own.
    package var clock: @Sendable () -> MonotonicInstant = { MonotonicClock().now }
    /// How many connections the gallery holds at once; `nil` derives them from the process's
    /// limit on open files when the gallery is made (``ConnectionLimits/forThisProcess()``).
    package var connectionLimits: ConnectionLimits?
    /// How many of the 64 bits of their perceptual hashes two photos may differ by and still
    /// be shown to the operator as near-duplicates.
    package var duplicateDistance = 10
    /// The copies an operator's print asks for (`print.copies`); `nil` when the booth does not
    /// print, and `/api/photos/{id}/print` says so.
    package var printCopies: Int?
    /// The limits of guests' prints from the photo page (`print.guests`); `nil` when guests
    /// do not print here (nor when the booth does not print: then ``printCopies`` is `nil` too).
    package var guestPrinting: PrintLimits?
    /// The phones on the booth's own Wi-Fi and their rules; `nil` when the booth runs none.
    package var hotspot: HotspotGuests?

    /// Settings with the given values; the defaults serve every interface on port 8080, with
    /// admin actions off.
    package init(
        address: String = "0.0.0.0", port: Int = 8080, boothName: String = "Photobooth", adminToken: String? = nil,
        dateFormat: PhotoDateFormat = .standard, idleTimeout: Duration = .seconds(30), event: String = "", welcome: String = "",
        deletionKeys: DeletionKeys? = nil
    ) {
        self.address = address
        self.port = port
        self.boothName = boothName
        self.adminToken = adminToken
        self.dateFormat = dateFormat
        self.idleTimeout = idleTimeout
        self.event = event
        self.welcome = welcome
        self.deletionKeys = deletionKeys
    }
}
