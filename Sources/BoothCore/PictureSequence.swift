import Foundation

/// The kind of picture a press makes.
public enum PictureMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// One shot: today's photo (framed by the layout when the booth has one for it).
    case single
    /// Several shots, each after its own countdown, composed in the layout's slots: a strip, a
    /// collage.
    case collage
    /// One countdown, then a burst of frames at a fixed interval, played in a loop.
    case animation
    /// An animation played forward, then backward.
    case boomerang

    public var description: String { rawValue }

    /// Whether its shots are taken as one burst after a single countdown.
    package var isBurst: Bool { self == .animation || self == .boomerang }

    /// Where the mode comes in lists (the main screen's invitations): in the order of its cases.
    public var sortOrder: Int { Self.allCases.firstIndex(of: self)! }
}

/// How a press of each mode is made: how many shots, and their timing.
public struct PictureModes: Sendable, Hashable {
    /// The mode of the shutter button and of a key that does not name one.
    public var standard: PictureMode
    /// How many shots a collage takes: its layout's slots.
    public var collageShots: Int
    /// The countdown before each shot of a collage after the first.
    public var nextCountdown: Duration
    /// How long each shot of a collage is shown ("1 of 4") before the next countdown.
    public var shotReview: Duration
    /// How many frames an animation or boomerang takes.
    public var animationFrames: Int
    /// The time between an animation's frames.
    public var animationInterval: Duration
    /// Whether a single photo is composed too (the booth has a layout for it: the event's frame).
    public var composesSingles: Bool

    public init(
        standard: PictureMode = .single, collageShots: Int = 4, nextCountdown: Duration = .seconds(3),
        shotReview: Duration = .seconds(2), animationFrames: Int = 10, animationInterval: Duration = .milliseconds(200),
        composesSingles: Bool = false
    ) {
        precondition(collageShots >= 1 && animationFrames >= 2, "a collage takes a shot and an animation two frames at least")
        self.standard = standard
        self.collageShots = collageShots
        self.nextCountdown = nextCountdown
        self.shotReview = shotReview
        self.animationFrames = animationFrames
        self.animationInterval = animationInterval
        self.composesSingles = composesSingles
    }

    /// How many shots a picture of `mode` takes.
    package func shots(for mode: PictureMode) -> Int {
        switch mode {
        case .single: 1
        case .collage: collageShots
        case .animation, .boomerang: animationFrames
        }
    }

    /// Whether a picture of `mode` is composed from its shots after they are taken.
    package func composes(_ mode: PictureMode) -> Bool {
        mode != .single || composesSingles
    }
}

/// A picture being made, as the machine follows it: its mode, its id, and its shots.
public struct PictureSequence: Sendable, Hashable {
    public var mode: PictureMode
    /// The picture's permanent id, minted with its first shot; `nil` before.
    public var picture: UUID?
    /// How many shots it takes.
    public var count: Int
    /// The shots taken and being saved, in order.
    public var taken: [UUID] = []

    package init(mode: PictureMode, count: Int) {
        self.mode = mode
        self.count = count
    }

    /// Whether every shot is taken.
    package var isComplete: Bool { taken.count == count }
}

/// The picture a shot belongs to, when it is part of one: a collage's shot, an animation's
/// frame. The writer keeps such a shot as a part of the picture, not as a photo of its own.
public struct ShotPart: Sendable, Hashable {
    /// The picture's id.
    public var picture: UUID
    public var mode: PictureMode
    /// The shot's place among the picture's, from 0.
    public var index: Int
    /// How many shots the picture takes.
    public var count: Int

    public init(picture: UUID, mode: PictureMode, index: Int, count: Int) {
        self.picture = picture
        self.mode = mode
        self.index = index
        self.count = count
    }
}

/// A picture to compose from its shots, all taken and being saved, in order.
public struct PictureOrder: Sendable, Hashable {
    public var picture: TakenPhoto
    public var mode: PictureMode
    public var parts: [UUID]

    public init(picture: TakenPhoto, mode: PictureMode, parts: [UUID]) {
        self.picture = picture
        self.mode = mode
        self.parts = parts
    }
}
