/// Every word a guest or an operator reads from the booth (its screen, a keypad's display, the
/// terminal, the web's pages), keyed by what it means, so that one meaning reads the same
/// everywhere and a second language is one more table.
///
/// A text is a whole sentence with named blanks: `{name}` stands for a value (a caption, a
/// number, a key's label), and `*...*` marks the words a screen sets apart (in its accent
/// colour). Values are inserted as they are, never read for marks, so a caption with a `*` in
/// it stays as typed.
public enum BoothText: String, CaseIterable, Sendable {
    case starting
    /// The main screen: how to take a photo; `{button}` is the button's name.
    case readyToShoot
    /// The main screen: how to open the gallery; `{key}` is the key's label.
    case readyToBrowse
    /// What the booth's own button is called.
    case theButton
    case smile
    case namingPrompt
    /// How to finish a name: `{confirm}` and `{cancel}` are keys, `{placeholder}` the name kept.
    case namingHint
    /// How to finish a name on a keypad without a cancel key: `{confirm}`, `{erase}`,
    /// `{placeholder}`.
    case namingHintNoCancel
    /// The name being typed, on a one-line display.
    case namingField
    case saving
    /// `{name}` is the caption the photo was saved under.
    case savedAs
    /// A name that could not be written yet: `{name}`.
    case savedPendingName
    case scanToDownload
    /// The saved photo's page, on a screen that cannot draw its QR code: `{link}`.
    case scanLink
    /// A fault on one line: `{headline}` and `{message}`.
    case faultSentence
    case cameraMissingHeadline
    case cameraMissingMessage
    case shotFailedHeadline
    case shotFailedMessage
    case storageFullHeadline
    case storageFullMessage
    case storageFailingHeadline
    case storageFailingMessage
    case galleryTitle
    /// The gallery's title with where the selection is: `{index}` of `{count}`.
    case galleryHeading
    /// A photo in a list of text: `{number}`, `{name}`, `{time}`.
    case galleryRow
    /// Where the selection is: `{index}` of `{count}`.
    case galleryPosition
    /// The gallery's keys: `{up}`, `{down}`, `{open}`, `{back}`.
    case galleryHint
    /// A one-line display's gallery: `{index}`, `{count}`, `{name}`.
    case galleryLine
    case galleryEmpty
    /// What to do in an empty gallery: `{button}`.
    case galleryEmptyHint
    /// How to leave an empty gallery: `{back}`.
    case galleryEmptyBack
    case galleryUnreadable
    case photoUnreadable
    /// A photo that cannot be shown, in a list of text: `{index}` of `{count}`.
    case photoUnreadableAt
    /// A full-screen photo in text: `{index}`, `{count}`, `{name}`, `{time}`.
    case photoHeading
    /// A full-screen photo's keys: `{up}`, `{down}`, `{back}`.
    case photoHint
    /// A one-line display's full-screen photo: `{index}`, `{count}`, `{name}`.
    case photoLine
    /// The terminal's keys, when it plays the button and the keypad.
    case consoleHelp
    /// The terminal's keys, when it plays the button only.
    case consoleHelpButton
    /// The terminal's keys, when it plays the keypad only.
    case consoleHelpKeypad
    /// The web gallery with no photo yet.
    case webEmpty
    /// The web's page numbers: `{page}` of `{count}`.
    case webPage
    case webNewer
    case webOlder
    case webAllPhotos
    case webDownload
    case webBackToGallery
    /// The search box's label, and its button.
    case webSearchLabel
    case webSearchPlaceholder
    case webSearchButton
    /// A search's heading: `{query}` is what was typed.
    case webSearchHeading
    /// A search that found nothing: `{query}`.
    case webSearchEmpty
    /// How many photos, one and more: `{count}`.
    case webPhotoCountOne
    case webPhotoCountOther
    case webAlbums
    /// The album of the operator's favourites.
    case webFavourites
    case webAlbumsEmpty
    case webAlbumEmpty
    /// While the next page of the grid comes.
    case webLoadingMore
    /// The photo page's author: `{author}` is the booth's name.
    case webAuthor
    case webShare
    case webPreviousPhoto
    case webNextPhoto
    /// The photo page's offer to the guest who took it, and the confirmation's question (`{name}`),
    /// explanation (`{time}`: until when the link works) and answers.
    case webDeleteOffer
    case webDeleteQuestion
    case webDeleteExplanation
    case webDeleteConfirm
    case webDeleteCancel
    case webDeleted
    /// A deletion link past its time: `{time}`.
    case webDeleteExpired
    case webDeleteWrongKey
    case webDeleteGone
    case webDeleteImported
    case webSlideshow
    case webSlideshowEmpty
    /// The button that closes the welcome text.
    case webWelcomeClose
    /// The language switch's label, and each language's name in its own words.
    case webLanguage
    case languageName
    /// The admin page: its title, the token form, the favourite toggles, the near-duplicates.
    case webAdminTitle
    case webAdminToken
    case webAdminOpen
    case webAdminRefused
    case webAdminFavourite
    case webAdminUnfavourite
    case webAdminDuplicates
    case webAdminNoDuplicates
    case webAdminHideOthers
    case webAdminFailed
}

/// The booth's texts in one language: a template for every ``BoothText``.
public struct BoothTexts: Sendable {
    private let templates: [BoothText: String]

    /// A table that must hold every text: a missing one is a programming error, found by the
    /// tests that walk ``BoothText/allCases``.
    public init(_ templates: [BoothText: String]) {
        precondition(BoothText.allCases.allSatisfy { templates[$0] != nil }, "every text needs a template")
        self.templates = templates
    }

    /// This table with every template passed through `transform` (a display's own spelling of
    /// punctuation, say); the values filled in later are not.
    public func mapping(_ transform: (String) -> String) -> BoothTexts {
        BoothTexts(templates.mapValues(transform))
    }

    /// A stretch of a text, set apart or not.
    public struct Run: Sendable, Hashable {
        public var text: String
        /// The words the template marks with `*...*`.
        public var emphasized: Bool

        public init(_ text: String, emphasized: Bool = false) {
            self.text = text
            self.emphasized = emphasized
        }
    }

    /// `key`'s text with its blanks filled in, as runs for a screen that sets words apart.
    public func runs(_ key: BoothText, _ values: [String: String] = [:]) -> [Run] {
        var runs: [Run] = []
        var emphasized = false
        var literal = ""
        var template = Substring(templates[key]!)
        func append(_ text: String) {
            if let last = runs.last, last.emphasized == emphasized {
                runs[runs.count - 1].text += text
            } else if !text.isEmpty {
                runs.append(Run(text, emphasized: emphasized))
            }
        }
        while let character = template.popFirst() {
            switch character {
            case "*":
                append(literal)
                literal = ""
                emphasized.toggle()
            case "{":
                let name = template.prefix { $0 != "}" }
                template = template.dropFirst(name.count + 1)
                append(literal)
                literal = ""
                append(values[String(name)] ?? "")
            default:
                literal.append(character)
            }
        }
        append(literal)
        return runs
    }

    /// `key`'s text with its blanks filled in, as plain text.
    public func callAsFunction(_ key: BoothText, _ values: [String: String] = [:]) -> String {
        runs(key, values).map(\.text).joined()
    }

    /// The texts in English.
    public static let english = BoothTexts([
        .starting: "Starting the camera\u{2026}",
        .readyToShoot: "Press *{button}* to take a photo",
        .readyToBrowse: "Press *{key}* to see the photos",
        .theButton: "the button",
        .smile: "Smile!",
        .namingPrompt: "Name your photo",
        .namingHint: "{confirm} saves \u{00B7} {cancel} keeps {placeholder}",
        .namingHintNoCancel: "{confirm} saves \u{00B7} {erase} erases \u{00B7} saving no name keeps {placeholder}",
        .namingField: "Name: {name}",
        .saving: "Saving your photo\u{2026}",
        .savedAs: "Saved as *{name}*",
        .savedPendingName: "Your name \u{201C}{name}\u{201D} will be added as soon as the booth can write it.",
        .scanToDownload: "Scan to download",
        .scanLink: "Scan to download: {link}",
        .faultSentence: "{headline}: {message}",
        .cameraMissingHeadline: "Camera disconnected",
        .cameraMissingMessage: "The camera is not available. Waiting for it to return.",
        .shotFailedHeadline: "No photo taken",
        .shotFailedMessage: "Sorry, the camera missed that shot. Please try again.",
        .storageFullHeadline: "Storage full",
        .storageFullMessage: "This booth cannot save photos until space is freed. Please tell the staff.",
        .storageFailingHeadline: "Cannot save photos",
        .storageFailingMessage: "This booth cannot save photos right now. Please tell the staff.",
        .galleryTitle: "Photos",
        .galleryHeading: "Photos, {index} of {count}",
        .galleryRow: "{number}. {name} \u{00B7} {time}",
        .galleryPosition: "{index} of {count}",
        .galleryHint: "{up} {down} choose \u{00B7} {open} opens \u{00B7} {back} goes back",
        .galleryLine: "{index}/{count} {name}",
        .galleryEmpty: "No photos yet",
        .galleryEmptyHint: "Press *{button}* to take the first one",
        .galleryEmptyBack: "{back} goes back",
        .galleryUnreadable: "The photos cannot be shown right now.",
        .photoUnreadable: "This photo cannot be shown.",
        .photoUnreadableAt: "Photo {index} of {count} cannot be shown.",
        .photoHeading: "Photo {index} of {count}: {name} \u{00B7} {time}",
        .photoHint: "{up} {down} newer, older \u{00B7} {back} back to the list",
        .photoLine: "View {index}/{count} {name}",
        .consoleHelp: """
        Simulated booth: Enter takes a photo; type a name and Enter to name it (Esc, Enter keeps the default); \
        v and Enter shows the photos (u or d and Enter moves, Enter opens and closes a photo, b and Enter goes back, \
        p and Enter takes a photo); Ctrl-D stops.
        """,
        .consoleHelpButton: "Simulated button: Enter takes a photo; the keypad is real. Ctrl-C stops.",
        .consoleHelpKeypad: "Simulated keypad: type a name and Enter to name a photo, v and Enter shows the photos; the button is real.",
        .webEmpty: "No photos yet. Press the big button on the booth and yours will be the first!",
        .webPage: "Page {page} of {count}",
        .webNewer: "\u{2190} Newer",
        .webOlder: "Older \u{2192}",
        .webAllPhotos: "\u{2190} All photos",
        .webDownload: "Download",
        .webBackToGallery: "Back to the gallery",
        .webSearchLabel: "Find your photos",
        .webSearchPlaceholder: "A name, such as Zo\u{00EB}",
        .webSearchButton: "Search",
        .webSearchHeading: "Photos named \u{201C}{query}\u{201D}",
        .webSearchEmpty: "No photo named \u{201C}{query}\u{201D}. Try part of the name, or another spelling.",
        .webPhotoCountOne: "{count} photo",
        .webPhotoCountOther: "{count} photos",
        .webAlbums: "Albums",
        .webFavourites: "Favourites",
        .webAlbumsEmpty: "No albums yet: they fill up as photos are taken and named.",
        .webAlbumEmpty: "No photos in this album yet.",
        .webLoadingMore: "Loading more photos\u{2026}",
        .webAuthor: "By {author}",
        .webShare: "Share",
        .webPreviousPhoto: "\u{2190} Previous",
        .webNextPhoto: "Next \u{2192}",
        .webDeleteOffer: "Delete this photo",
        .webDeleteQuestion: "Delete \u{201C}{name}\u{201D}?",
        .webDeleteExplanation: "It leaves the gallery for good. This link can delete it until {time}.",
        .webDeleteConfirm: "Yes, delete it",
        .webDeleteCancel: "No, keep it",
        .webDeleted: "Your photo has been deleted.",
        .webDeleteExpired: "This link could delete the photo until {time}; that time has passed. Ask the booth's staff to remove it.",
        .webDeleteWrongKey: "This link cannot delete this photo. Use the link the booth showed you for it.",
        .webDeleteGone: "This photo has already been deleted.",
        .webDeleteImported: "This photo was taken at another booth of the event: only that booth can delete it.",
        .webSlideshow: "Slideshow",
        .webSlideshowEmpty: "Photos appear here as soon as they are taken.",
        .webWelcomeClose: "Close",
        .webLanguage: "Language",
        .languageName: "English",
        .webAdminTitle: "Manage the photos",
        .webAdminToken: "Admin token",
        .webAdminOpen: "Open",
        .webAdminRefused: "The booth refused this token.",
        .webAdminFavourite: "\u{2606} Mark as favourite",
        .webAdminUnfavourite: "\u{2605} Favourite",
        .webAdminDuplicates: "Near-duplicates",
        .webAdminNoDuplicates: "No near-duplicates.",
        .webAdminHideOthers: "Hide all but the first",
        .webAdminFailed: "That did not work; try again.",
    ])
}

extension BoothFault {
    /// The fault in a few words, as the screen announces it.
    public var headline: BoothText {
        switch self {
        case .cameraMissing: .cameraMissingHeadline
        case .shotFailed: .shotFailedHeadline
        case .storageFull: .storageFullHeadline
        case .storageFailing: .storageFailingHeadline
        }
    }

    /// What the fault means for the guest, under the headline.
    public var message: BoothText {
        switch self {
        case .cameraMissing: .cameraMissingMessage
        case .shotFailed: .shotFailedMessage
        case .storageFull: .storageFullMessage
        case .storageFailing: .storageFailingMessage
        }
    }

    /// Headline and message on one line, for a terminal, a keypad's display or a log, in
    /// `texts`' language.
    public func sentence(in texts: BoothTexts = .english) -> String {
        texts(.faultSentence, ["headline": texts(headline), "message": texts(message)])
    }
}
