extension PageTemplates {
    /// The question before a guest deletes their photo: the photo, what deleting does, and a
    /// form that sends the key back (a POST, so that no link preview or prefetch deletes).
    static let deletion = #"""
        {{<layout}}
        {{$title}}{{question}} · {{boothName}}{{/title}}
        {{$content}}
        <main class="message">
        <h1>{{question}}</h1>
        {{#photo}}<img src="{{thumbnailPath}}" alt="{{caption}}" width="{{width}}" height="{{height}}">{{/photo}}
        <p>{{explanation}}</p>
        <form method="post" action="{{actionPath}}"><input type="hidden" name="key" value="{{key}}"><button type="submit" class="confirm">{{text.webDeleteConfirm}}</button>{{#photo}}<a class="cancel" href="{{pagePath}}">{{text.webDeleteCancel}}</a>{{/photo}}</form>
        </main>
        {{/content}}
        {{/layout}}
        """#

    /// One sentence for a guest, such as the outcome of a deletion, and the way back.
    static let notice = #"""
        {{<layout}}
        {{$title}}{{boothName}}{{/title}}
        {{$content}}
        <main class="message">
        <p class="message">{{message}}</p>
        <p><a href="/">{{text.webBackToGallery}}</a></p>
        </main>
        {{/content}}
        {{/layout}}
        """#
}
