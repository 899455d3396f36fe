import BoothCore
import Foundation
import StoreFixture
import Testing

@testable import BoothService

@Suite("Hotspot")
struct HotspotTests {
    let files = ConfigurationTests()

    func plan(_ text: String) throws -> HotspotPlan? {
        try files.load(text).hotspotPlan()
    }

    /// The message `text`'s hotspot is refused with.
    func refusal(_ text: String) throws -> ConfigurationError? {
        do {
            _ = try plan(text)
            return nil
        } catch let error as ConfigurationError {
            return error
        }
    }

    @Test("Off by default: no plan, nothing to run")
    func off() throws {
        #expect(try plan("booth: {name: Max}") == nil)
        #expect(try plan("hotspot: {enabled: false, passphrase: cheese-please, country: DE}") == nil)
    }

    @Test("The keys make the network, its radio and its addresses; the network is named after the booth by default")
    func keys() throws {
        let plan = try #require(
            try plan(
                """
                booth: {name: "Anna & Max"}
                http: {port: 8081}
                hotspot: {enabled: true, passphrase: "cheese please", country: fr, channel: 11, interface: wlx00c0ca, address: 192.168.7.1/24,
                          admin: true, max_clients: 40, requests_per_second: 10, connections_per_client: 8, security: wpa2-wpa3}
                """))
        #expect(plan.network.name == "Anna & Max" && plan.network.security == .wpa2wpa3 && plan.network.passphrase == "cheese please")
        #expect(plan.country == "FR" && plan.channel == 11 && plan.interface == "wlx00c0ca" && plan.admin && plan.maxClients == 40)
        #expect(plan.requestsPerSecond == 10 && plan.connectionsPerClient == 8 && plan.webPort == 8081)
        #expect(plan.address.address == "192.168.7.1" && plan.address.netmask == "255.255.255.0")
        #expect(plan.portalURL == "http://192.168.7.1/just-taken" && plan.captiveAPIURL == "http://192.168.7.1/captive-portal/api")
        let named = try #require(try self.plan("hotspot: {enabled: true, ssid: Booth, security: open, country: GB}"))
        #expect(named.network.code == "WIFI:T:nopass;S:Booth;;")
    }

    @Test("A hotspot no phone can join, or that guests cannot reach the gallery from, is refused with the setting to change")
    func refused() throws {
        #expect(try refusal("hotspot: {enabled: true, country: DE}")?.key == "hotspot.ssid", "no passphrase")
        #expect(try refusal("hotspot: {enabled: true, passphrase: cheese-please}")?.key == "hotspot.country")
        #expect(try refusal("hotspot: {enabled: true, passphrase: cheese-please, country: US, channel: 13}")?.key == "hotspot.channel")
        #expect(try refusal("hotspot: {enabled: true, passphrase: cheese-please, country: DE, channel: 13}") == nil)
        #expect(try refusal("hotspot: {enabled: true, passphrase: cheese-please, country: DE, channel: 52}")?.key == "hotspot.channel")
        #expect(try refusal("http: {address: 127.0.0.1}\nhotspot: {enabled: true, passphrase: cheese-please, country: DE}")?.key == "http.address")
        #expect(try refusal("http: {enabled: false}\nhotspot: {enabled: true, passphrase: cheese-please, country: DE}")?.key == "hotspot.enabled")
        // A passphrase is never repeated in a message.
        let short = try files.failure("hotspot: {passphrase: sesame}")
        #expect(short.contains("hotspot.passphrase") && !short.contains("sesame"), "\(short)")
        for bad in [
            "address: 8.8.8.1/24", "address: 10.42.0.0/24", "address: 10.42.0.255/24", "address: 10.42.0.1/8", "address: 10.42.0.1",
            "interface: \"wlan/0\"", "interface: averyverylonginterface", "country: DEU", "security: wep", "ssid: \"\"",
        ] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try files.load("hotspot: {\(bad)}") }
        }
    }

    @Test("hostapd's file: the network by its bytes, isolated clients, the security asked for")
    func hostapd() throws {
        let plan = try #require(try plan("booth: {name: Zoë}\nhotspot: {enabled: true, passphrase: cheese-please, country: DE}"))
        let text = HotspotFiles(plan, directory: "/run/x").hostapd
        let lines = Set(text.split(separator: "\n").map(String.init))
        for line in [
            "interface=wlan0", "ssid2=5a6fc3ab", "country_code=DE", "channel=6", "hw_mode=g", "ap_isolate=1", "wpa=2",
            "wpa_key_mgmt=WPA-PSK", "wpa_passphrase=cheese-please", "ctrl_interface=/run/x/hostapd", "ctrl_interface_group=photobooth",
            "max_num_sta=64",
        ] {
            #expect(lines.contains(line), "\(line) in\n\(text)")
        }
        let wpa3 = HotspotFiles(
            try #require(try self.plan("hotspot: {enabled: true, passphrase: cheese-please, country: DE, security: wpa3, channel: 36}")))
        #expect(wpa3.hostapd.contains("wpa_key_mgmt=SAE\n") && wpa3.hostapd.contains("ieee80211w=2\n") && wpa3.hostapd.contains("hw_mode=a\n"))
        #expect(!wpa3.hostapd.contains("wpa_passphrase"))
        let open = HotspotFiles(try #require(try self.plan("hotspot: {enabled: true, security: open, country: DE}")))
        #expect(!open.hostapd.contains("wpa="))
    }

    @Test("dnsmasq's file: addresses on the hotspot alone, every name the booth's, the captive portal's API announced")
    func dnsmasq() throws {
        let plan = try #require(try plan("hotspot: {enabled: true, passphrase: cheese-please, country: DE, address: 172.20.5.9/28}"))
        let text = HotspotFiles(plan, directory: "/run/x").dnsmasq
        for line in [
            "interface=wlan0", "no-resolv", "address=/#/172.20.5.9", "dhcp-range=172.20.5.1,172.20.5.14,255.255.255.240,1h",
            "dhcp-option=option:router,172.20.5.9", "dhcp-option=114,\"http://172.20.5.9/captive-portal/api\"",
            "dhcp-leasefile=/run/x/dnsmasq.leases",
        ] {
            #expect(text.contains(line + "\n"), "\(line) in\n\(text)")
        }
    }

    @Test(
        "dnsmasq reads its file as written (dnsmasq --test)",
        .enabled(if: HotspotSystem.tool("dnsmasq") != nil, "dnsmasq is not installed (apt-get install dnsmasq-base)"))
    func dnsmasqAccepts() async throws {
        let plan = try #require(try plan("hotspot: {enabled: true, passphrase: cheese-please, country: DE}"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dnsmasq-\(UUID()).conf")
        try HotspotFiles(plan).dnsmasq.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let check = try await ProcessLaunch.output(of: try #require(HotspotSystem.tool("dnsmasq")), ["--test", "--conf-file=\(file.path)"])
        #expect(check.status == 0, "\(String(decoding: check.output, as: UTF8.self))")
    }

    @Test("The nftables table leads port 80 to the gallery, lets in DHCP, DNS and the gallery, and forwards nothing")
    func nftables() throws {
        let plan = try #require(try plan("http: {port: 8090}\nhotspot: {enabled: true, passphrase: cheese-please, country: DE}"))
        let text = HotspotFiles(plan).nftables
        for rule in [
            "iifname \"wlan0\" tcp dport 80 redirect to :8090", "iifname \"wlan0\" udp dport { 53, 67 } accept",
            "iifname \"wlan0\" tcp dport { 53, 8090 } accept", "iifname \"wlan0\" counter drop", "oifname \"wlan0\" counter drop",
            "delete table inet photobooth_hotspot",
        ] {
            #expect(text.contains(rule), "\(rule) in\n\(text)")
        }
    }

    @Test(
        "nft reads the table as written (nft --check, which needs root)",
        .enabled(if: HotspotSystem.tool("nft") != nil && geteuid() == 0, "needs nft (apt-get install nftables) and root"))
    func nftablesAccepts() async throws {
        let plan = try #require(try plan("hotspot: {enabled: true, passphrase: cheese-please, country: DE}"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hotspot-\(UUID()).nft")
        try HotspotFiles(plan).nftables.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let check = try await ProcessLaunch.output(of: try #require(HotspotSystem.tool("nft")), ["--check", "-f", file.path])
        #expect(check.status == 0, "\(String(decoding: check.output, as: UTF8.self))")
    }

    @Test("doctor reads the radio's interface modes as `iw phy PHY info` lists them")
    func interfaceModes() {
        let info = """
            Wiphy phy0
            \tmax # scan SSIDs: 4
            \tSupported interface modes:
            \t\t * IBSS
            \t\t * managed
            \t\t * AP
            \t\t * P2P-client
            \tBand 1:
            \t\tCapabilities: 0x1062
            """
        #expect(Doctor.interfaceModes(info) == ["IBSS", "managed", "AP", "P2P-client"])
        #expect(Doctor.interfaceModes("Wiphy phy1\n\tSupported interface modes:\n\t\t * managed\n\tBand 1:") == ["managed"])
    }

    @Test("The booth asks hostapd's control socket for the access point's state and its phones; no hostapd is said so")
    func hostapdStatus() async throws {
        let plan = try #require(try plan("hotspot: {enabled: true, passphrase: cheese-please, country: DE}"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostapd-\(UUID().uuidString.prefix(8))")
        let files = HotspotFiles(plan, directory: directory.path)
        try FileManager.default.createDirectory(atPath: files.controlDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let absent = HotspotFigures.read(files)
        #expect(absent.state == "unreachable" && !absent.isRunning && absent.problem?.contains("connect") == true, "\(absent)")

        let hostapd = try FakeHostapd(path: files.controlSocket, answer: "state=ENABLED\nphy=phy0\nchannel=6\nnum_sta[0]=2\nssid[0]=Booth\n")
        let figures = await hostapd.serving { HotspotFigures.read(files) }
        #expect(figures.isRunning && figures.clients == 2 && figures.problem == nil, "\(figures)")
        #expect(hostapd.asked == ["STATUS"])
        #expect(figures.report.state == "ENABLED")
    }
}

/// A datagram socket that answers each request as hostapd's control interface does, on a
/// thread of its own.
final class FakeHostapd: @unchecked Sendable {
    private let descriptor: Int32
    private let answer: String
    private(set) var asked: [String] = []

    init(path: String, answer: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        self.answer = answer
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    deinit { close(descriptor) }

    /// Answers one request while `body` runs on a thread of its own; returns what it returns.
    func serving<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        let server = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 512)
            var from = sockaddr_un()
            var length = socklen_t(MemoryLayout<sockaddr_un>.size)
            let count = withUnsafeMutablePointer(to: &from) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(descriptor, &buffer, buffer.count, 0, $0, &length) }
            }
            guard count > 0 else { return }
            asked.append(String(decoding: buffer.prefix(count), as: UTF8.self))
            let reply = Array(answer.utf8)
            _ = withUnsafePointer(to: &from) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(descriptor, reply, reply.count, 0, $0, length) }
            }
        }
        server.start()
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
