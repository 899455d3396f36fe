/// The most recent frames, kept so that the shot can be the frame exposed at the instant the
/// countdown ended rather than whatever frame arrives after the shutter logic runs.
package struct FrameRing: Sendable {
    /// How many frames are kept; older ones are dropped.
    package let capacity: Int
    /// Oldest first.
    package private(set) var frames: [CameraFrame] = []

    /// Creates an empty ring. At 30 frames/s, 8 frames cover a quarter of a second.
    package init(capacity: Int = 8) {
        precondition(capacity > 0, "a frame ring needs room for at least one frame")
        self.capacity = capacity
        frames.reserveCapacity(capacity)
    }

    /// Adds the newest frame, dropping the oldest when full.
    package mutating func append(_ frame: CameraFrame) {
        if frames.count == capacity { frames.removeFirst() }
        frames.append(frame)
    }

    /// The newest frame, if any.
    package var newest: CameraFrame? { frames.last }

    /// The frames ordered by how close their exposure is to `instant`, nearest first; on a tie the
    /// earlier frame wins. The first is the shot; the others stand in if it proves unreadable.
    package func nearest(to instant: MonotonicInstant) -> [CameraFrame] {
        frames.sorted { lhs, rhs in
            let left = abs(lhs.timestamp.nanoseconds - instant.nanoseconds)
            let right = abs(rhs.timestamp.nanoseconds - instant.nanoseconds)
            return left == right ? lhs.timestamp < rhs.timestamp : left < right
        }
    }

    /// When the camera will expose the frame nearest `instant`, if it keeps its pace: the newest
    /// frame's exposure plus whole frame periods. The period is the ring's span over the frames
    /// it stands for, counted by the median gap, so a dropped frame does not stretch it. `nil`
    /// with fewer than three frames or frames out of order; the nearest kept frame for an instant
    /// the ring already covers.
    package func expectedExposure(near instant: MonotonicInstant) -> MonotonicInstant? {
        guard frames.count >= 3, let first = frames.first, let newest else { return nil }
        if covers(instant) { return nearest(to: instant).first?.timestamp }
        let gaps = zip(frames, frames.dropFirst()).map { $1.timestamp.nanoseconds - $0.timestamp.nanoseconds }.sorted()
        let median = gaps[gaps.count / 2]
        guard median > 0, gaps[0] > 0 else { return nil }
        let span = newest.timestamp.nanoseconds - first.timestamp.nanoseconds
        let periods = (Double(span) / Double(median)).rounded()
        let period = Double(span) / periods
        let ahead = (Double(instant.nanoseconds - newest.timestamp.nanoseconds) / period).rounded()
        return MonotonicInstant(nanoseconds: newest.timestamp.nanoseconds + Int64(ahead * period))
    }

    /// Whether a frame exposed at or after `instant` has arrived, so that no later frame can be
    /// nearer to it than one already here.
    package func covers(_ instant: MonotonicInstant) -> Bool {
        guard let newest else { return false }
        return newest.timestamp >= instant
    }
}
