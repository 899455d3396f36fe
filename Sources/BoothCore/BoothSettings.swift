/// How long each part of the booth's cycle lasts, and what its keys mean.
public struct BoothSettings: Sendable, Hashable {
    /// From the press to the shot.
    public var countdown: Duration
    /// How long the booth waits for the next key while a name is typed.
    public var nameTimeout: Duration
    /// How long "Saved as …" stays on screen.
    package var savedDisplay: Duration
    /// How long the booth waits for the frame of the shot before it gives up.
    package var captureTimeout: Duration
    /// How far from the shutter instant a frame may have been exposed and still be the shot.
    package var shotWindow: Duration
    /// How long the booth waits for a photo to be committed before it reports failing storage.
    package var saveTimeout: Duration
    /// How long a fault stays on screen before the booth tries again.
    package var faultRetry: Duration
    /// How long the gallery stays open without a key before the booth goes back to the main
    /// screen, so a guest who walks away does not leave it there.
    public var galleryTimeout: Duration
    /// How long the main screen waits without a guest before it becomes a slideshow of the
    /// library's photos (attract mode); `nil`: it never does.
    public var attractAfter: Duration?
    /// How long each photo of the slideshow stays on screen.
    package var attractSlide: Duration
    /// What the keypad's keys mean.
    public var keys: KeyBindings
    /// The kinds of picture a press makes, and how.
    public var modes: PictureModes
    /// What the booth says besides its sounds (`sound.voice`).
    public var voice: VoiceMode

    public init(
        countdown: Duration = .seconds(3),
        nameTimeout: Duration = .seconds(30),
        savedDisplay: Duration = .seconds(5),
        captureTimeout: Duration = .seconds(3),
        shotWindow: Duration = .milliseconds(250),
        saveTimeout: Duration = .seconds(30),
        faultRetry: Duration = .seconds(5),
        galleryTimeout: Duration = .seconds(60),
        attractAfter: Duration? = nil,
        attractSlide: Duration = .seconds(6),
        keys: KeyBindings = KeyBindings(),
        modes: PictureModes = PictureModes(),
        voice: VoiceMode = .off
    ) {
        self.countdown = countdown
        self.nameTimeout = nameTimeout
        self.savedDisplay = savedDisplay
        self.captureTimeout = captureTimeout
        self.shotWindow = shotWindow
        self.saveTimeout = saveTimeout
        self.faultRetry = faultRetry
        self.galleryTimeout = galleryTimeout
        self.attractAfter = attractAfter
        self.attractSlide = attractSlide
        self.keys = keys
        self.modes = modes
        self.voice = voice
    }
}
