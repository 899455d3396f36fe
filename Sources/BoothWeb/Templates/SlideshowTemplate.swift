extension PageTemplates {
    /// The slideshow, full screen for a TV at the event: each photo fades in with its name,
    /// the favourites first, then the others newest first. A photo just taken (Server-Sent
    /// Events at `/api/events`) is shown at once, then the show goes on where it was; after a
    /// round the page reloads for the newest list (photos hidden or marked favourite since).
    /// The list is in the markup in the order shown; the script builds elements with
    /// `textContent`, never HTML.
    static let slideshow = #"""
        <!DOCTYPE html>
        <html lang="{{lang}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{text.webSlideshow}} · {{boothName}}</title>
        <style>
        html, body { margin: 0; height: 100%; background: #000; color: #fff; overflow: hidden; font: 16px/1.3 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; cursor: none; }
        .slide { position: fixed; inset: 0; margin: 0; display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 1vh; opacity: 0; transition: opacity 1.2s ease; }
        .slide.shown { opacity: 1; }
        .slide img { max-width: 100vw; max-height: 86vh; width: auto; height: auto; }
        .slide figcaption { font-size: clamp(1.2rem, 4vh, 3rem); font-weight: 600; text-align: center; padding: 0 4vw; overflow-wrap: anywhere; }
        .empty { position: fixed; inset: 0; display: flex; align-items: center; justify-content: center; font-size: clamp(1.2rem, 4vh, 3rem); text-align: center; padding: 4vw; }
        </style>
        </head>
        <body>
        <main class="slideshow" data-interval="7000">
        <ol class="slides" hidden>
        {{#slides}}
        <li data-id="{{id}}" data-src="{{originalPath}}" data-caption="{{caption}}"{{#favourite}} data-favourite{{/favourite}}>{{caption}}</li>
        {{/slides}}
        </ol>
        {{^slides}}<p class="empty">{{text.webSlideshowEmpty}}</p>{{/slides}}
        <figure class="slide"><img alt=""><figcaption></figcaption></figure>
        <figure class="slide"><img alt=""><figcaption></figcaption></figure>
        </main>
        <script>
        (function () {
          var main = document.querySelector("main.slideshow");
          var interval = Number(main.getAttribute("data-interval"));
          var slides = Array.prototype.map.call(document.querySelectorAll("ol.slides li"), function (item) {
            return { id: item.getAttribute("data-id"), src: item.getAttribute("data-src"), caption: item.getAttribute("data-caption") };
          });
          var layers = document.querySelectorAll("figure.slide");
          var front = 0;
          var index = -1;
          var timer = null;
          function show(slide) {
            var layer = layers[1 - front];
            var image = layer.querySelector("img");
            image.onload = function () {
              layer.querySelector("figcaption").textContent = slide.caption;
              layer.classList.add("shown");
              layers[front].classList.remove("shown");
              front = 1 - front;
            };
            // A photo hidden or deleted since the page loaded: on to the next.
            image.onerror = function () { schedule(0); };
            image.alt = slide.caption;
            image.src = slide.src;
          }
          function schedule(delay) {
            clearTimeout(timer);
            timer = setTimeout(advance, delay);
          }
          function advance() {
            if (!slides.length) return;
            index += 1;
            if (index >= slides.length) {
              if (slides.length > 1) { location.reload(); return; }
              index = 0;
            }
            show(slides[index]);
            schedule(interval);
          }
          advance();
          if (!window.EventSource || !window.JSON) return;
          var events = new EventSource("/api/events");
          events.addEventListener("photo", function (event) {
            var photo = JSON.parse(event.data);
            if (slides.some(function (slide) { return slide.id === photo.id; })) return;
            var empty = document.querySelector(".empty");
            if (empty) empty.parentNode.removeChild(empty);
            slides.splice(index + 1, 0, { id: photo.id, src: "/photos/" + photo.id + ".jpg", caption: photo.caption });
            advance();
          });
        })();
        </script>
        </body>
        </html>

        """#
}
