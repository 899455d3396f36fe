import BoothCore
import Foundation

/// `print:` in photobooth.yaml: whether and how the booth prints.
package struct PrintConfiguration: Sendable, Hashable {
    /// The CUPS queue, or an IPP Everywhere printer's address for which the booth sets up a
    /// queue of its own (``boothQueue``); `nil`: the booth does not print.
    package var printer: String?
    /// The CUPS server; `nil`: libcups's own (`CUPS_SERVER`, `client.conf`, the local one).
    package var server: IPPServer?
    package var media = PrintMedia(named: "4x6")!
    package var copies = 1
    package var auto = false
    /// The print layout's file (`print.layout`), next to the configuration file unless its
    /// path is absolute; `nil` for the picture alone on the sheet.
    package var layout: String?
    /// The margin around the picture, in millimetres; 0 for borderless.
    package var marginMillimetres = 3
    package var resumeQueue = false
    /// Whether guests print from the photo's page (`print.guests`).
    package var guests = false
    /// How many prints guests may ask for (`print.max_per_picture`, `print.max_total`).
    package var limits = PrintLimits()
    /// The keypad's key that prints the picture on its saved screen (`keypad.print_key`).
    package var key: Character?

    package init() {}

    /// The queue the booth sets up for a printer named by its address.
    package static let boothQueue = "Photobooth"

    /// Whether `printer` is a printer's address (`ipp://`, `ipps://`) rather than a queue.
    package static func isPrinterAddress(_ printer: String) -> Bool {
        printer.hasPrefix("ipp://") || printer.hasPrefix("ipps://")
    }
}

extension PrintMedia: SettingValue {
    package init?(settingText text: String) { self.init(named: text) }
    package var settingText: String { name }
}

extension IPPServer: SettingValue {
    package init?(settingText text: String) { self.init(parsing: text) }
    package var settingText: String { description }
}
