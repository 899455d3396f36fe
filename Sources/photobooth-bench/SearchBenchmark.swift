import BoothCore
import BoothStore
import Foundation

/// What finding photos costs in a large library: search by name (the accent-free full-text
/// index), the list of albums, one album's page, and the booth's jump to a name. The library is
/// filled with names as an event gives them (first names, some with accents, some pairs, a
/// third left unnamed), seeded so that two runs search the same library.
struct SearchBenchmark {
    let library: PhotoLibrary
    let runs: Int

    static let names = [
        "Zoë", "Anna", "Ben", "Chloé", "Léa", "Jürgen", "Søren", "Alice", "Bob", "Noémie", "François", "Marie", "Lukas",
        "Emma", "Hugo", "Inès", "Jonas", "Mia", "Paul", "Zoé", "Anaïs", "Björn", "Clara", "Élodie", "Felix", "Gaëlle",
        "Hannah", "Içami", "Jules", "Katarzyna", "Louis", "Maëlys", "Nils", "Océane", "Pierre", "Renée", "Sofia", "Théo",
        "Ulrich", "Valérie", "Wiebke", "Xavier", "Yasmin", "Zacharie",
    ]

    func run(photos count: Int) throws {
        let clock = ContinuousClock()
        let filling = try clock.measure { try library.fill(count, caption: Self.caption) }
        print("search: \(count) photos, added in \(String(format: "%.1f", filling.inSeconds)) s (durable adds from 8 threads)")
        let pageSize = 24
        for (label, text) in [
            ("a common name (\"anna\")", "anna"), ("accents typed without (\"zoe\")", "zoe"), ("two words (\"ben zoe\")", "ben zoe"),
            ("one letter (\"a\", a prefix)", "a"), ("nobody (\"quentin\")", "quentin"),
        ] {
            var found = 0
            let first = Benchmark.median(runs) {
                found = try library.gallery.count(.search(text))
                _ = try library.gallery.photos(.search(text), limit: pageSize)
            }
            let last = Benchmark.median(runs) { _ = try library.gallery.photos(.search(text), skipping: max(0, found - pageSize), limit: pageSize) }
            let name = label.padding(toLength: 34, withPad: " ", startingAt: 0)
            print(
                "  \(name) \(String(found).padding(toLength: 6, withPad: " ", startingAt: 0)) found: first page + count \(Benchmark.format(first)), last page \(Benchmark.format(last))"
            )
        }
        var albums: [Album] = []
        let listing = Benchmark.median(runs) { albums = try library.gallery.albums() }
        print("  the albums (\(albums.count): favourites, days, names)  \(Benchmark.format(listing))")
        if let biggest = albums.filter({ $0.kind == .name }).max(by: { $0.count < $1.count }) {
            let page = Benchmark.median(runs) {
                _ = try library.gallery.count(biggest.query)
                _ = try library.gallery.photos(biggest.query, limit: pageSize)
            }
            print("  an album's first page (\"\(biggest.title)\", \(biggest.count) photos)  \(Benchmark.format(page))")
        }
        let jump = Benchmark.median(runs) { _ = try library.gallery.position(ofNameStartingWith: "ju") }
        print("  the booth's jump to a name (\"ju\")   \(Benchmark.format(jump))")
    }

    /// The name of the photo at `offset`: none for a third of them, one name, or two joined by
    /// "&", from a linear congruential sequence (the same every run).
    static func caption(_ offset: Int) -> Caption? {
        var state = UInt64(offset) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        switch next() % 6 {
        case 0, 1: return nil
        case 2: return Caption(sanitizing: "\(names[next() % names.count]) & \(names[next() % names.count])")
        default: return Caption(sanitizing: names[next() % names.count])
        }
    }
}
