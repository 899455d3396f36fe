import BoothCore
import BoothImaging
import BoothStore
import BoothSystem
import Foundation
import Logging
import ServiceLifecycle

/// Gives the photos the catalog has no perceptual hash for (saved before the booth made them, or
/// imported from another booth) their hash, in the background, once per start: each original
/// is decoded at the thumbnail's scale, as ``ShotDecoder`` hashes a new shot.
///
/// Decoding blocks and costs CPU, so it runs on a thread of its own at ``BackgroundPriority``,
/// a photo at a time: the capture path and the screen come first. It ends by itself once every
/// photo has its hash, and between two photos when the booth stops; what is left waits for the
/// next start.
struct PerceptualHashFiller: Service {
    /// What one pass did.
    struct Outcome: Equatable {
        /// Photos given their hash.
        var hashed = 0
        /// Photos whose original could not be read or decoded; they keep no hash.
        var unreadable = 0
        /// Whether every photo without a hash was tried (not stopped halfway, nor by the catalog).
        var finished = false
    }

    let library: PhotoLibrary
    let logger: Logger
    /// How many photos are listed at a time.
    var batchSize = 32

    func run() async {
        if !library.isReadOnly {
            let stop = Wakeup()
            await withTaskCancellationOrGracefulShutdownHandler {
                _ = await DedicatedThread.run(name: "perceptual hashes", priority: .background) { fill(unless: stop) }
            } onCancelOrGracefulShutdown: {
                stop.requestStop()
            }
        }
        // Done, the service waits with the others: a service that returns while the group shuts
        // down is one that failed, to swift-service-lifecycle, whatever its termination behaviour.
        try? await gracefulShutdown()
    }

    /// Hashes every photo that has no hash, until `stop` is asked to stop; logs how many. It
    /// blocks: call it on a thread of its own.
    @discardableResult
    func fill(unless stop: Wakeup) -> Outcome {
        let clock = ContinuousClock()
        let started = clock.now
        var outcome = Outcome()
        // Photos whose original cannot be read stay without a hash: listed again, they are skipped.
        var skipped = Set<UUID>()
        listing: while !stop.isStopping {
            let photos: [Photo]
            do {
                photos = try library.maintenance.photosWithoutPerceptualHash(limit: skipped.count + batchSize).filter { !skipped.contains($0.id) }
            } catch {
                logger.error("Perceptual hashes: the photos without one cannot be listed: \(error) The next start tries again.")
                break
            }
            guard !photos.isEmpty else {
                outcome.finished = true
                break
            }
            for photo in photos {
                if stop.isStopping { break listing }
                let hash: UInt64
                do {
                    hash = try ShotDecoder.perceptualHash(ofJPEG: try Data(contentsOf: library.url(of: photo)))
                } catch {
                    logger.warning(
                        "Photo \(photo.id.lowercased) gets no perceptual hash: its original cannot be read (\(error)). `photobooth check` says more.")
                    skipped.insert(photo.id)
                    outcome.unreadable += 1
                    continue
                }
                do {
                    try library.maintenance.setPerceptualHash(hash, of: photo.id)
                    outcome.hashed += 1
                } catch {
                    logger.error("Perceptual hashes: the catalog cannot store one: \(error) The next start tries again.")
                    break listing
                }
            }
        }
        log(outcome, after: clock.now - started)
        return outcome
    }

    private func log(_ outcome: Outcome, after duration: Duration) {
        guard outcome.hashed + outcome.unreadable > 0 || !outcome.finished else { return }
        let photos = "\(outcome.hashed) photo\(outcome.hashed == 1 ? "" : "s")"
        let unreadable = outcome.unreadable == 0 ? "" : ", \(outcome.unreadable) could not be read"
        if outcome.finished {
            logger.info("Perceptual hashes: \(photos) given theirs in \(duration.formattedMilliseconds)\(unreadable).")
        } else {
            logger.notice(
                "Perceptual hashes: \(photos) given theirs in \(duration.formattedMilliseconds)\(unreadable); the rest wait for the next start.")
        }
    }
}
