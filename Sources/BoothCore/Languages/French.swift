extension BoothLanguage {
    /// French, addressing guests as *vous*. A no-break space (`\u{00A0}`) keeps a colon, an
    /// exclamation mark or a guillemet on the line of the word it belongs to, as French
    /// typography sets them apart.
    public static let french = BoothLanguage(
        code: "fr", nativeName: "Français",
        dateFormat: PhotoDateFormat(pattern: "'Prise le' dd/MM/yyyy 'à' HH'h'mm", locale: "fr_FR"),
        pluralRule: .zeroAndOneAreSingular,
        templates: [
            .starting: "Démarrage de l’appareil photo…",
            .readyToShoot: "Appuyez sur *{button}* pour prendre une photo",
            .readyToBrowse: "Appuyez sur *{key}* pour voir les photos",
            .theButton: "le bouton",
            .smile: "Souriez\u{00A0}!",
            .namingPrompt: "Donnez un nom à votre photo",
            .photoOnScreen: "Votre photo est à l’écran.",
            .namingHint: "{confirm} enregistre · {cancel} garde {placeholder}",
            .namingHintNoCancel: "{confirm} enregistre · {erase} efface · sans nom, la photo garde {placeholder}",
            .namingField: "Nom\u{00A0}: {name}",
            .saving: "Enregistrement de votre photo…",
            .savedAs: "Enregistrée sous *{name}*",
            .savedPendingName: "Votre nom «\u{00A0}{name}\u{00A0}» sera ajouté dès que la borne pourra l’écrire.",
            .scanToDownload: "Scannez pour télécharger",
            .scanLink: "Scannez pour télécharger\u{00A0}: {link}",
            .faultSentence: "{headline}\u{00A0}: {message}",
            .cameraMissingHeadline: "Appareil photo déconnecté",
            .cameraMissingMessage: "L’appareil photo n’est pas disponible. La borne attend son retour.",
            .shotFailedHeadline: "Aucune photo prise",
            .shotFailedMessage: "Désolé, l’appareil photo a manqué cette prise. Veuillez réessayer.",
            .storageFullHeadline: "Stockage plein",
            .storageFullMessage:
                "Cette borne ne peut plus enregistrer de photos tant que de la place n’est pas libérée. Merci de prévenir l’équipe.",
            .storageFailingHeadline: "Enregistrement impossible",
            .storageFailingMessage: "Cette borne ne peut pas enregistrer de photos pour le moment. Merci de prévenir l’équipe.",
            .galleryTitle: "Photos",
            .galleryHeading: "Photos, {index} sur {count}",
            .galleryRow: "{number}. {name} · {time}",
            .galleryPosition: "{index} sur {count}",
            .galleryHint: "{up} {down} pour choisir · {open} pour ouvrir · {back} pour revenir",
            .galleryLine: "{index}/{count} {name}",
            .galleryEmpty: "Pas encore de photos",
            .galleryEmptyHint: "Appuyez sur *{button}* pour prendre la première",
            .galleryEmptyBack: "{back} pour revenir",
            .galleryUnreadable: "Les photos ne peuvent pas être affichées pour le moment.",
            .photoUnreadable: "Cette photo ne peut pas être affichée.",
            .photoUnreadableAt: "La photo {index} sur {count} ne peut pas être affichée.",
            .photoHeading: "Photo {index} sur {count}\u{00A0}: {name} · {time}",
            .photoHint: "{up} {down} plus récente, plus ancienne · {back} retour à la liste",
            .photoLine: "Photo {index}/{count} {name}",
            .consoleNamingPrompt: "Donnez un nom à votre photo\u{00A0}:",
            .consoleHelp: """
            Borne simulée\u{00A0}: Entrée prend une photo\u{00A0}; tapez un nom puis Entrée pour la nommer (Échap puis Entrée \
            garde le nom proposé)\u{00A0}; v puis Entrée affiche les photos (u ou d puis Entrée pour se déplacer, Entrée ouvre \
            et ferme une photo, b puis Entrée pour revenir, p puis Entrée prend une photo)\u{00A0}; Ctrl-D arrête.
            """,
            .consoleHelpButton: "Bouton simulé\u{00A0}: Entrée prend une photo\u{00A0}; le clavier est réel. Ctrl-C arrête.",
            .consoleHelpKeypad:
                "Clavier simulé\u{00A0}: tapez un nom puis Entrée pour nommer une photo, v puis Entrée affiche les photos\u{00A0}; le bouton est réel.",
            .webEmpty: "Pas encore de photos. Appuyez sur le gros bouton de la borne et la vôtre sera la première\u{00A0}!",
            .webPage: "Page {page} sur {count}",
            .webNewer: "← Plus récentes",
            .webOlder: "Plus anciennes →",
            .webAllPhotos: "← Toutes les photos",
            .webDownload: "Télécharger",
            .webBackToGallery: "Retour à la galerie",
            .photoCount: .plural(one: "{count} photo", other: "{count} photos"),
            .keyEnter: "Entrée",
            .keyEscape: "Échap",
            .keyBackspace: "Retour arrière",
        ])
}
