import BoothCore
import Foundation
import GRDB

extension PhotoLibrary {
    /// How many of the 64 bits two photos' perceptual hashes may differ in and still count as
    /// near-duplicates, unless the operator says otherwise: shots of one burst differ by a few
    /// bits, different scenes by about half of them.
    public static let defaultDuplicateDistance = 10

    /// Stores a photo's perceptual hash, made after the fact (a photo saved before the catalog
    /// kept them). A derived value: no sidecar keeps it, and the event's bucket does not
    /// need it.
    public func setPerceptualHash(_ hash: UInt64, of id: UUID) throws(LibraryError) {
        try write("store a perceptual hash") { db in
            try db.execute(
                sql: "UPDATE photo SET perceptual_hash = ? WHERE id = ?", arguments: [Int64(bitPattern: hash), id.lowercased])
        }
    }

    /// Photos whose perceptual hash is not known yet, oldest first, at most `limit`.
    public func photosWithoutPerceptualHash(limit: Int) throws(LibraryError) -> [Photo] {
        try read("list photos without a perceptual hash") { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.photoColumns) FROM photo WHERE \(wellFormed) AND perceptual_hash IS NULL
                    ORDER BY created_at, number LIMIT ?
                    """,
                arguments: [limit]
            ).map(Self.photo(from:))
        }
    }

    /// A photo's perceptual hash, when known.
    public func perceptualHash(of id: UUID) throws(LibraryError) -> UInt64? {
        try read("read a perceptual hash") { db in
            try Int64.fetchOne(db, sql: "SELECT perceptual_hash FROM photo WHERE id = ?", arguments: [id.lowercased])
                .map { UInt64(bitPattern: $0) }
        }
    }

    /// The visible photos that look alike: groups of photos each within `maxDistance` differing
    /// bits of another of its group (single linkage, so a burst that drifts slowly stays one
    /// group), each group newest first, the groups with the newest photo first. Photos without
    /// a hash yet are left out.
    ///
    /// Every pair is compared: a popcount each, about 50 million for 10,000 photos, well under
    /// a second; an event's library is far smaller.
    public func duplicateGroups(maxDistance: Int) throws(LibraryError) -> [[Photo]] {
        let rows = try read("list perceptual hashes") { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.photoColumns), perceptual_hash FROM photo
                    WHERE \(shown(false)) AND perceptual_hash IS NOT NULL ORDER BY \(Self.newestFirst)
                    """
            ).map { (photo: try Self.photo(from: $0), hash: UInt64(bitPattern: $0["perceptual_hash"] as Int64)) }
        }
        var groups = DisjointSets(count: rows.count)
        for first in rows.indices {
            for second in rows.indices[(first + 1)...]
            where (rows[first].hash ^ rows[second].hash).nonzeroBitCount <= maxDistance {
                groups.join(first, second)
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
