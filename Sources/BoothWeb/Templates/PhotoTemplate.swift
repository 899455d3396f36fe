extension PageTemplates {
    /// One photo at full size, with its name, time and author; links back to where it is in
    /// the grid it was opened from, to the photos before and after it there (also the arrow
    /// keys and a swipe), Download, and Share, which hands the file itself to the phone's
    /// share sheet where the browser can (the Web Share API), and downloads it otherwise. The
    /// QR code on the booth's screen opens this page, with the key that offers to delete it.
    static let photo = #"""
        {{<layout}}
        {{$title}}{{#photo}}{{caption}}{{/photo}} · {{boothName}}{{/title}}
        {{$content}}
        {{#photo}}
        <main class="photo-page">
        <nav class="actions"><a class="back" href="{{backPath}}">{{text.webAllPhotos}}</a>{{#newerPath}}<a class="newer" rel="prev" href="{{newerPath}}">{{text.webPreviousPhoto}}</a>{{/newerPath}}{{#olderPath}}<a class="older" rel="next" href="{{olderPath}}">{{text.webNextPhoto}}</a>{{/olderPath}}<a class="download" download href="{{downloadPath}}">{{text.webDownload}}</a><button type="button" class="share" hidden data-file="{{originalPath}}" data-download="{{downloadPath}}" data-name="{{caption}}">{{text.webShare}}</button></nav>
        <figure>
        <img class="original" src="{{originalPath}}" alt="{{caption}}" width="{{width}}" height="{{height}}">
        <figcaption><span class="caption">{{caption}}</span><time datetime="{{createdAt}}">{{createdText}}</time><span class="author">{{authorText}}</span></figcaption>
        </figure>
        {{#deletePath}}<p class="notice"><a class="delete" href="{{deletePath}}">{{text.webDeleteOffer}}</a></p>{{/deletePath}}
        {{#keyNotice}}<p class="notice">{{keyNotice}}</p>{{/keyNotice}}
        </main>
        {{/photo}}
        <script>
        (function () {
          function go(rel) {
            var link = document.querySelector('nav.actions a[rel="' + rel + '"]');
            if (link) location.href = link.href;
          }
          document.addEventListener("keydown", function (event) {
            if (event.altKey || event.ctrlKey || event.metaKey || event.target.tagName === "INPUT") return;
            if (event.key === "ArrowLeft") go("prev");
            if (event.key === "ArrowRight") go("next");
          });
          var figure = document.querySelector("main.photo-page figure");
          var start = null;
          figure.addEventListener("touchstart", function (event) {
            start = event.touches.length === 1 ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
          }, { passive: true });
          figure.addEventListener("touchend", function (event) {
            if (!start) return;
            var dx = event.changedTouches[0].clientX - start.x;
            var dy = event.changedTouches[0].clientY - start.y;
            start = null;
            if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy)) go(dx < 0 ? "next" : "prev");
          });
          // Share the file itself where the browser can; download it where it cannot.
          var share = document.querySelector("button.share");
          if (!window.fetch || !window.File) return;
          share.hidden = false;
          share.addEventListener("click", function () {
            var download = function () { location.href = share.getAttribute("data-download"); };
            fetch(share.getAttribute("data-file")).then(function (response) { return response.blob(); }).then(function (blob) {
              var name = share.getAttribute("data-name");
              var file = new File([blob], name.replace(/[\/\\:*?"<>|]/g, "_") + ".jpg", { type: "image/jpeg" });
              if (navigator.canShare && navigator.canShare({ files: [file] })) {
                return navigator.share({ files: [file], title: name }).catch(function () {});
              }
              download();
            }).catch(download);
          });
        })();
        </script>
        {{/content}}
        {{/layout}}
        """#
}
