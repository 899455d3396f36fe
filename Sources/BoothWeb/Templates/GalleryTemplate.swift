extension PageTemplates {
    /// A page of photos, newest first: the whole gallery, a search or an album, with the
    /// search box and the operator's welcome on top.
    ///
    /// Its script, when the browser runs it: lays the photos out in columns, each to the
    /// shortest (their sizes come from the markup); loads the next page when the guest nears
    /// the end and appends it (the page links stay for browsers without JavaScript, or when a
    /// page fails to load); on page 1 of the whole gallery, puts each new photo at the top as
    /// it is taken (Server-Sent Events at `/api/events`) and reloads when the stream
    /// reconnects, which may have missed some; and remembers a closed welcome (localStorage).
    /// It builds elements with `textContent`, never HTML, so a caption cannot inject markup.
    static let gallery = #"""
        {{<layout}}
        {{$title}}{{title}}{{/title}}
        {{$content}}
        <main class="gallery"{{#isLive}} data-live{{/isLive}}>
        {{#welcome}}<aside class="welcome" data-welcome="{{welcome}}"><p>{{welcome}}</p><button type="button" class="close" hidden aria-label="{{text.webWelcomeClose}}">&times;</button></aside>{{/welcome}}
        <form class="search" action="/" method="get" role="search"><label for="q">{{text.webSearchLabel}}</label><input type="search" id="q" name="q" value="{{searchText}}" placeholder="{{text.webSearchPlaceholder}}" maxlength="100" autocomplete="off" enterkeyhint="search"><button type="submit">{{text.webSearchButton}}</button></form>
        {{#heading}}<h1>{{heading}}</h1><p class="count">{{countText}} · <a href="/">{{text.webAllPhotos}}</a></p>{{/heading}}
        <div class="grid">
        {{#photos}}
        <a class="photo" id="p-{{id}}" href="{{pagePath}}" data-id="{{id}}"><figure><img src="{{thumbnailPath}}" alt="{{caption}}" width="{{width}}" height="{{height}}" loading="lazy"><figcaption><span class="caption">{{#favourite}}★ {{/favourite}}{{caption}}</span><time datetime="{{createdAt}}">{{createdText}}</time></figcaption></figure></a>
        {{/photos}}
        </div>
        {{^photos}}
        <p class="empty">{{emptyText}}</p>
        {{/photos}}
        <p class="more" hidden><span>{{text.webLoadingMore}}</span></p>
        </main>
        {{#showsPageNumber}}
        <nav class="pages">{{#newerPath}}<a class="newer" rel="prev" href="{{newerPath}}">{{text.webNewer}}</a>{{/newerPath}}<span>{{pageText}}</span>{{#olderPath}}<a class="older" rel="next" href="{{olderPath}}">{{text.webOlder}}</a>{{/olderPath}}</nav>
        {{/showsPageNumber}}
        <script>
        (function () {
          var gallery = document.querySelector("main.gallery");
          var grid = gallery.querySelector(".grid");
          var items = Array.prototype.slice.call(grid.querySelectorAll("a.photo"));

          var welcome = gallery.querySelector(".welcome");
          if (welcome) {
            var said = welcome.getAttribute("data-welcome");
            var seen = null;
            try { seen = localStorage.getItem("photobooth.welcome"); } catch (e) {}
            if (seen === said) {
              welcome.parentNode.removeChild(welcome);
            } else {
              var close = welcome.querySelector("button.close");
              close.hidden = false;
              close.addEventListener("click", function () {
                try { localStorage.setItem("photobooth.welcome", said); } catch (e) {}
                welcome.parentNode.removeChild(welcome);
              });
            }
          }

          // Columns, each photo to the shortest; heights in column widths, from the markup.
          var columns = [];
          var heights = [];
          function columnCount() {
            var count = parseInt(getComputedStyle(grid).columnCount, 10);
            return count > 0 ? count : 2;
          }
          function place(item) {
            var shortest = 0;
            for (var i = 1; i < heights.length; i++) if (heights[i] < heights[shortest] - 0.01) shortest = i;
            var image = item.querySelector("img");
            var ratio = image && image.width > 0 ? image.height / image.width : 0.75;
            columns[shortest].appendChild(item);
            heights[shortest] += ratio + 0.3;
          }
          function layout() {
            var count = columnCount();
            columns.forEach(function (column) { grid.removeChild(column); });
            columns = [];
            heights = [];
            for (var i = 0; i < count; i++) {
              var column = document.createElement("div");
              column.className = "column";
              grid.appendChild(column);
              columns.push(column);
              heights.push(0);
            }
            items.forEach(place);
            grid.classList.add("columns");
          }
          if (items.length) {
            layout();
            if (location.hash) {
              var target = document.getElementById(location.hash.slice(1));
              if (target) target.scrollIntoView();
            }
          }
          var laidOut = columns.length;
          window.addEventListener("resize", function () {
            if (items.length && columnCount() !== laidOut) {
              layout();
              laidOut = columns.length;
            }
          });
          function removeEmpty() {
            var empty = gallery.querySelector(".empty");
            if (empty) empty.parentNode.removeChild(empty);
            if (!columns.length) layout();
          }

          // The next page, appended as the guest nears the end; the links stay as a fallback.
          var pages = document.querySelector("nav.pages");
          var older = pages && pages.querySelector("a.older");
          var more = gallery.querySelector(".more");
          if (older && window.IntersectionObserver && window.fetch && window.DOMParser) {
            pages.hidden = true;
            more.hidden = false;
            var loading = false;
            var observer = new IntersectionObserver(function (entries) {
              if (!entries.some(function (entry) { return entry.isIntersecting; }) || loading || !older) return;
              loading = true;
              more.classList.add("loading");
              fetch(older.href, { headers: { Accept: "text/html" } }).then(function (response) {
                if (!response.ok) throw new Error(response.status);
                return response.text();
              }).then(function (html) {
                var next = new DOMParser().parseFromString(html, "text/html");
                next.querySelectorAll(".grid a.photo").forEach(function (item) {
                  // A photo taken since this page loaded pushed the next page down by one.
                  if (document.getElementById(item.id)) return;
                  var adopted = document.importNode(item, true);
                  items.push(adopted);
                  place(adopted);
                });
                older = next.querySelector("nav.pages a.older");
                more.classList.remove("loading");
                loading = false;
                if (!older) {
                  observer.disconnect();
                  more.hidden = true;
                } else {
                  // Observed afresh, the end reports at once if it is still in sight.
                  observer.unobserve(more);
                  observer.observe(more);
                }
              }).catch(function () {
                observer.disconnect();
                more.hidden = true;
                pages.hidden = false;
              });
            }, { rootMargin: "600px 0px" });
            observer.observe(more);
          }

          if (!gallery.hasAttribute("data-live") || !window.EventSource || !window.JSON) return;
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
            if (document.getElementById("p-" + photo.id)) return;
            var link = document.createElement("a");
            link.className = "photo";
            link.id = "p-" + photo.id;
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
            // The page keeps the photos it has; the next page it loads skips those it already shows.
            items.unshift(link);
            removeEmpty();
            layout();
          });
        })();
        </script>
        {{/content}}
        {{/layout}}
        """#
}
