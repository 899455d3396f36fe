import CDRM

/// The properties of one KMS object (a connector, a CRTC, a plane) by the names its driver
/// gives them: what an atomic commit sets, by id.
struct KMSProperties {
    private struct Property {
        let id: UInt32
        let value: UInt64
        /// An enum property's values by name ("Primary", "ITU-R BT.601 YCbCr").
        let choices: [String: UInt64]
    }

    private let byName: [String: Property]

    /// Reads the properties of object `object` of `type` (`DRM_MODE_OBJECT_PLANE`...). The
    /// corresponding C functions are `drmModeObjectGetProperties` and `drmModeGetProperty`.
    init(card: Int32, object: UInt32, type: UInt32) {
        var byName: [String: Property] = [:]
        if let list = drmModeObjectGetProperties(card, object, type) {
            defer { drmModeFreeObjectProperties(list) }
            for index in 0..<Int(list.pointee.count_props) {
                guard let property = drmModeGetProperty(card, list.pointee.props[index]) else { continue }
                defer { drmModeFreeProperty(property) }
                var choices: [String: UInt64] = [:]
                for choice in 0..<Int(property.pointee.count_enums) {
                    let entry = property.pointee.enums[choice]
                    choices[KMSName(entry.name).text] = entry.value
                }
                byName[KMSName(property.pointee.name).text] = Property(
                    id: property.pointee.prop_id, value: list.pointee.prop_values[index], choices: choices)
            }
        }
        self.byName = byName
    }

    /// The id of property `name`; `nil` when the object has none.
    func id(_ name: String) -> UInt32? { byName[name]?.id }

    /// The value property `name` had when read.
    func value(_ name: String) -> UInt64? { byName[name]?.value }

    /// The value that stands for `choice` in enum property `name` ("type", "Primary").
    func value(of choice: String, in name: String) -> UInt64? { byName[name]?.choices[choice] }
}

/// A name the kernel gives in a fixed array of C characters (a property's, a mode's), as text.
struct KMSName {
    let text: String

    init<Characters>(_ characters: Characters) {
        text = withUnsafeBytes(of: characters) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
