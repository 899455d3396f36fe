import CDRM
import Foundation
import Glibc

/// What the display shows, captured through the card's writeback connector (a driver such as
/// vkms has one; most displays' do not): for testing a display, never needed to run a booth.
///
/// Captures are asked for by number: the file `count` in the capture folder holds how many
/// commits to capture in all; each commit while fewer were captured carries a writeback job, and
/// once the display has composed it the picture is written next to `count` as
/// `NNNNNN-WIDTHxHEIGHT.xrgb` (rows of `0xXXRRGGBB`, little-endian, no header).
struct KMSWriteback {
    let connector: UInt32
    let properties: KMSProperties
    /// Where the captures go, and the file that asks for them.
    let folder: String
    private let buffer: KMSBuffer
    private var captured = 0

    init(connector: UInt32, properties: KMSProperties, buffer: KMSBuffer, folder: String) {
        self.connector = connector
        self.properties = properties
        self.buffer = buffer
        self.folder = folder
        // A display opened again goes on numbering from the captures already there.
        captured = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter { $0.hasSuffix(".xrgb") }.count ?? 0
    }

    /// The framebuffer a writeback job fills, when the next commit is to be captured.
    var wanted: UInt32? {
        let asked =
            (try? String(contentsOfFile: folder + "/count", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        return captured < asked ? buffer.framebuffer : nil
    }

    /// Waits for the job's fence (the display composed the commit into the buffer) and writes
    /// the picture out.
    mutating func save(fence: Int32) {
        defer { close(fence) }
        var ready = pollfd(fd: fence, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 2000) == 1 else { return }
        captured += 1
        let picture = buffer.picture
        let name = String(format: "%@/%06d-%dx%d.xrgb", folder, captured, picture.width, picture.height)
        var bytes = Data(capacity: picture.width * picture.height * 4)
        for row in 0..<picture.height {
            bytes.append(
                UnsafeRawBufferPointer(start: picture.planes[0].base + row * picture.planes[0].bytesPerRow, count: picture.width * 4)
                    .bindMemory(to: UInt8.self))
        }
        try? bytes.write(to: URL(fileURLWithPath: name + ".part"))
        rename(name + ".part", name)
    }
}
