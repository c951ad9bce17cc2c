// gpuisa web reference: search as you type, "/" to search, theme switch, playground.
// Builds every element with textContent (never innerHTML), so no value is interpreted as markup.
(function () {
  "use strict";
  var body = document.body;
  var staticMode = body.dataset.mode === "static";
  var root = body.dataset.root === undefined ? "/" : body.dataset.root;
  var archTitles = {};
  try { archTitles = window.GPUISA_ARCHS || JSON.parse(body.dataset.archs || "{}"); } catch (e) { archTitles = {}; }
  var archOrder = Object.keys(archTitles);

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function instUrl(arch, name) {
    if (!staticMode) return root + "isa/" + arch + "/" + name;
    var merged = (window.GPUISA_MERGED || {})[arch];  // the export: one page per instruction, an anchor per generation
    return merged ? root + "isa/" + merged + "/" + name + ".html#" + arch : root + "isa/" + arch + "/" + name + ".html";
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
    loadScript(root + "static/search.js", function () {
      loadScript(root + "static/search-index.js", function () {
        index = window.GPUISA_INDEX || [];
        indexWaiters.forEach(function (f) { f(index); });
        indexWaiters = [];
      });
    });
  }
  function loadScript(src, cb) {
    var s = document.createElement("script");
    s.src = src;
    s.onload = cb;
    document.head.appendChild(s);
  }

  // The exported site's search: static/search.js, the same tiers and order as the server's.
  function localGroups(text, arch) {
    return window.gpuisaSearch(index, text, arch || null).groups;
  }

  // Groups {name, archs, summary}: the static index, or the server's /api/search rows grouped.
  function fetchGroups(text, cb) {
    if (staticMode) return loadIndex(function () { cb(localGroups(text).slice(0, 12)); });
    fetch(root + "api/search?limit=120&q=" + encodeURIComponent(text))
      .then(function (r) { return r.ok ? r.json() : []; })
      .then(function (rows) { cb(grouped(rows).slice(0, 12)); }, function () { cb([]); });
  }

  function grouped(rows) {
    var order = [], by = {};
    rows.forEach(function (r) {
      if (!by[r.name]) { by[r.name] = { name: r.name, summary: r.summary, archs: [] }; order.push(r.name); }
      by[r.name].archs.push(r.arch);
    });
    return order.map(function (n) { return by[n]; });
  }

  function setOpen(open) {
    box.hidden = !open;
    q.setAttribute("aria-expanded", String(open));
    if (!open) q.removeAttribute("aria-activedescendant");
  }

  function show(groups, text) {
    box.textContent = "";
    active = -1;
    if (!groups.length) {
      box.appendChild(el("div", "none", "No instruction matches \u201c" + text + "\u201d"));
    }
    groups.forEach(function (g, i) {
      var a = el("a", "hit");
      a.href = instUrl(g.archs[0], g.name);
      a.id = "suggest-" + i;
      a.setAttribute("role", "option");
      a.setAttribute("aria-selected", "false");
      a.appendChild(el("code", null, g.name));
      a.appendChild(el("span", "archs", g.archs.map(function (x) { return archTitles[x] || x; }).join(" \u00b7 ")));
      a.appendChild(el("span", "sum", g.summary));
      box.appendChild(a);
    });
    setOpen(true);
  }

  function query() {
    var text = q.value.trim();
    if (!text) { setOpen(false); return; }
    var mine = ++seq;
    fetchGroups(text, function (groups) { if (mine === seq) show(groups, text); });
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
        items.forEach(function (x, i) {
          x.classList.toggle("active", i === active);
          x.setAttribute("aria-selected", String(i === active));
        });
        q.setAttribute("aria-activedescendant", items[active].id);
      } else if (ev.key === "Enter" && active >= 0 && items[active]) {
        ev.preventDefault();
        window.location.href = items[active].href;
      } else if (ev.key === "Escape") {
        setOpen(false);
        q.blur();
      }
    });
    document.addEventListener("click", function (ev) { if (!box.contains(ev.target) && ev.target !== q) setOpen(false); });
  }

  // The exported site's search page: ?q=&arch=&page= answered from the static index, grouped and paged as
  // the server's /search page is.
  var results = document.getElementById("results");
  if (staticMode && results && document.getElementById("q2")) {
    var params = new URLSearchParams(window.location.search), text = (params.get("q") || "").slice(0, 100);
    var archSel = document.getElementById("arch2"), arch = params.get("arch") || "";
    var pageNo = parseInt(params.get("page") || "1", 10) || 1;
    document.getElementById("q2").value = text;
    if (archSel) archSel.value = arch;
    if (text.trim()) loadIndex(function () {
      var res = window.gpuisaSearch(index, text, arch || null), groups = res.groups, size = 50;
      var pages = Math.max(1, Math.ceil(groups.length / size));
      pageNo = Math.min(Math.max(1, pageNo), pages);
      results.textContent = "";
      if (!groups.length) { results.appendChild(el("p", null, "No instruction matches \u201c" + text + "\u201d.")); return; }
      results.appendChild(el("p", "muted", groups.length + " instruction" + (groups.length === 1 ? "" : "s") +
        " for \u201c" + text + "\u201d" + (pages > 1 ? " \u00b7 page " + pageNo + " of " + pages : "") + "."));
      var table = el("table", "grid results"), tb = el("tbody");
      var head = el("thead"), hr = el("tr");
      ["instruction", "generations", "summary"].forEach(function (h) { hr.appendChild(el("th", null, h)); });
      head.appendChild(hr); table.appendChild(head);
      groups.slice((pageNo - 1) * size, pageNo * size).forEach(function (g) {
        var tr = el("tr"), td = el("td"), a = el("a");
        a.href = instUrl(g.archs[0], g.name);
        a.appendChild(el("code", null, g.name));
        td.appendChild(a);
        if (g.fuzzy) td.appendChild(el("span", "tag", "close match"));
        tr.appendChild(td);
        var gens = el("td", "gens");
        g.archs.forEach(function (x, i) {
          var l = el("a", null, archTitles[x] || x);
          l.href = instUrl(x, g.name);
          if (i) gens.appendChild(document.createTextNode(" "));
          gens.appendChild(l);
        });
        tr.appendChild(gens);
        tr.appendChild(el("td", null, g.summary));
        tb.appendChild(tr);
      });
      table.appendChild(tb);
      results.appendChild(table);
      if (pages > 1) {
        var nav = el("nav", "pager");
        nav.setAttribute("aria-label", "Result pages");
        for (var p = 1; p <= pages; p++) {
          var u = new URLSearchParams({ q: text });
          if (arch) u.set("arch", arch);
          u.set("page", String(p));
          var l = el(p === pageNo ? "span" : "a", null, String(p));
          if (p !== pageNo) l.href = "?" + u.toString(); else l.setAttribute("aria-current", "page");
          nav.appendChild(l);
        }
        results.appendChild(nav);
      }
    });
  }

  // ---- layouts of the exported site: each encoding's diagram is kept once per architecture ------------
  var layoutBoxes = document.querySelectorAll("[data-layout]");
  if (layoutBoxes.length) {
    var wanted = {};
    layoutBoxes.forEach(function (d) { wanted[d.dataset.layout.split("/")[0]] = true; });
    Object.keys(wanted).forEach(function (arch) {
      loadScript(root + "static/layouts-" + arch + ".js", function () {
        layoutBoxes.forEach(function (d) {
          var parts = d.dataset.layout.split("/"), svg = ((window.GPUISA_LAYOUTS || {})[parts[0]] || {})[parts[1]];
          if (parts[0] !== arch || !svg) return;
          var op = parseInt(d.dataset.opcode, 10), name = d.dataset.name || "";
          var width = 0, m = svg.match(/data-field="[^"]*" data-bits="(\d+)(?::(\d+))?"><title>[^<]*@B@/);
          if (m) width = m[2] === undefined ? 1 : parseInt(m[1], 10) - parseInt(m[2], 10) + 1;
          var bits = isNaN(op) ? "" : op.toString(2).padStart(width, "0");
          var text = svg.replace(/@N@/g, name).replace(/@O@/g, isNaN(op) ? "\u2014" : String(op)).replace(/@B@/g, bits);
          var doc = new DOMParser().parseFromString(text, "image/svg+xml");
          d.appendChild(document.importNode(doc.documentElement, true));
        });
      });
    });
  }

  // ---- copy buttons on syntax forms and examples ------------------------------------------------------
  function addCopy(target, text) {
    var b = el("button", "copy", "copy");
    b.type = "button";
    b.setAttribute("aria-label", "Copy " + text);
    b.addEventListener("click", function () {
      var done = function () { b.textContent = "copied"; setTimeout(function () { b.textContent = "copy"; }, 1200); };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, done);
      else {
        var ta = el("textarea"); ta.value = text; document.body.appendChild(ta); ta.select();
        try { document.execCommand("copy"); } catch (e) { /* nothing to do */ }
        ta.remove(); done();
      }
    });
    target.insertAdjacentElement("afterend", b);
  }
  document.querySelectorAll("code.copyable").forEach(function (c) { addCopy(c, c.textContent); });
  document.querySelectorAll("section.copyrows tbody tr").forEach(function (tr) {
    var first = tr.querySelector("td");
    var text = first ? first.textContent.trim() : "";
    if (text) addCopy(first.appendChild(el("span")), text);
  });

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

  // how a tab's answer is drawn: its form's data-result (web.playground.RESULTS), as the page's template does
  function renderResult(kind, data) {
    out.textContent = "";
    var div = el("div"); div.id = "pg-result";
    if (kind === "listing" && Array.isArray(data.instructions)) {
      var ol = el("ol", "decoded");
      data.instructions.forEach(function (i) {
        var li = el("li");
        if (typeof i === "string") {
          li.appendChild(el("code", "asm", i));
        } else {
          if (i && i.text) li.appendChild(el("code", "asm" + (i.valid === false ? " invalid" : ""), i.text));
          if (i && i.bytes) li.appendChild(el("span", "muted", " " + i.bytes));
          if (i && i.name && i.valid !== false && /^[a-z0-9_.]+$/.test(i.name)) {
            var a = el("a", "inst", "reference page of " + i.name);
            a.href = instUrl(data.arch, i.name);
            li.appendChild(document.createTextNode(" "));
            li.appendChild(a);
          }
        }
        ol.appendChild(li);
      });
      div.appendChild(ol);
    } else if (kind === "bytes" && data.hex !== undefined) {
      var p = el("p"); p.appendChild(el("code", "asm", data.hex)); div.appendChild(p);
      if (data.lines) div.appendChild(renderValue(data.lines));
    } else if (kind === "verdict" && data.valid !== undefined) {
      var v = el("p", data.valid ? "ok" : "error", (data.valid ? "valid" : "invalid") +
        (data.form ? ": form " + data.form : "") + (data.error ? ": " + data.error : ""));
      div.appendChild(v);
      if (data.valid) div.appendChild(el("p", "muted", "PTX ISA " + (data.ptx_version || "?") + ", minimum target " + (data.min_target || "?")));
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

  function showError(form, message) {
    var old = document.getElementById("pg-error");
    if (old) old.remove();
    if (!message) return;
    var p = el("p", "error", message);
    p.id = "pg-error";
    p.setAttribute("role", "alert");
    var btn = form.querySelector("button[type=submit]");
    form.insertBefore(p, btn && btn.parentNode === form ? btn : form.querySelector(".buttons"));
  }

  // the JSON the tab's API reads: each field marked data-body, by its kind (web.playground.Field)
  function bodyOf(form, action) {
    var body = {};
    form.querySelectorAll("[data-body]").forEach(function (input) {
      var key = input.dataset.body, kind = input.dataset.kind;
      if (!key || (input.dataset.only && input.dataset.only !== action)) return;
      if (kind === "checkbox") body[key] = input.checked;
      else if (kind === "number") body[key] = parseInt(input.value || "1", 10);
      else if (kind === "operands") body[key] = operandsOf(String(input.value || ""));
      else body[key] = input.value;
    });
    return body;
  }

  function submit(form, submitter) {
    var action = submitter && submitter.value ? submitter.value : "";
    var api = (submitter && submitter.dataset.api) || form.dataset.api;
    var params = new URLSearchParams();
    new FormData(form).forEach(function (v, k) { if (v !== "") params.set(k, v); });
    if (action) params.set("action", action);
    history.replaceState(null, "", "?" + params.toString());
    showError(form, "");
    out.textContent = "";
    out.appendChild(el("p", "muted", "Working\u2026"));
    fetch(api, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(bodyOf(form, action)) })
      .then(function (r) { return r.json().then(function (j) { return [r.status, j]; }); })
      .then(function (res) {
        out.textContent = "";
        if (res[0] !== 200) showError(form, (res[1] && res[1].error) || ("request failed (" + res[0] + ")"));
        else renderResult(form.dataset.result, res[1]);
      }, function () { out.textContent = ""; showError(form, "The server did not answer."); });
  }

  document.querySelectorAll("form.pg").forEach(function (form) {
    if (!form.dataset.api) return;  // a tab without an API: the server answers the form (no JavaScript needed)
    form.addEventListener("submit", function (ev) { ev.preventDefault(); submit(form, ev.submitter); });
  });
  document.querySelectorAll(".tabs a").forEach(function (tab) {
    tab.addEventListener("click", function (ev) {
      ev.preventDefault();
      var mode = tab.dataset.mode;
      document.querySelectorAll(".tabs a").forEach(function (t) { t.setAttribute("aria-selected", String(t === tab)); });
      document.querySelectorAll("form.pg").forEach(function (f) { f.hidden = f.id !== "pg-" + mode; });
      history.replaceState(null, "", "?mode=" + mode);
      out.textContent = "";
      showError(document.body, "");
    });
  });
})();
