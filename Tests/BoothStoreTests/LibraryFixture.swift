import BoothCore
import BoothImaging
import Foundation
import GRDB
import Logging

@testable import BoothStore

/// A library in a fresh temporary folder, removed when the fixture goes away.
final class LibraryFixture {
    let directory: URL
    let library: PhotoLibrary

    init(boothName: String = "") throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("photobooth-store-tests-\(UUID().lowercased)")
        library = try Self.open(directory, boothName: boothName)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    static func open(_ directory: URL, create: Bool = true, boothName: String = "") throws -> PhotoLibrary {
        try PhotoLibrary(
            directory: directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "test"), create: create, boothName: boothName)
    }

    static func jpeg(frame: UInt64 = 1, width: Int = 320, height: Int = 240) throws -> Data {
        try JPEGEncoder().encode(TestPattern(width: width, height: height).render(frame: frame, at: Date()), quality: 85)
    }

    /// Adds a photo the way the booth does, `secondsAgo` seconds in the past.
    @discardableResult
    func add(caption: String? = nil, secondsAgo: Double = 0, frame: UInt64 = 1) throws -> Photo {
        let jpeg = try Self.jpeg(frame: frame)
        let number = library.reservePhotoNumber()
        let (photo, _) = try library.add(
            jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), id: UUID(), number: number,
            caption: caption.flatMap { Caption(sanitizing: $0) } ?? .placeholder(number: number),
            createdAt: Date(timeIntervalSinceNow: -secondsAgo))
        return photo
    }

    func url(_ relative: String) -> URL {
        directory.appendingPathComponent(relative)
    }

    /// Every file under the library folder, relative to it.
    func files() -> Set<String> {
        let walker = FileManager.default.enumerator(atPath: directory.path)
        return Set(
            (walker?.allObjects as? [String] ?? []).filter { path in
                let values = try? directory.appendingPathComponent(path).resourceValues(forKeys: [.isRegularFileKey])
                return values?.isRegularFile == true
            })
    }

    /// The SQL of `request`, as the catalog is sent it.
    static func sql(of request: some FetchRequest, in library: PhotoLibrary) throws -> String {
        try library.catalog.read("prepare") { db in try request.makePreparedRequest(db, forSingleResult: false).statement.sql }
    }

    /// SQLite's plan for `request`: one line per step.
    static func plan(of request: some FetchRequest, in library: PhotoLibrary) throws -> [String] {
        try library.catalog.read("explain") { db in
            let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments).map { $0["detail"] as String }
        }
    }
}
