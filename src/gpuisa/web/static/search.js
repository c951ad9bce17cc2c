// gpuisa static search: a line-for-line port of gpuisa/web/search.py (same tiers, same order), so the
// exported site answers as the server does.  Rows of window.GPUISA_INDEX: [name, isa, [archs newest first],
// summary, terms].  Exposes window.gpuisaSearch(text, arch) -> {groups, arch}.
(function () {
  "use strict";
  var SUFFIX_RE = /(?:_e32|_e64|_e64_dpp|_dpp8|_dpp16|_dpp|_sdwa|_vop3)+$/;
  var CUT_NUM = 3, CUT_DEN = 10;
  var archTitles = {};
  try { archTitles = JSON.parse(document.body.dataset.archs || "{}"); } catch (e) { archTitles = {}; }
  var GFX = window.GPUISA_GFX || {};  // gfx target -> architecture

  function words(text) { return text.toLowerCase().match(/[a-z0-9]+/g) || []; }

  function lcs(a, b) {
    var prev = new Array(b.length + 1).fill(0), cur = new Array(b.length + 1).fill(0);
    for (var i = 1; i <= a.length; i++) {
      for (var j = 1; j <= b.length; j++) {
        cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
      }
      var t = prev; prev = cur; cur = t;
    }
    return prev[b.length];
  }
  function fuzzyHit(q, key) {
    var total = q.length + key.length, d = total - 2 * lcs(q, key);
    return d * CUT_DEN <= CUT_NUM * total ? [d, total] : null;
  }
  function fuzzyKeys(name) {
    var parts = name.split("_").filter(function (p) { return p.length > 1; });
    return [name, name.replace(/_/g, "")].concat(parts);
  }

  function parseQuery(text, arch, known) {
    var q = { arch: arch || null }, kept = [];
    text.trim().toLowerCase().split(/\s+/).filter(Boolean).forEach(function (tok) {
      if (q.arch === null) {
        var a = known.indexOf(tok) >= 0 ? tok : (GFX[tok] || null);
        if (a && known.indexOf(a) >= 0) { q.arch = a; return; }
      }
      kept.push(tok);
    });
    q.text = kept.join(" ");
    q.bare = kept.length === 1 ? q.text.replace(SUFFIX_RE, "") : q.text;
    q.compact = q.bare.replace(/_/g, "");
    q.words = words(q.text);
    return q;
  }

  function tier(q, r) {
    var name = r[0];
    if (!q.text) return 3;
    if (name === q.bare || name.replace(/_/g, "") === q.compact) return 0;
    if (name.indexOf(q.bare) === 0) return 1;
    if (name.indexOf(q.bare) >= 0) return 2;
    if (q.words.length) {
      var terms = " " + r[4];
      for (var i = 0; i < q.words.length; i++) if (terms.indexOf(" " + q.words[i]) < 0) return null;
      return 3;
    }
    return null;
  }

  function cmp(a, b) {
    for (var i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : 0;
  }

  function fuzzy(index, q) {
    var out = [];
    index.forEach(function (r) {
      if (q.arch && r[2].indexOf(q.arch) < 0) return;
      var best = null;
      fuzzyKeys(r[0]).forEach(function (key) {
        [q.bare, q.compact].forEach(function (probe) {
          var h = fuzzyHit(probe, key);
          if (h && (best === null || h[0] * best[1] < best[0] * h[1])) best = h;
        });
      });
      if (best) out.push([4, Math.floor(best[0] * 1000000 / best[1]), r[0].length, r[0]]);
    });
    return out;
  }

  window.gpuisaSearch = function (index, text, arch) {
    var known = Object.keys(archTitles), q = parseQuery(text, arch, known), hits = [], byName = {};
    index.forEach(function (r) {
      byName[r[0]] = r;
      if (q.arch && r[2].indexOf(q.arch) < 0) return;
      var t = tier(q, r);
      if (t !== null) hits.push([t, 0, r[0].length, r[0]]);
    });
    if (!hits.length && q.compact.length >= 3) hits = fuzzy(index, q);
    hits.sort(cmp);
    return {
      arch: q.arch,
      groups: hits.map(function (h) {
        var r = byName[h[3]], shown = q.arch ? [q.arch] : r[2];
        return { name: r[0], isa: r[1], archs: shown, summary: r[3], fuzzy: h[0] === 4 };
      })
    };
  };
})();
