import Foundation
import StoreFixture
import Testing

@Suite("Finding and marking photos from the command line", .fullLane, .timeLimit(.minutes(2)))
struct FindingCommandTests {
    /// `list` with `options`, as JSON, parsed.
    func listed(_ directory: DataDirectory, _ options: [String]) async throws -> [ListedPhoto] {
        let result = try await BoothProcess.run(["list", "--json", "--data-dir", directory.path] + options)
        #expect(result.status == 0, "list \(options) failed: \(result.stderr)")
        return try JSONDecoder().decode([ListedPhoto].self, from: Data(result.stdout.utf8))
    }

    @Test("list --search and --album compare names without case or accents; --day lists a day")
    func searchAndAlbums() async throws {
        let directory = DataDirectory()
        try await session("\nZoë\n\nalice\n\nALICE \n\nanna & ben\n\n\n", in: directory)
        #expect(try await listed(directory, ["--search", "zoe"]).map(\.caption) == ["Zoë"])
        #expect(try await listed(directory, ["--search", "ANNA"]).map(\.caption) == ["anna & ben"])
        #expect(try await listed(directory, ["--album", "Alice"]).map(\.caption) == ["ALICE", "alice"])
        let all = try await PhotoboothEndToEndTests.listed(directory)
        #expect(all.count == 5)
        let day = try #require(all.first.map { Self.localDay(of: $0.created_at) })
        #expect(try await listed(directory, ["--day", day]).count == 5)
        let text = try await BoothProcess.run(["list", "--search", "nobody", "--data-dir", directory.path])
        #expect(text.status == 0 && text.stdout.contains("No photo's name has \"nobody\""), "\(text.stdout)")
        let bad = try await BoothProcess.run(["list", "--day", "23/11/2026", "--data-dir", directory.path])
        #expect(bad.status == 2 && bad.stderr.contains("--day takes a date as YYYY-MM-DD"), "\(bad.stderr)")
        let both = try await BoothProcess.run(["list", "--search", "a", "--album", "b", "--data-dir", directory.path])
        #expect(both.status == 2 && both.stderr.contains("give one of them"), "\(both.stderr)")
    }

    @Test("favourite, unfavourite, hide and unhide change photos by id prefix; an unknown id fails after the others")
    func marks() async throws {
        let directory = DataDirectory()
        try await session("\nAnna\n\nBen\n", in: directory)
        let photos = try await PhotoboothEndToEndTests.listed(directory)
        let anna = try #require(photos.first { $0.caption == "Anna" })
        let ben = try #require(photos.first { $0.caption == "Ben" })

        let favourite = try await BoothProcess.run(["favourite", String(anna.id.prefix(8)), "--data-dir", directory.path])
        #expect(favourite.status == 0 && favourite.stdout.contains("Anna: marked as a favourite"), "\(favourite.stdout)")
        #expect(try await listed(directory, ["--favourites"]).map(\.id) == [anna.id])
        #expect(try await PhotoboothEndToEndTests.listed(directory).first { $0.id == anna.id }?.favourite == true)

        let hide = try await BoothProcess.run(["hide", ben.id, "0000dead", "--data-dir", directory.path])
        #expect(hide.status == 1, "one photo could not be hidden")
        #expect(hide.stdout.contains("Ben: hidden from guests") && hide.stderr.contains("0000dead"), "\(hide.stdout) \(hide.stderr)")
        #expect(try await PhotoboothEndToEndTests.listed(directory).map(\.caption) == ["Anna"])
        #expect(try await listed(directory, ["--hidden"]).map(\.caption) == ["Ben"])

        #expect(try await BoothProcess.run(["unhide", ben.id, "--data-dir", directory.path]).status == 0)
        #expect(try await BoothProcess.run(["unfavourite", anna.id, "--data-dir", directory.path]).status == 0)
        #expect(try await PhotoboothEndToEndTests.listed(directory).map(\.caption) == ["Ben", "Anna"])
        #expect(try await listed(directory, ["--favourites"]).isEmpty)
    }

    @Test("list --duplicates groups two shots of the same scene, from the hash each save makes")
    func duplicates() async throws {
        let directory = DataDirectory()
        try await session("\nFirst\n\nSecond\n", in: directory)
        let result = try await BoothProcess.run(["list", "--duplicates", "--json", "--data-dir", directory.path])
        #expect(result.status == 0, "\(result.stderr)")
        let groups = try JSONDecoder().decode([[ListedPhoto]].self, from: Data(result.stdout.utf8))
        #expect(groups.map { $0.map(\.caption) } == [["Second", "First"]], "the simulated camera's one scene, twice")
        let text = try await BoothProcess.run(["list", "--duplicates", "--data-dir", directory.path])
        #expect(text.stdout.hasPrefix("Group 1: 2 photos"), "\(text.stdout)")
        #expect(!text.stdout.contains("no fingerprint yet"), "every save made its hash")
        let bad = try await BoothProcess.run(["list", "--duplicates", "--distance", "65", "--data-dir", directory.path])
        #expect(bad.status == 2 && bad.stderr.contains("from 0 to 64"), "\(bad.stderr)")
    }

    /// The local day (`YYYY-MM-DD`) of a UTC timestamp, as `--day` takes it.
    static func localDay(of timestamp: String) -> String {
        let date = try! Date(timestamp, strategy: .iso8601)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}
