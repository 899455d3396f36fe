import CDRM
import Foundation
import Glibc

/// What drives one display on a KMS card: a connected connector, its mode, the CRTC that scans
/// out, and the planes the booth draws on, found once when the display opens.
struct KMSPipeline {
    /// A plane and the properties an atomic commit sets on it.
    struct Plane {
        let id: UInt32
        let formats: Set<UInt32>
        let properties: KMSProperties
    }

    let connector: UInt32
    /// The connector's name as the kernel calls it ("HDMI-A-1", "DSI-1", "Virtual-1").
    let connectorName: String
    let crtc: UInt32
    let mode: drmModeModeInfo
    /// The plane under everything: the preview, or the whole screen when there is no overlay.
    let primary: Plane
    /// A plane above it that takes premultiplied ARGB: the booth's words and pictures over the
    /// preview. `nil`: the card has none for this CRTC, and the booth composes on the CPU.
    let overlay: Plane?
    let connectorProperties: KMSProperties
    let crtcProperties: KMSProperties
    /// The card's writeback connector that can capture this CRTC, where the booth asked for
    /// the writeback connectors (``KMSWriteback``).
    let writeback: UInt32?

    var width: Int { Int(mode.hdisplay) }
    var height: Int { Int(mode.vdisplay) }
    var refreshRate: Int { Int(mode.vrefresh) }

    /// Finds the first connected connector with a mode, a CRTC it can use, and that CRTC's
    /// planes. The corresponding C functions are `drmModeGetResources`, `drmModeGetConnector`,
    /// `drmModeGetEncoder`, `drmModeGetPlaneResources` and `drmModeGetPlane`.
    init(card: Int32, device: String) throws(DeviceError) {
        guard let resources = drmModeGetResources(card) else {
            throw DeviceError.unsupported.detailed(
                "\(device) is not a display (no KMS resources); set screen.device to the card that drives it, or to /dev/fb0.")
        }
        defer { drmModeFreeResources(resources) }
        let crtcs = Array(UnsafeBufferPointer(start: resources.pointee.crtcs, count: Int(resources.pointee.count_crtcs)))
        let connectors = UnsafeBufferPointer(start: resources.pointee.connectors, count: Int(resources.pointee.count_connectors))
        var seen: [String] = []
        for connectorID in connectors {
            guard let connector = drmModeGetConnector(card, connectorID) else { continue }
            defer { drmModeFreeConnector(connector) }
            guard connector.pointee.connector_type != DRM_MODE_CONNECTOR_WRITEBACK else { continue }
            let name = Self.name(of: connector.pointee)
            guard connector.pointee.connection == DRM_MODE_CONNECTED, connector.pointee.count_modes > 0 else {
                seen.append(name)
                continue
            }
            let modes = UnsafeBufferPointer(start: connector.pointee.modes, count: Int(connector.pointee.count_modes))
            let mode = modes.first { $0.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 } ?? modes[0]
            guard let crtcIndex = Self.crtcIndex(card: card, connector: connector.pointee, crtcs: crtcs) else {
                throw DeviceError.unsupported.detailed("\(device): no CRTC can drive \(name).")
            }
            connectorName = name
            self.connector = connectorID
            crtc = crtcs[crtcIndex]
            self.mode = mode
            (primary, overlay) = try Self.planes(card: card, device: device, crtcIndex: crtcIndex)
            connectorProperties = KMSProperties(card: card, object: connectorID, type: DRM_MODE_OBJECT_CONNECTOR)
            crtcProperties = KMSProperties(card: card, object: crtc, type: DRM_MODE_OBJECT_CRTC)
            writeback = connectors.first { id in
                guard let candidate = drmModeGetConnector(card, id) else { return false }
                defer { drmModeFreeConnector(candidate) }
                return candidate.pointee.connector_type == DRM_MODE_CONNECTOR_WRITEBACK
                    && Self.encoders(card: card, of: candidate.pointee).contains { $0 & (1 << UInt32(crtcIndex)) != 0 }
            }
            return
        }
        // No display connected: like a framebuffer that has no node yet, wait for one.
        throw DeviceError.disconnected.detailed(
            "\(device): no display is connected\(seen.isEmpty ? "" : " (\(seen.joined(separator: ", ")) disconnected)").")
    }

    /// Whether the connector still has a display, as the kernel last learnt it (a hot-plug
    /// event), without probing it again. The corresponding C function is
    /// `drmModeGetConnectorCurrent`.
    static func isConnected(card: Int32, connector: UInt32) -> Bool {
        guard let current = drmModeGetConnectorCurrent(card, connector) else { return false }
        defer { drmModeFreeConnector(current) }
        return current.pointee.connection == DRM_MODE_CONNECTED
    }

    /// "HDMI-A-1": the connector's type and its number among those of that type.
    private static func name(of connector: drmModeConnector) -> String {
        let type = drmModeGetConnectorTypeName(connector.connector_type).map { String(cString: $0) } ?? "Unknown"
        return "\(type)-\(connector.connector_type_id)"
    }

    /// The index of the CRTC to drive `connector` with: the one already driving it, else the
    /// first its encoders can use.
    private static func crtcIndex(card: Int32, connector: drmModeConnector, crtcs: [UInt32]) -> Int? {
        if connector.encoder_id != 0, let encoder = drmModeGetEncoder(card, connector.encoder_id) {
            defer { drmModeFreeEncoder(encoder) }
            if let index = crtcs.firstIndex(of: encoder.pointee.crtc_id) { return index }
        }
        for possible in encoders(card: card, of: connector) {
            if let index = crtcs.indices.first(where: { possible & (1 << UInt32($0)) != 0 }) { return index }
        }
        return nil
    }

    /// The CRTCs each of `connector`'s encoders can use, as bit masks of CRTC indices.
    private static func encoders(card: Int32, of connector: drmModeConnector) -> [UInt32] {
        UnsafeBufferPointer(start: connector.encoders, count: Int(connector.count_encoders)).compactMap { id in
            guard let encoder = drmModeGetEncoder(card, id) else { return nil }
            defer { drmModeFreeEncoder(encoder) }
            return encoder.pointee.possible_crtcs
        }
    }

    /// The CRTC's primary plane and the first overlay plane that takes ARGB8888.
    private static func planes(card: Int32, device: String, crtcIndex: Int) throws(DeviceError) -> (Plane, Plane?) {
        guard let resources = drmModeGetPlaneResources(card) else {
            throw DeviceError.systemCall("drmModeGetPlaneResources", on: device, errno: errno)
        }
        defer { drmModeFreePlaneResources(resources) }
        var primary: Plane?
        var overlay: Plane?
        for planeID in UnsafeBufferPointer(start: resources.pointee.planes, count: Int(resources.pointee.count_planes)) {
            guard let plane = drmModeGetPlane(card, planeID) else { continue }
            defer { drmModeFreePlane(plane) }
            guard plane.pointee.possible_crtcs & (1 << UInt32(crtcIndex)) != 0 else { continue }
            let properties = KMSProperties(card: card, object: planeID, type: DRM_MODE_OBJECT_PLANE)
            let formats = Set(UnsafeBufferPointer(start: plane.pointee.formats, count: Int(plane.pointee.count_formats)))
            let found = Plane(id: planeID, formats: formats, properties: properties)
            switch properties.value("type") {
            case properties.value(of: "Primary", in: "type") where primary == nil:
                primary = found
            case properties.value(of: "Overlay", in: "type") where overlay == nil && formats.contains(CDRM_FORMAT_ARGB8888):
                overlay = found
            default:
                continue
            }
        }
        guard let primary, primary.formats.contains(CDRM_FORMAT_XRGB8888) else {
            throw DeviceError.unsupported.detailed("\(device): the display's primary plane does not take XRGB8888 pixels.")
        }
        return (primary, overlay)
    }
}

extension KMSPipeline {
    /// What the display offers the booth, for `photobooth doctor`: "HDMI-A-1 1920x1080 at 60 Hz;
    /// primary plane takes YUV420, YUV422; overlay plane above it".
    var description: String {
        let yuv = [KMSPixelFormat.yuv420, .yuv422, .yuv444].filter { primary.formats.contains($0.fourcc) }
        return "\(connectorName) \(width)x\(height) at \(refreshRate) Hz; "
            + (yuv.isEmpty
                ? "the preview plane takes RGB only (the booth fits the preview itself)"
                : "the preview plane takes \(yuv.map(\.description).joined(separator: ", "))")
            + (overlay == nil ? "; no overlay plane (the booth composes the screen)" : "; an overlay plane above it for the words")
    }
}

extension KMSDisplay {
    /// What to check when a card's node is missing.
    static let missingAdvice = "Is the display's driver loaded (vc4-kms-v3d on a Raspberry Pi)?"

    /// Describes the display `device` drives, setting nothing (the booth may be drawing on
    /// it): for `photobooth doctor`.
    package static func inspect(device: String) throws(DeviceError) -> String {
        let descriptor = try DisplayNode.open(device, missing: missingAdvice)
        defer { try? descriptor.close() }
        let card = descriptor.rawValue
        guard drmSetClientCap(card, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) == 0,
            drmSetClientCap(card, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0
        else {
            throw DeviceError.unsupported.detailed(
                "\(device): the driver has no atomic modesetting; set screen.device to /dev/fb0 to draw on its framebuffer.")
        }
        return "\(device): " + (try KMSPipeline(card: card, device: device)).description
    }

    /// The KMS card `auto` draws on: the first in `folder` with a display connected, else the
    /// first that drives displays at all (the booth waits for one there); `nil` when no card
    /// drives displays (a render-only GPU such as the Pi's v3d does not), and then the booth
    /// draws on the framebuffer.
    package static func findCard(in folder: String = "/dev/dri") -> String? {
        let cards = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix("card") }
            .sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }
            .map { "\(folder)/\($0)" }
        var drivesDisplays: String?
        for card in cards {
            let descriptor = open(card, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            guard let resources = drmModeGetResources(descriptor) else { continue }
            defer { drmModeFreeResources(resources) }
            let connectors = UnsafeBufferPointer(start: resources.pointee.connectors, count: Int(resources.pointee.count_connectors))
            guard !connectors.isEmpty else { continue }
            drivesDisplays = drivesDisplays ?? card
            let connected = connectors.contains { id in
                guard let connector = drmModeGetConnector(descriptor, id) else { return false }
                defer { drmModeFreeConnector(connector) }
                return connector.pointee.connection == DRM_MODE_CONNECTED
            }
            if connected { return card }
        }
        return drivesDisplays
    }
}
