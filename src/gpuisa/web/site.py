"""Every page of the web reference as (template, context), for the server and the static export alike.

Instruction content comes only from ``gpuisa.pages.build_model`` (the typed page ``show --json`` writes),
the ``Store``'s query methods and ``gpuisa.diff.diff_archs``.  A page is named by its canonical path
(``isa/rdna4/v_msad_u8``); ``Linker`` turns canonical paths into hrefs: absolute for the server,
relative ``.html`` files for the static export (so it works from ``file://`` and any static host).
"""

from __future__ import annotations

import dataclasses
import json
import posixpath
import threading
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from .. import archs, isas
from ..diff import diff_archs
from ..errors import UserError
from ..page.codec import to_json
from ..page.model import SECTIONS, InstructionPage
from ..pages import NotFound, build_model, field_json
from ..render.html import format_note, layout_svg, slug_ok
from ..sources.derive import CATEGORY_TITLES
from ..store import Store
from . import instruction as inst_parts
from .relations import relation_cards
from .search import SearchIndex

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).parent / "static"
# Sections of the page model the instruction template draws in its own way, in this order; the model's
# other sections (timing) are drawn as generic blocks of their JSON ("extra").
SECTION_KEYS = ("forms", "semantics", "examples", "related")


class PageMissing(LookupError):
    """A path that names no page (the message says what is missing)."""


class UnknownArchName(PageMissing):
    """An architecture spelling that names no architecture at all (the API answers 422)."""


class Redirect(Exception):
    """The canonical path of a page asked for under another spelling (gfx1150 -> rdna3.5)."""

    def __init__(self, path: str):
        super().__init__(path)
        self.path = path


class Linker:
    """Canonical page path -> href. ``static``: relative links to ``.html`` files."""

    def __init__(self, static: bool, current: str = ""):
        self.static = static
        self.current = current
        self._prefix: str | None = None

    @staticmethod
    def file_of(path: str) -> str:
        if path.startswith("static/") or path.endswith((".js", ".json", ".css")):
            return path
        return (path or "index") + ".html"

    def root(self) -> str:
        """Prefix from the current page to the site root ("/" on the server, "../" in an export)."""
        if not self.static:
            return "/"
        depth = self.file_of(self.current).count("/")
        return "../" * depth if depth else "./"

    def __call__(self, path: str, fragment: str = "") -> str:
        frag = f"#{fragment}" if fragment else ""
        if not self.static:
            return "/" + path + frag
        if self._prefix is None:
            self._prefix = posixpath.dirname(self.file_of(self.current))
            self._parts = self._prefix.split("/") if self._prefix else []
        target = self.file_of(path)
        if not self._prefix:
            return target + frag
        if target.startswith(self._prefix + "/"):  # same folder (isa/rdna4/...): the shortest link
            return target[len(self._prefix) + 1:] + frag
        tparts = target.split("/")
        common = 0
        for a, b in zip(self._parts, tparts[:-1]):
            if a != b:
                break
            common += 1
        return "../" * (len(self._parts) - common) + "/".join(tparts[common:]) + frag


def instruction_path(arch: str, name: str) -> str:
    return f"isa/{arch}/{name}"


def _field_dict(f) -> dict:
    return field_json(f)


def _opcode_placeholder(svg: str, op_field: str) -> str:
    """The opcode field's bits (drawn as zeros) replaced by @B@ in its text and title."""
    import re

    def fix(m):
        g = m.group(0)
        g = re.sub(r'(<text class="bits[^"]*"[^>]*>)[01]+(</text>)', r"\1@B@\2", g)
        return re.sub(r"( = )[01]+(</title>)", r"\1@B@\2", g)

    return re.sub(r'<g class="field opcode" data-field="%s".*?</g>' % re.escape(op_field), fix, svg, flags=re.S)


def _bits_text(f) -> str:
    """A field's bit ranges (a typed ``BitField`` or its JSON) as '63:32, 7:0'."""
    f = f if isinstance(f, dict) else to_json(f)
    return ", ".join(f"{hi}:{lo}" if hi != lo else str(hi) for hi, lo in (f.get("ranges") or [[f["hi"], f["lo"]]]))


def value_html(v) -> Markup:
    """A JSON value of a section whose shape is not known in advance, as HTML (every text escaped)."""
    out: list[str] = []
    _value(v, out)
    return Markup("".join(out))


def _value(v, out: list) -> None:
    if isinstance(v, dict):
        out.append('<dl class="kv">')
        for k, x in v.items():
            out.append(f"<dt>{escape(k)}</dt><dd>")
            _value(x, out)
            out.append("</dd>")
        out.append("</dl>")
    elif isinstance(v, (list, tuple)):
        if v and isinstance(v[0], dict):
            cols: list = []
            for row in v:
                cols += [k for k in (row if isinstance(row, dict) else ()) if k not in cols]
            out.append('<div class="scroll"><table class="grid"><thead><tr>')
            out += [f"<th>{escape(c)}</th>" for c in cols]
            out.append("</tr></thead><tbody>")
            for row in v:
                out.append("<tr>")
                for c in cols:
                    out.append("<td>")
                    _value(row.get(c, "") if isinstance(row, dict) else "", out)
                    out.append("</td>")
                out.append("</tr>")
            out.append("</tbody></table></div>")
        else:
            out.append('<ul class="plain">')
            for x in v:
                out.append("<li>")
                _value(x, out)
                out.append("</li>")
            out.append("</ul>")
    elif isinstance(v, str) and "\n" in v:
        out.append(f"<pre>{escape(v)}</pre>")
    elif v is True:
        out.append("yes")
    elif v is False:
        out.append("no")
    elif v is None:
        out.append("—")
    else:
        out.append(str(escape(v)))


def _plain(v):
    """A typed page section (``page.model`` dataclasses) as its JSON; other values as they are."""
    return to_json(v) if dataclasses.is_dataclass(v) or isinstance(v, list) else v


def _arch_title(arch: str) -> str:
    """archs.py's title; an architecture of an ISA registered with its own is named as it is."""
    return arch if isas.with_own_archs(arch) else archs.by_name(arch).title


def make_env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True,
                             extensions=["jinja2.ext.do"])
    env.filters["bits_text"] = _bits_text
    env.filters["value_html"] = lambda v: value_html(_plain(v))
    env.filters["plain"] = _plain
    env.filters["category_title"] = lambda c: CATEGORY_TITLES.get(c, "")
    env.filters["format_note"] = format_note
    env.filters["slug_ok"] = slug_ok
    env.filters["tojson_pretty"] = lambda v: json.dumps(v, indent=2, ensure_ascii=False, default=str)
    env.tests["mapping"] = lambda v: isinstance(v, dict)
    env.tests["sequence_list"] = lambda v: isinstance(v, (list, tuple))
    return env


class Site:
    """Builds the context of each page type from one read-only store."""

    def __init__(self, store_path: Path | None = None):
        self.store_path = store_path or Store().path
        self._local = threading.local()
        self.env = make_env()
        self._indexes: dict[str, dict] = {}
        self._lock = threading.Lock()
        self.arch_rows = [dict(r) for r in self.store.archs()]
        self.arch_names = [r["name"] for r in self.arch_rows]
        self.arch_titles_json = json.dumps({n: archs.by_name(n).title for n in archs.newest_first(self.arch_names)})
        self._search: SearchIndex | None = None
        self._encodings: dict[tuple[str, str], object] = {}
        self._form_rows: dict[tuple[str, str], str | None] = {}

    @property
    def search(self) -> SearchIndex:
        if self._search is None:
            with self._lock:
                if self._search is None:
                    self._search = SearchIndex(self.store, self.arch_names)
        return self._search

    def form_anchor(self, name: str, text: str) -> str | None:
        """The id of the row of PTX page ``name``'s forms table that ``text`` is written in (gpuisa ptx check)."""
        key = (name, text)
        if key not in self._form_rows:
            from ..ptx.check import check_instruction

            try:
                form = check_instruction(text).get("form")
                forms = (build_model(self.store, name, "ptx").forms or []) if form else []
            except (NotFound, UserError, ValueError, KeyError):
                forms = []
            rows = [i + 1 for i, f in enumerate(forms) if f.syntax == form]
            self._form_rows[key] = f"form-{rows[0]}" if rows else None
        return self._form_rows[key]

    def encoding_of(self, arch: str, enc: str):
        key = (arch, enc)
        if key not in self._encodings:
            self._encodings[key] = self.store.encoding(arch, enc)
        return self._encodings[key]

    @property
    def store(self) -> Store:
        st = getattr(self._local, "store", None)
        if st is None:
            st = self._local.store = Store(self.store_path)
        return st

    # -- routing ---------------------------------------------------------------------------------------------
    def canonical_arch(self, text: str) -> str:
        own = isas.with_own_archs(text)  # an ISA registered with architectures (and pages) of its own
        if own is not None:
            return text.strip().lower()
        try:
            a = archs.resolve_arch(text)
        except archs.UnknownArch as exc:
            raise UnknownArchName(str(exc)) from None
        if a.name not in self.arch_names:
            raise PageMissing(f"architecture {a.title} is not in the store")
        return a.name

    def page_for(self, path: str, static: bool = False) -> tuple[str, dict]:
        """(template, context) of a canonical path; PageMissing or Redirect otherwise."""
        parts = path.strip("/").split("/") if path.strip("/") else []
        if any(not slug_ok(p) for p in parts):
            raise PageMissing("no such page (path segments are names: letters, digits, '_', '.', '-')")
        if not parts:
            return "home.html", self.home()
        if parts == ["search"]:
            return "search.html", {"title": "Search"}
        if parts == ["playground"]:
            from .playground import form_state, modes

            return "playground.html", {"title": "Playground", "native": self.native_archs(),
                                       "modes": list(modes().values()), "pg": form_state({})}
        if parts[0] == "diff":
            if len(parts) == 1:
                return "diff_index.html", self.diff_index()
            if len(parts) == 3:
                a, b = self.canonical_arch(parts[1]), self.canonical_arch(parts[2])
                if [a, b] != parts[1:]:
                    raise Redirect(f"diff/{a}/{b}")
                return "diff.html", self.diff(a, b)
        if parts[0] == "isa" and len(parts) == 2 and parts[1].lower() not in self.arch_names:
            newest = self.search.newest_arch(parts[1].lower())
            if newest is not None:
                raise Redirect(instruction_path(newest, parts[1].lower()))
        if parts[0] == "isa" and len(parts) >= 2:
            arch = self.canonical_arch(parts[1])
            if arch != parts[1]:
                raise Redirect("/".join(["isa", arch, *parts[2:]]))
            if len(parts) != 3 and arch not in self.arch_names:  # an ISA's own architecture: instruction pages only
                raise PageMissing(f"no page for architecture {arch} (its ISA's pages are its instructions')")
            if len(parts) == 2:
                return "arch.html", self.arch(arch)
            if len(parts) == 3:
                name = parts[2].lower()
                if name != parts[2]:
                    raise Redirect(instruction_path(arch, name))
                return "instruction.html", self.instruction(arch, name, static)
            if len(parts) == 4 and parts[2] == "encoding":
                return "encoding.html", self.encoding(arch, parts[3])
            if len(parts) == 4 and parts[2] == "format":
                return "operand_index.html", self.operand_index(arch, "format", parts[3])
            if len(parts) == 4 and parts[2] == "operand-type":
                return "operand_index.html", self.operand_index(arch, "kind", parts[3])
        raise PageMissing("no such page")

    # -- pages ------------------------------------------------------------------------------------------------
    def native_archs(self) -> list[dict]:
        return [r for r in self.arch_rows if r["kind"] == "native"]

    def home(self) -> dict:
        vendors: dict[str, dict[str, list[dict]]] = {}
        for r in self.arch_rows:
            vendors.setdefault(r["vendor"], {}).setdefault(r["isa"], []).append(
                {**r, "targets": json.loads(r["targets"])})
        native = archs.generation_order([r["name"] for r in self.native_archs()])
        steps = []
        for fam in dict.fromkeys(archs.by_name(n).family for n in native):  # each family oldest to newest
            chain = sorted((n for n in native if archs.by_name(n).family == fam), key=lambda n: archs.by_name(n).order)
            steps += list(zip(chain, chain[1:]))
        headings = {i.key: f"{i.title} ({i.kind} ISA, {i.key})" for i in isas.all_isas()}  # from the registry
        return {"title": "gpuisa", "vendors": vendors, "steps": steps, "isa_headings": headings,
                "total": sum(r["instructions"] for r in self.arch_rows)}

    def arch(self, arch: str) -> dict:
        a = archs.by_name(arch)
        st = self.store
        encodings = []
        for enc_name in st.encoding_names(arch):
            enc = st.encoding(arch, enc_name)
            if enc is None:
                raise PageMissing(f"no encoding {enc_name} in {arch}")
            fields = [_field_dict(f) for f in enc.sorted_fields()]
            encodings.append({"name": enc_name, "width": enc.width, "svg": layout_svg(
                fields, enc.width, f"{enc_name} encoding of {a.title}", f"{a.title} · {enc_name} · {enc.width} bits")})
        groups: dict[str, dict[str, dict]] = {}
        if a.kind == "virtual":
            for name in sorted(st.all_names(arch)):
                row = st.instruction(name, arch)
                assert row is not None  # one of all_names(arch)
                groups.setdefault(row["category"], {})[name] = {"name": name, "summary": row["summary"], "encodings": []}
        else:
            for r in st.list_arch(arch):
                item = groups.setdefault(r["category"], {}).setdefault(
                    r["name"], {"name": r["name"], "summary": r["summary"], "encodings": []})
                item["encodings"].append((r["encoding"], r["opcode"]))
        idx = self._operand_indexes(arch)
        return {"title": a.title, "a": a, "row": next(r for r in self.arch_rows if r["name"] == arch),
                "targets": list(a.targets), "encodings": encodings,
                "groups": [(cat, list(items.values())) for cat, items in sorted(groups.items())],
                "formats": sorted(idx["format"]), "kinds": sorted(idx["kind"])}

    def instruction(self, arch: str, name: str, static: bool = False) -> dict:
        """The context of an instruction page: the typed page (``page``) and what is drawn beside it."""
        try:
            page = build_model(self.store, name, arch)
        except NotFound as exc:
            raise PageMissing(str(exc)) from None
        native = isas.of_arch(arch).kind == "native"
        enc_gens = inst_parts.generation_opcodes(self.store, name, arch, self.encoding_of) if native else []
        cells: dict[str, list] = {}
        for e in enc_gens:
            for c in e["gens"]:
                cells.setdefault(c["arch"], []).append(c)
        gens = [{"arch": g, "title": archs.by_name(g).title, "info": page.generations[g], "current": g == arch,
                 "cells": cells.get(g) or [{"present": False}] * len(enc_gens)}
                for g in archs.generation_order(list(page.generations))]
        extra = {k: to_json(getattr(page, k)) for k in SECTIONS if k not in SECTION_KEYS and getattr(page, k)}
        forms, form_operands = inst_parts.forms_table(page.forms)
        operands = [to_json(o) for o in page.operands]
        if form_operands:  # every operand of every syntax form (vsub's c is in its 4-operand forms only)
            names = {o["name"] for o in operands}
            operands += [{**o, "size": None, "implicit": False, "note": "in some forms only"}
                         for o in form_operands if o["name"] not in names]
        return {"title": f"{name} · {page.arch_title}", "page": page, "diagrams": self._diagrams(page, static),
                "gens": gens, "extra": extra, "flags": {k: v for k, v in page.flags.items() if v},
                "sections": [k for k in SECTION_KEYS if getattr(page, k)],
                "cards": relation_cards(page, set(self.arch_names), self.form_anchor), "forms": forms,
                "operands": operands, "enc_gens": enc_gens, "docs": inst_parts.doc_links(page),
                "target_text": inst_parts.target_text(page)}

    def _diagrams(self, page: InstructionPage, static: bool) -> list:
        """Per encoding of the page: its layout's SVG, a reference to the static layouts script, or None."""
        title = page.arch_title
        diagrams: list = []
        for enc in page.encodings:
            e = self.encoding_of(page.arch, enc.name)
            if not enc.fields:
                diagrams.append(None)
            elif static and e is not None:  # drawn by static/layouts-ARCH.js: one copy per encoding, not per page
                diagrams.append({"layout": f"{page.arch}/{enc.name}", "opcode": enc.opcode})
            else:
                diagrams.append(layout_svg(
                    [to_json(f) for f in enc.fields], enc.width or 32, f"{enc.name} encoding of {page.name} on {title}",
                    f"{title} · {enc.name} · {enc.width} bits · opcode {enc.opcode}",
                    opcode_field=e.op_field if e else None, opcode=enc.opcode))
        return diagrams

    def encoding(self, arch: str, enc_name: str) -> dict:
        a = archs.by_name(arch)
        st = self.store
        known = st.encoding_names(arch)
        name = enc_name.upper().removeprefix("ENC_")
        if name not in known:
            raise PageMissing(f"no encoding {enc_name} in {arch} (allowed: {', '.join(known) or 'none'})")
        if name != enc_name:
            raise Redirect(f"isa/{arch}/encoding/{name}")
        enc = st.encoding(arch, name)
        if enc is None:
            raise PageMissing(f"no encoding {enc_name} in {arch} (allowed: {', '.join(known) or 'none'})")
        fields = [_field_dict(f) for f in enc.sorted_fields()]
        others = []
        for other in self.native_archs():
            if other["isa"] != a.isa or other["name"] == arch:
                continue
            oe = st.encoding(other["name"], name)
            others.append({"arch": other["name"], "title": other["title"],
                           "present": oe is not None, "same": oe is not None and oe.layout_key() == enc.layout_key()})
        insts = [{"name": r["name"], "opcode": r["opcode"], "summary": r["summary"]} for r in st.list_arch(arch, name)]
        return {"title": f"{name} · {a.title}", "a": a, "enc": enc, "fields": fields, "op_field": enc.op_field,
                "svg": layout_svg(fields, enc.width, f"{name} encoding of {a.title}", f"{a.title} · {name} · {enc.width} bits"),
                "others": others, "insts": insts}

    def _operand_indexes(self, arch: str) -> dict:
        """{"format": {FMT: {...}}, "kind": {OPR: {...}}} over every operand of every instruction of ``arch``."""
        with self._lock:
            if arch in self._indexes:
                return self._indexes[arch]
        st = self.store
        idx: dict[str, dict] = {"format": {}, "kind": {}}
        for name in st.all_names(arch):
            row = st.instruction(name, arch)
            assert row is not None  # one of all_names(arch)
            page = json.loads(row["page"])
            ops = [o for e in page.get("encodings", []) for o in e.get("operands", [])] or page.get("operands", [])
            for o in ops:
                for key in ("format", "kind"):
                    value = o.get(key)
                    if not isinstance(value, str) or not slug_ok(value):
                        continue
                    entry = idx[key].setdefault(value, {"sizes": set(), "other": set(), "insts": {}})
                    if o.get("size"):
                        entry["sizes"].add(o["size"])
                    other = o.get("kind" if key == "format" else "format")
                    if isinstance(other, str):
                        entry["other"].add(other)
                    entry["insts"].setdefault(name, set()).add(o.get("name") or "")
        with self._lock:
            self._indexes[arch] = idx
        return idx

    def operand_index(self, arch: str, key: str, value: str) -> dict:
        a = archs.by_name(arch)
        idx = self._operand_indexes(arch)[key]
        if value not in idx:
            what = "data format" if key == "format" else "operand type"
            raise PageMissing(f"no {what} {value} in {arch}")
        e = idx[value]
        return {"title": f"{value} · {a.title}", "a": a, "key": key, "value": value, "imported": self._kind_page(arch, key, value),
                "note": format_note(value) if key == "format" else "", "sizes": sorted(e["sizes"]),
                "other": sorted(e["other"]), "insts": sorted((n, sorted(ops)) for n, ops in e["insts"].items())}

    def _kind_page(self, arch: str, key: str, value: str) -> dict | None:
        """AMD's own table entry for a data format / operand type, when its XML has been imported."""
        try:
            from ..amdxml.kinds import build_kind_page
        except ImportError:
            return None
        try:
            page = build_kind_page(self.store, value, "format" if key == "format" else "operand-type", arch)
        except UserError:
            return None
        hidden = {"kind", "arch", "arch_title", "name", "description", "description_source", "sources"}
        return {"description": page.get("description"), "description_source": page.get("description_source"),
                "details": {k: v for k, v in page.items() if k not in hidden and v not in (None, "", [], {})},
                "sources": page.get("sources") or []}

    def diff_index(self) -> dict:
        native = archs.generation_order([r["name"] for r in self.native_archs()])
        return {"title": "Generation differences", "archs": [(n, archs.by_name(n).title) for n in native]}

    def diff(self, a: str, b: str) -> dict:
        aa, ab = archs.by_name(a), archs.by_name(b)
        if aa.kind != "native" or ab.kind != "native" or aa.isa != ab.isa or a == b:
            raise PageMissing("a diff compares two different generations of one native ISA (e.g. diff/rdna2/rdna3)")
        return {"title": f"{aa.title} → {ab.title}", "d": diff_archs(self.store, a, b), "ta": aa.title, "tb": ab.title,
                "a": a, "b": b}

    # -- rendering --------------------------------------------------------------------------------------------
    def render(self, path: str, static: bool = False) -> str:
        template, ctx = self.page_for(path, static)
        return self.render_template(template, ctx, path, static)

    def render_template(self, template: str, ctx: dict, path: str, static: bool = False) -> str:
        link = Linker(static, path)
        return self.env.get_template(template).render(
            **ctx, url=link, static_mode=static, path=path, archs_nav=self.arch_rows,
            instruction_path=instruction_path, arch_title=_arch_title,
            arch_titles_json=self.arch_titles_json)

    def layouts_js(self, arch: str) -> str:
        """static/layouts-ARCH.js: each encoding's diagram once, @N@ / @O@ / @B@ standing for the instruction's
        name, opcode and opcode bits (the static export's pages name a layout instead of carrying it)."""
        a = archs.by_name(arch)
        out = {}
        for enc_name in self.store.encoding_names(arch):
            e = self.encoding_of(arch, enc_name)
            fields = [_field_dict(f) for f in e.sorted_fields()]
            svg: str = layout_svg(fields, e.width, f"{enc_name} encoding of @N@ on {a.title}",
                                  f"{a.title} · {enc_name} · {e.width} bits · opcode @O@", opcode_field=e.op_field,
                                  opcode=0)
            if e.op_field:
                svg = _opcode_placeholder(svg, e.op_field)
            out[enc_name] = svg
        return "window.GPUISA_LAYOUTS=window.GPUISA_LAYOUTS||{};window.GPUISA_LAYOUTS[" + json.dumps(arch) + "]=" + \
            json.dumps(out, ensure_ascii=True).replace("</", "<\\/") + ";\n"

    def all_paths(self) -> list[str]:
        """Every page of the reference (the static export's page list)."""
        st = self.store
        paths = ["", "search", "playground", "diff"]
        native = archs.generation_order([r["name"] for r in self.native_archs()])
        paths += [f"diff/{a}/{b}" for a in native for b in native
                  if a != b and archs.by_name(a).isa == archs.by_name(b).isa]
        for arch in self.arch_names:
            paths.append(f"isa/{arch}")
            paths += [f"isa/{arch}/encoding/{e}" for e in st.encoding_names(arch)]
            idx = self._operand_indexes(arch)
            paths += [f"isa/{arch}/format/{f}" for f in sorted(idx["format"])]
            paths += [f"isa/{arch}/operand-type/{k}" for k in sorted(idx["kind"])]
            paths += [instruction_path(arch, n) for n in sorted(st.all_names(arch)) if slug_ok(n)]
        return paths
