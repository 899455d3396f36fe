import BoothCore
import Foundation
import FuzzSupport

@testable import ConfigurationReading

// A configuration file, as the operator wrote it (deploy/photobooth.yaml is the example): its
// bytes go through the same reading as `--config`: UTF-8, YAML, every section, key and value.
// A file that is refused says so with its name and the line, and keeps the defaults.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = Data(UnsafeRawBufferPointer(start: start, count: count))
    var configuration = BoothConfiguration(dataDirectory: URL(fileURLWithPath: "/var/lib/photobooth"), simulate: true)
    do {
        try configuration.apply(contents: bytes, of: "/etc/photobooth/photobooth.yaml")
        _ = configuration.hardware.light
    } catch {
        require(
            error.description.hasPrefix("/etc/photobooth/photobooth.yaml:"),
            "a refusal that does not name the file: \(error.description.debugDescription)")
    }
    return 0
}
