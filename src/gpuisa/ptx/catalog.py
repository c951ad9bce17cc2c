"""The PTX catalog: the committed family files, as store documents and as forms for the validator.

Store loader contract (``store.STORE_LOADERS``): ``store_documents()`` and ``fact_paths()``.

Start-up matters for ``gpuisa ptx check`` (run from build scripts): the validator takes the forms
of one opcode head at a time from marshalled forms per head: the committed index (``forms_index.py``,
made by ``python -m gpuisa.regen --steps ptxforms``) when the family files are those it was made from,
else a cache file in the data folder's cache (``forms_cache_path()``: plain containers, sealed with a
CRC by ``cachefile.seal``), rebuilt from the family files whenever their names, sizes or times change,
or the file is damaged; json and pathlib are imported only where needed.
"""

from __future__ import annotations

import marshal
import os
import sys

from .memo import cached  # (not functools.lru_cache: functools imports collections, start-up)

DATA_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "data", "ptx")
MEASURED_PATH = os.path.join(DATA_PATH, "measured", "ptxas.json")
_CORRECTIONS_PATH = os.path.join(os.path.dirname(os.path.realpath(__file__)), "corrections.py")
FORMS_CACHE_FORMAT = 2  # 2: forms stored corrected (corrections.correct_forms), corrections.py in the key
VIRTUAL_NOTE = "PTX is a virtual ISA: no fixed binary encoding"
PROBE_TARGETS = ("sm_20", "sm_30", "sm_32", "sm_35", "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70",
                 "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a",
                 "sm_100f", "sm_103a", "sm_110a", "sm_120", "sm_120a")
NO_DEST = {"st", "red", "bar", "barrier.cluster", "bra", "brx.idx", "call", "ret", "exit", "trap", "brkpt", "membar",
           "fence", "prefetch", "applypriority", "discard", "sust", "sured", "wmma.store", "stmatrix", "cp.async",
           "cp.async.bulk", "cp.async.bulk.tensor", "cp.reduce.async.bulk", "cp.reduce.async.bulk.tensor",
           "st.async", "st.bulk", "red.async", "mbarrier.init", "mbarrier.inval", "mbarrier.expect_tx",
           "mbarrier.complete_tx", "tensormap.replace", "pmevent", "nanosleep", "bar.warp.sync", "griddepcontrol",
           "cp.async.bulk.prefetch", "cp.async.bulk.prefetch.tensor", "tcgen05.st", "tcgen05.mma", "tcgen05.cp",
           "tcgen05.shift", "tcgen05.commit", "tcgen05.mma.sp", "tcgen05.mma.ws", "tcgen05.mma.ws.sp",
           "tensormap.cp_fenceproxy", "setmaxnreg", "stackrestore", "wgmma.fence", "cp.async.mbarrier.arrive"}


def __getattr__(name: str):
    """DATA_DIR and MEASURED as paths, without importing pathlib at start-up."""
    if name in ("DATA_DIR", "MEASURED"):
        from pathlib import Path

        return Path(DATA_PATH if name == "DATA_DIR" else MEASURED_PATH)
    raise AttributeError(name)


def fact_paths() -> list:
    from pathlib import Path

    return sorted(Path(DATA_PATH).glob("*.json"))


@cached(maxsize=1)
def families() -> list[dict]:
    import json

    return [json.loads(p.read_text()) for p in fact_paths()]


def _form_head(form: dict) -> str:
    return form["opcode"][0]["lit"].split(".")[0] if form["opcode"] and "lit" in form["opcode"][0] else ""


@cached(maxsize=1)
def forms_by_head() -> dict[str, list[tuple[str, dict]]]:
    """First opcode token ('vadd', 'cp', 'ld') -> [(instruction name, form)] for the validator."""
    out: dict[str, list[tuple[str, dict]]] = {}
    for fam in families():
        for inst in fam["instructions"]:
            for form in inst["forms"]:
                out.setdefault(_form_head(form), []).append((inst["name"], form))
    return out


class HeadForms:
    """A head's (name, form) forms, each unmarshalled when first used (the committed index holds each
    form on its own): iterating yields them all; ``taking(tokens)`` only those whose required opcode
    tokens (``forms_index.required_tokens``) are all in the instruction's; ``exact``: whether some form
    takes only listed immediates in an operand.  A form is one object once loaded (the checker's
    memos are keyed by ``id(form)``)."""

    __slots__ = ("exact", "names", "required", "blobs", "forms")

    def __init__(self, exact: bool, names: tuple, required: tuple, blobs: tuple, forms: list):
        self.exact, self.names, self.required, self.blobs, self.forms = exact, names, required, blobs, forms

    def __len__(self) -> int:
        return len(self.names)

    def form(self, i: int) -> dict:
        form = self.forms[i]
        if form is None:
            form = self.forms[i] = marshal.loads(self.blobs[i])
        return form

    def __iter__(self):
        for i, name in enumerate(self.names):
            yield name, self.form(i)

    def taking(self, tokens: set):
        """(name, form) of the forms whose required opcode tokens are all in ``tokens``."""
        for i, req in enumerate(self.required):
            if tokens.issuperset(req):
                yield self.names[i], self.form(i)


def _head_of(forms: list) -> HeadForms:
    from . import forms_index

    return HeadForms(forms_index.exact_immediates(forms), tuple(n for n, _ in forms),
                     tuple(forms_index.required_tokens(f) for _, f in forms), (), [f for _, f in forms])


@cached(maxsize=None)
def head_forms(head: str) -> HeadForms:
    """A head's forms as the validator reads them: from the committed index, one form at a time."""
    from .corrections import correct_forms

    if families.cache_info().currsize:  # everything is parsed already
        return _head_of(correct_forms(forms_by_head().get(head, [])))
    blob = _forms_cache()[1].get(head)
    entry = marshal.loads(blob) if blob else []
    if isinstance(entry, tuple):  # the committed index: forms_index.head_entry
        exact, names, required, blobs = entry
        return HeadForms(exact, names, required, blobs, [None] * len(names))
    return _head_of(entry)  # the data folder's cache: the head's forms, corrected


@cached(maxsize=None)
def forms_for_head(head: str) -> list[tuple[str, dict]]:
    """Like ``forms_by_head()[head]`` but reads only that head's forms from the forms index or cache,
    so the validator of a whole .ptx file unpacks a handful of forms, not all (the same form objects
    as ``head_forms``)."""
    return list(head_forms(head))


def forms_cache_path() -> str:
    """Where the per-head forms cache lives: the data folder's cache (``store.home_dir()``/cache)."""
    from ..cachefile import cache_path

    return cache_path("ptx-forms.marshal")


def _catalog_key() -> tuple:
    """Names, sizes and modification times of the family files and the measured facts."""
    entries = []
    with os.scandir(DATA_PATH) as it:
        for e in it:
            if e.name.endswith(".json") and e.is_file():
                st = e.stat()
                entries.append((e.name, st.st_size, st.st_mtime_ns))
    for label, path in (("measured/ptxas.json", MEASURED_PATH), ("corrections.py", _CORRECTIONS_PATH)):
        try:
            st = os.stat(path)
            entries.append((label, st.st_size, st.st_mtime_ns))
        except OSError:
            pass
    return (FORMS_CACHE_FORMAT, sys.version, DATA_PATH, tuple(sorted(entries)))


@cached(maxsize=1)
def _forms_cache() -> tuple:
    """(ignored tokens, {head: marshalled [(name, form)]}) for the current catalog: the committed index
    (forms_index.py) when it was made from these family files, else the data folder's cache file when
    it was written for them, else built (and written when possible)."""
    if os.environ.get("GPUISA_PTX_FORMS_INDEX") != "off":  # (off: tests of the cache below)
        from . import forms_index

        committed = forms_index.load()
        if committed is not None:
            return committed
    from ..cachefile import read_sealed

    key = _catalog_key()
    path = forms_cache_path()
    payload = read_sealed(path)  # (a damaged file, or one of another format: None, and it is made again)
    try:
        stored_key, ignored, blobs = marshal.loads(payload) if payload is not None else (None, None, None)
        if stored_key == key and isinstance(blobs, dict) and isinstance(ignored, tuple):
            return ignored, blobs
    except (ValueError, EOFError, TypeError):
        pass
    from .corrections import correct_forms

    ignored = _read_ignored_tokens()
    # (stored corrected, so that loading a head does not correct it again: correct_forms is idempotent)
    blobs = {head: marshal.dumps(correct_forms(forms)) for head, forms in forms_by_head().items()}
    from ..cachefile import seal, write_cache_file  # only when the cache is (re)built: start-up stays small

    write_cache_file(path, seal(marshal.dumps((key, ignored, blobs))))  # (not writable: this process uses what it built)
    return ignored, blobs


@cached(maxsize=1)
def ignored_tokens() -> tuple[tuple[str, ...], ...]:
    """Modifier token sequences ptxas accepts and ignores in any instruction (measured; see generate.py)."""
    return _forms_cache()[0] if _forms_cache.cache_info().currsize else _read_ignored_tokens()


def _read_ignored_tokens() -> tuple[tuple[str, ...], ...]:
    if not os.path.exists(MEASURED_PATH):
        return ()
    import json

    from .match import dot_tokens

    with open(MEASURED_PATH) as fh:
        return tuple(tuple(dot_tokens(t)) for t in json.load(fh).get("ignored_tokens", []))


@cached(maxsize=None)
def target_key(t: str) -> tuple[int, str]:
    head, _, num = t.partition("_")  # sm_90a -> (90, "a"); without a regular expression (start-up)
    suffix = num[-1:] if num[-1:] in ("a", "f") else ""
    digits = num[:-1] if suffix else num
    return (int(digits), suffix) if head in ("sm", "compute") and digits.isdigit() and digits.isascii() else (-1, "")


def expand_targets(targets: list[str]) -> list[str]:
    """Stored target lists may be abbreviated as 'all from sm_NN'."""
    return list(_expand_targets(tuple(targets)))


@cached(maxsize=4096)
def _expand_targets(targets: tuple[str, ...]) -> tuple[str, ...]:
    out: list[str] = []
    for t in targets:
        if t.startswith("all from "):
            lo = target_key(t[9:])
            out += [p for p in PROBE_TARGETS if target_key(p) >= lo]
        else:
            out.append(t)
    return tuple(out)


def _operand_type(name: str, value_sets: dict) -> str:
    base = name.strip("[]{}").split(".")[0].split("|")[0].lower()
    for key in (f".{base}type", ".type" if base in ("d", "a", "b", "c") else ""):
        if key and key in value_sets:
            return key
    return ""


def public_form(name: str, form: dict) -> dict:
    ops = []
    for i, o in enumerate(form["operands"]):
        role = "read"
        if i == 0 and name not in NO_DEST and o["kind"] != "mem":
            role = "write"
        ops.append({"name": o["name"], "role": role, "kind": o["kind"], "type": _operand_type(o["name"], form["value_sets"]),
                    "optional": o["optional"]})
    out = {"syntax": form["syntax"], "value_sets": {k: (v if v else [form.get("value_patterns", {}).get(k, "")])
                                                    for k, v in form["value_sets"].items()},
           "operands": ops, "state_spaces": form["state_spaces"], "modifiers": form["modifiers"],
           "ptx_version": form["ptx_version"], "min_target": form["min_target"],
           "targets": expand_targets(form.get("targets", [])), "verified_by_ptxas": form.get("verified", False),
           "examples": form.get("examples", [])}
    if form.get("value_requirements"):
        out["value_requirements"] = form["value_requirements"]
    return out


def _vkey(v: str) -> tuple:
    return tuple(int(x) for x in v.split(".")) if v else (99,)


def store_documents() -> list[dict]:
    insts = []
    sources: list[dict] = []
    for fam in families():
        for s in fam["sources"]:
            if s not in sources:
                sources.append(s)
        for inst in fam["instructions"]:
            forms = [public_form(inst["name"], f) for f in inst["forms"]]
            dated = [f for f in forms if f["ptx_version"]]
            oldest = min(dated, key=lambda f: (_vkey(f["ptx_version"]), target_key(f["min_target"]))) if dated else None
            page = {
                "isa_note": VIRTUAL_NOTE,
                "family": fam["family"],
                "forms": forms,
                "ptx_version": oldest["ptx_version"] if oldest else "",
                "min_target": oldest["min_target"] if oldest else "",
                "operands": [{"name": o["name"], "role": o["role"], "kind": o["kind"], "format": o["type"] or None,
                              "size": None, "implicit": False, "note": "optional" if o["optional"] else "",
                              "inferred": False} for o in (forms[0]["operands"] if forms else [])],
                "targets": sorted({t for f in forms for t in f["targets"]}, key=target_key),
                "sources": fam["sources"] + ([{"source": "gpuisa", "version": "", "note": "grammar corrections: "
                                               + "; ".join(fam["source_corrections"]), "inferred": False}]
                                             if fam.get("source_corrections") else []),
            }
            formats = sorted({v for f in forms for vs in f["value_sets"].values() for v in vs if len(v) < 12})
            insts.append({"name": inst["name"], "category": inst["category"], "summary": inst["summary"],
                          "description": None, "subgroup": fam["family"], "page": page,
                          "search_encodings": "ptx virtual " + fam["family"], "search_formats": " ".join(formats)})
    return [{"arch": "ptx", "sources": sources, "instructions": insts}]
