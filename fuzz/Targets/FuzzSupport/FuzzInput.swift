/// A fuzzer's input, read from the front: the few numbers a target needs to choose what to do
/// (an encoding, a size, a time), then the rest as the bytes under test. Reading past the end
/// gives zeros, so that every input, however short, is a valid one.
public struct FuzzInput {
    private var bytes: ArraySlice<UInt8>

    /// The input libFuzzer hands to `LLVMFuzzerTestOneInput`.
    public init(_ start: UnsafeRawPointer?, _ count: Int) {
        bytes = ArraySlice(UnsafeRawBufferPointer(start: start, count: count))
    }

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes[...]
    }

    /// Whether every byte has been read.
    public var isEmpty: Bool { bytes.isEmpty }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        bytes.popFirst() ?? 0
    }

    /// The next two bytes, big-endian.
    public mutating func uint16() -> UInt16 {
        UInt16(byte()) << 8 | UInt16(byte())
    }

    /// The next four bytes, big-endian.
    public mutating func uint32() -> UInt32 {
        UInt32(uint16()) << 16 | UInt32(uint16())
    }

    /// A choice among `count` cases, from the next byte.
    public mutating func choice(_ count: Int) -> Int {
        Int(byte()) % count
    }

    /// The next `count` bytes, or as many as are left.
    public mutating func take(_ count: Int) -> [UInt8] {
        let taken = bytes.prefix(count)
        bytes = bytes.dropFirst(count)
        return Array(taken)
    }

    /// Every byte not read yet.
    public mutating func rest() -> [UInt8] {
        defer { bytes = [] }
        return Array(bytes)
    }
}

/// Stops the run with `message` when `condition` is false: a broken promise of the code under
/// test (a repaired JPEG that does not parse, a record that does not read back) is a crash
/// for libFuzzer, which keeps the input.
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("broken promise: \(message())") }
}
