extension PageTemplates {
    /// The frame of every page but the slideshow: the booth's name, links to the albums and the
    /// slideshow, the language switch, and the styles, inline because the booth's network has
    /// no internet.
    ///
    /// The grid is a masonry of whole photos: CSS columns (two on a phone, up to five on a
    /// desktop) place them without JavaScript; the gallery's script lays them out in rows of
    /// columns instead, so that the order reads newest first across and pages append without
    /// moving what is there. Every image has its width and height in the markup, so each
    /// cell's size is known before the image arrives; no photo is ever cropped.
    static let layout = #"""
        <!DOCTYPE html>
        <html lang="{{lang}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{$title}}{{boothName}}{{/title}}</title>
        <style>
        :root { color-scheme: light dark; --bg: #f5f2ee; --fg: #1f1c19; --muted: #6d665f; --card: #ffffff; --accent: #b4420f; --gap: 10px; }
        @media (prefers-color-scheme: dark) { :root { --bg: #151311; --fg: #f2eee9; --muted: #a59d95; --card: #24201d; --accent: #fb923c; } }
        @media (min-width: 700px) { :root { --gap: 16px; } }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        a { color: var(--accent); }
        img { display: block; max-width: 100%; height: auto; }
        header.site { max-width: 1280px; margin: 0 auto; padding: 14px 12px; display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: baseline; }
        header.site a.home { color: inherit; font-size: 1.4rem; font-weight: 700; text-decoration: none; margin-right: auto; }
        header.site nav { display: flex; gap: 12px; flex-wrap: wrap; }
        nav.languages a[aria-current] { color: inherit; font-weight: 700; text-decoration: none; }
        main { max-width: 1280px; margin: 0 auto; padding: 0 12px 32px; }
        .welcome { display: flex; gap: 12px; align-items: flex-start; background: var(--card); border-left: 4px solid var(--accent); border-radius: 8px; padding: 12px 14px; margin-bottom: 14px; white-space: pre-line; }
        .welcome p { margin: 0; flex: 1; }
        .welcome button { border: 0; background: none; color: var(--muted); font-size: 1.4rem; line-height: 1; cursor: pointer; }
        form.search { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 14px; }
        form.search label { width: 100%; font-weight: 600; }
        form.search input { flex: 1; min-width: 0; font: inherit; padding: 8px 10px; border-radius: 6px; border: 1px solid var(--muted); background: var(--card); color: inherit; }
        button, .button { font: inherit; font-weight: 600; padding: 8px 14px; border-radius: 6px; border: 0; background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; }
        h1 { font-size: 1.3rem; margin: 0 0 4px; overflow-wrap: anywhere; }
        p.count { margin: 0 0 12px; color: var(--muted); }
        .grid { column-count: 2; column-gap: var(--gap); }
        @media (min-width: 700px) { .grid { column-count: 3; } }
        @media (min-width: 1000px) { .grid { column-count: 4; } }
        @media (min-width: 1250px) { .grid { column-count: 5; } }
        .grid.columns { display: flex; gap: var(--gap); align-items: flex-start; }
        .grid .column { flex: 1 1 0; min-width: 0; }
        a.photo { display: block; break-inside: avoid; margin-bottom: var(--gap); overflow: hidden; border-radius: 8px; background: var(--card); color: inherit; text-decoration: none; box-shadow: 0 1px 3px rgb(0 0 0 / 0.18); }
        a.photo:focus-visible, a.photo:hover { outline: 3px solid var(--accent); }
        figure { margin: 0; }
        a.photo img { width: 100%; height: auto; background: rgb(127 127 127 / 0.2); }
        figcaption { display: flex; flex-direction: column; gap: 2px; padding: 8px 10px; min-width: 0; }
        figcaption .caption { font-weight: 600; overflow-wrap: anywhere; }
        time, .author { color: var(--muted); font-size: 0.85rem; }
        .empty { padding: 48px 16px; text-align: center; color: var(--muted); font-size: 1.1rem; }
        .more { text-align: center; color: var(--muted); padding: 16px; }
        .more span { visibility: hidden; }
        .more.loading span { visibility: visible; }
        nav.pages { max-width: 1280px; margin: 0 auto; padding: 0 12px 32px; display: flex; gap: 16px; justify-content: center; align-items: center; flex-wrap: wrap; }
        nav.pages a, nav.actions a, nav.actions button { padding: 8px 14px; border-radius: 6px; background: var(--card); color: var(--accent); text-decoration: none; font-weight: 600; }
        nav.actions { display: flex; gap: 8px; flex-wrap: wrap; margin-bottom: 12px; }
        nav.actions .back { margin-right: auto; }
        main.photo-page figure { background: var(--card); border-radius: 8px; overflow: hidden; touch-action: pan-y; }
        img.original { width: auto; max-width: 100%; max-height: 80vh; margin: 0 auto; }
        .notice { background: var(--card); border-radius: 8px; padding: 12px 14px; margin-top: 12px; }
        .albums { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: var(--gap); }
        .albums img { width: 100%; aspect-ratio: 4 / 3; object-fit: cover; }
        main.message, main.error { text-align: center; padding-top: 48px; }
        main.message a.cancel { padding: 8px 14px; }
        .admin section { margin-top: 20px; }
        .admin .group, .admin .list { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-end; margin-bottom: 12px; }
        .admin .item { width: 150px; background: var(--card); border-radius: 8px; overflow: hidden; font-size: 0.85rem; }
        .admin .item span { display: block; padding: 4px 6px; overflow-wrap: anywhere; }
        .admin .item button { width: 100%; border-radius: 0; padding: 6px; }
        main.message img { margin: 0 auto; max-height: 40vh; width: auto; border-radius: 8px; }
        main.message form { display: flex; gap: 12px; justify-content: center; flex-wrap: wrap; margin: 16px 0; }
        </style>
        </head>
        <body>
        <header class="site"><a class="home" href="/">{{boothName}}</a><nav class="site"><a href="/albums">{{text.webAlbums}}</a><a href="/slideshow">{{text.webSlideshow}}</a></nav><nav class="languages" aria-label="{{text.webLanguage}}">{{#languages}}<a href="{{path}}" hreflang="{{code}}" lang="{{code}}"{{#isCurrent}} aria-current="true"{{/isCurrent}}>{{name}}</a>{{/languages}}</nav></header>
        {{$content}}{{/content}}
        </body>
        </html>

        """#
}
