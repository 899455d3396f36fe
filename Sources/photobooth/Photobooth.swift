import ArgumentParser
import BoothCore
import Foundation
import Glibc

/// The `photobooth` command.
@main
struct Photobooth: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photobooth",
        abstract: "A photo booth: camera, shutter button, keypad and screen, and the library of its photos.",
        discussion: """
            Photobooth runs a photo booth: a V4L2 webcam, a shutter button on a GPIO line, a \
            serial keypad and a framebuffer screen. It shows a live preview, counts down, keeps \
            the frame the camera exposed at the end of the countdown and asks for a name on the \
            keypad. Every photo it reports as saved is on disk, a JPEG file and a row in a SQLite \
            catalog. Guests look at the photos on the booth's screen and in a web gallery on port \
            8080. `photobooth run --simulate` tries the booth on any Linux machine, without \
            hardware. `photobooth help COMMAND` describes each command.

            FILES
              /etc/photobooth/photobooth.yaml
                  The configuration of `run` and `doctor` (--config FILE). It
                  documents every key with its default; a missing file means the
                  defaults.
              /var/lib/photobooth
                  The photo library of the service and of root: photobooth.sqlite
                  (the catalog), photos/YYYY/MM/DD/ID.jpg (the originals),
                  quarantine/, recycle/.
              ~/.local/share/photobooth
                  The photo library of other users. Every command takes
                  --data-dir DIR.

            ENVIRONMENT
              STATE_DIRECTORY
                  The library's folder when --data-dir is not given; systemd sets
                  it for the service (StateDirectory=photobooth).
              XDG_DATA_HOME
                  For users other than root: the library is
                  $XDG_DATA_HOME/photobooth.
              AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_PROFILE
                  The event bucket's credentials (sync: in the configuration), before
                  sync.credentials_file and the systemd credential sync-credentials.

            EXIT STATUS
              0  Success.
              1  A problem found (doctor, check) or a failed operation.
              2  Bad usage: an unknown command or option, a missing argument, a
                 wrong value.

            THE SERVICE
              The photobooth package runs `photobooth run` as the systemd service
              photobooth.service, as the user photobooth, with the library in
              /var/lib/photobooth:
                systemctl status photobooth        whether it runs, its last logs
                journalctl -u photobooth -f        its log, as it is written
                sudo systemctl reload photobooth   after editing the configuration
                sudo photobooth list               its photos
            """,
        version: Release.version,
        subcommands: [
            RunCommand.self, DoctorCommand.self, ListCommand.self, ShowCommand.self, ExportCommand.self, CheckCommand.self,
            FavouriteCommand.self, UnfavouriteCommand.self, HideCommand.self, UnhideCommand.self, ServeCommand.self,
            SyncCommand.self, PrintCommand.self, HotspotCommand.self, SoundCommand.self, ScreensCommand.self, LibcameraCameraCommand.self,
        ])

    /// Runs the command with the exit codes the booth documents: ArgumentParser's usage errors
    /// (64) become 2, and failures print a message without a stack trace.
    static func main() async {
        // A closed standard output (`photobooth list | head -1`) must be a write error, not a
        // signal that kills a booth in the middle of saving a photo.
        signal(SIGPIPE, SIG_IGN)
        // A hangup (`systemctl reload`) must never end the booth, not even one that comes
        // before `run` listens for it; the other commands have no use for it either, and an
        // export keeps copying when the operator's SSH session drops.
        signal(SIGHUP, SIG_IGN)
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                print(message)
                Glibc.exit(0)
            }
            if !message.isEmpty {
                FileHandle.standardError.write(Data("photobooth: \(message)\n".utf8))
            }
            Glibc.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }
}
