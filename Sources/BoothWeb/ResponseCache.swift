import BoothCore
import BoothStore
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// What the gallery keeps in memory of its answers, each good for one generation of what the
/// gallery shows (``GalleryChanges``): pages and API answers, thumbnails, and the tagged start
/// of originals. A change guests can see (a save, a rename, a hide, a deletion, a favourite, an
/// import), made by this process or another, raises the generation, and everything kept before
/// it is made again at the next request, so what is served is never older than the catalog.
/// Nothing else empties it: an upload's progress and the sync's state are no change to the
/// photos.
///
/// Each kind has its own bound, small beside the booth's memory: a page is some tens of KB, a
/// thumbnail some KB, an original's tagged start a few KB.
struct ResponseCache: Sendable {
    /// What the kept answers are good for: the generation of what the gallery shows, this
    /// process's changes and other processes' alike.
    let generation: GalleryChanges
    /// Pages and API answers, by what they depend on (see ``WebContext/keeping(_:varying:_:)``).
    let pages = GenerationCache<KeptAnswer>(maximumCount: 256, maximumBytes: 2 << 20)
    /// Thumbnails, by photo id.
    let thumbnails = GenerationCache<KeptAnswer>(maximumCount: 512, maximumBytes: 4 << 20)
    /// Originals' tagged starts and where the rest of their bytes are, by photo id.
    let originals = GenerationCache<OriginalParts>(maximumCount: 256, maximumBytes: 1 << 20)
    /// All of these as the connection writes them, by the request they answer
    /// (``RequestKey``): what ``KeptAnswerHandler`` serves without the router. The bytes are
    /// those of the answers above, shared, not copied.
    let served = GenerationCache<ServedAnswer>(maximumCount: 1024, maximumBytes: 8 << 20)

    init(library: PhotoLibrary) {
        generation = library.changes
    }
}

/// A whole answer, as kept: its status, headers (an ETag among them) and body.
struct KeptAnswer: Sendable {
    var status: HTTPResponse.Status = .ok
    var headers: HTTPFields
    var body: ByteBuffer

    /// The answer to send; the body's bytes are shared, not copied.
    var response: Response {
        Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}

/// A bounded store of values made from the catalog, good for one generation of its photos:
/// the least recently used go first when it holds more than its count or bytes, and a value
/// of an older generation is never returned (every one of them is dropped once a newer
/// generation is seen).
final class GenerationCache<Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var cost: Int
        /// When it was last used, in uses of the cache.
        var used: UInt64
    }

    private struct State {
        var generation: UInt64 = 0
        var entries: [String: Entry] = [:]
        var bytes = 0
        var uses: UInt64 = 0

        /// Forgets every entry when `generation` is newer than theirs; whether the entries are
        /// of `generation` (an older one keeps nothing).
        mutating func enter(_ generation: UInt64) -> Bool {
            if generation > self.generation {
                self.generation = generation
                entries.removeAll(keepingCapacity: true)
                bytes = 0
            }
            return generation == self.generation
        }
    }

    private let state = Mutex(State())
    private let maximumCount: Int
    private let maximumBytes: Int

    init(maximumCount: Int, maximumBytes: Int) {
        self.maximumCount = maximumCount
        self.maximumBytes = maximumBytes
    }

    /// The value kept for `key` in `generation`, if any.
    func value(for key: String, generation: UInt64) -> Value? {
        state.withLock { state in
            guard state.enter(generation), var entry = state.entries[key] else { return nil }
            state.uses += 1
            entry.used = state.uses
            state.entries[key] = entry
            return entry.value
        }
    }

    /// Keeps `value`, made from the catalog as it was in `generation`, at a cost of `cost`
    /// bytes. A value larger than the whole bound is not kept.
    func keep(_ value: Value, for key: String, generation: UInt64, cost: Int) {
        guard cost <= maximumBytes else { return }
        state.withLock { state in
            guard state.enter(generation) else { return }
            state.uses += 1
            if let old = state.entries.updateValue(Entry(value: value, cost: cost, used: state.uses), forKey: key) {
                state.bytes -= old.cost
            }
            state.bytes += cost
            while state.entries.count > maximumCount || state.bytes > maximumBytes {
                // A linear search: the cache holds a few hundred entries, and is full only
                // when a page is made, not when one is served.
                guard let oldest = state.entries.min(by: { $0.value.used < $1.value.used }) else { break }
                state.entries[oldest.key] = nil
                state.bytes -= oldest.value.cost
            }
        }
    }

    /// Forgets the value of `key`.
    func forget(_ key: String) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.cost }
        }
    }

    /// How many values it holds and their cost in bytes.
    var size: (count: Int, bytes: Int) {
        state.withLock { ($0.entries.count, $0.bytes) }
    }
}

extension WebContext {
    /// The answer to a GET that the catalog's photos decide, made by `make` once per change
    /// of the photos and kept (``ResponseCache/pages``), with an ETag of its bytes (a client that
    /// has them gets its 304 from ``ConditionalGet``). The key is the request's path and query, and `variant`: all
    /// else the answer depends on (its language, the origin of its absolute URLs).
    ///
    /// The generation is read before the catalog: an answer made while a change commits is
    /// kept under the older generation, which no request asks for any more.
    func keeping(_ request: Request, varying variant: String, _ make: () async throws -> KeptAnswer) async throws -> Response {
        let generation = kept.generation.current
        let key = variant + " " + request.uri.description
        let answer: KeptAnswer
        if let found = kept.pages.value(for: key, generation: generation) {
            answer = found
        } else {
            var made = try await make()
            made.headers[.eTag] = "\"\(Self.digest(made.body.readableBytesView))\""
            if made.status == .ok {
                kept.pages.keep(made, for: key, generation: generation, cost: made.body.readableBytes + key.utf8.count + 256)
            }
            answer = made
        }
        if answer.status == .ok { serveAgain(ServedAnswer(answer), to: request, generation: generation) }
        return answer.response
    }

    /// What a page depends on beside its address: the reader's language, and whether they
    /// just chose it (the answer then sets the cookie).
    func pageVariant(_ request: Request) throws -> String {
        let (language, chosen) = try BoothLanguage.of(request, fallback: settings.language)
        return chosen ? language.code + "!" : language.code
    }
}
