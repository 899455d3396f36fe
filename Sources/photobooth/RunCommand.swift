import ArgumentParser
import BoothCore
import BoothService
import Foundation
import Logging

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the booth.",
        discussion: """
            Runs the booth until it is stopped: the live preview, the countdown and the shot, the \
            name typed on the keypad, the gallery on the booth's screen, and the web gallery on \
            port 8080 (--no-http turns it off). The settings come from \
            /etc/photobooth/photobooth.yaml (or --config FILE); each option below overrides the key \
            of the file named in its help. A wrong key or value stops the booth with the file and \
            line (or the option), the key and what is allowed. SIGTERM and SIGINT stop the booth \
            once the photos under way are saved. SIGHUP reads the configuration again: a file with \
            an error is logged and ignored; a good one is applied once no photo is in flight (the \
            booth finishes the countdown, capture, name entry or save under way, then starts again \
            in the same process; a stop that comes meanwhile wins). Under systemd (Type=notify) the \
            booth reports READY=1 once the camera delivers or a fault is on the screen, its state \
            as STATUS=, and WATCHDOG=1 from its loop. Run `photobooth doctor` first on new hardware.

            The booth keeps storage.reserve_mb (--storage-reserve, 64 MB) free on the library's \
            disk. Below it, or on a library it cannot write, it shows "Storage full" or "Cannot \
            save photos" before a guest poses (a press shows the fault, not a countdown), /healthz \
            and doctor say why, and it takes photos again by itself once it can save them. On a \
            disk too full to open the catalog for writing it opens it for reading only, serves \
            the gallery, and starts itself again once there is room.

            With --simulate the booth runs on any Linux machine: a test-pattern camera, the terminal as \
            shutter button and keypad (Enter takes a photo; type a name and Enter to name it; Escape then \
            Enter keeps the default name), and the screen printed as lines. Input may be piped: each line \
            waits until the booth waits for one, and at the end of input the booth finishes its saves and \
            exits 0. With --simulate the configuration file is read only when --config names it. A \
            device named on the command line is used for real and the rest simulated: --camera, \
            --keypad (the terminal stays the button; input's end then does not stop the booth), \
            --shutter-line or --gpio-chip, --led-line, --screen. The simulated camera takes \
            --camera-size and --camera-fps; a setting of a device that stays simulated is refused.

            FILES
              /etc/photobooth/photobooth.yaml
                  The configuration (--config FILE); it documents every key.
              /var/lib/photobooth
                  The library of the service and of root; other users
                  have ~/.local/share/photobooth. --data-dir comes first,
                  then the file's data_dir, then $STATE_DIRECTORY, then
                  these.

            EXIT STATUS
              0  Stopped by SIGTERM or SIGINT, or at the end of piped input
                 with --simulate.
              1  The booth could not start or stopped on an error; the
                 message says why (a wrong configuration file, a device
                 it cannot open, a library in use).
              2  Bad usage, such as an unknown option or a wrong value.

            THE SERVICE
              The photobooth package runs `photobooth run --config
              /etc/photobooth/photobooth.yaml` as photobooth.service, as the
              user photobooth, and restarts it if it exits on its own:
                systemctl status photobooth        whether it runs
                journalctl -u photobooth -f        its log, as it is written
                sudo systemctl reload photobooth   after editing the file
                sudo systemctl stop photobooth     before doctor or repairs
            """)

    @OptionGroup var library: LibraryOptions

    @Flag(help: "Run on simulated hardware (test-pattern camera, terminal as button, keypad and screen).")
    var simulate = false

    @OptionGroup var hardware: HardwareOptions

    @Option(help: ArgumentHelp("The lowest level of log lines on standard error.", valueName: "level"))
    var logLevel = LogLevel(argument: "info")!

    func run() async throws {
        startLogging(at: logLevel.level)
        let options = (hardware: hardware, library: library, simulate: simulate)
        let logger = Logger(label: "photobooth")
        @Sendable func read() throws -> BoothConfiguration {
            let configuration = try options.hardware.configuration(
                dataDirectory: options.library.directory, explicitDataDirectory: options.library.dataDirectory != nil,
                simulate: options.simulate)
            for exposure in SecretFiles.exposures(of: configuration) {
                logger.warning("\(exposure). Fix: \(exposure.fix).")
            }
            return configuration
        }
        switch try await Booth.run(read(), reading: read, logger: logger) {
        case .stopped:
            return
        case .reload:
            // Everything is stopped and every photo saved: the same command starts again in
            // this process (systemd keeps following its PID) and reads the new configuration.
            logger.notice("Starting again.")
            restartInPlace()
            logger.critical("Could not start again: execv: \(String(cString: strerror(errno))).")
            throw ExitCode.failure
        }
    }
}

/// Replaces this process by a fresh run of the same executable with the same arguments and
/// environment; returns only if that fails. Descriptors other than standard input, output and
/// error are closed on the way (some libraries open theirs without close-on-exec).
private func restartInPlace() {
    if let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
        for case let descriptor? in descriptors.map({ Int32($0) }) where descriptor > STDERR_FILENO {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
    }
    // The executable's own path, so that `ps` and the journal name it photobooth, not exe.
    let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "/proc/self/exe"
    execv(FileManager.default.isExecutableFile(atPath: path) ? path : "/proc/self/exe", CommandLine.unsafeArgv)
}
