extension PageTemplates {
    /// The albums: the favourites, each day of the event, each name, with a cover, a title and
    /// how many photos each holds.
    static let albums = #"""
        {{<layout}}
        {{$title}}{{text.webAlbums}} · {{boothName}}{{/title}}
        {{$content}}
        <main class="albums-page">
        <h1>{{text.webAlbums}}</h1>
        <div class="albums">
        {{#albums}}
        <a class="photo album" href="{{path}}"><figure><img src="{{coverPath}}" alt="" width="{{coverWidth}}" height="{{coverHeight}}" loading="lazy"><figcaption><span class="caption">{{title}}</span><span class="count">{{countText}}</span></figcaption></figure></a>
        {{/albums}}
        </div>
        {{^albums}}
        <p class="empty">{{text.webAlbumsEmpty}}</p>
        {{/albums}}
        </main>
        {{/content}}
        {{/layout}}
        """#
}
