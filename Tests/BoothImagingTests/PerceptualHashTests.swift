import BoothImaging
import Foundation
import Testing

@Suite("Perceptual hash")
struct PerceptualHashTests {
    static let width = 640
    static let height = 480
    /// Every picture of the tests, as the booth saves it: a JPEG at a webcam's quality.
    static let pictures: [(name: String, bitmap: Bitmap)] =
        Scene.allCases.map { ("\($0)", $0.picture(width: width, height: height)) }
        + [("test pattern", TestPattern(width: width, height: height).render(frame: 40, at: Date(timeIntervalSince1970: 1_700_000_000)))]

    /// The hash the booth stores for `bitmap` saved as a JPEG at `quality`.
    private func savedHash(_ bitmap: Bitmap, quality: Int = 90) throws -> UInt64 {
        try ShotDecoder().decode(try JPEGEncoder().encode(bitmap, quality: quality)).perceptualHash
    }

    private func distance(_ a: UInt64, _ b: UInt64) -> Int {
        PerceptualHash.hammingDistance(a, b)
    }

    @Test("The same photo saved again at a low quality keeps its hash, within a few bits")
    func reencoded() throws {
        for (name, bitmap) in Self.pictures {
            let original = try JPEGEncoder().encode(bitmap, quality: 92)
            let decoded = try JPEGDecoder().decode(original)
            let again = try JPEGEncoder().encode(decoded, quality: 40)
            let apart = distance(try ShotDecoder().decode(original).perceptualHash, try ShotDecoder().decode(again).perceptualHash)
            #expect(apart <= PerceptualHash.nearDuplicateDistance, "\(name): \(apart) bits apart")
        }
    }

    @Test("A brighter exposure of the same scene is near")
    func brighter() throws {
        for (name, bitmap) in Self.pictures {
            let apart = distance(try savedHash(bitmap), try savedHash(bitmap.brightened(by: 30)))
            #expect(apart <= PerceptualHash.nearDuplicateDistance, "\(name): \(apart) bits apart")
        }
    }

    @Test("The same scene moved by 1% of its width is near")
    func shifted() throws {
        for scene in Scene.allCases {
            let still = scene.picture(width: Self.width, height: Self.height)
            let moved = scene.picture(width: Self.width, height: Self.height, shiftX: 6, shiftY: -3)
            let apart = distance(try savedHash(still), try savedHash(moved))
            #expect(apart <= PerceptualHash.nearDuplicateDistance, "\(scene): \(apart) bits apart")
        }
    }

    @Test("Two frames of the simulated camera are near, although the clock moved")
    func framesAMomentApart() throws {
        let pattern = TestPattern(width: Self.width, height: Self.height)
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        let first = pattern.render(frame: 40, at: time)
        // The next frame, one taken after the first was named, and one minutes later.
        for (frame, seconds) in [(41, 1.0 / 30), (220, 6.0), (5_000, 166.0)] {
            let other = pattern.render(frame: UInt64(frame), at: time + seconds)
            #expect(first != other)
            let apart = distance(try savedHash(first), try savedHash(other))
            #expect(apart <= PerceptualHash.nearDuplicateDistance, "frame \(frame): \(apart) bits apart")
        }
    }

    @Test("Different pictures are far apart")
    func different() throws {
        let hashes = try Self.pictures.map { ($0.name, try savedHash($0.bitmap)) }
        for (index, (name, hash)) in hashes.enumerated() {
            for (otherName, other) in hashes[(index + 1)...] {
                let apart = distance(hash, other)
                #expect(apart > 20, "\(name) and \(otherName): only \(apart) bits apart")
            }
        }
    }

    @Test("The hash ignores the pixel format and the size")
    func formatAndSize() throws {
        let scene = Scene.portrait.picture(width: 1280, height: 720)
        let jpeg = try JPEGEncoder().encode(scene, quality: 90)
        let rgb = try JPEGDecoder().decode(jpeg, format: .rgb)
        let bgrx = try JPEGDecoder().decode(jpeg, format: .bgrx)
        #expect(rgb.perceptualHash == bgrx.perceptualHash)
        let small = try JPEGDecoder().decode(jpeg, scale: .eighth)
        #expect(distance(rgb.perceptualHash, small.perceptualHash) <= 2)
    }

    @Test("The distance counts the bits that differ")
    func hammingDistance() {
        #expect(PerceptualHash.hammingDistance(0, 0) == 0)
        #expect(PerceptualHash.hammingDistance(0b1011, 0b0110) == 3)
        #expect(PerceptualHash.hammingDistance(0, .max) == 64)
    }
}
