import BoothCore
import Foundation
import FuzzSupport

@testable import SidecarReading
@testable import SyncReading

// What the event's bucket answers, or whatever answers at its address:
//
//   [what: 1 byte] [the answer's body]
//
//   0: a ListObjectsV2 result, whose keys are read as the booth's layout
//   1: an S3 error document
//   2: a photo's record (an XMP sidecar written by another booth, or by another tool)
//   3: the `Date` header of an answer, whose time the booth takes when its clock is off

private let layout = BucketLayout(event: "wedding", booth: "booth-1")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBucket(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let what = input.choice(4)
    let body = Data(input.rest())
    switch what {
    case 0:
        guard let page = S3Response.listing(body) else { return 0 }
        for object in page.objects {
            require(!object.key.isEmpty, "an object without a key")
            guard let parsed = layout.parse(object.key) else { continue }
            let own = layout.key(parsed.kind, of: parsed.id, booth: parsed.booth)
            let again = layout.parse(own)
            require(
                again?.booth == parsed.booth && again?.kind == parsed.kind && again?.id == parsed.id,
                "\(object.key.debugDescription) is \(parsed), but its own key \(own.debugDescription) is not")
        }
    case 1:
        if let error = S3Response.error(body), let time = error.serverTime {
            _ = try? Date(time, strategy: .iso8601)
        }
    case 3:
        _ = HTTPDateParser.date(from: String(decoding: body, as: UTF8.self))
    default:
        guard let record = PhotoSidecar(xmp: body) else { return 0 }
        // An imported record is kept as the photo's sidecar: written again, it reads the same.
        let written = record.xmp
        let reread = PhotoSidecar(xmp: written)
        require(
            reread == record,
            "a record does not read back as written:\n\(record)\n\(String(describing: reread))\n\(String(decoding: written, as: UTF8.self))")
    }
    return 0
}
