extension PageTemplates {
    /// What a browser shows when a page cannot be shown: the status and what to do.
    static let error = #"""
        {{<layout}}
        {{$title}}{{reason}} · {{boothName}}{{/title}}
        {{$content}}
        <main class="error">
        <h1>{{reason}}</h1>
        <p class="message">{{message}}</p>
        <p><a href="/">{{text.webBackToGallery}}</a></p>
        </main>
        {{/content}}
        {{/layout}}
        """#
}
