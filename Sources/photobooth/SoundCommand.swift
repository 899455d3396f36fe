import ArgumentParser
import BoothCore
import BoothService
import BoothSystem
import Foundation
import Logging

struct SoundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sound",
        abstract: "Try the booth's speaker, or list the prompts it speaks.",
        discussion: """
            The booth beeps each second of the countdown, sounds a shutter at the instant of \
            the shot and a chime when the picture is saved, through the ALSA device \
            sound.device (default: the system's output) at sound.volume. With sound.voice it \
            also speaks, in the booth's language, prompts the package renders when it is built \
            (/usr/share/photobooth/voice/LANGUAGE/PROMPT.wav).
            """,
        subcommands: [SoundTestCommand.self, SoundPromptsCommand.self])
}

struct SoundTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Play the booth's sounds once, as a countdown does, on the configured speaker.",
        discussion: """
            Plays the countdown's three seconds (beeps, or the prompts sound.voice says), the \
            shutter, then the saved sound, with the configuration and options `run` would use. \
            Stop the booth first if its device takes one stream at a time.

            EXIT STATUS
              0  The sounds were played.
              1  The sound device cannot be opened (the message says why), or sound.device is none.
            """)

    @OptionGroup var library: LibraryOptions
    @OptionGroup var hardware: HardwareOptions

    func run() async throws {
        startLogging(at: .warning)
        let configuration = try hardware.configuration(
            dataDirectory: library.directory, explicitDataDirectory: library.dataDirectory != nil, simulate: false)
        let logger = Logger(label: "photobooth")
        let opened = await DedicatedThread.run(name: "sound") {
            BoothSpeaker.open(
                configuration.hardware.sound, voice: configuration.settings.voice, language: configuration.language, logger: logger)
        }
        guard let device = opened.device else {
            print(BoothSpeaker.check(configuration.hardware.sound))
            throw ExitCode(1)
        }
        let clock = MonotonicClock()
        let start = clock.now + .milliseconds(300)
        var machine = BoothMachine(settings: BoothSettings(countdown: .seconds(3), voice: configuration.settings.voice), newPhotoID: { UUID() })
        _ = machine.handle(.cameraReady, at: start)
        let sounds = machine.handle(.shutterPressed(at: start), at: start).compactMap { effect -> (BoothSound, MonotonicInstant)? in
            if case .play(let sound, let instant) = effect { (sound, instant) } else { nil }
        }
        let saved = (configuration.settings.voice == .off ? BoothSound.saved : .spoken(.saved), start + .seconds(4))
        for (sound, instant) in sounds + [saved] {
            opened.speaker.play(sound, at: instant)
        }
        print("Playing on \(device): \((sounds + [saved]).map { "\($0.0)" }.joined(separator: ", ")).")
        try await clock.sleep(until: start + .seconds(6), tolerance: nil)
        await opened.stop()
    }
}

struct SoundPromptsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prompts",
        abstract: "Print the spoken prompts' texts, a line each: LANGUAGE, PROMPT and TEXT, tab-separated.",
        discussion: """
            What the package's build renders with a speech synthesizer into \
            /usr/share/photobooth/voice/LANGUAGE/PROMPT.wav: the prompts of every language, or \
            of --language's.
            """)

    @Option(help: ArgumentHelp("Only this language's prompts: en, fr or de.", valueName: "code"))
    var language: BoothLanguage?

    func run() {
        for language in language.map({ [$0] }) ?? BoothLanguage.all {
            for prompt in SpokenPrompt.allCases {
                print("\(language.code)\t\(prompt.rawValue)\t\(prompt.spokenText(in: language.texts))")
            }
        }
    }
}
