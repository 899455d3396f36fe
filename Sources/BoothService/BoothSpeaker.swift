import BoothCore
import BoothDevices
import BoothSystem
import Foundation
import Logging

/// The booth's speaker, as the configuration says: its ALSA device with the tones and the
/// spoken prompts of the booth's language, or none. A booth whose device cannot be opened runs
/// as one without sound, and its log says so once, as `photobooth doctor` does.
package struct BoothSpeaker: Sendable {
    package let speaker: any Speaker
    /// The device it plays on; `nil` for a booth without sound.
    package let device: String?
    /// Stops the speaker's thread and closes its device.
    package let stop: @Sendable () async -> Void

    /// Opens the speaker `sound` names (it blocks: call it off Swift's pool), with the prompts
    /// of `language` when `voice` says anything.
    package static func open(_ sound: SoundSettings, voice: VoiceMode, language: BoothLanguage, logger: Logger) -> BoothSpeaker {
        guard let device = sound.device else {
            logger.info("Sound is off (sound.device: none).")
            return BoothSpeaker(speaker: NoSpeaker(), device: nil, stop: {})
        }
        let spoken = voice == .off ? [:] : spokenClips(in: sound.voiceDirectory, language: language, logger: logger)
        do {
            let speaker = try ALSASpeaker(device: device, volume: sound.volume, clips: SoundClips(spoken: spoken), logger: logger)
            return BoothSpeaker(speaker: speaker, device: device, stop: { await speaker.stop() })
        } catch {
            logger.notice("No sound: \(error) The booth runs silent; sound.device: none says a booth has no speaker.")
            return BoothSpeaker(speaker: NoSpeaker(), device: nil, stop: {})
        }
    }

    /// The prompts of `language` the package rendered into `directory`/<code>/<prompt>.wav; a
    /// missing or damaged clip is said once, and its sound plays in its place.
    package static func spokenClips(in directory: URL, language: BoothLanguage, logger: Logger) -> [SpokenPrompt: SoundClip] {
        let folder = directory.appendingPathComponent(language.code)
        var clips: [SpokenPrompt: SoundClip] = [:]
        var missing: [String] = []
        for prompt in SpokenPrompt.allCases {
            let file = folder.appendingPathComponent("\(prompt.rawValue).wav")
            guard let data = FileManager.default.contents(atPath: file.path) else {
                missing.append(prompt.rawValue)
                continue
            }
            do {
                clips[prompt] = try SoundClip(wav: [UInt8](data))
            } catch {
                logger.warning("The spoken prompt \(file.path) cannot be played: \(error); its sound plays instead.")
            }
        }
        if !missing.isEmpty {
            logger.notice(
                "Spoken prompts in \(language) missing from \(folder.path) (\(missing.joined(separator: ", "))): the package renders them; beeps stand in for them."
            )
        }
        return clips
    }

    /// What `photobooth doctor` says of the sound device: a booth without one runs silent, so it
    /// is said, never failed.
    package static func check(_ sound: SoundSettings) -> String {
        guard let device = sound.device else { return "none (sound.device: none): the booth is silent." }
        do {
            return try ALSASpeaker.check(device: device)
        } catch {
            return """
                no sound: \(error) The booth runs silent; to hear it, plug a speaker in (`aplay -l` lists the cards) and set \
                sound.device to one `aplay -L` names.
                """
        }
    }
}
