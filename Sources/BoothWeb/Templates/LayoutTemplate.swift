extension PageTemplates {
    /// The frame of every page: the booth's name, and the styles, inline because the booth's
    /// network has no internet. The grid fits two columns on a phone and up to five on a
    /// desktop; no image is ever wider than the screen.
    static let layout = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{$title}}{{boothName}}{{/title}}</title>
        <style>
        :root { color-scheme: light dark; --bg: #f5f2ee; --fg: #1f1c19; --muted: #6d665f; --card: #ffffff; --accent: #b4420f; }
        @media (prefers-color-scheme: dark) { :root { --bg: #151311; --fg: #f2eee9; --muted: #a59d95; --card: #24201d; --accent: #fb923c; } }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        a { color: var(--accent); }
        img { display: block; max-width: 100%; height: auto; }
        header.site { max-width: 1280px; margin: 0 auto; padding: 14px 12px; }
        header.site a.home { color: inherit; font-size: 1.4rem; font-weight: 700; text-decoration: none; }
        main { max-width: 1280px; margin: 0 auto; padding: 0 12px 32px; }
        main.gallery { display: grid; grid-template-columns: repeat(auto-fill, minmax(160px, 1fr)); gap: 12px; align-items: start; }
        @media (min-width: 700px) { main.gallery { grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 16px; } }
        a.photo { display: block; min-width: 0; overflow: hidden; border-radius: 8px; background: var(--card); color: inherit; text-decoration: none; box-shadow: 0 1px 3px rgb(0 0 0 / 0.18); }
        a.photo:focus-visible, a.photo:hover { outline: 3px solid var(--accent); }
        figure { margin: 0; }
        a.photo img { width: 100%; aspect-ratio: 4 / 3; object-fit: cover; background: rgb(127 127 127 / 0.2); }
        figcaption { display: flex; flex-direction: column; gap: 2px; padding: 8px 10px; min-width: 0; }
        figcaption .caption { font-weight: 600; overflow-wrap: anywhere; }
        time { color: var(--muted); font-size: 0.85rem; }
        .empty { grid-column: 1 / -1; padding: 48px 16px; text-align: center; color: var(--muted); font-size: 1.1rem; }
        nav.pages { max-width: 1280px; margin: 0 auto; padding: 0 12px 32px; display: flex; gap: 16px; justify-content: center; align-items: center; flex-wrap: wrap; }
        nav.pages a, nav.actions a { padding: 8px 14px; border-radius: 6px; background: var(--card); text-decoration: none; font-weight: 600; }
        nav.actions { display: flex; justify-content: space-between; gap: 12px; flex-wrap: wrap; margin-bottom: 12px; }
        main.photo-page figure { background: var(--card); border-radius: 8px; overflow: hidden; }
        img.original { width: auto; max-width: 100%; max-height: 80vh; margin: 0 auto; }
        main.error { text-align: center; padding-top: 48px; }
        </style>
        </head>
        <body>
        <header class="site"><a class="home" href="/">{{boothName}}</a></header>
        {{$content}}{{/content}}
        </body>
        </html>

        """#
}
