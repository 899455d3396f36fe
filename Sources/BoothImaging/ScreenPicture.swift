/// A picture as the booth's screen shows it: a still, or an animation's frames that play in a
/// loop, each for its own time, as a browser plays the GIF.
///
/// A frame shown more than once (a boomerang's way back) is kept once: ``frames`` are the
/// distinct pictures, ``sequence`` the order they play in.
package struct ScreenPicture: Sendable {
    /// One step of the loop: which of ``frames`` shows, and for how long.
    package struct Step: Sendable, Hashable {
        package var frame: Int
        package var duration: Duration
    }

    /// The distinct pictures, all `.bgrx`.
    package private(set) var frames: [Bitmap]
    /// The loop, in order; one step for a still.
    package let sequence: [Step]
    /// How long one turn of the loop takes.
    package let loopDuration: Duration

    /// A picture that does not move.
    package init(still: Bitmap) {
        self.init(frames: [still], sequence: [Step(frame: 0, duration: .seconds(1))])
    }

    /// `frames` played in the order of `sequence` (indices into `frames`, each step at least a
    /// millisecond long).
    package init(frames: [Bitmap], sequence: [Step]) {
        precondition(!frames.isEmpty && !sequence.isEmpty, "a picture has a frame")
        precondition(sequence.allSatisfy { frames.indices.contains($0.frame) }, "the loop plays the picture's frames")
        self.frames = frames
        self.sequence = sequence.map { Step(frame: $0.frame, duration: max($0.duration, .milliseconds(1))) }
        loopDuration = self.sequence.reduce(.zero) { $0 + $1.duration }
    }

    /// Whether it changes as time passes.
    package var isMoving: Bool { sequence.count > 1 }

    /// The picture before it moves: a thumbnail's, a still screen's.
    package var first: Bitmap { frames[sequence[0].frame] }

    /// The width and height of its frames (they are all the same size).
    package var width: Int { frames[0].width }
    package var height: Int { frames[0].height }

    /// What shows `elapsed` after the picture began: the frame (an index into ``frames``), and
    /// how long after the beginning the next one replaces it; `nil` for a still, which never
    /// changes.
    package func frame(at elapsed: Duration) -> (frame: Int, changesAt: Duration?) {
        guard isMoving else { return (sequence[0].frame, nil) }
        let elapsed = max(elapsed, .zero)
        let turns = Int(elapsed / loopDuration)
        var end = loopDuration * turns
        for step in sequence {
            end += step.duration
            if elapsed < end { return (step.frame, end) }
        }
        // Only rounding in the division lands here: the loop begins again.
        return (sequence[0].frame, end + sequence[0].duration)
    }

    /// The same loop with every frame changed by `transform` (made to fit a box, toned down).
    package func map(_ transform: (Bitmap) -> Bitmap) -> ScreenPicture {
        var copy = self
        copy.frames = frames.map(transform)
        return copy
    }

    /// How many bytes its frames take.
    package var byteCount: Int { frames.reduce(0) { $0 + $1.pixels.count } }
}
