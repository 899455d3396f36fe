import Foundation
import Glibc
import Hummingbird
import NIOCore

/// A tagged copy of an original (``PhotoLibrary/outgoingCopy(of:event:tagger:)``) as the
/// gallery sends it: its start, which holds the spliced metadata, kept in memory, and the rest,
/// which is the original's own bytes (the image data, never rewritten), read from its file as
/// they are sent. Splicing changes only the start of a JPEG, so the rest is what the copy and
/// the original have in common at their ends.
struct OriginalParts: Sendable {
    /// The original's file.
    var path: String
    /// The copy up to where it and the original end alike.
    var head: ByteBuffer
    /// Where in the original the bytes after ``head`` begin.
    var fileOffset: Int
    /// The original's size.
    var fileSize: Int
    var etag: String
    /// The name of a download.
    var fileName: String
    /// Whether the original is an animation's GIF rather than a JPEG.
    var isAnimation: Bool

    /// The copy's size.
    var size: Int { head.readableBytes + fileSize - fileOffset }

    /// How much of the file one read takes: the most a request holds in memory at once.
    static let chunkSize = 128 * 1024

    /// The parts of `tagged`, made from `original` (the bytes of the file at `path`).
    init(tagged: Data, original: Data, path: String, etag: String, fileName: String, isAnimation: Bool = false) {
        let common = tagged.withUnsafeBytes { copy in
            original.withUnsafeBytes { file in
                let longest = min(copy.count, file.count)
                var count = 0
                while count < longest && copy[copy.count - 1 - count] == file[file.count - 1 - count] { count += 1 }
                return count
            }
        }
        self.path = path
        self.head = ByteBuffer(bytes: tagged.prefix(tagged.count - common))
        self.fileOffset = original.count - common
        self.fileSize = original.count
        self.etag = etag
        self.fileName = fileName
        self.isAnimation = isAnimation
    }

    /// The bytes `range` of the copy (within `0..<size`) as a response body: the part of the
    /// head in memory, then the part of the file, read a chunk at a time on the web's blocking
    /// threads.
    func body(_ range: ClosedRange<Int>) -> ResponseBody {
        ResponseBody(contentLength: range.count) { [self] writer in
            let headCount = head.readableBytes
            if range.lowerBound < headCount {
                let end = min(range.upperBound + 1, headCount)
                try await writer.write(head.getSlice(at: head.readerIndex + range.lowerBound, length: end - range.lowerBound)!)
            }
            if range.upperBound >= headCount {
                let start = fileOffset + max(range.lowerBound, headCount) - headCount
                try await Self.send(path, from: start, count: fileOffset + range.upperBound - headCount + 1 - start, to: &writer)
            }
            try await writer.finish(nil)
        }
    }

    /// Sends `count` bytes of the file at `path` from `offset`. Opening, reading and closing
    /// block, so they run on ``WebThreads/blocking``: the file is opened with the first chunk's
    /// read and closed with the last's, one hop to those threads per chunk.
    private static func send(_ path: String, from offset: Int, count: Int, to writer: inout any ResponseBodyWriter) async throws {
        var descriptor: Int32 = -1
        var sent = 0
        do {
            while sent < count {
                let length = min(chunkSize, count - sent)
                let (position, last, current) = (offset + sent, sent + length == count, descriptor)
                let (opened, chunk) = try await WebThreads.blocking.runIfActive { () throws -> (Int32, ByteBuffer) in
                    let file = current >= 0 ? current : open(path, O_RDONLY | O_CLOEXEC)
                    guard file >= 0 else { throw OriginalUnreadable(path: path, reason: String(cString: strerror(errno))) }
                    do {
                        let chunk = try Self.readChunk(length, at: position, of: file, path: path)
                        if last { close(file) }
                        return (file, chunk)
                    } catch {
                        if current < 0 { close(file) }
                        throw error
                    }
                }
                descriptor = last ? -1 : opened
                try await writer.write(chunk)
                sent += length
            }
        } catch {
            if descriptor >= 0 { _ = try? await WebThreads.blocking.runIfActive { [descriptor] in close(descriptor) } }
            throw error
        }
    }

    /// `length` bytes of `file` from `position`, with `pread` (which the original's size, as
    /// the parts know it, makes sure are there).
    private static func readChunk(_ length: Int, at position: Int, of file: Int32, path: String) throws(OriginalUnreadable) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: length)
        while buffer.readableBytes < length {
            let missing = length - buffer.readableBytes
            let at = off_t(position + buffer.readableBytes)
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: missing) { bytes in
                max(0, pread(file, bytes.baseAddress, missing, at))
            }
            guard count > 0 else {
                throw OriginalUnreadable(path: path, reason: "it ends before byte \(at), or cannot be read (\(String(cString: strerror(errno))))")
            }
        }
        return buffer
    }
}

/// An original that could not be read while it was being sent: the connection is closed, as
/// the answer's length was already promised.
struct OriginalUnreadable: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "The original \(path) could not be sent: \(reason)." }
}
