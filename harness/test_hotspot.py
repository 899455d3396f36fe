"""The booth's own Wi-Fi, for real: the installed package on a small Debian booted in QEMU
(harness/appliance.py, as the boot test does) with the kernel's mac80211_hwsim, three virtual
radios on one virtual air. The booth's access point runs on wlan0; each phone is a radio moved
into a network namespace of its own, with wpa_supplicant, a DHCP client (busybox udhcpc) and
curl. The venue's network is a veth pair to another namespace, with a web server on it.

Two boots of one disk, one test per check, in order:

  boot 1  test_nothing_runs_when_off: the package installed, its shipped configuration
          (hotspot.enabled: false): the hotspot's units are inactive, no hostapd, no dnsmasq,
          no rules, no address; then the operator's edits (hotspot on) and a power-off.
  boot 2  test_access_point, test_phone_joins_from_the_screen (the phone reads the join code
          off the booth's screendump with zbarimg, joins, is sent to "Just taken" by its
          connectivity check, and downloads the photo), test_phones_cannot_reach_each_other,
          test_no_way_to_the_venue_network, test_no_admin_on_the_hotspot.

    harness/run -k hotspot --deb PATH                   (as root)

Figures (association to the photo downloaded; the hotspot's processes' memory and CPU) are
printed and kept in <out>/test_hotspot/figures.txt.
"""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from harness.appliance import (LIBRARY, OPERATOR_EDITS, UUID, Image, Machine, edit_config, fresh_folder,
                               install_package, unavailable)

pytestmark = [pytest.mark.vm, pytest.mark.root]

# What an operator installs beside the package for the hotspot (its Recommends:), the kernel's
# regulatory database, and the phones' and the venue's tools.
HOTSPOT_PACKAGES = ["hostapd", "dnsmasq-base", "iw", "nftables", "iproute2", "wireless-regdb",
                    "wpasupplicant", "udhcpc", "curl", "busybox"]
# The radios, there from boot as a Pi's own radio is: wlan0 the booth's, wlan1 to wlan20 the
# phones' (twenty phones download while the booth takes photos).
PHONES = 20
HOTSPOT_FILES = {
    "/etc/modules-load.d/photobooth-vm-hwsim.conf": "# Test image only: virtual Wi-Fi radios.\nmac80211_hwsim\n",
    "/etc/modprobe.d/photobooth-vm-hwsim.conf": f"options mac80211_hwsim radios={PHONES + 1}\n",
}
PASSPHRASE = "say-cheese-2026"
ADMIN_TOKEN = "vm-admin-token-0123456789"
HOTSPOT_EDITS = {
    ("hotspot", "enabled"): "true",
    ("hotspot", "passphrase"): PASSPHRASE,
    ("hotspot", "country"): "DE",
    ("http", "admin_token"): ADMIN_TOKEN,
}
BOOTH = "10.42.0.1"
# The venue's network, behind the booth's uplink.
UPLINK, VENUE = "192.168.77.1", "192.168.77.2"


class Run:
    """The module's disk, the boot running now, and what the checks found so far."""

    def __init__(self, image: Image):
        self.image = image
        self.machine: Machine | None = None
        self.label: str | None = None
        self.passed: set[str] = set()
        self.photo: dict | None = None
        self.phones: dict[str, str] = {}        # phone name -> its address on the hotspot
        self.join: dict[str, str] = {}          # the join code's fields, as read off the screen

    def need(self, *checks: str) -> None:
        missing = [c for c in checks if c not in self.passed]
        if missing:
            pytest.skip(f"needs {', '.join(missing)}, which did not pass")

    def boot(self, label: str) -> Machine:
        self.close()
        self.label = label
        self.machine = self.image.boot(label)
        return self.machine

    def current(self, label: str) -> Machine:
        if self.label != label or self.machine is None:
            pytest.skip(f"the boot '{label}' is not running (an earlier check failed)")
        if not self.machine.alive():
            pytest.fail(f"the boot '{label}' stopped: {self.machine.console_tail(10)}", pytrace=False)
        return self.machine

    def close(self) -> None:
        if self.machine:
            self.machine.save_journal("journal")
            self.machine.shutdown()
            self.machine.kill()
            self.machine = None


@pytest.fixture(scope="module")
def run(deb, artifacts):
    if reason := unavailable():
        pytest.skip(reason)
    missing = [tool for tool in ["zbarimg", "exiftool"] if not shutil.which(tool)]
    if missing:
        pytest.skip(f"missing {', '.join(missing)} on the host: install zbar-tools and libimage-exiftool-perl")
    home = fresh_folder(artifacts / "test_hotspot")
    image = Image(deb, home, extra_packages=HOTSPOT_PACKAGES, extra_files=HOTSPOT_FILES, label="hotspot")
    state = Run(image)
    yield state
    state.close()
    image.remove_disk()
    (home / "figures.txt").write_text("\n".join(image.figures) + "\n")
    print("\n".join(image.figures))


def unit_state(m: Machine, unit: str) -> dict[str, str]:
    return m.unit("ActiveState", "SubState", "Result", "ExecMainPID", "NRestarts", name=unit)


def hotspot_processes(m: Machine) -> str:
    return m.sh("pgrep -a -x hostapd; pgrep -a -x dnsmasq")[1].strip()


# -- boot 1 --------------------------------------------------------------------------------------

def test_nothing_runs_when_off(run, out):
    """With the shipped configuration (hotspot.enabled: false) the hotspot's units are enabled
    and stay inactive: no hostapd, no dnsmasq, no nftables table, no address on the radio."""
    m = run.boot("install")
    print("; ".join(install_package(m, run.image.deb)))
    m.sh("udevadm settle --timeout=60", timeout=90)
    assert m.sh("systemctl is-enabled photobooth-hotspot.service")[1].strip() == "enabled"
    # The install started it; its condition kept it from running.
    started = m.sh("systemctl start photobooth-hotspot.service")
    state = unit_state(m, "photobooth-hotspot.service")
    dns = unit_state(m, "photobooth-hotspot-dns.service")
    (out / "units-when-off.txt").write_text(f"start: {started}\n{state}\n{dns}\n" + m.sh("systemctl status photobooth-hotspot 2>&1")[1])
    assert state["ActiveState"] == "inactive", f"photobooth-hotspot.service: {state}"
    assert dns["ActiveState"] == "inactive", f"photobooth-hotspot-dns.service: {dns}"
    assert not hotspot_processes(m), f"hotspot processes run: {hotspot_processes(m)}"
    status, tables = m.sh("nft list tables")
    assert "photobooth_hotspot" not in tables, f"nft list tables: {tables}"
    assert BOOTH not in m.sh_ok("ip -brief address show dev wlan0"), "the radio has the hotspot's address"
    # The operator turns it on.
    installed = m.share / "photobooth.yaml.installed"
    m.sh_ok(f"cp /etc/photobooth/photobooth.yaml /share/{installed.name}")
    config = edit_config(installed.read_text(), {**OPERATOR_EDITS, **HOTSPOT_EDITS, ("shutter", "chip"): m.gpio["chip"]})
    (m.share / "photobooth.yaml").write_text(config)
    m.sh_ok("cat /share/photobooth.yaml > /etc/photobooth/photobooth.yaml")
    (out / "photobooth.yaml").write_text(config)
    run.passed.add("off")
    run.close()


# -- boot 2 --------------------------------------------------------------------------------------

def test_access_point(run, out):
    """After a reboot with hotspot.enabled, hostapd runs an access point on wlan0 with the
    booth's address, dnsmasq serves it, the nftables table is loaded, and the booth is ready."""
    run.need("off")
    m = run.boot("hotspot")
    m.attach_gpio()
    m.ready(timeout=300)
    m.sh_ok("i=0; until systemctl -q is-active photobooth-hotspot-dns.service && "
            "iw dev wlan0 info | grep -q 'type AP'; do [ $i -ge 600 ] && exit 1; sleep 0.2; i=$((i+1)); done",
            timeout=180)
    info = m.sh_ok("iw dev wlan0 info; ip -brief address show dev wlan0; nft list table inet photobooth_hotspot")
    (out / "access-point.txt").write_text(info)
    assert "type AP" in info and f"{BOOTH}/24" in info, info
    assert "redirect to :8080" in info, info
    for unit in ["photobooth-hotspot.service", "photobooth-hotspot-dns.service"]:
        state = unit_state(m, unit)
        assert state["ActiveState"] == "active", f"{unit}: {state}"
    print(hotspot_processes(m))
    # doctor's hotspot lines (its other checks find the devices held by the running booth).
    _, doctor = m.sh("photobooth doctor 2>&1 | grep -i hotspot", timeout=180)
    (out / "doctor.txt").write_text(doctor)
    for part in ["hotspot programs", "hotspot radio", "hotspot"]:
        assert re.search(rf"^PASS {part}:", doctor, re.M), f"doctor's {part} check:\n{doctor}"
    assert "supports" in doctor and "AP" in doctor, doctor
    # The booth reads hostapd's state every 5 s.
    status = m.sh_ok("i=0; until curl -s -m 20 http://127.0.0.1:8080/api/status | grep -q '\"state\":\"ENABLED\"'; do "
                     "[ $i -ge 60 ] && break; sleep 0.5; i=$((i+1)); done; curl -s -m 20 http://127.0.0.1:8080/api/status", timeout=90)
    (out / "status.json").write_text(status)
    assert '"hotspot":{' in status.replace(" ", "") and '"state":"ENABLED"' in status.replace(" ", ""), status
    run.passed.add("access-point")


def scan(path: Path) -> list[str]:
    """The texts of the QR codes zbarimg finds in a picture."""
    result = subprocess.run(["zbarimg", "--quiet", "--raw", str(path)], capture_output=True, text=True)
    return [line for line in result.stdout.splitlines() if line]


def parse_join(code: str) -> dict[str, str]:
    """The fields of a `WIFI:T:WPA;S:name;P:secret;;` code, unescaped."""
    assert code.startswith("WIFI:"), code
    fields, key, value, escaped = {}, "", "", False
    body = code[len("WIFI:"):]
    reading_key = True
    for ch in body:
        if escaped:
            value += ch
            escaped = False
        elif ch == "\\":
            escaped = True
        elif reading_key and ch == ":":
            reading_key = False
        elif ch == ";":
            if key:
                fields[key] = value
            key, value, reading_key = "", "", True
        elif reading_key:
            key += ch
        else:
            value += ch
    return fields


def saved_screen_codes(m: Machine, out: Path, timeout: float = 30) -> tuple[dict[str, str], str]:
    """The join code's fields and the photo's address, read off the booth's screen."""
    deadline = time.monotonic() + timeout
    n = 0
    while time.monotonic() < deadline:
        n += 1
        shot = m.screendump(out / f"saved-screen-{n}.png")
        codes = scan(shot)
        joins = [c for c in codes if c.startswith("WIFI:")]
        pages = [c for c in codes if c.startswith("http://")]
        if joins and pages:
            shutil.copy(shot, out / "saved-screen.png")
            return parse_join(joins[0]), pages[0]
        time.sleep(0.3)
    raise AssertionError(f"no join code and photo code on the booth's screen within {timeout} s (screendumps in {out})")


def phone_join(m: Machine, phone: str, radio: str, ssid: str, passphrase: str) -> dict[str, float]:
    """Moves `radio` into the namespace `phone`, joins the network, gets an address; returns the
    guest clock's times of each step."""
    phy = m.sh_ok(f"cat /sys/class/net/{radio}/phy80211/name").strip()
    conf = (f"ctrl_interface=/run/wpa_supplicant-{phone}\nnetwork={{\n ssid=\"{ssid}\"\n"
            f" psk=\"{passphrase}\"\n key_mgmt=WPA-PSK\n scan_freq=2437\n}}\n")
    (m.share / f"{phone}.conf").write_text(conf)
    m.sh_ok(f"ip netns add {phone} && mkdir -p /etc/netns/{phone} && : > /etc/netns/{phone}/resolv.conf && "
            f"iw phy {phy} set netns name {phone} && ip netns exec {phone} ip link set lo up")
    script = (
        "t0=$(date +%s.%N); "
        f"ip netns exec {phone} wpa_supplicant -B -D nl80211 -i {radio} -c /share/{phone}.conf >/share/{phone}-wpa.log 2>&1; "
        f"i=0; until ip netns exec {phone} wpa_cli -p /run/wpa_supplicant-{phone} -i {radio} status | grep -q wpa_state=COMPLETED; "
        "do [ $i -ge 600 ] && exit 3; usleep 50000; i=$((i+1)); done; t1=$(date +%s.%N); "
        f"ip netns exec {phone} udhcpc -i {radio} -n -q -t 20 -T 1 -s /etc/udhcpc/default.script >/share/{phone}-dhcp.log 2>&1 || exit 4; "
        "t2=$(date +%s.%N); echo \"times $t0 $t1 $t2\"")
    output = m.sh_ok(script, timeout=120)
    t0, t1, t2 = (float(x) for x in re.search(r"times (\S+) (\S+) (\S+)", output).groups())
    return {"start": t0, "associated": t1, "address": t2}


def in_phone(m: Machine, phone: str, cmd: str, timeout: float = 60) -> tuple[int, str]:
    return m.sh(f"ip netns exec {phone} {cmd}", timeout=timeout)


def test_phone_joins_from_the_screen(run, out):
    """A photo is taken; the phone reads the join code off the booth's screen, joins with it,
    gets an address, is sent to "Just taken" by its connectivity check, and downloads the photo,
    whose bytes and name are the booth's. Then: every name resolves to the booth, and the
    checks of Android, Apple, Windows and Firefox and the RFC 8908 API get their answers."""
    run.need("access-point")
    m = run.current("hotspot")
    start, _ = m.begin_photo()
    photo_id = m.name_photo("Alice", start)
    join, page = saved_screen_codes(m, out)
    print(f"join code {join['T']} {join['S']!r}; photo {page}")
    assert join["T"] == "WPA" and join["P"] == PASSPHRASE, join
    assert page == f"http://{BOOTH}/photos/{photo_id}" or page.startswith(f"http://{BOOTH}/photos/{photo_id}?key="), page
    # The booth back on its main screen, so that the next photo's press begins a photo.
    m.booth_wait(r"saved -> idle", after=start)

    # What a phone does: join, get an address, check for a captive portal, open it, tap the photo.
    times = phone_join(m, "phone1", "wlan1", join["S"], join["P"])
    script = (
        "curl -s -L -m 20 -o /share/just-taken.html http://connectivitycheck.gstatic.com/generate_204 && "
        f"curl -s -m 20 -o /share/phone-photo.jpg http://{BOOTH}/photos/{photo_id}.jpg && "
        "echo \"done $(date +%s.%N)\"")
    output = m.sh_ok(f"ip netns exec phone1 sh -c {shlex.quote(script)}", timeout=90)
    downloaded = float(re.search(r"done (\S+)", output).group(1))
    run.image.figure(
        f"phone on the hotspot: associated {times['associated'] - times['start']:.2f} s after wpa_supplicant started; "
        f"from association: address {times['address'] - times['associated']:.2f} s, the photo downloaded through the "
        f"captive portal {downloaded - times['associated']:.2f} s (guest clock, TCG; goal 5 s)")
    html = (m.share / "just-taken.html").read_text()
    assert f'id="p-{photo_id}"' in html and "Just taken" in html, "the photo is not on the portal's page"
    first = re.search(rf'id="p-({UUID})"', html)
    assert first and first.group(1) == photo_id, "the photo just taken is not the first on the page"
    # The same bytes as the booth hands out on its own address, and the name typed.
    m.sh_ok(f"curl -s -m 20 -o /share/booth-photo.jpg http://127.0.0.1:8080/photos/{photo_id}.jpg")
    phone_bytes, booth_bytes = (m.share / "phone-photo.jpg").read_bytes(), (m.share / "booth-photo.jpg").read_bytes()
    assert phone_bytes and phone_bytes == booth_bytes, "the phone's download differs from the booth's"
    title = subprocess.run(["exiftool", "-s3", "-XMP-dc:Title", str(m.share / "phone-photo.jpg")],
                           capture_output=True, text=True).stdout.strip()
    assert title == "Alice", f"the downloaded photo's title is {title!r}"
    shutil.copy(m.share / "phone-photo.jpg", out / "phone-photo.jpg")
    shutil.copy(m.share / "just-taken.html", out / "just-taken.html")

    address = m.sh_ok("ip netns exec phone1 ip -4 -brief address show dev wlan1")
    found = re.search(r"(10\.42\.0\.\d+)/24", address)
    assert found, f"the phone got no address on the hotspot: {address}"
    run.phones["phone1"] = found.group(1)
    # Every name is the booth.
    for name in ["example.com", "connectivitycheck.gstatic.com", "captive.apple.com"]:
        # (busybox's nslookup also asks for IPv6 addresses, which the booth does not have.)
        status, answer = in_phone(m, "phone1", f"busybox nslookup {name} {BOOTH}")
        assert re.search(rf"Name:\s*{re.escape(name)}\s+Address:\s*{re.escape(BOOTH)}\b", answer), f"{name}: {answer}"
    # The connectivity checks of Android, Apple, Windows and Firefox: redirected, never 204.
    probes = {}
    for url in ["http://connectivitycheck.gstatic.com/generate_204", "http://captive.apple.com/hotspot-detect.html",
                "http://www.msftconnecttest.com/connecttest.txt", "http://detectportal.firefox.com/canonical.html"]:
        status, answer = in_phone(m, "phone1", f"curl -s -o /dev/null -m 10 -w '%{{http_code}} %{{redirect_url}}' {url}")
        probes[url] = answer.strip()
        assert answer.strip() == f"302 http://{BOOTH}/just-taken", f"{url}: {answer}"
    (out / "probes.txt").write_text("\n".join(f"{k} -> {v}" for k, v in probes.items()) + "\n")
    status, api = in_phone(m, "phone1", f"curl -s -m 10 -H 'Accept: application/captive+json' http://{BOOTH}/captive-portal/api")
    assert '"captive":true' in api.replace(" ", "") and f"http://{BOOTH}/just-taken" in api, api
    run.photo = {"id": photo_id}
    run.join = join
    run.passed.add("phone")


def test_phones_cannot_reach_each_other(run):
    """A second phone joins; it reaches the booth, not the first phone (AP isolation)."""
    run.need("phone")
    m = run.current("hotspot")
    phone_join(m, "phone2", "wlan2", run.join["S"], run.join["P"])
    first = run.phones["phone1"]
    m.spawn(f"ip netns exec phone1 busybox httpd -f -p 8000 -h /tmp", "phone1-httpd.log")
    # The first phone serves on its own address (checked from itself), and the booth answers the second.
    assert in_phone(m, "phone1", f"curl -s -m 5 -o /dev/null -w '%{{http_code}}' http://{first}:8000/")[1].strip() == "404"
    assert in_phone(m, "phone2", f"curl -s -m 10 -o /dev/null -w '%{{http_code}}' http://{BOOTH}/healthz")[1].strip() == "200"
    status, answer = in_phone(m, "phone2", f"curl -s -m 5 -o /dev/null -w '%{{http_code}}' http://{first}:8000/")
    assert status != 0 and answer.strip() in ("000", ""), f"the second phone reached the first: {status} {answer}"
    status, answer = in_phone(m, "phone2", f"busybox ping -c 2 -W 2 {first}")
    assert status != 0, f"the second phone pings the first: {answer}"


def test_no_way_to_the_venue_network(run):
    """The booth reaches the venue's network (an uplink, with IP forwarding on, the worst
    case); a phone on the hotspot does not, nor the booth's other services."""
    run.need("phone")
    m = run.current("hotspot")
    m.sh_ok(f"ip netns add venue && ip link add uplink0 type veth peer name venue0 && ip link set venue0 netns venue && "
            f"ip address add {UPLINK}/24 dev uplink0 && ip link set uplink0 up && "
            f"ip netns exec venue ip address add {VENUE}/24 dev venue0 && ip netns exec venue ip link set venue0 up && "
            f"ip netns exec venue ip link set lo up && ip netns exec venue ip route add default via {UPLINK} && "
            "sysctl -q -w net.ipv4.ip_forward=1 && mkdir -p /tmp/venue && echo venue > /tmp/venue/index.html")
    for port in [80, 8000]:
        m.spawn(f"ip netns exec venue busybox httpd -f -p {port} -h /tmp/venue", f"venue-httpd-{port}.log")
        assert m.sh_ok(f"curl -s -m 10 http://{VENUE}:{port}/").strip() == "venue", "the booth does not reach the venue's server"
    status, answer = in_phone(m, "phone1", f"curl -s -m 5 -o /dev/null -w '%{{http_code}}' http://{VENUE}:8000/")
    assert status != 0, f"the phone reached the venue's network: {answer}"
    # Port 80 anywhere is the booth's gallery (that is how a phone finds the portal), not the venue's server.
    status, answer = in_phone(m, "phone1", f"curl -s -m 10 http://{VENUE}/")
    assert "venue" != answer.strip() and "<html" in answer.lower(), f"the phone's port 80 to the venue got: {answer[:200]}"
    # Nor the booth's other services, on any of its addresses: a server on the booth itself
    # (standing for ssh, CUPS...) answers the booth, not the phone.
    m.spawn("busybox httpd -f -p 9000 -h /tmp/venue", "booth-httpd.log")
    assert m.sh_ok("curl -s -m 10 http://127.0.0.1:9000/").strip() == "venue", "the booth's own server does not answer"
    for address in [BOOTH, UPLINK]:
        status, answer = in_phone(m, "phone1", f"curl -s -m 5 -o /dev/null -w '%{{http_code}}' http://{address}:9000/")
        assert status != 0, f"the phone reached the booth's port 9000 at {address}: {answer}"


def test_no_admin_on_the_hotspot(run):
    """The admin page and API answer 404 to a phone on the hotspot, token or not; the operator
    on the booth itself gets them."""
    run.need("phone")
    m = run.current("hotspot")
    auth = f"-H 'Authorization: Bearer {ADMIN_TOKEN}'"
    for path, method in [("/admin", "GET"), ("/api/duplicates", "GET"), (f"/api/photos/{run.photo['id']}/hide", "POST"),
                         ("/metrics", "GET")]:
        status, answer = in_phone(m, "phone1", f"curl -s -m 10 -o /dev/null -w '%{{http_code}}' -X {method} {auth} http://{BOOTH}{path}")
        assert answer.strip() == "404", f"{method} {path} from the phone: {answer}"
    answer = m.sh_ok(f"curl -s -m 10 -o /dev/null -w '%{{http_code}}' {auth} http://127.0.0.1:8080/api/duplicates")
    assert answer.strip() == "200", f"the operator's own request: {answer}"
    assert m.photos()[0]["id"] == run.photo["id"], "the photo is still visible"
    # What the hotspot's own processes cost.
    usage = m.sh_ok("for p in $(pgrep -x hostapd) $(pgrep -x dnsmasq); do "
                    "echo \"$(cat /proc/$p/comm) rss_kb=$(awk '/VmRSS/{print $2}' /proc/$p/status) "
                    "cpu_ticks=$(awk '{print $14+$15}' /proc/$p/stat) since_boot_ticks=$(awk '{print $22}' /proc/$p/stat)\"; done; "
                    "getconf CLK_TCK; cat /proc/uptime")
    run.image.figure("hotspot processes: " + " | ".join(line for line in usage.splitlines() if "rss_kb" in line)
                     + f" (CLK_TCK {usage.splitlines()[-2]}; uptime {usage.splitlines()[-1].split()[0]} s)")


def save_seconds(m: Machine) -> tuple[float, int]:
    """The booth's save-duration histogram's sum and count, from /metrics on the booth itself."""
    text = m.sh_ok("curl -s -m 20 http://127.0.0.1:8080/metrics")
    total = float(re.search(r"^photobooth_save_duration_seconds_sum (\S+)$", text, re.M).group(1))
    count = int(re.search(r"^photobooth_save_duration_seconds_count (\S+)$", text, re.M).group(1))
    return total, count


def take_photos(m: Machine, names: list[str]) -> float:
    """Takes a photo for each name; returns the mean time the booth took to save one (its
    chosen frame to the catalog's commit), from its own histogram."""
    before = save_seconds(m)
    for name in names:
        m.take_photo(name)
    after = save_seconds(m)
    return (after[0] - before[0]) / max(1, after[1] - before[1])


def test_capture_while_phones_download(run, out):
    """The booth's saves with twenty phones downloading photos over and over, against the same
    saves idle. A figure, not a check: emulated radios and a CPU emulated on two shared cores
    are no Pi, and the phones' own processes share the guest's two CPUs with the booth (at nice
    19); it says how much the phones' load reaches the capture path."""
    run.need("phone")
    m = run.current("hotspot")
    idle = take_photos(m, ["Idle 1", "Idle 2", "Idle 3"])
    joined = ["phone1", "phone2"] if "phone2" in {p for p in m.sh("ip netns list")[1].split()} else ["phone1"]
    for number in range(len(joined) + 1, PHONES + 1):
        phone_join(m, f"phone{number}", f"wlan{number}", run.join["S"], run.join["P"])
        joined.append(f"phone{number}")
    photo = run.photo["id"]
    # The phones' own work (curl, its processes) runs at nice 19 in this guest: on the day it
    # runs on the phones, and only what it asks of the booth should compete with the capture.
    for phone in joined:
        m.spawn(f"nice -n 19 ip netns exec {phone} sh -c 'while :; do curl -s -o /dev/null -m 30 http://{BOOTH}/photos/{photo}.jpg "
                f"-w \"%{{http_code}}\\n\"; done'", f"{phone}-downloads.log")
    time.sleep(5)
    try:
        busy = take_photos(m, ["Busy 1", "Busy 2", "Busy 3"])
    finally:
        m.sh("pkill -f 'while :; do curl' ; pkill -x curl", timeout=30)
    codes: dict[str, int] = {}
    for phone in joined:
        for code in m.read_log(f"{phone}-downloads.log").split():
            codes[code] = codes.get(code, 0) + 1
    run.image.figure(
        f"save time (chosen frame to commit, the booth's histogram): idle {idle * 1000:.0f} ms, with {len(joined)} phones "
        f"downloading {busy * 1000:.0f} ms (ratio {busy / idle:.2f}); the phones' answers {codes} (guest under TCG)")
    assert codes.get("200", 0) > len(joined), f"the phones downloaded almost nothing: {codes}"
