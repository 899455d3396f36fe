import AsyncHTTPClient
import BoothCore
import BoothStore
import Crypto
import Foundation
import Logging

/// Replicates the library through the event's bucket: uploads what the outbox holds (photos
/// taken, renamed, hidden or deleted here) and imports what the event's other booths wrote.
///
/// One loop does both, one photo at a time, so at most one original is in memory. What blocks
/// runs on ``SyncThread``; the network is AsyncHTTPClient's. A failure leaves the entry in the
/// outbox and tries it again after a backoff (1 s doubling to 5 minutes, with jitter); nothing
/// is ever dropped. The loop runs until its task is cancelled.
public final class EventSync: Sendable {
    public let settings: SyncSettings
    public let layout: BucketLayout
    public let metrics = SyncMetrics()
    private let event: String
    private let library: PhotoLibrary
    private let tagger: any PhotoTagger
    private let thumbnailer: any Thumbnailer
    private let logger: Logger
    /// Whether a photo is still being named: its upload waits (up to ``namingHold``) so that the
    /// original goes up once, with its name, rather than once before and once after.
    private let isBeingNamed: @Sendable (UUID) -> Bool
    private let environment: [String: String]
    private let clock: @Sendable () -> Date

    /// The longest an upload waits for a guest to finish typing.
    static let namingHold: TimeInterval = 300
    /// The longest wait between two attempts at the same entry.
    static let maximumBackoff: TimeInterval = 300

    /// - Parameter boothName: this booth's name (`booth.name`): its folder in the bucket; `nil`
    ///   for a gallery without a camera (`photobooth serve`), which only imports.
    public init(
        settings: SyncSettings, boothName: String?, library: PhotoLibrary, tagger: any PhotoTagger, thumbnailer: any Thumbnailer,
        logger: Logger, isBeingNamed: @escaping @Sendable (UUID) -> Bool = { _ in false },
        environment: [String: String] = ProcessInfo.processInfo.environment, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.clock = clock
        self.settings = settings
        self.event = settings.event ?? ""
        self.layout = BucketLayout(event: settings.event ?? "", booth: boothName)
        self.library = library
        self.tagger = tagger
        self.thumbnailer = thumbnailer
        self.logger = logger
        self.isBeingNamed = isBeingNamed
        self.environment = environment
    }

    /// The store, with the credentials as they are now; `nil` (and the reason in the metrics and
    /// the log) when there are none.
    func connect(through client: HTTPClient) -> ObjectStore? {
        switch Self.store(settings, environment: environment, client: client, clock: clock) {
        case .success(let store):
            metrics.update { $0.notSyncing = nil }
            return store
        case .failure(let missing):
            metrics.update { $0.notSyncing = missing.description }
            return nil
        }
    }

    /// The store the settings name, with the credentials as they are now.
    static func store(
        _ settings: SyncSettings, environment: [String: String], client: HTTPClient, clock: @escaping @Sendable () -> Date
    ) -> Result<ObjectStore, CredentialSource.Missing> {
        guard let endpoint = settings.endpoint, let bucket = settings.bucket else {
            return .failure(CredentialSource.Missing(description: "no sync.endpoint or sync.bucket in the configuration"))
        }
        return CredentialSource.load(file: settings.credentialsFile, environment: environment).map { credentials in
            ObjectStore(
                endpoint: endpoint, bucket: bucket, region: settings.region, pathStyle: settings.pathStyle, credentials: credentials,
                bytesPerSecond: settings.maxBytesPerSecond, client: client, clock: clock)
        }
    }

    /// The HTTP client of one run: a store that does not answer fails the request after the
    /// connect timeout rather than being tried again until the request's deadline, so that the
    /// outbox notes it and backs off.
    static func makeClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(10)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Runs until cancelled.
    public func run() async {
        let thread = SyncThread()
        let client = Self.makeClient()
        await loop(thread: thread, client: client)
        try? await client.shutdown()
        await thread.shutDown()
    }

    private func loop(thread: SyncThread, client: HTTPClient) async {
        // The event is remembered with the library, for the copies `photobooth export` makes.
        try? await thread.run { [library, event] in
            try library.retryNow()
            try library.setSyncState(["event": event])
        }
        var store = connect(through: client)
        if store == nil, let reason = metrics.snapshot.notSyncing {
            logger.error("The booth does not sync with the event's bucket: \(reason). Photos wait in the outbox meanwhile.")
            try? await thread.run { [library] in
                try library.setSyncState([
                    "last_error": "The booth does not sync: \(reason).", "last_error_kind": StoreError.Kind.credentials.rawValue,
                    "last_error_at": Date().utcTimestamp,
                ])
            }
        } else {
            logger.info("Syncing with \(settings.endpoint?.absoluteString ?? "") bucket \(settings.bucket ?? ""), as \(layout.ownPrefix)")
        }
        var nextListing = Date()
        var seenQueue = 0
        while !Task.isCancelled {
            guard let current = store else {
                // Without credentials nothing can be done; look for them again now and then.
                await pause(.seconds(30), after: &seenQueue)
                store = connect(through: client)
                if store != nil { logger.notice("Credentials for the event's bucket found; syncing.") }
                continue
            }
            do {
                if Date() >= nextListing {
                    try await importOthers(from: current, on: thread)
                    nextListing = Date() + settings.listInterval.timeInterval
                }
                if try await uploadNext(to: current, on: thread) { continue }
            } catch let error as StoreError {
                // A request cut short because the booth is stopping is not the store's failure:
                // it would be logged, and kept as the last error `sync status` shows.
                guard !Task.isCancelled else { break }
                record(error, store: current)
                if error.kind == .credentials || error.kind == .noBucket {
                    // The operator may fix the file while the booth runs.
                    if case .success(let credentials) = CredentialSource.load(file: settings.credentialsFile, environment: environment) {
                        current.replaceCredentials(credentials)
                    }
                }
                if Date() >= nextListing { nextListing = Date() + min(settings.listInterval.timeInterval, 30) }
            } catch is CancellationError {
                break
            } catch {
                logger.error("The event sync failed: \(error). It tries again shortly.")
            }
            // Nothing due: sleep until a change is queued, a retry is due or the next listing.
            await notePending(on: thread)
            let retry = (try? await thread.run { [library] in try library.nextRetry() }) ?? nil
            let until = [retry, nextListing].compactMap { $0 }.min() ?? nextListing
            await pause(.seconds(max(0.05, min(until.timeIntervalSinceNow, 30))), after: &seenQueue)
        }
    }

    /// Imports what the other booths wrote, then uploads everything due, once; throws the first
    /// failure (which stays in the outbox, as in ``run()``).
    public func catchUp() async throws {
        let thread = SyncThread()
        let client = Self.makeClient()
        do {
            guard let store = connect(through: client) else {
                throw StoreError(.credentials, metrics.snapshot.notSyncing ?? "no credentials")
            }
            do {
                try await importOthers(from: store, on: thread)
                while try await uploadNext(to: store, on: thread) {}
                await notePending(on: thread)
            } catch let error as StoreError {
                record(error, store: store)
                throw error
            }
        } catch {
            try? await client.shutdown()
            await thread.shutDown()
            throw error
        }
        try? await client.shutdown()
        await thread.shutDown()
    }

    /// Reads how much waits in the outbox, for the status and the metrics (which must not read
    /// the catalog themselves: they answer on the cooperative pool).
    private func notePending(on thread: SyncThread) async {
        guard let summary = try? await thread.run({ [library] in try library.outboxSummary() }) else { return }
        metrics.update {
            $0.pending = summary.pending
            $0.oldestPending = summary.oldest
        }
    }

    /// `photobooth doctor`'s check: with the credentials as the booth finds them, writes a small
    /// object under this booth's own folder, lists the folder and deletes the object again: the
    /// endpoint answers, the credentials are accepted, the bucket exists and the key may write,
    /// list and delete there. Returns what was found, or the failure with its fix. Needs no
    /// library: doctor runs before the booth's first start too.
    public static func probe(
        _ settings: SyncSettings, boothName: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> Result<String, StoreError> {
        let client = Self.makeClient()
        defer { _ = client.shutdown() }
        let store: ObjectStore
        switch Self.store(settings, environment: environment, client: client, clock: { Date() }) {
        case .success(let found): store = found
        case .failure(let missing): return .failure(StoreError(.credentials, "The booth cannot sign its requests: \(missing)."))
        }
        let layout = BucketLayout(event: settings.event ?? "", booth: boothName)
        let key = "\(layout.ownPrefix)doctor/\(UUID.random().lowercased).txt"
        do throws(StoreError) {
            try await store.put(key, Data("photobooth doctor\n".utf8), contentType: "text/plain")
            let listed: ListPage
            do throws(StoreError) {
                listed = try await store.list(prefix: layout.ownPrefix + "doctor/", pageSize: 10)
            } catch {
                try? await store.delete(key)
                throw error
            }
            try await store.delete(key)
            guard listed.objects.contains(where: { $0.key == key }) else {
                return .failure(StoreError(.protocolError, "The store took \(key) but did not list it."))
            }
            let skew = store.clockCorrection
            let clock = abs(skew) < 60 ? "" : "; the booth's clock is \(Int(abs(skew)) / 60) minutes off the store's (check NTP)"
            return .success("\(store.endpoint.absoluteString) bucket \(store.bucket): wrote, listed and deleted under \(layout.ownPrefix)\(clock).")
        } catch {
            return .failure(error)
        }
    }

    /// Waits for `duration`, or until a change is queued.
    private func pause(_ duration: Duration, after seen: inout Int) async {
        let queued = library.queuedForSync
        let start = seen
        let woken = await withTaskGroup(of: Int?.self) { group in
            group.addTask { await queued.next(after: UInt64(start)).map { Int($0.version) } }
            group.addTask {
                try? await Task.sleep(for: duration)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let woken { seen = woken }
    }

    private func record(_ error: StoreError, store: ObjectStore) {
        metrics.failed(error)
        metrics.update { $0.clockCorrection = store.clockCorrection }
        logger.warning("Event sync: \(error) Photos wait in the outbox; the booth tries again.")
        let text = error.description
        try? library.setSyncState(["last_error": text, "last_error_kind": error.kind.rawValue, "last_error_at": Date().utcTimestamp])
    }

    // MARK: Uploading

    /// What one outbox entry sends.
    private struct Upload: Sendable {
        let entry: OutboxEntry
        /// The record (the sidecar with the event and the original's SHA-256), or a tombstone.
        let record: PhotoSidecar
        let original: Data?
        let thumbnail: Data?
    }

    /// Uploads the oldest entry due; `false` when none is.
    private func uploadNext(to store: ObjectStore, on thread: SyncThread) async throws -> Bool {
        let now = Date()
        let prepared = try await thread.run { [library, tagger, event, isBeingNamed] () throws -> Upload? in
            var held: Set<UUID> = []
            while let entry = try library.nextUpload(at: now, skipping: held) {
                if isBeingNamed(entry.id) && now.timeIntervalSince(entry.queuedAt) < Self.namingHold {
                    held.insert(entry.id)
                    continue
                }
                guard let (photo, record) = try library.syncRecord(of: entry.id, event: event) else {
                    return Upload(entry: entry, record: library.tombstone(of: entry.id, event: event), original: nil, thumbnail: nil)
                }
                let original = try library.outgoingCopy(of: photo, event: event, tagger: tagger)
                var described = record
                described.sha256 = SHA256.hash(data: original).hex
                let thumbnail = entry.thumbnail ? try library.thumbnail(of: photo.id, includingHidden: true) : nil
                return Upload(entry: entry, record: described, original: original, thumbnail: thumbnail)
            }
            return nil
        }
        guard let upload = prepared else { return false }
        let id = upload.entry.id
        do {
            var bytes = 0
            var objects = 0
            if let original = upload.original {
                try await store.put(layout.key(.photo, of: id), original, contentType: "image/jpeg")
                bytes += original.count
                objects += 1
                if let thumbnail = upload.thumbnail {
                    try await store.put(layout.key(.thumbnail, of: id), thumbnail, contentType: "image/jpeg")
                    bytes += thumbnail.count
                    objects += 1
                }
            } else {
                // Deleted here: its own objects go (a guest's wish to be forgotten), the tombstone stays.
                try await store.delete(layout.key(.photo, of: id))
                try await store.delete(layout.key(.thumbnail, of: id))
            }
            let record = upload.record.xmp
            try await store.put(layout.key(.record, of: id), record, contentType: "application/rdf+xml")
            bytes += record.count
            objects += 1
            try await thread.run { [library] in try library.uploaded(upload.entry) }
            metrics.succeeded(uploadedObjects: objects, uploadedBytes: bytes)
            metrics.update { $0.clockCorrection = store.clockCorrection }
            try? await thread.run { [library] in try library.setSyncState(["last_success_at": Date().utcTimestamp, "last_error": nil]) }
            logger.info(
                "uploaded \(id.lowercased) \(upload.original == nil ? "(deleted: tombstone)" : "\"\(upload.record.caption)\"") to \(layout.ownPrefix)"
            )
            return true
        } catch {
            let attempts = upload.entry.attempts + 1
            let delay = min(Self.maximumBackoff, pow(2, Double(min(attempts - 1, 16)))) * Double.random(in: 0.5...1)
            let message = "\(error)"
            try? await thread.run { [library] in
                try library.uploadFailed(upload.entry, error: message, retryAt: Date() + delay)
            }
            throw error
        }
    }

    // MARK: Importing

    /// Lists the event's prefix and brings in what the other booths wrote or changed since.
    private func importOthers(from store: ObjectStore, on thread: SyncThread) async throws {
        let objects = try await store.listAll(prefix: layout.eventPrefix)
        let seen = try await thread.run { [library] in try library.seenRecords() }
        var byKey: [String: ListPage.Object] = [:]
        for object in objects { byKey[object.key] = object }
        for object in objects {
            guard let (booth, kind, id) = layout.parse(object.key), kind == .record, booth != layout.booth,
                seen[object.key] != object.etag
            else { continue }
            try Task.checkCancellation()
            guard let data = try await store.get(object.key), let record = PhotoSidecar(xmp: data), record.id == id else {
                logger.warning("Event sync: the record \(object.key) does not read as a photo's record; it is skipped.")
                try await thread.run { [library] in try library.markSeen(object.key, etag: object.etag) }
                continue
            }
            metrics.update {
                $0.objectsImported += 1
                $0.bytesImported += data.count
            }
            do {
                if try await apply(record, from: booth, store: store, thread: thread, objects: byKey) {
                    try await thread.run { [library] in try library.markSeen(object.key, etag: object.etag) }
                }
            } catch let error as StoreError {
                throw error
            } catch {
                // One photo that cannot be brought in (a damaged original, a full disk) does not
                // hold up the others; it is tried again at the next listing.
                logger.warning("Event sync: photo \(id.lowercased) of \(booth) could not be imported: \(error)")
            }
        }
        metrics.succeeded()
        try? await thread.run { [library] in try library.setSyncState(["last_listing_at": Date().utcTimestamp]) }
    }

    /// Brings one record of another booth into the library; `false` when it must be tried again
    /// at the next listing (its original is not all there yet).
    private func apply(
        _ record: PhotoSidecar, from booth: String, store: ObjectStore, thread: SyncThread, objects: [String: ListPage.Object]
    ) async throws -> Bool {
        let id = record.id
        if record.deleted {
            if try await thread.run({ [library] in try library.removeImported(id) }) {
                logger.info("removed \(id.lowercased): deleted at \(booth)")
            }
            return true
        }
        let present = try await thread.run { [library] in try library.photo(id: id, includingHidden: true) }
        if let present {
            guard present.origin != nil else { return true }
            if try await thread.run({ [library] in try library.applyImported(record) }) {
                logger.info("updated \(id.lowercased) \"\(record.caption)\"\(record.hidden ? " (hidden)" : "") from \(booth)")
            }
            return true
        }
        // A new photo: its original, checked against the record's SHA-256 (the booth may be
        // halfway through uploading a newer copy; the next listing sees both settled).
        let photoKey = layout.key(.photo, of: id, booth: booth)
        guard let original = try await store.get(photoKey) else { return false }
        guard let expected = record.sha256, SHA256.hash(data: original).hex == expected else {
            logger.notice("Event sync: \(photoKey) does not match its record yet; trying again at the next listing.")
            return false
        }
        let thumbnailData = try await store.get(layout.key(.thumbnail, of: id, booth: booth))
        metrics.update {
            $0.objectsImported += thumbnailData == nil ? 1 : 2
            $0.bytesImported += original.count + (thumbnailData?.count ?? 0)
        }
        let imported = try await thread.run { [library, thumbnailer] () throws -> Photo in
            // The thumbnail is made here when the bucket's is missing or does not match the photo.
            var thumbnail = try thumbnailer.thumbnail(forJPEG: original)
            if let thumbnailData, thumbnailData.starts(with: [0xFF, 0xD8]), thumbnailData.count < 1 << 20 {
                thumbnail.jpeg = thumbnailData
            }
            return try library.importPhoto(original, thumbnail: thumbnail, record: record, origin: booth)
        }
        metrics.update { $0.photosImported += 1 }
        logger.info("imported \(imported.id.lowercased) \"\(imported.caption)\" from \(booth)")
        return true
    }
}

extension Duration {
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
