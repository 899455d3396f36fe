import Foundation

extension Doctor {
    /// The booth's own Wi-Fi, when `hotspot.enabled`: its settings, the programs it runs on,
    /// the radio (there, and able to be an access point: `iw phy PHY info` lists AP among its
    /// interface modes), and the access point itself (hostapd answers through its control
    /// socket, and says how many phones joined).
    static func hotspotChecks(_ configuration: BoothConfiguration) -> [Check] {
        let plan: HotspotPlan
        do {
            guard let found = try configuration.hotspotPlan() else { return [] }
            plan = found
        } catch {
            return [Check(part: "hotspot", passed: false, detail: "\(error)", fix: "correct hotspot: in the configuration (README.md).")]
        }
        var checks: [Check] = []
        let missing = [("hostapd", "hostapd"), ("dnsmasq", "dnsmasq-base"), ("nft", "nftables"), ("iw", "iw"), ("ip", "iproute2")]
            .filter { HotspotSystem.tool($0.0) == nil }
        checks.append(
            Check(
                part: "hotspot programs", passed: missing.isEmpty,
                detail: missing.isEmpty
                    ? "hostapd, dnsmasq, nft, iw and ip are installed." : "missing: \(missing.map(\.0).joined(separator: ", ")).",
                fix: missing.isEmpty ? nil : "sudo apt install \(missing.map(\.1).joined(separator: " "))"))
        checks.append(radioCheck(plan))
        let figures = HotspotFigures.read(HotspotFiles(plan))
        checks.append(
            Check(
                part: "hotspot", passed: figures.isRunning,
                detail: figures.isRunning
                    ? "\(plan.network) is on the air on \(plan.interface), channel \(plan.channel); \(figures.clients) phone\(figures.clients == 1 ? "" : "s") joined."
                    : "the access point does not run: \(figures.problem ?? "hostapd says \(figures.state)").",
                fix: figures.isRunning
                    ? nil : "sudo systemctl restart photobooth-hotspot, then `systemctl status photobooth-hotspot photobooth-hotspot-dns` says why."))
        return checks
    }

    /// Whether the interface is a radio that can be an access point.
    private static func radioCheck(_ plan: HotspotPlan) -> Check {
        let interface = plan.interface
        let fix =
            "set hotspot.interface to a Wi-Fi interface (`iw dev` lists them) whose radio supports AP mode (the Raspberry Pi's own does; most USB adapters with the mt76 or rtl8xxxu drivers do)."
        guard let name = HotspotSystem.kernelValue("/sys/class/net/\(interface)/phy80211/name") else {
            return Check(part: "hotspot radio", passed: false, detail: "\(interface) is not a Wi-Fi interface of this machine.", fix: fix)
        }
        guard let iw = HotspotSystem.tool("iw") else {
            return Check(part: "hotspot radio", passed: false, detail: "iw is missing: the radio's modes cannot be read.", fix: "sudo apt install iw")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: iw)
        process.arguments = ["phy", name, "info"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return Check(part: "hotspot radio", passed: false, detail: "cannot run iw: \(error.localizedDescription)", fix: fix)
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let modes = Self.interfaceModes(output)
        return Check(
            part: "hotspot radio", passed: modes.contains("AP"),
            detail: "\(interface) (\(name)) supports \(modes.isEmpty ? "no interface mode iw lists" : modes.joined(separator: ", ")).",
            fix: modes.contains("AP") ? nil : fix)
    }

    /// The modes under "Supported interface modes:" in `iw phy PHY info`.
    static func interfaceModes(_ info: String) -> [String] {
        var modes: [String] = []
        var inList = false
        for line in info.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("Supported interface modes:") {
                inList = true
            } else if inList, text.hasPrefix("* ") {
                modes.append(String(text.dropFirst(2)))
            } else if inList {
                break
            }
        }
        return modes
    }
}
