import ArgumentParser
import BoothCore
import BoothImaging
import Foundation

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy originals into a folder, named after their captions.",
        discussion: """
            Files are named after the captions, made safe for Linux and for FAT USB sticks: \
            "Alice.jpg", then "Alice (2).jpg" and so on; an existing file is never replaced. \
            Each copy carries the photo's name and time inside it (EXIF DateTimeOriginal with \
            its fraction and offset, ImageDescription; XMP dc:title and dc:description exactly \
            as typed), the camera, the booth and the event; the original stays as it is. Copies \
            also keep the photo's creation time as their modification time. --all exports the photos guests see, oldest \
            first; a photo hidden from guests is exported by its id.

            EXIT STATUS
              0  Every photo was copied.
              1  An id matches no photo or several, or a copy failed; the
                 message says which.
              2  Bad usage: no ids and no --all, or both.

            EXAMPLE
                sudo photobooth export --all --to /media/usb/photos
            """)

    @OptionGroup var library: LibraryOptions

    @Argument(help: ArgumentHelp("Ids (or unique prefixes) of the photos to export.", valueName: "id"))
    var ids: [String] = []

    @Flag(help: "Export every photo.")
    var all = false

    @Flag(help: "Export each composed picture's shots too, after it (\"Alice, shot 1 of 4.jpg\").")
    var parts = false

    @Option(name: .customLong("to"), help: ArgumentHelp("The folder to copy into (created if needed).", valueName: "dir"), completion: .directory)
    var destination: String

    func validate() throws {
        if all && !ids.isEmpty { throw ValidationError("Give photo ids or --all, not both.") }
        if !all && ids.isEmpty { throw ValidationError("Give the ids of the photos to export, or --all.") }
    }

    func run() throws {
        let library = try library.openLibrary()
        let photos = all ? try library.gallery.photos().reversed() : try ids.map { try library.gallery.photo(matching: $0) }
        // "USB/./" is shown as USB, not "USB/." followed by the sentence's full stop.
        let folder = URL(fileURLWithPath: destination).standardizedFileURL
        // The event the library's booth last synced with, else the installed configuration's.
        let event = try library.outbox.state().event ?? self.library.installedConfiguration?.sync.event ?? ""
        let files = try library.export(Array(photos), to: folder, event: event, tagger: PictureTagger(), parts: parts)
        var next = files.makeIterator()
        for photo in photos {
            guard let file = next.next() else { break }
            print("\(photo.id.lowercased.prefix(8))  \(file.path)")
            for part in parts ? photo.parts : [] {
                guard let file = next.next() else { break }
                print("\(part.id.lowercased.prefix(8))  \(file.path)")
            }
        }
        let shots = files.count - photos.count
        print(
            "Exported \(photos.count) photo\(photos.count == 1 ? "" : "s")\(shots > 0 ? " and \(shots) shot\(shots == 1 ? "" : "s")" : "") to \(folder.path)."
        )
    }
}
