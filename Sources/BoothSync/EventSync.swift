import AsyncHTTPClient
import BoothCore
import BoothStore
import BoothSystem
import Crypto
import Foundation
import Logging
import Synchronization

/// Replicates the library through the event's bucket: uploads what the outbox holds (photos
/// taken, renamed, hidden or deleted here) and imports what the event's other booths wrote.
///
/// One loop does both, one photo at a time, so at most one original is in memory. What blocks
/// runs on ``SyncThread``; the network is AsyncHTTPClient's. A failure leaves the entry in the
/// outbox and tries it again after a backoff (1 s doubling to 5 minutes, with jitter); nothing
/// is ever dropped. The loop runs until its task is cancelled.
///
/// What another booth wrote is taken only as far as it checks out: a record changes or
/// deletes only a photo of the folder it sits in, names that folder's booth and this event,
/// and a new photo's original matches the record's SHA-256, size and time. An object that does
/// not (too large by the listing's size, unreadable, not matching, forged) is refused once,
/// logged once, and remembered by key and ETag, so that it is not fetched again until it
/// changes; it never holds up the other photos.
package final class EventSync: Sendable {
    package let settings: SyncSettings
    package let layout: BucketLayout
    package let metrics = SyncMetrics()
    /// The booth's clock, corrected by the store's time: it signs the requests and dates the
    /// booth's photos (the photo writer shares it).
    package let clock: CorrectedClock
    private let event: String
    private let library: PhotoLibrary
    private let tagger: any PhotoTagger
    private let thumbnailer: any Thumbnailer
    private let logger: Logger
    /// Whether a photo is still being named: its upload waits (up to ``namingHold``) so that the
    /// original goes up once, with its name, rather than once before and once after.
    private let isBeingNamed: @Sendable (UUID) -> Bool
    private let environment: [String: String]
    /// The booth's guest deletion keys, when guests may delete their photos.
    private let guestDeletions: GuestDeletions?
    /// The clock's correction as last logged.
    private let loggedCorrection = Mutex<TimeInterval>(0)

    /// The longest an upload waits for a guest to finish typing.
    static let namingHold: TimeInterval = 300
    /// The longest wait between two attempts at the same entry.
    static let maximumBackoff: TimeInterval = 300
    /// How far ahead of the booth's (corrected) clock a new photo of another booth may be dated:
    /// beyond it, a photo would stay first in every gallery.
    static let futureTolerance: TimeInterval = 3600
    /// No booth took a photo before this: an earlier time is a clock that was never set.
    static let earliestPhoto = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01
    /// The largest photo taken from another booth: 64 megapixels (the decoder refuses a side
    /// above 16,384 pixels too).
    static let maximumPixels = 64 << 20

    /// - Parameters:
    ///   - boothName: this booth's name (`booth.name`): its folder in the bucket; `nil` for a
    ///     gallery without a camera (`photobooth serve`), which only imports.
    ///   - clock: the booth's wall clock, which the store's time corrects.
    ///   - guestDeletions: the booth's guest deletion keys, to publish their digests and take
    ///     the deletions guests ask of other readers; `nil` when guests cannot delete here.
    package init(
        settings: SyncSettings, boothName: String?, library: PhotoLibrary, tagger: any PhotoTagger, thumbnailer: any Thumbnailer,
        logger: Logger, isBeingNamed: @escaping @Sendable (UUID) -> Bool = { _ in false },
        environment: [String: String] = ProcessInfo.processInfo.environment, clock: CorrectedClock = CorrectedClock(),
        guestDeletions: GuestDeletions? = nil
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
        self.guestDeletions = guestDeletions
    }

    /// The store, with the credentials as they are now; `nil` (and the reason in the metrics and
    /// the log) when there are none. Every byte it receives is counted in the metrics.
    func connect(through client: HTTPClient) -> ObjectStore? {
        let metrics = metrics
        let received: @Sendable (Int, Bool) -> Void = { bytes, object in
            metrics.update {
                $0.bytesImported += bytes
                if object { $0.objectsImported += 1 }
            }
        }
        switch Self.store(settings, environment: environment, client: client, clock: clock, received: received) {
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
        _ settings: SyncSettings, environment: [String: String], client: HTTPClient, clock: CorrectedClock,
        received: @escaping @Sendable (_ bytes: Int, _ object: Bool) -> Void = { _, _ in }
    ) -> Result<ObjectStore, CredentialSource.Missing> {
        guard let endpoint = settings.endpoint, let bucket = settings.bucket else {
            return .failure(CredentialSource.Missing(description: "no sync.endpoint or sync.bucket in the configuration"))
        }
        return CredentialSource.load(file: settings.credentialsFile, environment: environment).map { credentials in
            ObjectStore(
                endpoint: endpoint, bucket: bucket, region: settings.region, pathStyle: settings.pathStyle, credentials: credentials,
                bytesPerSecond: settings.maxBytesPerSecond, client: client, clock: clock, received: received)
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
    package func run() async {
        let thread = SyncThread()
        let client = Self.makeClient()
        await loop(thread: thread, client: client)
        try? await client.shutdown()
        await thread.shutDown()
    }

    /// What was being done when the store failed: a listing's success clears a listing's
    /// failure, an upload's only some of an upload's (``listingSucceeded(on:)``).
    typealias Operation = SyncState.Operation

    private func loop(thread: SyncThread, client: HTTPClient) async {
        // The event is remembered with the library, for the copies `photobooth export` makes.
        try? await thread.run { [library, event] in
            try library.outbox.retryNow()
            try library.outbox.updateState { $0.event = event }
        }
        var store = connect(through: client)
        if store == nil, let reason = metrics.snapshot.notSyncing {
            logger.error("The booth does not sync with the event's bucket: \(reason). Photos wait in the outbox meanwhile.")
            try? await thread.run { [library] in
                try library.outbox.updateState { state in
                    state.failure = SyncState.Failure(
                        message: "The booth does not sync: \(reason).", kind: StoreError.Kind.credentials.rawValue, time: Date(),
                        during: nil)
                }
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
            var operation = Operation.listing
            do {
                if Date() >= nextListing {
                    try await importOthers(from: current, on: thread)
                    nextListing = Date() + settings.listInterval.timeInterval
                }
                operation = .upload
                if try await uploadNextRequest(to: current, on: thread) { continue }
                if try await uploadNext(to: current, on: thread) { continue }
            } catch let error as StoreError {
                // A request cut short because the booth is stopping is not the store's failure:
                // it would be logged, and kept as the last error `sync status` shows.
                guard !Task.isCancelled else { break }
                await record(error, during: operation, on: thread)
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
            let retry = (try? await thread.run { [library] in try library.outbox.nextRetry() }) ?? nil
            let until = [retry, nextListing].compactMap { $0 }.min() ?? nextListing
            await pause(.seconds(max(0.05, min(until.timeIntervalSinceNow, 30))), after: &seenQueue)
        }
    }

    /// Imports what the other booths wrote, then uploads everything due, once; throws the first
    /// failure (which stays in the outbox, as in ``run()``).
    package func catchUp() async throws {
        let thread = SyncThread()
        let client = Self.makeClient()
        do {
            guard let store = connect(through: client) else {
                throw StoreError(.credentials, metrics.snapshot.notSyncing ?? "no credentials")
            }
            var operation = Operation.listing
            do {
                try await importOthers(from: store, on: thread)
                operation = .upload
                while try await uploadNextRequest(to: store, on: thread) {}
                while try await uploadNext(to: store, on: thread) {}
                await notePending(on: thread)
            } catch let error as StoreError {
                await record(error, during: operation, on: thread)
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
        guard let summary = try? await thread.run({ [library] in try library.outbox.summary() }) else { return }
        metrics.update {
            $0.pending = summary.pending
            $0.oldestPending = summary.oldest
        }
    }

    /// `photobooth doctor`'s check: with the credentials as the booth finds them, writes a small
    /// object under this booth's own folder, lists the folder and deletes the object again: the
    /// endpoint answers, the credentials are accepted, the bucket exists and the key may write,
    /// list and delete there. Returns what was found (the booth's clock against the store's
    /// among it), or the failure with its fix. Needs no library: doctor runs before the booth's
    /// first start too.
    package static func probe(
        _ settings: SyncSettings, boothName: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        clock: CorrectedClock = CorrectedClock()
    ) async -> Result<String, StoreError> {
        let client = Self.makeClient()
        defer { _ = client.shutdown() }
        let store: ObjectStore
        switch Self.store(settings, environment: environment, client: client, clock: clock) {
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
            return .success(
                "\(store.endpoint.absoluteString) bucket \(store.bucket): wrote, listed and deleted under \(layout.ownPrefix); \(Self.clockLine(clock.correction))."
            )
        } catch {
            return .failure(error)
        }
    }

    /// The booth's clock against the store's, in words for the operator.
    static func clockLine(_ correction: TimeInterval?) -> String {
        guard let correction else { return "the store did not say its time" }
        guard correction != 0 else { return "the booth's clock agrees with the store's (within \(Int(CorrectedClock.tolerance)) s)" }
        return """
            the booth's clock is \(CorrectedClock.describe(correction)): photos are dated by the store's time while it syncs; \
            check NTP (timedatectl)
            """
    }

    /// Waits for `duration`, or until a change is queued.
    private func pause(_ duration: Duration, after seen: inout Int) async {
        let queued = library.outbox.queued
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

    /// Notes a failure of the store: in the metrics, the log and the state `sync status` reads.
    private func record(_ error: StoreError, during operation: Operation, on thread: SyncThread) async {
        metrics.failed(error)
        noteClock()
        logger.warning("Event sync: \(error) Photos wait in the outbox; the booth tries again.")
        let text = error.description
        try? await thread.run { [library] in
            try library.outbox.updateState { state in
                state.failure = SyncState.Failure(message: text, kind: error.kind.rawValue, time: Date(), during: operation)
            }
        }
    }

    /// A listing went through: the store is reachable, the credentials read and the clock is
    /// right, so the last failure is cleared, unless an upload's refusal that a listing cannot
    /// disprove (a key that may read but not write, an upload refused or damaged) waits for
    /// an upload that goes through. `photobooth serve`, which never uploads, is never left
    /// "failing" by a listing's failure that has passed.
    private func listingSucceeded(on thread: SyncThread) async {
        let cleared = try? await thread.run { [library] () throws -> Bool in
            let keptByUpload: Set<String> = [
                StoreError.Kind.credentials.rawValue, StoreError.Kind.refused.rawValue, StoreError.Kind.corrupted.rawValue,
            ]
            let failure = try library.outbox.state().failure
            if failure?.during == .upload, keptByUpload.contains(failure?.kind ?? ""), try library.outbox.summary().pending > 0 {
                try library.outbox.updateState { $0.lastListing = Date() }
                return false
            }
            try library.outbox.updateState { state in
                state.lastListing = Date()
                state.failure = nil
            }
            return true
        }
        metrics.listed(clearingError: cleared ?? false)
        noteClock()
    }

    /// Shows the clock's correction in the metrics, and logs it when it changed: once the store's
    /// time is known to differ from the booth's, and whenever the difference changes by more
    /// than the clock's tolerance.
    private func noteClock() {
        guard let correction = clock.correction else { return }
        metrics.update {
            $0.clockCorrection = correction
            $0.clockKnown = true
        }
        let changed = loggedCorrection.withLock { logged in
            defer { logged = correction }
            return logged != correction
        }
        guard changed else { return }
        if correction == 0 {
            logger.notice("The booth's clock agrees with the store's again; photos are dated by it.")
        } else {
            logger.log(
                level: abs(correction) >= 60 ? .warning : .notice,
                """
                The booth's clock is \(CorrectedClock.describe(correction)) (its Date header): photos are dated and requests \
                signed by the store's time from now on. Check NTP (timedatectl).
                """)
        }
    }

    // MARK: Uploading

    /// What one outbox entry sends.
    private struct Upload: Sendable {
        let entry: OutboxEntry
        /// The record (the sidecar with the event and the original's SHA-256), or a tombstone.
        let record: PhotoSidecar
        let original: Data?
        let thumbnail: Data?
        /// A composed picture's shots, sent with its first upload (they never change after).
        var parts: [(id: UUID, jpeg: Data)] = []
    }

    /// Uploads the oldest entry due; `false` when none is.
    private func uploadNext(to store: ObjectStore, on thread: SyncThread) async throws -> Bool {
        let now = Date()
        let prepared = try await thread.run { [library, tagger, event, isBeingNamed, guestDeletions] () throws -> Upload? in
            var held: Set<UUID> = []
            while let entry = try library.outbox.nextUpload(at: now, skipping: held) {
                if isBeingNamed(entry.id) && now.timeIntervalSince(entry.queuedAt) < Self.namingHold {
                    held.insert(entry.id)
                    continue
                }
                guard let (photo, record) = try library.outbox.syncRecord(of: entry.id, event: event) else {
                    return Upload(entry: entry, record: library.outbox.tombstone(of: entry.id, event: event), original: nil, thumbnail: nil)
                }
                let original = try library.outgoingCopy(of: photo, event: event, tagger: tagger)
                var described = record
                described.sha256 = SHA256.hash(data: original).hex
                if let (digest, until) = guestDeletions?.published(photo) {
                    described.deletionKeySHA256 = digest
                    described.deletableUntil = until
                }
                let thumbnail = entry.thumbnail ? try library.gallery.thumbnail(of: photo.id, includingHidden: true) : nil
                let parts =
                    entry.thumbnail
                    ? try photo.parts.map { (part) throws(LibraryError) in
                        (part.id, try library.outgoingCopy(of: part, of: photo, event: event, tagger: tagger))
                    } : []
                return Upload(entry: entry, record: described, original: original, thumbnail: thumbnail, parts: parts)
            }
            return nil
        }
        guard let upload = prepared else { return false }
        let id = upload.entry.id
        do {
            var bytes = 0
            var objects = 0
            if let original = upload.original {
                // The shots first: a reader that finds the record finds what it names.
                for part in upload.parts {
                    try await store.put(layout.key(.part, of: part.id), part.jpeg, contentType: "image/jpeg")
                    bytes += part.jpeg.count
                    objects += 1
                }
                let animated = upload.record.kind.isAnimated
                try await store.put(
                    layout.originalKey(of: id, animated: animated), original, contentType: animated ? "image/gif" : "image/jpeg")
                bytes += original.count
                objects += 1
                if let thumbnail = upload.thumbnail {
                    try await store.put(layout.key(.thumbnail, of: id), thumbnail, contentType: "image/jpeg")
                    bytes += thumbnail.count
                    objects += 1
                }
            } else {
                // Deleted here: its own objects go (a guest's wish to be forgotten), the tombstone stays.
                for key in layout.originalKeys(of: id, booth: layout.booth) { try await store.delete(key) }
                try await store.delete(layout.key(.thumbnail, of: id))
                for part in upload.record.parts { try await store.delete(layout.key(.part, of: part)) }
            }
            let record = upload.record.xmp
            try await store.put(layout.key(.record, of: id), record, contentType: "application/rdf+xml")
            bytes += record.count
            objects += 1
            try await thread.run { [library] in try library.outbox.uploaded(upload.entry) }
            metrics.succeeded(uploadedObjects: objects, uploadedBytes: bytes)
            noteClock()
            try? await thread.run { [library] in
                try library.outbox.updateState { state in
                    state.lastUpload = Date()
                    state.failure = nil
                }
            }
            logger.info(
                "uploaded \(id.lowercased) \(upload.original == nil ? "(deleted: tombstone)" : upload.record.caption.quoted) to \(layout.ownPrefix)"
            )
            return true
        } catch {
            let attempts = upload.entry.attempts + 1
            let delay = min(Self.maximumBackoff, pow(2, Double(min(attempts - 1, 16)))) * Double.random(in: 0.5...1)
            let message = "\(error)"
            try? await thread.run { [library] in
                try library.outbox.uploadFailed(upload.entry, error: message, retryAt: Date() + delay)
            }
            throw error
        }
    }

    /// Uploads the oldest guest's deletion request taken here that the bucket does not have;
    /// `false` when none waits. The booth that took the photo finds it at its next listing.
    private func uploadNextRequest(to store: ObjectStore, on thread: SyncThread) async throws -> Bool {
        guard let request = try await thread.run({ [library] in try library.outbox.deletionRequestsToUpload().first }) else { return false }
        let object = DeletionRequestObject(photo: request.id.lowercased, key: request.key, requestedAt: request.requestedAt.utcTimestamp)
        let data = try JSONEncoder.booth().encode(object)
        try await store.put(layout.requestKey(of: request.id), data, contentType: "application/json")
        try await thread.run { [library] in try library.outbox.deletionRequestUploaded(request) }
        metrics.succeeded(uploadedObjects: 1, uploadedBytes: data.count)
        logger.info("uploaded a guest's request to delete \(request.id.lowercased) to \(layout.requestKey(of: request.id))")
        return true
    }

    // MARK: Importing

    /// Why an object of the bucket is not taken: said once in the log, and remembered with the
    /// object's ETag so that it is not fetched again until it changes.
    private struct Refusal: Error {
        let reason: String
    }

    /// The version of a record remembered once it was dealt with: its ETag, and for a photo not
    /// imported (its original was missing or refused) its original's too, so that the record is
    /// looked at again when either changes and never otherwise.
    static func version(of record: ListPage.Object, original: ListPage.Object?) -> String {
        "\(record.etag) \(original?.etag ?? "-")"
    }

    /// Lists the event's prefix and brings in what the other booths wrote or changed since, and
    /// the deletions guests asked of other readers for this booth's photos.
    private func importOthers(from store: ObjectStore, on thread: SyncThread) async throws {
        let objects = try await store.listAll(prefix: layout.eventPrefix)
        let seen = try await thread.run { [library] in try library.outbox.seenRecords() }
        var byKey: [String: ListPage.Object] = [:]
        for object in objects { byKey[object.key] = object }
        let firstPublished = firstPublishers(of: objects, byKey: byKey)
        for object in objects {
            try Task.checkCancellation()
            if let (folder, id) = layout.parseRequest(object.key) {
                if folder != layout.requestFolder, seen[object.key] != object.etag {
                    try await takeRequest(object, from: folder, for: id, store: store, thread: thread)
                }
                continue
            }
            guard let (booth, kind, id) = layout.parse(object.key), kind == .record, booth != layout.booth else { continue }
            let original = layout.originalKeys(of: id, booth: booth).lazy.compactMap { byKey[$0] }.first
            if let done = seen[object.key], done == object.etag || done == Self.version(of: object, original: original) { continue }
            try await importRecord(
                object, of: booth, id: id, original: original, publishedFirstBy: firstPublished[id], store: store, thread: thread)
        }
        await listingSucceeded(on: thread)
    }

    /// For each photo whose records sit in more than one booth's folder, the folder that
    /// published it first, as the store dates it: the one whose thumbnail is oldest (a booth
    /// uploads a photo's thumbnail once, with the photo, while a rename uploads the original
    /// and record again), else whose original is. A booth that copies another's photo into its
    /// own folder does so later, and the store's dates cannot be written by a booth: it cannot
    /// take the photo over on a reader that has neither copy yet.
    private func firstPublishers(of objects: [ListPage.Object], byKey: [String: ListPage.Object]) -> [UUID: String] {
        var folders: [UUID: [String]] = [:]
        for object in objects {
            guard let (booth, kind, id) = layout.parse(object.key), kind == .record else { continue }
            folders[id, default: []].append(booth)
        }
        var first: [UUID: String] = [:]
        for (id, claimants) in folders where claimants.count > 1 {
            let published = { (booth: String, kind: BucketLayout.Kind) in
                let keys = kind == .photo ? self.layout.originalKeys(of: id, booth: booth) : [self.layout.key(kind, of: id, booth: booth)]
                return keys.compactMap { byKey[$0]?.lastModified }.min() ?? .distantFuture
            }
            first[id] = claimants.min {
                (published($0, .thumbnail), published($0, .photo), $0) < (published($1, .thumbnail), published($1, .photo), $1)
            }
        }
        return first
    }

    /// Notes that the object at `key` was dealt with at `version` (``version(of:original:)``).
    private func remember(_ key: String, as version: String, on thread: SyncThread) async throws {
        try await thread.run { [library] in try library.outbox.markSeen(key, etag: version) }
    }

    /// IdleWakeups at one record of another booth that changed since it was last dealt with: applies
    /// it to the photo already here, or imports a new photo; refuses it (once) when it does not
    /// check out. A store that fails is thrown (the listing stops, and is tried again); a library
    /// that cannot take a photo now (a full disk) leaves it for the next listing.
    private func importRecord(
        _ object: ListPage.Object, of booth: String, id: UUID, original: ListPage.Object?, publishedFirstBy first: String?,
        store: ObjectStore, thread: SyncThread
    ) async throws {
        var version = object.etag
        let key = object.key
        do {
            guard object.size <= BucketLayout.recordLimit else {
                throw Refusal(reason: "it is \(object.size) bytes, more than a record's \(BucketLayout.recordLimit)")
            }
            if let present = try await thread.run({ [library] in try library.gallery.photo(id: id, includingHidden: true) }) {
                // Only the booth that took a photo changes it, on every reader.
                guard present.origin == booth else {
                    throw Refusal(
                        reason: present.origin.map { "it claims photo \(id.lowercased), which is \(LogText.quoted($0))'s" }
                            ?? "it claims photo \(id.lowercased), which is this booth's own")
                }
                guard let record = try await fetchRecord(key, of: booth, id: id, store: store) else { return }
                try await apply(record, to: present, from: booth, store: store, thread: thread)
            } else {
                version = Self.version(of: object, original: original)
                if let first, first != booth {
                    throw Refusal(reason: "photo \(id.lowercased) was published first by \(LogText.quoted(first)), whose it is")
                }
                // A record without its original (a photo deleted before it was ever imported here,
                // or one whose original has not come): nothing to import until the original comes.
                guard let original else {
                    try await remember(key, as: version, on: thread)
                    return
                }
                guard original.size <= BucketLayout.photoLimit else {
                    throw Refusal(reason: "its original is \(original.size) bytes, more than the \(BucketLayout.photoLimit) a photo may be")
                }
                guard let record = try await fetchRecord(key, of: booth, id: id, store: store) else { return }
                if !record.deleted {
                    guard try await importNew(record, from: booth, original: original.key, store: store, thread: thread) else { return }
                    version = object.etag
                }
            }
            try await remember(key, as: version, on: thread)
        } catch let refusal as Refusal {
            logger.warning("Event sync: \(LogText.quoted(key)) is refused: \(refusal.reason). It is not fetched again until it changes.")
            try await remember(key, as: version, on: thread)
        } catch let error as StoreError where error.kind == .tooLarge {
            logger.warning("Event sync: \(error) It is not fetched again until it changes.")
            try await remember(key, as: version, on: thread)
        } catch let error as StoreError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // One photo that cannot be brought in now (a full disk) does not hold up the others;
            // it is tried again at the next listing.
            logger.warning("Event sync: photo \(id.lowercased) of \(LogText.quoted(booth)) could not be imported: \(error)")
        }
    }

    /// The record at `key`, checked: it reads as a photo's record, of photo `id`, of the
    /// folder's booth and of this event. `nil` when it went meanwhile.
    private func fetchRecord(_ key: String, of booth: String, id: UUID, store: ObjectStore) async throws -> PhotoSidecar? {
        guard let data = try await store.get(key, limit: BucketLayout.recordLimit) else { return nil }
        guard let record = PhotoSidecar(xmp: data) else { throw Refusal(reason: "it does not read as a photo's record") }
        guard record.id == id else { throw Refusal(reason: "it describes photo \(record.id.lowercased), not \(id.lowercased)") }
        // A record written by the booth says that booth's name; an empty name claims no other.
        guard record.booth.isEmpty || BucketLayout.keyName(record.booth) == booth else {
            throw Refusal(reason: "it says it is of booth \(LogText.quoted(record.booth)), not of its folder's")
        }
        guard BucketLayout.keyName(record.event ?? "") == layout.event, record.event != nil else {
            throw Refusal(reason: "it is of event \(LogText.quoted(record.event ?? "")), not of this one")
        }
        return record
    }

    /// Brings what the booth of a photo imported from it changed: a deletion, a new name, the
    /// hidden flag.
    private func apply(_ record: PhotoSidecar, to present: Photo, from booth: String, store: ObjectStore, thread: SyncThread) async throws {
        let id = record.id
        guard record.deleted else {
            if try await thread.run({ [library] in try library.applyImported(record, from: booth) }) {
                logger.info("updated \(id.lowercased) \(record.caption.quoted)\(record.hidden ? " (hidden)" : "") from \(LogText.quoted(booth))")
            }
            return
        }
        if try await thread.run({ [library] in try library.removeImported(id, from: booth) }) {
            logger.info("removed \(id.lowercased): deleted at \(LogText.quoted(booth))")
        }
        // A guest asked for it here: the request has done its work, and goes from the bucket too.
        if let request = try await thread.run({ [library] in try library.outbox.deletionRequest(of: id) }), !request.settled {
            try await store.delete(layout.requestKey(of: id))
            try await thread.run { [library] in try library.outbox.settleDeletionRequest(of: id) }
        }
    }

    /// Imports a new photo of another booth: its original, checked against the record (SHA-256,
    /// pixel size) and decoded here for its thumbnail (the bucket's is never read). `false`
    /// when it must be tried again at the next listing (the original went meanwhile).
    private func importNew(_ record: PhotoSidecar, from booth: String, original key: String, store: ObjectStore, thread: SyncThread)
        async throws -> Bool
    {
        let now = clock.now
        guard record.createdAt <= now + Self.futureTolerance else {
            throw Refusal(reason: "it is dated \(record.createdAt.utcTimestamp), in the future (the store's time is \(now.utcTimestamp))")
        }
        guard record.createdAt >= Self.earliestPhoto else {
            throw Refusal(reason: "it is dated \(record.createdAt.utcTimestamp), before any booth's photo (a clock that was never set)")
        }
        guard let expected = record.sha256 else { throw Refusal(reason: "it gives no SHA-256 of its original") }
        guard let original = try await store.get(key, limit: BucketLayout.photoLimit) else { return false }
        guard SHA256.hash(data: original).hex == expected else {
            throw Refusal(reason: "its original (\(original.count) bytes) does not match the record's SHA-256")
        }
        let thumbnail: Thumbnail
        do {
            thumbnail = try await thread.run { [thumbnailer] in try thumbnailer.thumbnail(of: original) }
        } catch {
            throw Refusal(reason: "its original is not a photo the booth can read (\(error))")
        }
        guard thumbnail.sourceWidth * thumbnail.sourceHeight <= Self.maximumPixels else {
            throw Refusal(reason: "its original is \(thumbnail.sourceWidth)x\(thumbnail.sourceHeight) pixels, more than a photo may be")
        }
        if let width = record.width, let height = record.height, (width, height) != (thumbnail.sourceWidth, thumbnail.sourceHeight) {
            throw Refusal(
                reason: "it says \(width)x\(height) pixels, its original is \(thumbnail.sourceWidth)x\(thumbnail.sourceHeight)")
        }
        let imported = try await thread.run { [library] in
            try library.importPhoto(original, thumbnail: thumbnail, record: record, origin: booth)
        }
        metrics.update { $0.photosImported += 1 }
        logger.info("imported \(imported.id.lowercased) \(imported.caption.quoted) from \(LogText.quoted(booth))")
        return true
    }

    /// A guest's request, written by another reader (`photobooth serve`), to delete a photo:
    /// taken when the photo is this booth's and its own secret accepts the key; the photo is
    /// then deleted as a guest's deletion here is, and its tombstone reaches every reader.
    /// Looked at once per version of the request.
    private func takeRequest(_ object: ListPage.Object, from folder: String, for id: UUID, store: ObjectStore, thread: SyncThread)
        async throws
    {
        let key = object.key
        let markSeen = { try await self.remember(key, as: object.etag, on: thread) }
        guard let guestDeletions,
            let photo = try await thread.run({ [library] in try library.gallery.photo(id: id, includingHidden: true) }), photo.origin == nil
        else {
            // Not a photo of this booth (or guests cannot delete here): another booth's business.
            try await markSeen()
            return
        }
        do {
            guard object.size <= BucketLayout.requestLimit else {
                throw Refusal(reason: "it is \(object.size) bytes, more than a request's \(BucketLayout.requestLimit)")
            }
            guard let data = try await store.get(key, limit: BucketLayout.requestLimit) else { return }
            guard let request = try? JSONDecoder.booth().decode(DeletionRequestObject.self, from: data), request.photo == id.lowercased,
                let time = Date(utcTimestamp: request.requestedAt)
            else { throw Refusal(reason: "it does not read as a request to delete photo \(id.lowercased)") }
            guard time <= clock.now + CorrectedClock.tolerance + 600 else {
                throw Refusal(reason: "it is dated \(request.requestedAt), in the future")
            }
            guard guestDeletions.accepts(request.key, photo, time) else {
                throw Refusal(reason: "its key is not the deletion key of photo \(id.lowercased), or had expired when it was given")
            }
            do {
                try await thread.run { [library] in _ = try library.recycle(id) }
                logger.notice("Deleted photo \(id.lowercased): its guest asked through \(LogText.quoted(folder)) with the photo's key.")
            } catch let error as LibraryError where error.code == .unknownPhoto {
                // Deleted here meanwhile: nothing left to do.
            }
            try await markSeen()
        } catch let refusal as Refusal {
            logger.warning("Event sync: \(LogText.quoted(key)) is refused: \(refusal.reason). It is not fetched again until it changes.")
            try await markSeen()
        } catch let error as StoreError where error.kind == .tooLarge {
            logger.warning("Event sync: \(error) It is not fetched again until it changes.")
            try await markSeen()
        }
    }
}

extension Duration {
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
