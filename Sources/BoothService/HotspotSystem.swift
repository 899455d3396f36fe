import BoothSystem
import Foundation

/// What `photobooth hotspot up` and `down` do to the system, as root, for
/// photobooth-hotspot.service: the files of ``HotspotFiles`` written, the radio unblocked and
/// taken from NetworkManager, the booth's address on the interface, the nftables table loaded;
/// and all of it undone. Nothing under /etc is touched: NetworkManager is told at run time,
/// which it forgets at its next start.
package struct HotspotSystem {
    package let files: HotspotFiles
    /// Says what is being done, a line at a time (the unit's journal).
    package let say: (String) -> Void

    package init(_ files: HotspotFiles, say: @escaping (String) -> Void) {
        self.files = files
        self.say = say
    }

    private var plan: HotspotPlan { files.plan }

    /// Readies the system for hostapd and dnsmasq. Throws what stops the hotspot, in words.
    package func up() throws(HotspotError) {
        let interface = plan.interface
        guard FileManager.default.fileExists(atPath: "/sys/class/net/\(interface)") else {
            throw HotspotError(
                "there is no network interface \(interface) (hotspot.interface): `ip -brief link` lists those there are; a USB Wi-Fi adapter may be unplugged"
            )
        }
        guard
            FileManager.default.fileExists(atPath: "/sys/class/net/\(interface)/wireless")
                || FileManager.default.fileExists(atPath: "/sys/class/net/\(interface)/phy80211")
        else {
            throw HotspotError("\(interface) (hotspot.interface) is not a Wi-Fi interface: `iw dev` lists the booth's radios")
        }
        try writeFiles()
        unblockRadios()
        // NetworkManager (Raspberry Pi OS) would run its own client on the radio.
        if let nmcli = Self.tool("nmcli"), run(nmcli, ["device", "set", interface, "managed", "no"], mayFail: true) {
            say("NetworkManager leaves \(interface) to the hotspot until it restarts")
        }
        let ip = try Self.required("ip", package: "iproute2")
        try check(run(ip, ["address", "flush", "dev", interface]), "ip address flush dev \(interface)")
        try check(run(ip, ["address", "add", plan.address.settingText, "dev", interface]), "ip address add \(plan.address.settingText)")
        let nft = try Self.required("nft", package: "nftables")
        try check(run(nft, ["-f", files.directory + "/hotspot.nft"]), "nft -f \(files.directory)/hotspot.nft")
        say(
            "Hotspot \(plan.network) on \(interface), channel \(plan.channel) (\(plan.country)), the booth at \(plan.address.settingText); port 80 leads to the gallery's \(plan.webPort)"
        )
    }

    /// Undoes ``up()``: the table and the address go; the files stay until the next `up`.
    package func down() {
        if let nft = Self.tool("nft") {
            _ = run(nft, ["delete", "table", "inet", HotspotFiles.table], mayFail: true)
        }
        if let ip = Self.tool("ip") {
            _ = run(ip, ["address", "del", plan.address.settingText, "dev", plan.interface], mayFail: true)
        }
        say("Hotspot's address and rules removed from \(plan.interface)")
    }

    /// The files, each replaced whole: the folder readable by the booth's group (hostapd's
    /// control socket is in it), hostapd's file (the passphrase) by root alone.
    private func writeFiles() throws(HotspotError) {
        let directory = files.directory
        let group = getgrnam(files.group)?.pointee.gr_gid
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            chmod(directory, 0o750)
            if let group { chown(directory, 0, group) }
            for (name, text, mode) in [
                ("hostapd.conf", files.hostapd, 0o600), ("dnsmasq.conf", files.dnsmasq, 0o644), ("hotspot.nft", files.nftables, 0o644),
            ] {
                let path = directory + "/" + name
                let temporary = path + ".new"
                try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
                chmod(temporary, mode_t(mode))
                guard rename(temporary, path) == 0 else { throw HotspotError("cannot write \(path): \(String(cString: strerror(errno)))") }
            }
        } catch let error as HotspotError {
            throw error
        } catch {
            throw HotspotError("cannot write the hotspot's files in \(directory): \(error.localizedDescription)")
        }
    }

    /// Raspberry Pi OS blocks Wi-Fi (rfkill) until a country is chosen: the booth has one.
    private func unblockRadios() {
        let root = "/sys/class/rfkill"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
            guard Self.kernelValue("\(root)/\(entry)/type") == "wlan", Self.kernelValue("\(root)/\(entry)/soft") == "1" else { continue }
            if (try? Data("0".utf8).write(to: URL(fileURLWithPath: "\(root)/\(entry)/soft"))) != nil {
                say("Unblocked the Wi-Fi radio \(entry) (rfkill)")
            }
        }
    }

    private func check(_ succeeded: Bool, _ what: String) throws(HotspotError) {
        if !succeeded { throw HotspotError("\(what) failed (its message is above)") }
    }

    /// Runs `tool` with `arguments`, its output into the booth's; whether it succeeded.
    private func run(_ tool: String, _ arguments: [String], mayFail: Bool = false) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        if mayFail {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        do {
            try process.run()
        } catch {
            if !mayFail { say("cannot run \(tool): \(error.localizedDescription)") }
            return false
        }
        process.waitUntilExit()
        return process.terminationReason == .exit && process.terminationStatus == 0
    }

    /// A sysfs attribute's value without its line break (``KernelFile``), or `nil`.
    static func kernelValue(_ path: String) -> String? {
        (try? KernelFile.text(at: path))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A system tool's path, from the places Debian installs them.
    static func tool(_ name: String) -> String? {
        ["/usr/sbin", "/usr/bin", "/sbin", "/bin"].map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func required(_ name: String, package: String) throws(HotspotError) -> String {
        guard let path = tool(name) else { throw HotspotError("\(name) is missing: install \(package) (apt-get install \(package))") }
        return path
    }
}

/// Why the hotspot cannot run, in words for the operator.
package struct HotspotError: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) { self.description = description }
}
