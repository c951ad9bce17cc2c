// gpuisa web reference: search as you type, "/" to search, theme switch, playground.
// Builds every element with textContent (never innerHTML), so no value is interpreted as markup.
(function () {
  "use strict";
  var body = document.body;
  var staticMode = body.dataset.mode === "static";
  var root = body.dataset.root === undefined ? "/" : body.dataset.root;
  var archTitles = {};
  try { archTitles = JSON.parse(body.dataset.archs || "{}"); } catch (e) { archTitles = {}; }
  var archOrder = Object.keys(archTitles);

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function instUrl(arch, name) {
    return staticMode ? root + "isa/" + arch + "/" + name + ".html" : root + "isa/" + arch + "/" + name;
  }

  // ---- theme -------------------------------------------------------------------------------------------
  var themeBtn = document.getElementById("theme");
  var stored = null;
  try { stored = localStorage.getItem("gpuisa-theme"); } catch (e) { stored = null; }
  if (stored === "dark" || stored === "light") document.documentElement.dataset.theme = stored;
  if (themeBtn) {
    themeBtn.hidden = false;
    themeBtn.addEventListener("click", function () {
      var dark = document.documentElement.dataset.theme
        ? document.documentElement.dataset.theme === "dark"
        : window.matchMedia("(prefers-color-scheme: dark)").matches;
      var next = dark ? "light" : "dark";
      document.documentElement.dataset.theme = next;
      try { localStorage.setItem("gpuisa-theme", next); } catch (e) { /* private mode */ }
    });
  }

  // ---- search ------------------------------------------------------------------------------------------
  var q = document.getElementById("q");
  var box = document.getElementById("suggest");
  var active = -1, timer = null, seq = 0, index = null, indexWaiters = [];

  document.addEventListener("keydown", function (ev) {
    var t = ev.target, tag = t && t.tagName;
    if (ev.key === "/" && tag !== "INPUT" && tag !== "TEXTAREA" && tag !== "SELECT" && !ev.ctrlKey && !ev.metaKey) {
      ev.preventDefault();
      q.focus();
      q.select();
    }
  });

  function loadIndex(cb) {
    if (index) return cb(index);
    indexWaiters.push(cb);
    if (indexWaiters.length > 1) return;
    var s = document.createElement("script");
    s.src = root + "static/search-index.js";
    s.onload = function () {
      index = window.GPUISA_INDEX || [];
      indexWaiters.forEach(function (f) { f(index); });
      indexWaiters = [];
    };
    document.head.appendChild(s);
  }

  // The exported site's search: exact name, name prefix, fragment, then every word in the summary.
  function localSearch(text, limit) {
    var t = text.trim().toLowerCase(), words = t.split(/[^a-z0-9_.]+/).filter(Boolean), scored = [];
    for (var i = 0; i < index.length; i++) {
      var r = index[i], n = r[0], s;
      if (n === t) s = 0; else if (n.indexOf(t) === 0) s = 1; else if (n.indexOf(t) >= 0) s = 2;
      else {
        var sum = (r[2] || "").toLowerCase(), all = words.length > 0;
        for (var w = 0; w < words.length; w++) if (sum.indexOf(words[w]) < 0 && n.indexOf(words[w]) < 0) { all = false; break; }
        if (!all) continue;
        s = 3;
      }
      scored.push([s, n.length, i]);
    }
    scored.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]; });
    return scored.slice(0, limit).map(function (x) {
      var r = index[x[2]];
      return { name: r[0], arch: r[1], summary: r[2], url: instUrl(r[1], r[0]) };
    });
  }

  function fetchResults(text, limit, cb) {
    if (staticMode) return loadIndex(function () { cb(localSearch(text, limit)); });
    fetch(root + "api/search?limit=" + limit + "&q=" + encodeURIComponent(text))
      .then(function (r) { return r.ok ? r.json() : []; })
      .then(cb, function () { cb([]); });
  }

  function grouped(rows) {
    var order = [], by = {};
    rows.forEach(function (r) {
      if (!by[r.name]) { by[r.name] = { name: r.name, summary: r.summary, archs: [] }; order.push(r.name); }
      by[r.name].archs.push(r.arch);
    });
    return order.map(function (n) { return by[n]; });
  }

  function show(rows, text) {
    box.textContent = "";
    active = -1;
    var groups = grouped(rows).slice(0, 12);
    if (!groups.length) {
      box.appendChild(el("div", "none", "No instruction matches \u201c" + text + "\u201d"));
    }
    groups.forEach(function (g) {
      var a = el("a", "hit");
      a.href = instUrl(g.archs[0], g.name);
      a.setAttribute("role", "option");
      a.appendChild(el("code", null, g.name));
      a.appendChild(el("span", "archs", g.archs.map(function (x) { return archTitles[x] || x; }).join(" \u00b7 ")));
      a.appendChild(el("span", "sum", g.summary));
      box.appendChild(a);
    });
    box.hidden = false;
  }

  function query() {
    var text = q.value.trim();
    if (!text) { box.hidden = true; return; }
    var mine = ++seq;
    fetchResults(text, 60, function (rows) { if (mine === seq) show(rows, text); });
  }

  if (q && box) {
    q.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(query, 90); });
    q.addEventListener("focus", function () { if (staticMode) loadIndex(function () {}); });
    q.addEventListener("keydown", function (ev) {
      var items = box.querySelectorAll("a.hit");
      if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
        if (!items.length) return;
        ev.preventDefault();
        active = (active + (ev.key === "ArrowDown" ? 1 : -1) + items.length) % items.length;
        items.forEach(function (x, i) { x.classList.toggle("active", i === active); });
      } else if (ev.key === "Enter" && active >= 0 && items[active]) {
        ev.preventDefault();
        window.location.href = items[active].href;
      } else if (ev.key === "Escape") {
        box.hidden = true;
        q.blur();
      }
    });
    document.addEventListener("click", function (ev) { if (!box.contains(ev.target) && ev.target !== q) box.hidden = true; });
  }

  // The exported site's search page: results for ?q= from the static index.
  var results = document.getElementById("results");
  if (staticMode && results && document.getElementById("q2")) {
    var params = new URLSearchParams(window.location.search), text = (params.get("q") || "").slice(0, 100);
    document.getElementById("q2").value = text;
    if (text.trim()) loadIndex(function () {
      var rows = localSearch(text, 200);
      results.textContent = "";
      results.appendChild(el("p", "muted", rows.length + " results for \u201c" + text + "\u201d"));
      var ul = el("ul", "plain");
      rows.forEach(function (r) {
        var li = el("li"), a = el("a");
        a.href = r.url;
        a.appendChild(el("code", null, r.name));
        li.appendChild(a);
        li.appendChild(document.createTextNode(" " + (archTitles[r.arch] || r.arch) + " \u2014 " + r.summary));
        ul.appendChild(li);
      });
      results.appendChild(ul);
    });
  }

  // ---- playground --------------------------------------------------------------------------------------
  var out = document.getElementById("pg-out");
  if (!out || staticMode) return;

  function renderValue(v) {
    if (v === null || v === undefined) return el("span", "muted", "\u2014");
    if (Array.isArray(v)) {
      var ul = el("ul", "plain");
      v.forEach(function (x) { var li = el("li"); li.appendChild(renderValue(x)); ul.appendChild(li); });
      return ul;
    }
    if (typeof v === "object") {
      var dl = el("dl", "kv");
      Object.keys(v).forEach(function (k) {
        dl.appendChild(el("dt", null, k));
        var dd = el("dd"); dd.appendChild(renderValue(v[k])); dl.appendChild(dd);
      });
      return dl;
    }
    return el("span", null, v);
  }

  function renderResult(mode, data) {
    out.textContent = "";
    var div = el("div"); div.id = "pg-result";
    if (mode === "decode" && Array.isArray(data.instructions)) {
      var ol = el("ol", "decoded");
      data.instructions.forEach(function (i) {
        var li = el("li");
        if (typeof i === "string") {
          li.appendChild(el("code", "asm", i));
        } else {
          if (i && i.text) li.appendChild(el("code", "asm", i.text));
          if (i && i.name && /^[a-z0-9_.]+$/.test(i.name)) {
            var a = el("a", "inst", "reference page of " + i.name);
            a.href = instUrl(data.arch, i.name);
            li.appendChild(document.createTextNode(" "));
            li.appendChild(a);
          }
          var det = el("details"), sum = el("summary", null, "all decoded fields");
          det.appendChild(sum);
          det.appendChild(renderValue(i));
          li.appendChild(det);
        }
        ol.appendChild(li);
      });
      div.appendChild(ol);
    } else {
      div.appendChild(renderValue(data));
    }
    out.appendChild(div);
  }

  function operandsOf(text) {
    var ops = {};
    text.split(/\s+/).filter(Boolean).forEach(function (tok) {
      var i = tok.indexOf("="), name = i < 0 ? tok : tok.slice(0, i), val = i < 0 ? "" : tok.slice(i + 1);
      ops[name] = val.indexOf(",") >= 0 ? val.split(",") : val;
    });
    return ops;
  }

  function submit(form) {
    var fd = new FormData(form), mode = fd.get("mode"), bodyObj = { arch: fd.get("arch") };
    if (mode === "decode") bodyObj.hex = fd.get("hex");
    if (mode === "encode") bodyObj.text = fd.get("text");
    if (mode === "eval") {
      bodyObj.name = fd.get("name");
      bodyObj.lanes = parseInt(fd.get("lanes") || "1", 10);
      bodyObj.operands = operandsOf(String(fd.get("operands") || ""));
    }
    var params = new URLSearchParams();
    fd.forEach(function (v, k) { params.set(k, v); });
    history.replaceState(null, "", "?" + params.toString());
    out.textContent = "";
    out.appendChild(el("p", "muted", "Working\u2026"));
    fetch(form.dataset.api, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(bodyObj) })
      .then(function (r) { return r.json().then(function (j) { return [r.status, j]; }); })
      .then(function (res) {
        if (res[0] !== 200) {
          out.textContent = "";
          var p = el("p", "error", (res[1] && res[1].error) || ("request failed (" + res[0] + ")"));
          p.id = "pg-error";
          out.appendChild(p);
        } else {
          renderResult(mode, res[1]);
        }
      }, function () { out.textContent = ""; out.appendChild(el("p", "error", "The server did not answer.")); });
  }

  document.querySelectorAll("form.pg").forEach(function (form) {
    form.addEventListener("submit", function (ev) { ev.preventDefault(); submit(form); });
  });
  document.querySelectorAll(".tabs a").forEach(function (tab) {
    tab.addEventListener("click", function (ev) {
      ev.preventDefault();
      var mode = tab.dataset.mode;
      document.querySelectorAll(".tabs a").forEach(function (t) { t.setAttribute("aria-selected", String(t === tab)); });
      document.querySelectorAll("form.pg").forEach(function (f) { f.hidden = f.id !== "pg-" + mode; });
      history.replaceState(null, "", "?mode=" + mode);
      out.textContent = "";
    });
  });
})();
