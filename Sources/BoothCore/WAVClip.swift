/// Why a file is not a clip the speaker can play.
public struct WAVError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

extension SoundClip {
    /// The clip in a WAV file's bytes: 16-bit PCM, mono or stereo (mixed down), at any rate
    /// (converted to ``rate`` by linear interpolation): what espeak-ng writes.
    public init(wav bytes: [UInt8]) throws(WAVError) {
        func le16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func le32(_ at: Int) -> Int { le16(at) | le16(at + 2) << 16 }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else { throw WAVError(description: "not a WAV file (no RIFF/WAVE header)") }
        var format: (channels: Int, rate: Int, bits: Int)?
        var data: Range<Int>?
        var at = 12
        while at + 8 <= bytes.count, data == nil {
            let size = le32(at + 4)
            let body = at + 8
            // A stream's writer may leave the data chunk's size at its maximum: it runs to the end.
            let end = min(body + size, bytes.count)
            switch tag(at) {
            case "fmt ":
                guard size >= 16, end - body >= 16 else { throw WAVError(description: "its fmt chunk is \(size) bytes, not 16") }
                guard le16(body) == 1 else { throw WAVError(description: "its samples are not PCM (format \(le16(body)))") }
                format = (le16(body + 2), le32(body + 4), le16(body + 14))
            case "data":
                data = body..<end
            default:
                break
            }
            at = body + size + (size & 1)
        }
        guard let format else { throw WAVError(description: "no fmt chunk") }
        guard let data else { throw WAVError(description: "no data chunk") }
        guard format.bits == 16 else { throw WAVError(description: "its samples are \(format.bits)-bit, not 16") }
        guard (1...2).contains(format.channels) else { throw WAVError(description: "it has \(format.channels) channels, not 1 or 2") }
        guard (8_000...192_000).contains(format.rate) else { throw WAVError(description: "its rate is \(format.rate) Hz") }
        let frameSize = 2 * format.channels
        let frames = (0..<data.count / frameSize).map { frame in
            let first = data.lowerBound + frame * frameSize
            let channels = (0..<format.channels).map { Int(Int16(bitPattern: UInt16(le16(first + 2 * $0)))) }
            return Double(channels.reduce(0, +)) / Double(format.channels)
        }
        self.init(samples: Self.resample(frames, from: format.rate))
    }

    /// `frames` at `rate`, as samples at ``rate``.
    private static func resample(_ frames: [Double], from rate: Int) -> [Int16] {
        guard rate != Self.rate else { return frames.map { Int16($0) } }
        guard let last = frames.indices.last else { return [] }
        let count = frames.count * Self.rate / rate
        return (0..<count).map { i in
            let position = Double(i) * Double(rate) / Double(Self.rate)
            let below = min(Int(position), last)
            let above = min(below + 1, last)
            let t = position - Double(below)
            return Int16(frames[below] * (1 - t) + frames[above] * t)
        }
    }
}
