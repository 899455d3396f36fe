/// The most recent frames, kept so that the shot can be the frame exposed at the instant the
/// countdown ended rather than whatever frame arrives after the shutter logic runs.
public struct FrameRing: Sendable {
    /// How many frames are kept; older ones are dropped.
    public let capacity: Int
    /// Oldest first.
    public private(set) var frames: [CameraFrame] = []

    /// Creates an empty ring. At 30 frames/s, 8 frames cover a quarter of a second.
    public init(capacity: Int = 8) {
        precondition(capacity > 0, "a frame ring needs room for at least one frame")
        self.capacity = capacity
        frames.reserveCapacity(capacity)
    }

    /// Adds the newest frame, dropping the oldest when full.
    public mutating func append(_ frame: CameraFrame) {
        if frames.count == capacity { frames.removeFirst() }
        frames.append(frame)
    }

    /// The newest frame, if any.
    public var newest: CameraFrame? { frames.last }

    /// The frames ordered by how close their exposure is to `instant`, nearest first; on a tie the
    /// earlier frame wins. The first is the shot; the others stand in if it proves unreadable.
    public func nearest(to instant: MonotonicInstant) -> [CameraFrame] {
        frames.sorted { lhs, rhs in
            let left = abs(lhs.timestamp.nanoseconds - instant.nanoseconds)
            let right = abs(rhs.timestamp.nanoseconds - instant.nanoseconds)
            return left == right ? lhs.timestamp < rhs.timestamp : left < right
        }
    }

    /// Whether a frame exposed at or after `instant` has arrived, so that no later frame can be
    /// nearer to it than one already here.
    public func covers(_ instant: MonotonicInstant) -> Bool {
        guard let newest else { return false }
        return newest.timestamp >= instant
    }
}
