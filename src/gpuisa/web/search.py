"""Instruction search of the web reference, grouped by instruction, with typo tolerance.

One in-memory index over the store (name, architectures newest first, summary, and the words the
store's full-text table holds for category, encodings and formats), answered the same way by the
server (``SearchIndex.search``) and by the static export (``static/search.js``, a line-for-line port
that reads ``SearchIndex.static_index()``).  Tiers, best first:

0. the name (LLVM variant suffixes ``_e32``/``_e64``/``_dpp``/``_sdwa`` dropped; ``_`` ignored)
1. a name prefix, 2. a name fragment,
3. every word of the query starts a word of the name, summary, category, encodings or formats,
4. only when tiers 0-3 find nothing: names within a small edit distance (Indel similarity, ``rapidfuzz``)
   of the query or of one of the name's ``_`` parts -- the 404 page's "did you mean" uses it too.

A ``gfxNNNN`` or architecture word in the query restricts the search to that architecture; ``isa`` (a key
of the ISA registry, ``gpuisa.isas``) to one ISA.  The index holds the store's instructions and those of
registered ISAs the store does not hold (their ``instructions`` hook).
"""

from __future__ import annotations

import re

from rapidfuzz.distance import Indel

from .. import archs, isas

PAGE_SIZE = 50
SUFFIX_RE = re.compile(r"(?:_e32|_e64|_e64_dpp|_dpp8|_dpp16|_dpp|_sdwa|_vop3)+$")
WORD_RE = re.compile(r"[a-z0-9]+")
FUZZY_CUTOFF = (3, 10)  # Indel distance at most 30% of the two lengths together


def words(text: str) -> list[str]:
    return WORD_RE.findall(text.lower())


def fuzzy_hit(q: str, key: str) -> tuple[int, int] | None:
    """(distance, length sum) when ``key`` is close enough to ``q`` (integer test: both sides agree)."""
    total = len(q) + len(key)
    d = Indel.distance(q, key)
    return (d, total) if d * FUZZY_CUTOFF[1] <= FUZZY_CUTOFF[0] * total else None


def fuzzy_keys(name: str) -> list[str]:
    parts = [p for p in name.split("_") if len(p) > 1]
    return [name, name.replace("_", ""), *parts]


def gfx_map(known: list[str]) -> dict[str, str]:
    """gfx target -> architecture, for the architectures in the store (the static search gets the same map)."""
    out: dict[str, str] = {}
    for name in known:
        a = archs.by_name(name)
        for t in (*a.targets, a.llvm_target):
            if t:
                out.setdefault(t.lower(), name)
    return out


class Query:
    """A query split into search text and an architecture named inside it (gfx1100, rdna3)."""

    def __init__(self, text: str, arch: str | None, known: list[str], isa: str | None = None):
        self.arch, self.isa = arch, isa
        kept = []
        gfx = gfx_map(known)
        for tok in text.strip().lower().split():
            if self.arch is None:
                a = tok if tok in known else gfx.get(tok)
                if a in known:
                    self.arch = a
                    continue
            kept.append(tok)
        self.text = " ".join(kept)
        self.bare = SUFFIX_RE.sub("", self.text) if len(kept) == 1 else self.text
        self.compact = self.bare.replace("_", "")
        self.words = words(self.text)


def outside_store_rows(store) -> list[tuple[str, str, str, str]]:
    """(name, arch, isa, summary) of the instructions of registered ISAs that the store does not hold."""
    out = []
    for i in isas.all_isas():
        if i.instructions is not None:
            for r in isas.load(i.instructions)(store):
                out.append((r["name"], r["arch"], i.key, r.get("summary") or ""))
    return out


def _kept(q: Query, r: list) -> bool:
    return (not q.arch or q.arch in r[2]) and (not q.isa or q.isa == r[1])


class SearchIndex:
    """Grouped rows: [name, isa, [archs newest first], summary, terms]."""

    def __init__(self, store, arch_names: list[str]):
        self.arch_names = list(arch_names)
        rank = {a: i for i, a in enumerate(archs.newest_first(self.arch_names))}
        by_name: dict[str, dict] = {}
        rows = store.con.execute(
            "SELECT i.name, i.arch, i.isa, i.summary, f.category, f.encodings, f.formats "
            "FROM instructions i JOIN inst_fts f ON f.rowid = i.id").fetchall()
        for r in rows:
            g = by_name.setdefault(r[0], {"isa": r[2], "archs": [], "summary": "", "best": 99, "terms": set()})
            g["archs"].append(r[1])
            if rank.get(r[1], 98) < g["best"]:
                g["best"], g["summary"] = rank.get(r[1], 98), r[3] or ""
            g["terms"].update(words(" ".join(x or "" for x in (r[0], r[3], r[4], r[5], r[6]))))
        for r in outside_store_rows(store):
            by_name.setdefault(r[0], {"isa": r[2], "archs": [], "summary": r[3], "best": 98, "terms": set()})
            by_name[r[0]]["archs"].append(r[1])
            by_name[r[0]]["terms"].update(words(f"{r[0]} {r[3]}"))
        self.rows = []
        for name in sorted(by_name):
            g = by_name[name]
            self.rows.append([name, g["isa"], sorted(g["archs"], key=lambda a: rank.get(a, 98)), g["summary"],
                              " ".join(sorted(g["terms"]))])
        self.names = {r[0]: r for r in self.rows}
        self.compact: dict[str, str] = {}
        for r in self.rows:
            self.compact.setdefault(r[0].replace("_", ""), r[0])

    def static_index(self) -> list:
        return self.rows

    def newest_arch(self, name: str) -> str | None:
        row = self.names.get(name)
        return row[2][0] if row else None

    def search(self, text: str, arch: str | None = None, isa: str | None = None) -> tuple[list[dict], str | None]:
        """(groups best first, architecture applied) -- every match, paging is the caller's."""
        q = Query(text, arch, self.arch_names, isa)
        hits: list[tuple] = []
        for r in self.rows:
            if not _kept(q, r):
                continue
            tier = self._tier(q, r)
            if tier is not None:
                hits.append((tier, 0, len(r[0]), r[0]))
        if not hits and len(q.compact) >= 3:
            hits = self._fuzzy(q)
        hits.sort()
        return [self._group(self.names[h[3]], q.arch, h[0]) for h in hits], q.arch

    def _tier(self, q: Query, r: list) -> int | None:
        name = r[0]
        if not q.text:
            return 3
        if name == q.bare or name.replace("_", "") == q.compact:
            return 0
        if name.startswith(q.bare):
            return 1
        if q.bare in name:
            return 2
        if q.words:
            terms = " " + r[4]
            if all((" " + w) in terms for w in q.words):
                return 3
        return None

    def _fuzzy(self, q: Query) -> list[tuple]:
        out = []
        for r in self.rows:
            if not _kept(q, r):
                continue
            best = None
            for key in fuzzy_keys(r[0]):
                for probe in (q.bare, q.compact):
                    h = fuzzy_hit(probe, key)
                    if h and (best is None or h[0] * best[1] < best[0] * h[1]):
                        best = h
            if best:
                # similarity as an exact fraction: smaller d/total is better (sorted by d*1000000//total)
                out.append((4, best[0] * 1000000 // best[1], len(r[0]), r[0]))
        return out

    def _group(self, r: list, arch: str | None, tier: int) -> dict:
        shown = [arch] if arch else r[2]
        return {"name": r[0], "isa": r[1], "archs": shown, "summary": r[3], "fuzzy": tier == 4,
                "url": f"/isa/{shown[0]}/{r[0]}"}

    def suggestions(self, text: str, limit: int = 5) -> list[dict]:
        """The 404 page's "did you mean": the fuzzy tier alone."""
        q = Query(text, None, self.arch_names)
        if len(q.compact) < 3:
            return []
        hits = sorted(self._fuzzy(q))[:limit]
        return [self._group(self.names[h[3]], None, 4) for h in hits]


def api_rows(index: SearchIndex, q: str, arch: str | None, limit: int, isa: str | None = None) -> list[dict]:
    """The API's rows: one per instruction and architecture, instructions in the search's order."""
    out: list[dict] = []
    for g in index.search(q, arch, isa)[0]:
        for a in g["archs"]:
            out.append({"name": g["name"], "arch": a, "isa": g["isa"], "summary": g["summary"],
                        "url": f"/isa/{a}/{g['name']}"})
            if len(out) >= limit:
                return out
    return out


def page_of(groups: list, page: int, size: int = PAGE_SIZE) -> dict:
    pages = max(1, -(-len(groups) // size))
    page = min(max(1, page), pages)
    return {"groups": groups[(page - 1) * size: page * size], "page": page, "pages": pages, "total": len(groups)}
