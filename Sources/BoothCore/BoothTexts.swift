/// Every word a guest or an operator reads from the booth (its screen, a keypad's display, the
/// terminal, the web's pages), keyed by what it means, so that one meaning reads the same
/// everywhere and each language is one more table (see ``BoothLanguage``).
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
    /// The main screen: how to make a strip, an animation, a boomerang; `{button}` is the
    /// button's name or the key's label.
    case readyForCollage
    case readyForAnimation
    case readyForBoomerang
    /// What the booth's own button is called.
    case theButton
    /// What the buttons of the other modes are called, where a booth has them.
    case theCollageButton
    /// The button that prints (`gpio.print_line`), as the saved screen names it.
    case thePrintButton
    case theAnimationButton
    case theBoomerangButton
    case smile
    /// Spoken as a countdown starts (`sound.voice`), and its last three seconds.
    case spokenGetReady
    case spokenThree
    case spokenTwo
    case spokenOne
    /// Spoken when the picture is saved.
    case spokenSaved
    /// A collage's shot just taken: `{number}` of `{count}`.
    case shotOfCount
    case namingPrompt
    /// On a keypad's display or the terminal, while the booth's screen shows the photo just taken.
    case photoOnScreen
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
    /// Over the booth's own Wi-Fi's QR code on the saved screen, the guest's first step.
    case joinBoothWiFi
    /// Over the photo's QR code beside the Wi-Fi's, the second step.
    case openYourPhoto
    /// On a screen that cannot draw the Wi-Fi's QR code: `{name}` is the network's name.
    case joinWiFiNamed
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
    /// The printer holds prints: what is wrong, in one sentence each, then
    /// ``printerNoticeSentence`` joins it with what becomes of the guest's print.
    case printerOutOfPaper
    case printerJammed
    case printerOutOfInk
    case printerDoorOpen
    case printerOffline
    case printerStopped
    case printerWillPrintLater
    /// The printer prints again, after a fault.
    case printerPrintsAgain
    /// The saved screen: `{key}` prints the picture.
    case printInvitation
    /// The saved screen, once the print key was pressed.
    case printQueued
    /// `{fault}` then `{later}`.
    case printerNoticeSentence
    case galleryTitle
    /// The gallery's title with where the selection is: `{index}` of `{count}`.
    case galleryHeading
    /// A photo in a list of text: `{number}`, `{name}`, `{time}`.
    case galleryRow
    /// Where the selection is: `{index}` of `{count}`.
    case galleryPosition
    /// The gallery's keys on a keyboard, where typing finds a name: `{up}`, `{down}`, `{open}`,
    /// `{back}`.
    case galleryHint
    /// The gallery's keys on a keypad with a key that starts finding a name: `{up}`, `{down}`,
    /// `{open}`, `{back}`, `{find}`.
    case galleryHintFindKey
    /// The start of a name being found, which a photo's name has: `{prefix}`, and the keys that
    /// erase a letter and end the search, `{erase}` and `{done}`.
    case galleryFinding
    /// The start of a name being found, which no photo's name has: `{prefix}`, `{erase}`,
    /// `{done}`.
    case galleryFindingNone
    /// A search started, before its first letter: `{done}` is the key that ends it.
    case galleryFindingStart
    /// A one-line display's gallery while a name is found: `{prefix}`, `{index}`, `{count}`,
    /// `{name}`.
    case galleryLineFinding
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
    /// The terminal's prompt for a name, typed on the line under it.
    case consoleNamingPrompt
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
    /// How many photos: `{count}`, in the language's plural forms.
    case photoCount
    /// What a keyboard's Enter key is called in hints.
    case keyEnter
    /// What a keyboard's Escape key is called in hints.
    case keyEscape
    /// What a keyboard's Backspace key is called in hints.
    case keyBackspace
    /// The search box's label, and its button.
    case webSearchLabel
    case webSearchPlaceholder
    case webSearchButton
    /// A search's heading: `{query}` is what was typed.
    case webSearchHeading
    /// A search that found nothing: `{query}`.
    case webSearchEmpty
    case webAlbums
    /// The album of the operator's favourites.
    case webFavourites
    /// The page a phone joining the booth's Wi-Fi opens by itself: the last pictures taken.
    case webJustTaken
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
    /// A guest's print from the photo page (`print.guests`): the page's offer, the question
    /// (`{name}`), how many prints are left (`{count}`) or that the print comes out at the
    /// booth, the button, the outcome, and the refusals (`{count}`: the limit of a photo).
    case webPrintOffer
    case webPrintQuestion
    case webPrintLeft
    case webPrintWhere
    case webPrintConfirm
    case webPrintCancel
    case webPrinted
    case webPrintLimitPhoto
    case webPrintLimitEvent
    case webPrintOff
    case webSlideshow
    case webSlideshowEmpty
    /// The slideshow's button that stops it on the photo shown, and starts it again.
    case webSlideshowPause
    case webSlideshowResume
    /// The button that closes the welcome text.
    case webWelcomeClose
    /// The language switch's label.
    case webLanguage
    /// The first link of every page but the slideshow, for keyboards and screen readers: past
    /// the header to what the page shows.
    case webSkipToContent
    /// The headings of error pages: a malformed address, nothing there, a failure.
    case webBadAddress
    case webNotFound
    case webSomethingWentWrong
    /// What error pages tell guests: no such address, no such photo, a photo not arrived yet
    /// (the page looks again), the photos unreadable.
    case webNothingHere
    case webNoSuchPhoto
    case webPhotoOnItsWay
    case webCannotReadPhotos
    /// A day, as an album's title: `{day}`, `{month}`, `{year}` (two digits each, the year four).
    case webDate
    /// A day and a time, until which a guest's link can delete their photo: `{day}`, `{month}`,
    /// `{year}`, `{hour}`, `{minute}`.
    case webDateTime
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
    /// The admin page's printing: the button that prints a photo, the print queue's heading,
    /// its buttons, and what the page says once a print is queued.
    case webAdminPrint
    case webAdminPrints
    case webAdminCancelPrint
    case webAdminRetryPrint
    case webAdminPrintQueued
}

extension BoothText {
    /// What the button of `mode` is called (the shutter's, for a single photo).
    package static func theModeButton(for mode: PictureMode) -> BoothText {
        switch mode {
        case .single: .theButton
        case .collage: .theCollageButton
        case .animation: .theAnimationButton
        case .boomerang: .theBoomerangButton
        }
    }
}

/// The booth's texts in one language: a template for each ``BoothText``.
///
/// A table may lack some texts (a language being written): those read as English's, and
/// ``missingKeys`` lists them, which the tests hold empty for every language the booth ships.
public struct BoothTexts: Sendable {
    /// The text of one key: a single template, or one per plural category for a text that
    /// counts (`"{count} photo"`, `"{count} photos"`), chosen by the language's ``PluralRule``.
    /// A string literal is a single template.
    package struct Template: Sendable, Hashable, ExpressibleByStringLiteral {
        /// The templates by category; `.other` is always there, and stands for any category
        /// the language's rule names that the template leaves out.
        package let forms: [PluralCategory: String]

        package init(stringLiteral text: String) {
            forms = [.other: text]
        }

        /// A text that counts, with a template for each category the language's rule uses.
        package static func plural(
            zero: String? = nil, one: String? = nil, two: String? = nil, few: String? = nil, many: String? = nil,
            other: String
        ) -> Template {
            let forms: [PluralCategory: String?] = [.zero: zero, .one: one, .two: two, .few: few, .many: many, .other: other]
            return Template(forms: forms.compactMapValues { $0 })
        }

        private init(forms: [PluralCategory: String]) {
            self.forms = forms
        }

        /// The template for `category`.
        func form(_ category: PluralCategory) -> String {
            forms[category] ?? forms[.other] ?? ""
        }

        /// Every form passed through `transform`.
        func mapping(_ transform: (String) -> String) -> Template {
            Template(forms: forms.mapValues(transform))
        }

        /// The names of the blanks in any of the forms.
        var blanks: Set<String> {
            forms.values.reduce(into: []) { blanks, template in
                var rest = Substring(template)
                while let open = rest.firstIndex(of: "{") {
                    rest = rest[rest.index(after: open)...]
                    let name = rest.prefix { $0 != "}" }
                    blanks.insert(String(name))
                    rest = rest.dropFirst(name.count)
                }
            }
        }
    }

    private let templates: [BoothText: Template]
    /// What a key missing from `templates` reads as: English's templates (empty for English).
    private let fallback: [BoothText: Template]
    /// Which form of a counting text a number takes.
    package let pluralRule: PluralRule

    /// A table in a language counted by `pluralRule`; the keys it lacks read as English's.
    package init(_ templates: [BoothText: Template], pluralRule: PluralRule = .oneIsSingular) {
        self.init(templates, pluralRule: pluralRule, fallback: BoothLanguage.english.texts.templates)
    }

    /// English's own table, which falls back on nothing (its initialisation cannot read itself).
    init(_ templates: [BoothText: Template], pluralRule: PluralRule, fallback: [BoothText: Template]) {
        self.templates = templates
        self.pluralRule = pluralRule
        self.fallback = fallback
    }

    /// The texts in English.
    public static var english: BoothTexts { BoothLanguage.english.texts }

    /// The keys this table lacks: these read as English's (English itself lacks none; a key
    /// it lacked would show its own name).
    package var missingKeys: [BoothText] {
        BoothText.allCases.filter { templates[$0] == nil }
    }

    /// The keys whose templates name other blanks than English's for the same key: a blank
    /// English fills that this table leaves empty, or one this table names that nobody fills.
    package var keysWithOtherBlanks: [BoothText] {
        let english = BoothTexts.english.templates
        return BoothText.allCases.filter { key in
            guard let own = templates[key], let reference = english[key] else { return false }
            return own.blanks != reference.blanks
        }
    }

    /// This table with every template passed through `transform` (a display's own spelling of
    /// punctuation, say); the values filled in later are not.
    package func mapping(_ transform: (String) -> String) -> BoothTexts {
        BoothTexts(
            templates.mapValues { $0.mapping(transform) }, pluralRule: pluralRule,
            fallback: fallback.mapValues { $0.mapping(transform) })
    }

    /// A stretch of a text, set apart or not.
    package struct Run: Sendable, Hashable {
        public var text: String
        /// The words the template marks with `*...*`.
        package var emphasized: Bool

        package init(_ text: String, emphasized: Bool = false) {
            self.text = text
            self.emphasized = emphasized
        }
    }

    /// `key`'s text with its blanks filled in, as runs for a screen that sets words apart.
    package func runs(_ key: BoothText, _ values: [String: String] = [:]) -> [Run] {
        runs(template(key, .other), values)
    }

    /// `key`'s text for `count` things, in the plural form the language gives that number,
    /// with `{count}` filled in and the other blanks from `values`, as runs.
    package func runs(_ key: BoothText, count: Int, _ values: [String: String] = [:]) -> [Run] {
        runs(template(key, pluralRule(count)), values.merging(["count": "\(count)"]) { own, _ in own })
    }

    /// `key`'s text with its blanks filled in, as plain text.
    public func callAsFunction(_ key: BoothText, _ values: [String: String] = [:]) -> String {
        runs(key, values).map(\.text).joined()
    }

    /// `key`'s text for `count` things (`"3 photos"`), as plain text.
    public func callAsFunction(_ key: BoothText, count: Int, _ values: [String: String] = [:]) -> String {
        runs(key, count: count, values).map(\.text).joined()
    }

    /// The template of `key` for `category`; a key in no table reads as its name, so that a
    /// gap shows on screen rather than stopping the booth.
    private func template(_ key: BoothText, _ category: PluralCategory) -> String {
        (templates[key] ?? fallback[key])?.form(category) ?? key.rawValue
    }

    private func runs(_ template: String, _ values: [String: String]) -> [Run] {
        var runs: [Run] = []
        var emphasized = false
        var literal = ""
        var template = Substring(template)
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
}

extension BoothFault {
    /// The fault in a few words, as the screen announces it.
    package var headline: BoothText {
        switch self {
        case .cameraMissing: .cameraMissingHeadline
        case .shotFailed: .shotFailedHeadline
        case .storageFull: .storageFullHeadline
        case .storageFailing: .storageFailingHeadline
        }
    }

    /// What the fault means for the guest, under the headline.
    package var message: BoothText {
        switch self {
        case .cameraMissing: .cameraMissingMessage
        case .shotFailed: .shotFailedMessage
        case .storageFull: .storageFullMessage
        case .storageFailing: .storageFailingMessage
        }
    }

    /// Headline and message on one line, for a terminal, a keypad's display or a log, in
    /// `texts`' language.
    package func sentence(in texts: BoothTexts = .english) -> String {
        texts(.faultSentence, ["headline": texts(headline), "message": texts(message)])
    }
}

extension PrinterFault {
    /// What a guest is told of the fault.
    package var guestText: BoothText {
        switch self {
        case .mediaEmpty, .mediaLow: .printerOutOfPaper
        case .mediaJam: .printerJammed
        case .markerEmpty, .markerLow: .printerOutOfInk
        case .doorOpen: .printerDoorOpen
        case .offline, .connecting, .serverUnreachable: .printerOffline
        case .paused, .stopped, .notAccepting: .printerStopped
        }
    }

    /// The fault and what becomes of the guest's print, in `texts`' language.
    package func notice(in texts: BoothTexts = .english) -> String {
        texts(.printerNoticeSentence, ["fault": texts(guestText), "later": texts(.printerWillPrintLater)])
    }
}
