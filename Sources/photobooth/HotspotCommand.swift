import ArgumentParser
import BoothService
import Foundation

struct HotspotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hotspot",
        abstract: "Run the booth's own Wi-Fi access point (for photobooth-hotspot.service).",
        discussion: """
            With hotspot.enabled, the package's photobooth-hotspot.service runs hostapd (the access \
            point) and photobooth-hotspot-dns.service runs dnsmasq (addresses, and every name \
            answered with the booth's address, so that a joining phone opens the booth's "Just \
            taken" page by itself). Before they start, `photobooth hotspot up` writes their files \
            under /run/photobooth-hotspot from the configuration and readies the interface; after \
            they stop, `down` undoes it. An operator uses `systemctl restart photobooth-hotspot` \
            after changing hotspot: in photobooth.yaml, and `photobooth doctor` to check the radio.
            """,
        subcommands: [HotspotEnabledCommand.self, HotspotUpCommand.self, HotspotDownCommand.self])
}

/// `--config`, read as `run` reads it, and the hotspot it describes.
struct HotspotOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("The configuration file.", discussion: "Default: \(BoothConfiguration.defaultFile).", valueName: "file"))
    var config = BoothConfiguration.defaultFile

    @Option(help: ArgumentHelp("Where the hotspot's files are written.", valueName: "folder"))
    var runDirectory = HotspotFiles.defaultDirectory

    /// The hotspot the file describes; `nil` when it is off.
    func plan() throws -> HotspotPlan? {
        var configuration = BoothConfiguration(dataDirectory: URL(fileURLWithPath: "/var/lib/photobooth"), simulate: false)
        try configuration.apply(file: config)
        return try configuration.hotspotPlan()
    }

    func files() throws -> HotspotFiles? {
        try plan().map { HotspotFiles($0, directory: runDirectory) }
    }
}

struct HotspotEnabledCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enabled",
        abstract: "Exit 0 when the configuration turns the hotspot on (the units' ExecCondition).",
        discussion: """
            EXIT STATUS
              0  hotspot.enabled is true and the hotspot's settings are right.
              1  hotspot.enabled is false: the hotspot's units do not start.
              255  A setting is wrong (the message says which): the unit fails.
            """)

    @OptionGroup var options: HotspotOptions

    func run() throws {
        do {
            guard try options.plan() != nil else {
                print("hotspot.enabled is false in \(options.config): the booth runs no Wi-Fi of its own.")
                throw ExitCode(1)
            }
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("photobooth: \(error)\n".utf8))
            throw ExitCode(255)
        }
    }
}

struct HotspotUpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "up", abstract: "Write hostapd's and dnsmasq's files and ready the interface (as root).")

    @OptionGroup var options: HotspotOptions

    func run() throws {
        guard let files = try options.files() else {
            print("hotspot.enabled is false in \(options.config): nothing to do.")
            return
        }
        do {
            try HotspotSystem(files) { print($0) }.up()
        } catch {
            FileHandle.standardError.write(Data("photobooth: the hotspot cannot start: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}

struct HotspotDownCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "down", abstract: "Remove the hotspot's address and rules from the interface (as root).")

    @OptionGroup var options: HotspotOptions

    func run() throws {
        guard let files = try options.files() else { return }
        HotspotSystem(files) { print($0) }.down()
    }
}
