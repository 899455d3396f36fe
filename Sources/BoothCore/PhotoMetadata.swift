import Foundation

/// The camera a photo was taken with, as the booth could tell: the model from the V4L2 card
/// name, the make from the USB device's manufacturer string where it has one.
public struct CameraModel: Sendable, Hashable {
    public var make: String?
    public var model: String

    public init(make: String?, model: String) {
        self.make = make
        self.model = model
    }
}

/// What every copy of a photo that leaves the booth says about itself (web download, export,
/// the event's bucket): its name and when it was taken, in a form that photo tools read.
public struct PhotoMetadata: Sendable, Hashable {
    public var id: UUID
    /// The name exactly as the guest typed it.
    package var title: String
    /// When the shot was exposed.
    public var createdAt: Date
    /// The booth's offset from UTC at `createdAt`, in seconds: the time is written as the booth's
    /// local time, with this offset beside it.
    package var utcOffsetSeconds: Int
    public var camera: CameraModel?
    /// The program and its version, for EXIF `Software`.
    package var software: String
    /// The booth that took it and the event it belongs to (empty when there is none).
    package var booth: String
    package var event: String

    public init(
        id: UUID, title: String, createdAt: Date, utcOffsetSeconds: Int, camera: CameraModel?, software: String,
        booth: String, event: String
    ) {
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.camera = camera
        self.software = software
        self.booth = booth
        self.event = event
    }

    /// The creation time in the booth's local time.
    package var localTime: CivilTime { createdAt.civilTime(utcOffsetSeconds: utcOffsetSeconds) }

    /// The XMP that travels inside the JPEG: name as typed, local time with its offset, booth
    /// and event.
    package var xmp: XMPPacket {
        let time = localTime.iso8601
        var properties: [(name: String, value: String)] = [
            ("xmp:CreateDate", time), ("photoshop:DateCreated", time), ("exif:DateTimeOriginal", time),
            ("xmp:CreatorTool", software), ("photobooth:Id", id.lowercased),
            ("photobooth:Booth", booth),
        ]
        if !event.isEmpty { properties.append(("photobooth:Event", event)) }
        if let camera {
            if let make = camera.make { properties.append(("tiff:Make", make)) }
            properties.append(("tiff:Model", camera.model))
        }
        return XMPPacket(properties: properties, alternatives: [("dc:title", title), ("dc:description", title)])
    }
}

/// A moment as a wall clock at some offset from UTC shows it.
package struct CivilTime: Sendable, Hashable {
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int
    package var second: Int
    package var millisecond: Int
    package var utcOffsetSeconds: Int

    /// `+01:00`, `-05:30`, `+00:00`: the form of EXIF `OffsetTimeOriginal` and of ISO 8601.
    package var offset: String {
        let minutes = abs(utcOffsetSeconds) / 60
        return String(format: "%@%02d:%02d", utcOffsetSeconds < 0 ? "-" : "+", minutes / 60, minutes % 60)
    }

    /// `2026:11:22 08:33:00`: EXIF's form of a date and time.
    package var exif: String {
        String(format: "%04d:%02d:%02d %02d:%02d:%02d", year, month, day, hour, minute, second)
    }

    /// `2026-11-22T08:33:00.123+01:00`.
    package var iso8601: String {
        String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03d", year, month, day, hour, minute, second, millisecond) + offset
    }
}
