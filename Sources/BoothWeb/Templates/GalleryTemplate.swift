extension PageTemplates {
    /// The gallery grid, one page of photos, newest first. Page 1 listens for new photos
    /// (Server-Sent Events at `/api/events`) and puts each at the top, and reloads when the
    /// stream reconnects, which may have missed some; without JavaScript or
    /// EventSource it is a plain page that shows new photos when reloaded. The script builds
    /// elements with `textContent`, never HTML, so a caption cannot inject markup.
    static let gallery = #"""
        {{<layout}}
        {{$title}}{{boothName}}{{#showsPageNumber}}, page {{page}}{{/showsPageNumber}}{{/title}}
        {{$content}}
        <main class="gallery" data-page-size="{{pageSize}}"{{#isFirstPage}} data-live{{/isFirstPage}}>
        {{#photos}}
        <a class="photo" href="{{pagePath}}" data-id="{{id}}"><figure><img src="{{thumbnailPath}}" alt="{{caption}}" width="{{width}}" height="{{height}}" loading="lazy"><figcaption><span class="caption">{{caption}}</span><time datetime="{{createdAt}}">{{createdText}}</time></figcaption></figure></a>
        {{/photos}}
        {{^photos}}
        <p class="empty">{{text.webEmpty}}</p>
        {{/photos}}
        </main>
        {{#showsPageNumber}}
        <nav class="pages">{{#newerPath}}<a class="newer" rel="prev" href="{{newerPath}}">{{text.webNewer}}</a>{{/newerPath}}<span>{{pageText}}</span>{{#olderPath}}<a class="older" rel="next" href="{{olderPath}}">{{text.webOlder}}</a>{{/olderPath}}</nav>
        {{/showsPageNumber}}
        <script>
        (function () {
          var gallery = document.querySelector("main.gallery[data-live]");
          if (!gallery || !window.EventSource || !window.JSON) return;
          var pageSize = Number(gallery.getAttribute("data-page-size"));
          var events = new EventSource("/api/events");
          // The stream carries every photo in order, but a reconnection (the booth restarted, or
          // dropped this page for falling behind) may have missed some: reload to show them.
          var connected = false;
          events.addEventListener("open", function () {
            if (connected) location.reload();
            connected = true;
          });
          events.addEventListener("photo", function (event) {
            var photo = JSON.parse(event.data);
            if (gallery.querySelector('a.photo[data-id="' + photo.id + '"]')) return;
            var link = document.createElement("a");
            link.className = "photo";
            link.href = photo.page_path;
            link.setAttribute("data-id", photo.id);
            var figure = document.createElement("figure");
            var image = document.createElement("img");
            image.src = photo.thumbnail_path;
            image.alt = photo.caption;
            image.width = photo.width;
            image.height = photo.height;
            var caption = document.createElement("figcaption");
            var name = document.createElement("span");
            name.className = "caption";
            name.textContent = photo.caption;
            var time = document.createElement("time");
            time.setAttribute("datetime", photo.created_at);
            time.textContent = photo.created_text;
            caption.appendChild(name);
            caption.appendChild(time);
            figure.appendChild(image);
            figure.appendChild(caption);
            link.appendChild(figure);
            var empty = gallery.querySelector(".empty");
            if (empty) empty.parentNode.removeChild(empty);
            gallery.insertBefore(link, gallery.querySelector("a.photo"));
            var photos = gallery.querySelectorAll("a.photo");
            if (photos.length > pageSize) {
              // The oldest photo of this page moved to page 2: reload once there is no link to it.
              gallery.removeChild(photos[photos.length - 1]);
              if (!document.querySelector("nav.pages a.older")) location.reload();
            }
          });
        })();
        </script>
        {{/content}}
        {{/layout}}
        """#
}
