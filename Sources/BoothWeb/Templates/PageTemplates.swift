/// The Mustache templates of the gallery's pages, compiled into the binary: the booth is
/// installed without a resource bundle. One file per template in this folder; every page
/// inherits `layout`. `{{name}}` escapes HTML, so captions can hold any text safely; no
/// template uses the unescaped `{{{name}}}`.
enum PageTemplates {
    /// Each template by the name pages use for it (`{{<layout}}`).
    static let all: [String: String] = [
        "layout": layout,
        "gallery": gallery,
        "photo": photo,
        "error": error,
    ]
}
