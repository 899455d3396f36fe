import BoothSync
import BoothWeb

extension GuestDeletions {
    /// What the booth's deletion keys lend the sync: the digest of each photo's key for its
    /// record, and the check of a key a guest gave another reader of the bucket.
    init(keys: DeletionKeys) {
        self.init(
            published: { keys.published(for: $0) },
            accepts: { key, photo, time in
                if case .valid = keys.check(key, for: photo, now: time) { return true }
                return false
            })
    }
}
