// Search over the catalog's index (embedded in every page as JSON): every word typed must
// appear in an entry's title or text; the best matches (titles first) are listed as links.
(function () {
  "use strict";
  var input = document.getElementById("search");
  var list = document.getElementById("search-results");
  var source = document.getElementById("search-index");
  if (!input || !list || !source) { return; }
  var entries = JSON.parse(source.textContent || "[]").map(function (entry) {
    return {
      entry: entry,
      title: entry.title.toLowerCase(),
      text: (entry.title + " " + entry.kind + " " + entry.text).toLowerCase()
    };
  });

  function matches(query) {
    var words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) { return []; }
    return entries
      .filter(function (item) { return words.every(function (w) { return item.text.indexOf(w) >= 0; }); })
      .map(function (item) {
        var score = words.reduce(function (s, w) { return s + (item.title.indexOf(w) >= 0 ? 2 : 0); }, 0);
        return { item: item, score: score };
      })
      .sort(function (a, b) { return b.score - a.score || a.item.title.localeCompare(b.item.title); })
      .slice(0, 20)
      .map(function (scored) { return scored.item.entry; });
  }

  function show() {
    var found = matches(input.value);
    list.textContent = "";
    if (!input.value.trim()) { list.hidden = true; return; }
    if (!found.length) {
      var empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = "Nothing matches.";
      list.appendChild(empty);
    }
    found.forEach(function (entry) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = entry.kind;
      a.href = entry.url;
      a.appendChild(kind);
      a.appendChild(document.createTextNode(entry.title));
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = false;
  }

  input.addEventListener("input", show);
  input.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { input.value = ""; show(); }
    if (event.key === "Enter") {
      var first = list.querySelector("a");
      if (first) { window.location.href = first.getAttribute("href"); }
    }
  });
})();
