extension PageTemplates {
    /// One photo at full size, with its name and time, a download link and a link back to the
    /// gallery page it is on. The QR code on the booth's screen opens this page.
    static let photo = #"""
        {{<layout}}
        {{$title}}{{#photo}}{{caption}}{{/photo}} · {{boothName}}{{/title}}
        {{$content}}
        {{#photo}}
        <main class="photo-page">
        <nav class="actions"><a class="back" href="{{backPath}}">{{text.webAllPhotos}}</a><a class="download" download href="{{downloadPath}}">{{text.webDownload}}</a></nav>
        <figure>
        <img class="original" src="{{originalPath}}" alt="{{caption}}" width="{{width}}" height="{{height}}">
        <figcaption><span class="caption">{{caption}}</span><time datetime="{{createdAt}}">{{createdText}}</time></figcaption>
        </figure>
        </main>
        {{/photo}}
        {{/content}}
        {{/layout}}
        """#
}
