import Foundation

/// What the system's own daemons read to run the booth's Wi-Fi, made from a ``HotspotPlan``:
/// hostapd's configuration (the access point), dnsmasq's (addresses, and every name answered
/// with the booth's address), and the nftables table that sends the hotspot's port 80 to the
/// gallery and keeps guests off everything else. `photobooth hotspot up` writes them under
/// `/run/photobooth-hotspot`; nobody edits them, and each start writes them again.
package struct HotspotFiles: Sendable {
    package let plan: HotspotPlan
    /// Where the files and hostapd's control socket are.
    package let directory: String
    /// The group that may read the access point's state through its control socket: the booth's.
    package let group: String

    package static let defaultDirectory = "/run/photobooth-hotspot"
    /// The nftables table the hotspot's rules are in, and only they.
    package static let table = "photobooth_hotspot"

    package init(_ plan: HotspotPlan, directory: String = Self.defaultDirectory, group: String = "photobooth") {
        self.plan = plan
        self.directory = directory
        self.group = group
    }

    /// hostapd's control sockets' folder: the booth asks the access point's state there.
    package var controlDirectory: String { directory + "/hostapd" }
    /// The socket of the hotspot's interface in it.
    package var controlSocket: String { controlDirectory + "/" + plan.interface }
    package var leaseFile: String { directory + "/dnsmasq.leases" }

    private var header: String {
        """
        # Written by `photobooth hotspot up` from the booth's configuration (hotspot:) at each start
        # of photobooth-hotspot.service; a change here is lost. Change photobooth.yaml instead.

        """
    }

    /// hostapd.conf: the network on the interface, isolated clients, WPA2 and/or WPA3 with
    /// protected management frames where WPA3 needs them.
    package var hostapd: String {
        let network = plan.network
        var lines = [
            "interface=\(plan.interface)",
            "driver=nl80211",
            "ctrl_interface=\(controlDirectory)",
            "ctrl_interface_group=\(group)",
            // The name in hexadecimal: any UTF-8 name, whatever characters it has.
            "ssid2=\(network.name.utf8.map { String(format: "%02x", $0) }.joined())",
            "utf8_ssid=1",
            "country_code=\(plan.country)",
            "ieee80211d=1",
            "hw_mode=\(plan.channel <= 14 ? "g" : "a")",
            "channel=\(plan.channel)",
            "ieee80211n=1",
            "wmm_enabled=1",
            // Phones cannot reach one another: every frame between two of them goes nowhere.
            "ap_isolate=1",
            "max_num_sta=\(plan.maxClients)",
            "auth_algs=1",
            "ignore_broadcast_ssid=0",
        ]
        switch network.security {
        case .open:
            break
        case .wpa2:
            lines += ["wpa=2", "wpa_key_mgmt=WPA-PSK", "rsn_pairwise=CCMP", "wpa_passphrase=\(network.passphrase)"]
        case .wpa2wpa3:
            lines += [
                "wpa=2", "wpa_key_mgmt=WPA-PSK SAE", "rsn_pairwise=CCMP", "ieee80211w=1", "wpa_passphrase=\(network.passphrase)",
                "sae_password=\(network.passphrase)",
            ]
        case .wpa3:
            lines += [
                "wpa=2", "wpa_key_mgmt=SAE", "rsn_pairwise=CCMP", "ieee80211w=2", "sae_password=\(network.passphrase)",
                "sae_pwe=2",
            ]
        }
        return header + lines.joined(separator: "\n") + "\n"
    }

    /// dnsmasq.conf: addresses for phones on the interface only, the booth as their router and
    /// name server, the captive portal's API (RFC 8910, option 114), and every name, on any
    /// domain, answered with the booth's address. No upstream server: a name is never looked
    /// up beyond the booth.
    package var dnsmasq: String {
        let address = plan.address
        let range = address.clientRange
        let lines = [
            "interface=\(plan.interface)",
            "except-interface=lo",
            "bind-dynamic",
            "no-resolv",
            "no-hosts",
            "no-poll",
            "address=/#/\(address.address)",
            "dhcp-range=\(range.first),\(range.last),\(address.netmask),1h",
            "dhcp-option=option:router,\(address.address)",
            "dhcp-option=option:dns-server,\(address.address)",
            "dhcp-option=114,\"\(plan.captiveAPIURL)\"",
            "dhcp-authoritative",
            "dhcp-rapid-commit",
            // No ping of an address before it is offered (up to 3 s for each phone): the
            // leases are the booth's own, on a network nobody else hands out addresses on.
            "no-ping",
            "dhcp-leasefile=\(leaseFile)",
            "dhcp-lease-max=\(plan.maxClients)",
            "log-facility=-",
        ]
        return header + lines.joined(separator: "\n") + "\n"
    }

    /// The nftables table: port 80 on the hotspot leads to the gallery's port; from the hotspot
    /// the booth answers only DHCP, DNS, the gallery and ping, and nothing is forwarded to or
    /// from it (no route to the uplink, the venue's network or the internet, even where IP
    /// forwarding is on for something else). Loading it replaces the table as a whole. ICMP and
    /// ICMPv6 are by number (1, 58): their names need /etc/protocols, which a minimal system
    /// lacks (netbase).
    package var nftables: String {
        let interface = "\"\(plan.interface)\""
        return header + """
            table inet \(Self.table)
            delete table inet \(Self.table)
            table inet \(Self.table) {
                chain portal {
                    type nat hook prerouting priority dstnat; policy accept;
                    iifname \(interface) tcp dport 80 redirect to :\(plan.webPort)
                }
                chain guests_in {
                    type filter hook input priority filter - 10; policy accept;
                    iifname \(interface) ct state established,related accept
                    iifname \(interface) udp dport { 53, 67 } accept
                    iifname \(interface) tcp dport { 53, \(plan.webPort) } accept
                    iifname \(interface) meta l4proto { 1, 58 } accept
                    iifname \(interface) counter drop
                }
                chain guests_through {
                    type filter hook forward priority filter - 10; policy accept;
                    iifname \(interface) counter drop
                    oifname \(interface) counter drop
                }
            }

            """
    }
}
