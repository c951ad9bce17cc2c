"""One documentation look-up for an opcode as a compiler prints it (Compiler Explorer style).

``lookup(opcode, isa, arch)`` maps what LLVM or nvcc emit to the store's instruction and answers
``{tooltip, html, url}`` plus the facts behind them.  It is the only place that does this: the LSP
hover, ``gpuisa doc`` and the web route ``/api/asm/{isa}/{opcode}`` (and the static export of it)
all call it.

* AMD: LLVM's variant suffixes (``_e32``, ``_e64``, ``_dpp``, ``_sdwa``, ``_e64_dpp``, ``_dpp8``)
  name an encoding of one instruction; the suffix picks which encoding's opcode is shown.
* PTX: a full dotted opcode (``ld.global.nc.v4.f32``, ``vsub.s32.s32.u32.sat``) is matched
  against the catalog's forms of its head; the form that takes it names the instruction.  Where
  no form takes it, the longest dotted prefix that is an instruction is used.

Answers are cached per (store file, opcode, isa, arch): the store is read-only, so a warm look-up is
a dictionary hit.  Everything shown is a fact of the store (no prose beyond the project's own
summaries).
"""

from __future__ import annotations

import html as _html
import re
import threading

from .. import archs, isas
from ..errors import UserError

# LLVM's AMD mnemonic suffixes, longest first: (suffix, encodings preferred, how the variant is named)
AMD_VARIANTS = (
    ("_e64_dpp", ("VOP3", "VOP3SD", "VOP3_SDST_ENC", "VOP3P"), "DPP form of the VOP3 encoding"),
    ("_dpp8", ("VOP1", "VOP2", "VOPC"), "DPP8 form of the 32-bit encoding"),
    ("_sdwa", ("VOP1", "VOP2", "VOPC"), "SDWA form of the 32-bit encoding"),
    ("_dpp", ("VOP1", "VOP2", "VOPC"), "DPP form of the 32-bit encoding"),
    ("_e32", ("VOP1", "VOP2", "VOPC"), "32-bit encoding"),
    ("_e64", ("VOP3", "VOP3SD", "VOP3_SDST_ENC", "VOP3P"), "64-bit (VOP3) encoding"),
)
OPCODE_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:]{0,119}$")
CACHE_SIZE = 8192


class DocNotFound(UserError):
    """An opcode that names no instruction (one line, with close matches where there are some)."""


def page_path(arch: str, name: str) -> str:
    """The site path of an instruction page (the same as gpuisa.web.site.instruction_path)."""
    return f"isa/{arch}/{name}"


_lock = threading.Lock()
_cache: dict = {}
_stores: dict = {}


def default_store():
    """The user's store, opened once per process."""
    st = _stores.get(None)
    if st is None:
        from ..store import Store, default_db_path

        st = _stores[None] = Store(default_db_path())
    return st


def split_amd(opcode: str) -> tuple[str, tuple | None]:
    """(base name, (suffix, preferred encodings, variant text) or None) of an LLVM AMD mnemonic."""
    key = opcode.strip().lower()
    for v in AMD_VARIANTS:
        if key.endswith(v[0]) and len(key) > len(v[0]):
            return key[: -len(v[0])], v
    return key, None


def guess_isa(opcode: str) -> str:
    """amdgpu for names like v_add_f32 / s_endpgm / global_load_b32, else ptx."""
    head = opcode.split(".", 1)[0]
    return "amdgpu" if "_" in head and "." not in opcode else "ptx"


def lookup(opcode: str, isa: str | None = None, arch: str | None = None, store=None) -> dict:
    """The documentation of ``opcode``: tooltip, html, url and the facts (see module docstring).

    Raises DocNotFound (a UserError: one line) for an unknown opcode, ISA or architecture."""
    st = store if store is not None else default_store()
    key = (str(st.path), opcode, isa, arch)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    doc = _lookup(st, opcode.strip(), isa, arch)
    with _lock:
        if len(_cache) >= CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        _cache[key] = doc
    return doc


def cached(opcode: str, isa: str | None, arch: str | None, store_path) -> dict | None:
    """The answer of an earlier ``lookup`` on the store file at ``store_path``, if there is one (no
    store needed: a server answers repeated look-ups without a worker thread)."""
    return _cache.get((str(store_path), opcode, isa, arch))


def public(doc: dict) -> dict:
    """What ``gpuisa doc --json`` and ``/api/asm/...`` answer: tooltip, html, url and the names."""
    return {k: doc[k] for k in ("tooltip", "html", "url", "opcode", "instruction", "isa", "arch")}


def _lookup(st, opcode: str, isa: str | None, arch: str | None) -> dict:
    if not OPCODE_RE.match(opcode):
        raise DocNotFound(f"{opcode[:60]!r} is not an opcode (letters, digits, '_', '.' and ':', at most 120)")
    if isa is not None and isa not in isas.keys("doc"):
        raise DocNotFound(f"unknown ISA {isa[:40]!r} (allowed: {', '.join(isas.keys('doc'))})")
    arch_key = _arch(arch, isa)
    if isa is None:
        isa = archs.by_name(arch_key).isa if arch_key else guess_isa(opcode)
    return isas.get(isa).hook("doc")(st, opcode, arch_key)


def _arch(arch: str | None, isa: str | None) -> str | None:
    if arch is None:
        return None
    try:
        a = archs.resolve_arch(arch)
    except archs.UnknownArch as exc:
        raise DocNotFound(str(exc)) from None
    if isa is not None and a.isa != isa:
        raise DocNotFound(f"{arch} is not an architecture of the {isa} ISA")
    return None if a.kind == "virtual" else a.name


_pages: dict = {}


def build_page_or_none(st, name: str, arch: str | None, isa: str):
    """The instruction's page (cached: the variants of one instruction share it), or None."""
    from ..pages import NotFound, build_page

    key = (str(st.path), name, arch, isa)
    if key in _pages:
        return _pages[key]
    try:
        page = build_page(st, name, arch, isa=isa)
    except NotFound:
        page = None
    with _lock:
        if len(_pages) >= CACHE_SIZE // 4:
            _pages.pop(next(iter(_pages)))
        _pages[key] = page
    return page


def not_found(st, name: str, opcode: str, arch: str | None, isa: str) -> DocNotFound:
    from ..pages import NotFound, resolve

    try:
        resolve(st, name, arch, isa)
    except NotFound as exc:
        msg = str(exc)
        return DocNotFound(msg if name == opcode.lower() else f"{opcode}: {msg}")
    return DocNotFound(f"no instruction {opcode}")


def esc(text) -> str:
    return _html.escape(str(text), quote=True)


def html_block(title: str, lines: list[str], rows: list[tuple[str, str]], url: str) -> str:
    """A small self-contained HTML fragment: title, lines of text, a facts table, a link."""
    out = [f'<div class="gpuisa-doc"><p><b>{esc(title)}</b></p>']
    out += [f"<p>{esc(x)}</p>" for x in lines if x]
    if rows:
        out.append("<table>" + "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in rows) + "</table>")
    out.append(f'<p><a href="{esc(url)}">gpuisa reference page</a></p></div>')
    return "".join(out)
