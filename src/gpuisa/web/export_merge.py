"""One exported page per instruction of a multi-generation ISA (``isa/amdgpu/NAME.html``), merged from the
pages the server draws for each generation (``/isa/ARCH/NAME``).

The server's per-generation pages are rendered as they are (same templates, same context) and then merged
section by section: the page chrome, title block and generations table once (from the newest generation),
then each section once, its parts that every generation shares once, and the rest grouped by generation
(generations whose part is identical share one group).  Every exported page's links to ``isa/ARCH/NAME.html``
point to ``isa/amdgpu/NAME.html#ARCH`` (``relink``); the merged page has an anchor per generation.  This module
only reads HTML the templates wrote (sections, ``dl.kv`` pairs, ``ul.plain`` items, ``h3`` groups).
"""

from __future__ import annotations

import functools
import posixpath
import re
from typing import Any

from .. import archs

_OPEN = re.compile(r"<([a-z][a-z0-9]*)[^>]*>")
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_LAYOUT = re.compile(r'data-layout="([^"/]+)/([^"]+)"')
_ID = re.compile(r'\sid="([^"]*)"')


_HREF = re.compile(r'\b(href|src)="([^"#?:]+)(#[^"]*)?"')


def relink(html: str, rendered_at: str, written_at: str, merged: dict[str, str]) -> str:
    """Relative links of a page drawn for file ``rendered_at`` made right for file ``written_at``, and links to
    the instruction pages of ``merged`` archs ({arch: isa}) sent to the merged page's anchor
    (isa/rdna4/NAME.html -> isa/amdgpu/NAME.html#rdna4)."""
    here, there = posixpath.dirname(rendered_at), posixpath.dirname(written_at)
    table = tuple(sorted(merged.items()))
    return _HREF.sub(lambda m: f'{m.group(1)}="{_relinked(m.group(2), m.group(3) or "", here, there, written_at, table)}"',
                     html)


@functools.lru_cache(maxsize=65536)
def _relinked(raw: str, frag: str, here: str, there: str, written_at: str, merged: tuple) -> str:
    target = posixpath.normpath(posixpath.join(here, raw))
    parts = target.split("/")
    isa = dict(merged).get(parts[1]) if len(parts) == 3 and parts[0] == "isa" else None
    if isa:
        target, frag = f"isa/{isa}/{parts[2]}", frag or "#" + parts[1]
    elif here == there:
        return raw + frag
    if target == written_at and frag:  # the page itself: the anchor alone
        return frag
    return posixpath.relpath(target, there or ".") + frag


def children(fragment: str) -> list[str]:
    """The top-level nodes of an HTML fragment (elements whole; text runs between them, blanks dropped).
    Reads the markup our templates write: lower-case tag names, no comments, '<' only in tags."""
    out: list[str] = []
    pos, n = 0, len(fragment)
    while pos < n:
        lt = fragment.find("<", pos)
        if lt < 0:
            break
        if lt > pos and fragment[pos:lt].strip():
            out.append(fragment[pos:lt])
        m = _OPEN.match(fragment, lt)
        if m is None:  # a stray closing tag: kept as text
            end = fragment.find(">", lt) + 1 or n
            out.append(fragment[lt:end])
            pos = end
            continue
        tag = m.group(1)
        end = m.end() if tag in _VOID or m.group(0).endswith("/>") else _close(fragment, tag, m.end())
        out.append(fragment[lt:end])
        pos = end
    if fragment[pos:].strip():
        out.append(fragment[pos:])
    return out


def _close(fragment: str, tag: str, i: int) -> int:
    """The end of the element ``tag`` whose content starts at ``i`` (same-name elements nested inside counted)."""
    close, opens = f"</{tag}>", (f"<{tag} ", f"<{tag}>")
    depth = 1
    while True:
        j = fragment.find(close, i)
        if j < 0:
            return len(fragment)
        depth += fragment.count(opens[0], i, j) + fragment.count(opens[1], i, j) - 1
        i = j + len(close)
        if depth == 0:
            return i


def _open_tag(el: str) -> str:
    return el[:el.index(">") + 1]


def _inner(el: str) -> str:
    return el[el.index(">") + 1:el.rindex("</")]


def items(body: list[str]) -> list[tuple[tuple, str, str]]:
    """A section's body as (key, wrapper, html) items: dt/dd pairs of a top-level ``dl.kv``, the entries of a
    ``ul.plain``, an ``h3`` with what follows it, or a whole element."""
    out: list[list[Any]] = []  # [key, wrapper, html]: an h3's html grows by what follows it
    h3: list[Any] | None = None
    for i, el in enumerate(body):
        if el.startswith("<h3"):
            h3 = [("h3", el), "", el]
            out.append(h3)
            continue
        if h3 is not None:
            h3[2] += el
            continue
        tag = _open_tag(el) if el.startswith("<") else ""
        if tag in ('<dl class="kv">', '<ul class="plain">'):
            kids = children(_inner(el))
            if tag.startswith("<dl"):
                if len(kids) % 2 or any(not k.startswith(("<dt", "<dd")) for k in kids):
                    out.append([("el", i), "", el])
                    continue
                for j in range(0, len(kids), 2):
                    out.append([("dl", i, kids[j]), tag + str(i), kids[j] + kids[j + 1]])
            else:
                out += [[("li", i, k), tag + str(i), k] for k in kids]
        else:
            out.append([("el", i), "", el])
    return [(x[0], x[1], x[2]) for x in out]


_SECTION = re.compile(r'<section\b[^>]*\bid="([^"]*)".*?</section>', re.S)  # sections never nest


def split_page(html: str) -> tuple[str, list[str], list[tuple[str, str]], str]:
    """(head through <main>, nodes before the first section, [(id, section)], </main> onwards)."""
    i = html.index('<main id="main">') + len('<main id="main">')
    j = html.rindex("</main>")
    sections: list[tuple[str, str]] = []
    pos = i
    first = None
    for m in _SECTION.finditer(html, i, j):
        if first is None:
            first = m.start()
        elif html[pos:m.start()].strip():
            sections.append(("", html[pos:m.start()]))
        sections.append((m.group(1), m.group(0)))
        pos = m.end()
    if first is None:
        return html[:i], children(html[i:j]), [], html[j:]
    if html[pos:j].strip():
        sections.append(("", html[pos:j]))
    return html[:i], children(html[i:first]), sections, html[j:]


def _h2_split(h2: str) -> tuple[str, str]:
    """(heading through its ¶ anchor, what follows the anchor inside the heading)."""
    k = h2.find("</a>")
    if k < 0:
        return h2, ""
    return h2[:k + 4] + "</h2>", h2[k + 4:-len("</h2>")].strip()


def merge_section(sid: str, per_arch: dict[str, str], all_archs: list[str]) -> str:
    """One section from each generation's copy (``per_arch`` newest first, links normalised to @A@): each part
    once, with the generations whose part differs grouped by identical text."""
    first = next(iter(per_arch.values()))
    h2 = ""
    values: dict[tuple, dict[str, tuple[str, str]]] = {}  # key -> {arch: (wrapper, html)}, keys in page order
    for a, sec in per_arch.items():
        body = children(_inner(sec))
        if body and body[0].startswith("<h2"):
            head, extra = _h2_split(body[0])
            h2 = h2 or head
            body = body[1:]
            if extra:
                values.setdefault(("h2x",), {})[a] = ("", f'<p class="h2x">{extra}</p>')
        for key, wrap, html in items(body):
            values.setdefault(key, {})[a] = (wrap, html)
    out = [_open_tag(first), h2]
    if len(per_arch) < len(all_archs):
        out.append(f'<p class="gens">{_gens(list(per_arch), "only")}</p>')
    every = list(per_arch)
    blocks: list[tuple[str, tuple, list[tuple[list[str], str]]]] = []
    for key, by_arch in values.items():
        groups: dict[str, list[str]] = {}
        for a, (_, html) in by_arch.items():
            groups.setdefault(html, []).append(a)
        wrap = next(iter(by_arch.values()))[0]
        blocks.append((wrap, key, [(members, html) for html, members in groups.items()]))
    out.append(_render_blocks(blocks, every))
    out.append("</section>")
    return "".join(out)


def _render_blocks(blocks: list, every: list[str]) -> str:
    n = len(every)
    out: list[str] = []
    i = 0
    while i < len(blocks):
        wrap = blocks[i][0]
        j = i
        while j < len(blocks) and blocks[j][0] == wrap:
            j += 1
        run = blocks[i:j]
        if wrap.startswith("<ul"):  # list entries: the shared ones, then one list per set of generations
            sets: dict[tuple, list[str]] = {}
            for _, _, groups in run:
                for members, html in groups:
                    sets.setdefault(tuple(members) if len(members) < n else (), []).append(html)
            for members, lis in sets.items():
                ul = '<ul class="plain">' + "".join(lis) + "</ul>"
                out.append(_group(list(members), ul) if members else _denorm(ul, every))
        elif wrap.startswith("<dl"):
            out.append('<dl class="kv">')
            for _, key, groups in run:
                dd = [(m, h[h.index("<dd"):]) for m, h in groups]
                out.append(key[2])
                if len(dd) == 1 and len(dd[0][0]) == n:
                    out.append(_denorm(dd[0][1], every))
                else:
                    parts = [(m, _inner(h)) for m, h in dd]
                    out.append("<dd>" + (_merge_tables(parts) or "".join(_group(m, h) for m, h in parts)) + "</dd>")
            out.append("</dl>")
        else:
            for _, key, groups in run:
                head = key[1] if key[0] == "h3" else ""
                out.append(head)
                if len(groups) == 1 and len(groups[0][0]) == n:
                    out.append(_denorm(groups[0][1][len(head):], every))
                else:
                    parts = [(m, h[len(head):]) for m, h in groups]
                    out.append(_merge_tables(parts) or "".join(_group(m, h) for m, h in parts))
        i = j
    return "".join(out)


def _group(members: list[str], html: str) -> str:
    return f"<div class=gg><b>{_gens(members)}</b>{_denorm(html, members)}</div>"


_TABLE = re.compile(r'<div class="scroll"><table class="grid"><thead><tr>(.*?)</tr></thead><tbody>(.*)</tbody></table></div>',
                    re.S)
_FACTS = re.compile(r'<table class="facts">()(.*)</table>', re.S)


def _merge_tables(parts: list[tuple[list[str], str]]) -> str | None:
    """Tables of the same columns (or key/value "facts" tables), one per group of generations, as one table:
    each distinct row once, the generations it is in as a last column (the first stays the one copy buttons
    take; empty when every group has the row).  None when the parts are not such tables."""
    for pattern in (_TABLE, _FACTS):
        tables = [(m, t) for m, h in parts if (t := pattern.fullmatch(h)) is not None]
        if len(tables) == len(parts) and len({t.group(1) for _, t in tables}) == 1:
            break
    else:
        return None
    rows: dict[str, list[str]] = {}
    for members, t in tables:
        for row in children(t.group(2)):
            rows.setdefault(row, []).extend(members)
    every = [a for m, _ in tables for a in m]
    if pattern is _FACTS:  # the rows of one key together, keys in their first order
        keys = list(dict.fromkeys(r[:r.find("</th>")] for r in rows))
        rows = dict(sorted(rows.items(), key=lambda kv: keys.index(kv[0][:kv[0].find("</th>")])))
    body = "".join(f"<tr>{_denorm(_inner(r), m)}<td>{_gens(m) if len(m) < len(every) else ''}</td></tr>"
                   for r, m in rows.items())
    if pattern is _FACTS:
        return f'<table class="facts">{body}</table>'
    return (f'<div class="scroll"><table class="grid"><thead><tr>{tables[0][1].group(1)}<th>generations</th></tr>'
            f"</thead><tbody>{body}</tbody></table></div>")


def _gens(members: list[str], suffix: str = "") -> str:
    """Generations by title, runs of one family in generation order as ranges: RDNA1–RDNA3, CDNA4."""
    order = archs.generation_order(members)
    runs: list[list[str]] = []
    for a in order:
        prev = runs[-1][-1] if runs else None
        if prev and archs.by_name(prev).family == archs.by_name(a).family and _next(prev) == a:
            runs[-1].append(a)
        else:
            runs.append([a])
    text = ", ".join(_own(r[0])[1] + (("–" if len(r) > 2 else ", ") + _own(r[-1])[1] if len(r) > 1 else "") for r in runs)
    return text + (" " + suffix if suffix else "")


_ALL: list[str] = archs.generation_order([n for n in archs.arch_names() if archs.by_name(n).kind == "native"])


def _next(arch: str) -> str | None:
    """The next generation of the same ISA and family, if any."""
    a = archs.by_name(arch)
    later = [b for b in _ALL if archs.by_name(b).family == a.family and archs.by_name(b).order > a.order]
    return later[0] if later else None


ONCE = ("generations", "")  # parts taken from the newest generation's page alone
# An architecture's own title, LLVM target, and name in a command line, in a part being compared.
# A diagram layout named by the first generation with the same layout.
_T, _G, _N, _L = "\ue000", "\ue001", "\ue002", "\ue003"
_CANON = re.compile('data-layout="' + _L + '[^/"]*/')


@functools.lru_cache(maxsize=None)
def _own(arch: str) -> tuple[re.Pattern, str, str | None]:
    a = archs.by_name(arch)
    return re.compile(r"(?<![\w.])%s(?![\w]|\.\d)" % re.escape(a.title)), a.title, a.llvm_target


def _normalise(html: str, arch: str, canon: dict[tuple[str, str], str]) -> str:
    """A part made comparable between generations: links into this generation's folder as @A@, its title and
    LLVM target as placeholders, diagram layouts named by the first generation with the same layout."""
    html = _LAYOUT.sub(lambda m: f'data-layout="{_L}{canon.get((m.group(1), m.group(2)), m.group(1))}/{m.group(2)}"', html)
    pattern, _, target = _own(arch)
    html = pattern.sub(_T, html.replace(f"../{arch}/", "../@A@/").replace(f"../{arch}.html", "../@A@.html"))
    html = html.replace(f"--arch {arch} ", f"--arch {_N} ")
    return html.replace(target, _G) if target else html


def _denorm(html: str, members: list[str]) -> str:
    """A part shared by ``members``: links and commands name the first one; titles and targets joined by '/'."""
    html = html.replace("../@A@/", f"../{members[0]}/").replace("../@A@.html", f"../{members[0]}.html")
    if _N in html:
        html = html.replace(_N, members[0])
    if _L in html:  # the same layout as the first generation that has it: drawn with the first member's title
        html = _CANON.sub(f'data-layout="{members[0]}/', html)
    if _T in html or _G in html:
        ordered = archs.generation_order(members)
        html = html.replace(_T, "/".join(_own(a)[1] for a in ordered))
        html = html.replace(_G, "/".join(_own(a)[2] or "" for a in ordered))
    return html


def merge_pages(name: str, pages: dict[str, str], isa_title: str, canon: dict[tuple[str, str], str]) -> str:
    """The merged page of instruction ``name`` from {arch: rendered page}, any order."""
    order = archs.newest_first(list(pages))
    split = {a: split_page(pages[a]) for a in order}
    head, pre, _, tail = split[order[0]]
    newest_title = archs.by_name(order[0]).title
    head = head.replace(f"<title>{name} · {newest_title} · ", f"<title>{name} · {isa_title} · ", 1)
    out = [head]
    for el in pre:
        if el.startswith('<nav class="archswitch"'):
            el = re.sub(r'href="[^"#]*#([^"]+)"(?: aria-current="page")?', r'id="\1" href="#\1"', el)
            el = el.replace('aria-label="Other architectures"', 'aria-label="Generations"')
        out.append(el)
    ids: list[str] = []
    per_id: dict[str, dict[str, str]] = {}
    for a in order:
        for sid, sec in split[a][2]:
            if sid not in per_id:
                ids.append(sid)
                per_id[sid] = {}
            per_id[sid][a] = sec if sid in ONCE else _normalise(sec, a, canon)
    for sid in ids:
        if sid in ONCE:  # the table of every generation: the newest page's, once
            out.append(next(iter(per_id[sid].values())).replace(' <span class="tag">this page</span>', ""))
        else:
            out.append(merge_section(sid, per_id[sid], order))
    out.append(tail)
    return _unique_ids("".join(out))


def _unique_ids(html: str) -> str:
    seen: set[str] = set()

    def keep(m):
        if m.group(1) in seen:
            return ""
        seen.add(m.group(1))
        return m.group(0)

    return _ID.sub(keep, html)
