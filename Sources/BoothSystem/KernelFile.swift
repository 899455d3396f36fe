import SystemPackage

/// The files the kernel writes as they are read (`/proc`, `/sys`). Their size reads as 0, and
/// Foundation's `String(contentsOfFile:)` returns only the first 4 KB of one: of
/// `/proc/self/maps` that is some 35 mappings of a process that has hundreds.
package enum KernelFile {
    /// The whole text of the file at `path`, read to its end. The corresponding C function is
    /// `read`.
    public static func text(at path: String) throws(Errno) -> String {
        let descriptor = try Errno.catching { try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec) }
        defer { try? descriptor.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = try Errno.catching { try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) } }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
