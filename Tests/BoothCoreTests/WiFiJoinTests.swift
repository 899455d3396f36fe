import BoothCore
import Testing

@Suite("Wi-Fi join code")
struct WiFiJoinTests {
    @Test("The QR code's text is the form phones' cameras read, for each security")
    func codes() throws {
        let wpa2 = try #require(WiFiJoin(name: "Booth", security: .wpa2, passphrase: "cheese-please"))
        #expect(wpa2.code == "WIFI:T:WPA;S:Booth;P:cheese-please;;")
        let both = try #require(WiFiJoin(name: "Booth", security: .wpa2wpa3, passphrase: "cheese-please"))
        #expect(both.code == "WIFI:T:WPA;S:Booth;P:cheese-please;;")
        let wpa3 = try #require(WiFiJoin(name: "Booth", security: .wpa3, passphrase: "cheese-please"))
        #expect(wpa3.code == "WIFI:T:SAE;S:Booth;P:cheese-please;;")
        let open = try #require(WiFiJoin(name: "Booth", security: .open, passphrase: "ignored"))
        #expect(open.code == "WIFI:T:nopass;S:Booth;;")
        #expect(open.passphrase.isEmpty)
    }

    @Test("Backslash, semicolon, comma, colon and quote are escaped in the name and the passphrase")
    func escaping() throws {
        let join = try #require(WiFiJoin(name: #"Zoé & Max; "Wedding""#, security: .wpa2, passphrase: #"a:b,c\d;e"#))
        #expect(join.code == #"WIFI:T:WPA;S:Zoé & Max\; \"Wedding\";P:a\:b\,c\\d\;e;;"#)
    }

    @Test("Names and passphrases no phone can join are refused with the reason")
    func refused() {
        #expect(WiFiJoin(name: "", security: .open, passphrase: "") == nil)
        #expect(WiFiJoin.problem(name: String(repeating: "é", count: 17), security: .open, passphrase: "")?.contains("34") == true)
        #expect(WiFiJoin.problem(name: "Booth", security: .wpa2, passphrase: "")?.contains("hotspot.passphrase") == true)
        #expect(WiFiJoin.problem(name: "Booth", security: .wpa2, passphrase: "short")?.contains("8 to 63") == true)
        #expect(WiFiJoin.problem(name: "Booth", security: .wpa3, passphrase: String(repeating: "x", count: 64)) != nil)
        #expect(WiFiJoin.problem(name: "Booth", security: .wpa2, passphrase: "café-café") != nil)
        #expect(WiFiJoin.problem(name: "Bo\u{7}oth", security: .open, passphrase: "") != nil)
        #expect(WiFiJoin.problem(name: "Booth", security: .wpa2, passphrase: "12345678") == nil)
    }

    @Test("Its text in a log names the network, never the passphrase")
    func logged() throws {
        let join = try #require(WiFiJoin(name: "Booth", security: .wpa2, passphrase: "cheese-please"))
        for text in ["\(join)", String(reflecting: join)] {
            #expect(text.contains("Booth") && !text.contains("cheese"), "\(text)")
        }
    }
}
