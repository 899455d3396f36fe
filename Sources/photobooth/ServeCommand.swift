import ArgumentParser
import BoothService
import Foundation
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Publish an event's gallery from its bucket, without any hardware.",
        discussion: """
            Runs the web gallery and the event sync and nothing else: no camera, button, keypad or \
            screen. It imports every photo the event's booths upload to the bucket (sync: in the \
            configuration, or the --sync-* options) into its own library and serves them. Run it on \
            any Linux server guests can reach from mobile data (behind an HTTPS proxy), and set \
            http.public_url on every booth to its address: the QR code on "Saved as" then opens \
            the photo there. A photo still on its way shows a page that says so and fills in once \
            the photo has arrived. The admin actions are off: photos are changed at the booth that \
            took them. A guest who deletes their photo here with the QR code's key hides it at once, \
            and the booth that took it deletes it everywhere at its next listing. The credentials come \
            as for `run` (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, sync.credentials_file, or the \
            systemd credential sync-credentials); they need to read the event's folder and to write \
            under <event>/_gallery/, where the guests' deletions go.

            EXIT STATUS
              0  Stopped by SIGTERM or SIGINT.
              1  It could not start: no sync settings, a library in use, a port taken.
              2  Bad usage.

            EXAMPLE
                AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... photobooth serve \\
                    --sync-endpoint https://s3.eu-central-1.amazonaws.com \\
                    --sync-bucket anna-and-ben-photos --sync-event "Anna & Ben's wedding" \\
                    --booth-name "Anna & Ben" --http-address 127.0.0.1 --data-dir /srv/gallery
            """)

    @OptionGroup var library: LibraryOptions

    @OptionGroup var options: HardwareOptions

    @Option(help: ArgumentHelp("The lowest level of log lines on standard error.", valueName: "level"))
    var logLevel = LogLevel(argument: "info")!

    func validate() throws {
        if let device = options.deviceOptionGiven {
            throw ValidationError("photobooth serve runs no devices: leave \(device) out (or use `photobooth run`).")
        }
    }

    func run() async throws {
        startLogging(at: logLevel.level)
        // The configuration file only when --config names it: a server is not a booth.
        let configuration = try options.configuration(
            dataDirectory: library.directory, explicitDataDirectory: library.dataDirectory != nil, simulate: true)
        try await PublicGallery.run(configuration, logger: Logger(label: "photobooth"))
    }
}
