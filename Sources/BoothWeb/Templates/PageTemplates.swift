/// The Mustache templates of the gallery's pages, compiled into the binary: the booth is
/// installed without a resource bundle. One file per template (or pair) in this folder; every
/// page but the slideshow inherits `layout`. `{{name}}` escapes HTML, so captions can hold any
/// text safely; no template uses the unescaped `{{{name}}}`. Every word comes from the
/// booth's texts (`{{text.KEY}}`) or from the view, in the reader's language.
enum PageTemplates {
    /// Each template by the name pages use for it (`{{<layout}}`).
    static let all: [String: String] = [
        "layout": layout,
        "gallery": gallery,
        "albums": albums,
        "photo": photo,
        "deletion": deletion,
        "notice": notice,
        "slideshow": slideshow,
        "admin": admin,
        "error": error,
    ]
}
