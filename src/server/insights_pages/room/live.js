// The room's live view (`/insights/room/CODE`): asks the server for the
// room's picture (`now.json`, the URL in `data-now`) every few seconds and
// moves the dots, the funnel's numbers and the count line to match. The
// server writes every word and number; this only places them. Nothing here
// talks to any other site. Paused while the tab is hidden.
(function () {
  "use strict";
  var root = document.querySelector(".room-live[data-now]");
  if (!root || !window.fetch) return;
  var url = root.getAttribute("data-now");
  var EVERY = 3000, LONGEST = 30000, QUIET = 10000;
  var SVG = "http://www.w3.org/2000/svg";
  var layer = root.querySelector(".room-dots");
  var count = document.getElementById("room-count");
  var stale = root.querySelector(".room-stale");
  var rows = root.querySelectorAll("[data-rung]");
  var link = root.querySelector(".room-link");
  var failures = 0, timer = null, busy = false, said = 0;

  // The link learners open, written in full for the projector.
  if (link) link.textContent = link.href;

  function shape(g, goal) {
    var use = g.firstChild;
    var href = goal ? "#room-star" : "#room-circle";
    if (use.getAttribute("href") !== href) use.setAttribute("href", href);
    g.setAttribute("class", goal ? "dot goal" : "dot");
  }

  function draw(dots) {
    var seen = {};
    dots.forEach(function (d) {
      if (!/^[0-9a-f]{8}$/.test(d.key) || !isFinite(d.x) || !isFinite(d.y)) return;
      seen[d.key] = true;
      var g = layer.querySelector('[data-key="' + d.key + '"]');
      if (!g) {
        g = document.createElementNS(SVG, "g");
        g.setAttribute("data-key", d.key);
        g.setAttribute("transform", "translate(" + d.x + " " + d.y + ")");
        g.appendChild(document.createElementNS(SVG, "use"));
        layer.appendChild(g);
      }
      shape(g, d.goal);
      // Through the style (the stylesheet's transition moves it there).
      g.style.transform = "translate(" + d.x + "px, " + d.y + "px)";
    });
    Array.prototype.slice.call(layer.children).forEach(function (g) {
      if (!seen[g.getAttribute("data-key")]) layer.removeChild(g);
    });
  }

  function funnel(rungs) {
    for (var i = 0; i < rows.length && i < rungs.length; i++) {
      var row = rows[i], r = rungs[i];
      row.querySelector(".n").textContent = r.text;
      row.querySelector(".pct span").textContent = r.share;
      row.querySelector(".bar-fill").setAttribute("width", String(Math.round(r.bar * 1000) / 10));
    }
  }

  // The count line is a polite live region: rewritten when it changes, but
  // not more often than every QUIET ms (a later poll brings the rest).
  function say(text) {
    if (text === count.textContent) return;
    var now = Date.now();
    if (now - said < QUIET) return;
    count.textContent = text;
    said = now;
  }

  function schedule() {
    if (timer || document.hidden) return;
    var wait = failures ? Math.min(EVERY * (failures + 1), LONGEST) : EVERY;
    timer = setTimeout(tick, wait);
  }

  function tick() {
    timer = null;
    if (busy || document.hidden) return;
    busy = true;
    fetch(url, { cache: "no-store", credentials: "same-origin", headers: { accept: "application/json" } })
      .then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      })
      .then(function (now) {
        failures = 0;
        stale.hidden = true;
        root.classList.remove("is-stale");
        draw(now.dots || []);
        funnel(now.funnel || []);
        say(now.summary);
      })
      .catch(function () {
        failures += 1;
        if (failures >= 2) {
          stale.hidden = false;
          root.classList.add("is-stale");
        }
      })
      .then(function () {
        busy = false;
        schedule();
      });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && !timer) tick();
  });
  schedule();
})();
