import BoothCore
import Foundation
import GRDB

extension GalleryQueries {
    /// How many of the 64 bits two photos' perceptual hashes may differ in and still count as
    /// near-duplicates, unless the operator says otherwise: shots of one burst differ by a few
    /// bits, different scenes by about half of them.
    package static let defaultDuplicateDistance = 10

    /// The visible photos that look alike: groups of photos each within `maxDistance` differing
    /// bits of another of its group (single linkage, so a burst that drifts slowly stays one
    /// group), each group newest first, the groups with the newest photo first. Photos without
    /// a hash yet are left out.
    ///
    /// Every pair is compared: a popcount each, about 50 million for 10,000 photos, well under
    /// a second; an event's library is far smaller.
    package func duplicateGroups(maxDistance: Int) throws(LibraryError) -> [[Photo]] {
        let request = shown().withPerceptualHash().newestFirst().annotated(with: PhotoRecord.Columns.perceptualHash)
        let rows = try catalog.read("list perceptual hashes") { db in
            try Row.fetchAll(db, request).map { row in
                (photo: try ListedPhoto(row: row).photo, hash: UInt64(bitPattern: row[PhotoRecord.Columns.perceptualHash] as Int64))
            }
        }
        // The hashes alone, side by side, for a loop that reads memory in order.
        let hashes = rows.map(\.hash)
        var groups = DisjointSets(count: hashes.count)
        hashes.withUnsafeBufferPointer { hashes in
            for first in hashes.indices {
                let hash = hashes[first]
                for second in (first + 1)..<hashes.count where (hash ^ hashes[second]).nonzeroBitCount <= maxDistance {
                    groups.join(first, second)
                }
            }
        }
        var members: [Int: [Photo]] = [:]
        var order: [Int] = []
        for index in rows.indices {
            let root = groups.root(of: index)
            if members[root] == nil { order.append(root) }
            members[root, default: []].append(rows[index].photo)
        }
        return order.compactMap { members[$0]!.count > 1 ? members[$0] : nil }
    }

    /// A photo's perceptual hash, when known.
    package func perceptualHash(of id: UUID) throws(LibraryError) -> UInt64? {
        let request = PhotoRecord.all().photo(id).select(PhotoRecord.Columns.perceptualHash, as: Int64?.self)
        return try catalog.read("read a perceptual hash") { db in try request.fetchOne(db).flatMap { $0 }.map { UInt64(bitPattern: $0) } }
    }
}

/// Union-find over `0..<count`, with path halving.
private struct DisjointSets {
    private var parent: [Int]

    init(count: Int) {
        parent = Array(0..<count)
    }

    mutating func root(of element: Int) -> Int {
        var element = element
        while parent[element] != element {
            parent[element] = parent[parent[element]]
            element = parent[element]
        }
        return element
    }

    mutating func join(_ first: Int, _ second: Int) {
        let (a, b) = (root(of: first), root(of: second))
        if a != b { parent[max(a, b)] = min(a, b) }
    }
}
