extension PageTemplates {
    /// The operator's page: the admin token (kept for the browser tab only, in
    /// sessionStorage), the near-duplicates with one button per group that hides all but its
    /// first (newest) photo, and the photos, newest first, each with a button that marks or
    /// unmarks it as a favourite. The page holds no secret: its script calls the admin API
    /// with the token typed, and the booth checks it there.
    static let admin = #"""
        {{<layout}}
        {{$title}}{{text.webAdminTitle}} · {{boothName}}{{/title}}
        {{$content}}
        <main class="admin" data-refused="{{text.webAdminRefused}}" data-failed="{{text.webAdminFailed}}" data-favourite="{{text.webAdminFavourite}}" data-unfavourite="{{text.webAdminUnfavourite}}" data-hide-others="{{text.webAdminHideOthers}}" data-no-duplicates="{{text.webAdminNoDuplicates}}">
        <h1>{{text.webAdminTitle}}</h1>
        <form class="token search"><label for="token">{{text.webAdminToken}}</label><input type="password" id="token" autocomplete="current-password"><button type="submit">{{text.webAdminOpen}}</button></form>
        <p class="status" role="status"></p>
        <section class="duplicates" hidden><h2>{{text.webAdminDuplicates}}</h2><div class="groups"></div></section>
        <section class="photos" hidden><div class="list"></div><button type="button" class="older" hidden>{{text.webOlder}}</button></section>
        </main>
        <script>
        (function () {
          var main = document.querySelector("main.admin");
          var say = function (name) { return main.getAttribute("data-" + name); };
          var status = main.querySelector(".status");
          var field = main.querySelector("#token");
          var token = "";
          try { token = sessionStorage.getItem("photobooth.admin") || ""; } catch (e) {}
          field.value = token;
          function call(method, path) {
            return fetch(path, { method: method, headers: { Authorization: "Bearer " + token } }).then(function (response) {
              if (response.status === 401 || response.status === 403) { status.textContent = say("refused"); throw new Error("refused"); }
              if (!response.ok) { status.textContent = say("failed"); throw new Error(String(response.status)); }
              return response.status === 204 ? null : response.json();
            });
          }
          function item(photo) {
            var box = document.createElement("div");
            box.className = "item";
            var image = document.createElement("img");
            image.src = photo.thumbnail_url;
            image.alt = photo.caption;
            image.width = photo.width;
            image.height = photo.height;
            image.loading = "lazy";
            var name = document.createElement("span");
            name.textContent = photo.caption;
            box.appendChild(image);
            box.appendChild(name);
            return box;
          }
          function favouriteButton(photo) {
            var button = document.createElement("button");
            button.type = "button";
            var set = function () { button.textContent = say(photo.favourite ? "unfavourite" : "favourite"); };
            set();
            button.addEventListener("click", function () {
              call("POST", "/api/photos/" + photo.id + (photo.favourite ? "/unfavourite" : "/favourite")).then(function () {
                photo.favourite = !photo.favourite;
                set();
              }).catch(function () {});
            });
            return button;
          }
          function loadDuplicates() {
            var section = main.querySelector(".duplicates");
            var groups = section.querySelector(".groups");
            return call("GET", "/api/duplicates").then(function (found) {
              groups.textContent = "";
              section.hidden = false;
              if (!found.length) { groups.textContent = say("no-duplicates"); return; }
              found.forEach(function (group) {
                var row = document.createElement("div");
                row.className = "group";
                group.forEach(function (photo) { row.appendChild(item(photo)); });
                var hide = document.createElement("button");
                hide.type = "button";
                hide.textContent = say("hide-others");
                hide.addEventListener("click", function () {
                  Promise.all(group.slice(1).map(function (photo) { return call("POST", "/api/photos/" + photo.id + "/hide"); }))
                    .then(loadDuplicates).catch(function () {});
                });
                row.appendChild(hide);
                groups.appendChild(row);
              });
            });
          }
          var page = 0;
          function loadPhotos() {
            var section = main.querySelector(".photos");
            var older = section.querySelector("button.older");
            page += 1;
            return call("GET", "/api/photos?limit=60&page=" + page).then(function (photos) {
              section.hidden = false;
              photos.forEach(function (photo) {
                var box = item(photo);
                box.appendChild(favouriteButton(photo));
                section.querySelector(".list").appendChild(box);
              });
              older.hidden = photos.length < 60;
            });
          }
          main.querySelector("button.older").addEventListener("click", function () { loadPhotos().catch(function () {}); });
          function open() {
            status.textContent = "";
            main.querySelector(".photos .list").textContent = "";
            page = 0;
            loadDuplicates().then(loadPhotos).catch(function () {});
          }
          main.querySelector("form.token").addEventListener("submit", function (event) {
            event.preventDefault();
            token = field.value;
            try { sessionStorage.setItem("photobooth.admin", token); } catch (e) {}
            open();
          });
          if (token) open();
        })();
        </script>
        {{/content}}
        {{/layout}}
        """#
}
