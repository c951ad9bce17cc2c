"""``gpuisa decode``'s plain listing through the C accelerator (``fastdecode.c``), and the cache that lets a
later process run it without numpy, the store or the scalar decoder.

Why: the whole process is what a user waits for (``benchmarks/bench_decode.py``); importing numpy is 60-70
ms and loading the scalar decoder's tables (``tables.load_arch_tables``: SQLite and JSON) another ~67 ms.

* The tables the C loop reads are the batch decoder's (``batch_arch.ArchBatch``), exported by ``accel_export.export``
  as plain bytes and numbers.  After a run that made the batch decoder (the first one, or one that met
  something the tables did not hold) they are written to the data folder's cache (``snapshot_path``:
  ``marshal``, sealed with a CRC by ``cachefile.seal``), with the templates, operand texts and classes
  learned in the run and the scalar decoder's answers at the starts the batch path leaves to it (keyed by
  the bytes there, ``_CONTEXT`` of them).  The file is used while the files the decoder's output depends
  on (``stamp``: the codec's modules, the architecture's data files, the stores, this extension) have the
  sizes and times they had; any change, a damaged file or another version's format and it is made again.
* A run from the cache (``Warm``) answers the C loop's questions with "not known": such starts go to the
  scalar decoder, made only then (the store and the architecture's tables; not numpy).  What that costs is
  kept at the cost of what is new: the scalar answers of a run go to a small file beside the cache
  (``added_path``, tied to the cache file by its size and time, merged at load), the cache itself written
  again only when they are many (``_ADDED``).  Only a run whose C loop asked many questions (``_REMAKE``, and
  one per ``_REMAKE_BYTES`` of code: a kind of code the tables have not met) makes the cache again after the
  listing is written, the batch decoder first learning again what the earlier runs learned (``Full.replay``: classes by selector,
  templates by the word that made them, kept in the cache as events), so the next run of this input, an
  earlier one or one like it needs nothing.
* Exports, which the batch path leaves to the scalar decoder, are answered from learned formats: the first
  export of a shape (every bit but its four source registers) seen by the scalar decoder is rendered again
  with two sets of distinct registers and, where the text is the same with the registers cut out, kept as a
  format (``export_format``, in the answers under ``("x", rest of the word)``); a later export of that shape,
  in any input, is that format filled in, without the scalar decoder.
* A stream's last instruction (the tail loop's, which the C loop leaves to the scalar decoder: fewer than 8
  bytes in view) is rendered by a second copy of the tables from its bytes alone, twice padded with other
  bytes (``Warm.tail_answer``: taken where both give the same line of exactly those bytes).
* A run without a current cache starts from the committed base tables (``accel_base.py``: the batch tables
  and the export formats, made at regeneration) as a warm run does, its answers kept beside them; only where
  there are none (wave64, a stale file) it makes the scalar and the batch decoder (``Full``) and answers the C
  loop's questions with them (the template of a new word shape, an operand text, a class).

The numpy path (``listing.py``) stays the reference and the fallback: it runs when the extension is missing
(no compiler at install time) or ``GPUISA_NO_ACCEL=1``; ``tests/test_codec_accel.py`` checks that both write
the same bytes.  ``--json`` and ``--fields`` use the numpy path.
"""

from __future__ import annotations

import marshal
import os

from ..cachefile import cache_path, read_sealed, read_stamped, seal, write_cache_file, write_stamped

TYPE_CHECKING = False  # (no ``typing`` import at start-up; mypy reads the block below)
if TYPE_CHECKING:
    from .decoder import Decoder

_VERSION = 2
_CONTEXT = 24  # bytes of context that key a scalar answer (the longest instruction is 20 bytes)
_ANSWERS = 1 << 16  # scalar answers kept in the cache at most (the newest)
_EVENTS = 4096  # learned templates and classes kept to be learned again (the newest)
_ADDED = 8192  # scalar answers kept beside the cache at most (more: the cache is written again with them)
_REMAKE = 64  # questions of the C loop a warm run may leave to the scalar decoder before the cache is remade,
_REMAKE_BYTES = 32  # ... where there is also one per this many bytes of code or more (a new kind of code; a
# remake imports numpy and makes the batch decoder, ~0.5 s CPU: a few scattered words, 1-8 % of llc-22 output's
# instructions, cost less from the scalar decoder and are kept beside the cache)
_HERE = os.path.dirname(os.path.abspath(__file__))


def extension():
    """The C module, or None (not built, or ``GPUISA_NO_ACCEL=1``)."""
    if os.environ.get("GPUISA_NO_ACCEL") == "1":
        return None
    try:
        from . import fastdecode
    except ImportError:
        return None
    return fastdecode


# -- the cache --------------------------------------------------------------------------------------
def snapshot_path(name: str, wave64: bool) -> str | None:
    """The cache file of ``--arch NAME`` as the user spelt it (a run from it does not import the registry of
    architectures to resolve the name: the file says which one it is); None for a name no file may have."""
    if not name or len(name) > 40 or not all(c.isalnum() or c in "._-" for c in name) or name[0] == ".":
        return None
    return cache_path(f"decode-{name}{'-wave64' if wave64 else ''}.marshal")


def stamp(arch: str) -> list:
    """Sizes and modification times of what the decoder's output depends on: the codec's modules and data
    files, the registry and model, the architecture's facts, the packaged and the cached store, this extension."""
    pkg = os.path.dirname(_HERE)
    data = os.path.join(_HERE, "data")
    files = [os.path.join(_HERE, n) for n in sorted(os.listdir(_HERE)) if n.endswith((".py", ".so", ".pyd"))]
    files += [os.path.join(data, n) for n in sorted(os.listdir(data))]
    files += [os.path.join(pkg, "archs.py"), os.path.join(pkg, "model.py"), os.path.join(pkg, "data", "amd", f"{arch}.json"),
              os.path.join(pkg, "data", "gpuisa.sqlite"), cache_path("default.sqlite")]
    out = []
    for p in files:
        try:
            st = os.stat(p)
            out.append((p, st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((p, -1, -1))
    return out


def load_snapshot(name: str, wave64: bool):
    """(architecture, tables spec, scalar answers, learned events, answers added since) from the cache of ``--arch
    NAME`` where it is current, else None.  The answers added since the file was written (``added_path``: the
    answers of later runs, kept beside it while they are few) are in the answers too."""
    path = snapshot_path(name, wave64)
    payload = None if path is None else read_sealed(path)
    if path is None or payload is None:
        return None
    try:
        version, arch, st, spec, answers, events = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    if version != _VERSION or not isinstance(arch, str) or st != stamp(arch) or not isinstance(spec, dict) \
            or not isinstance(answers, dict) or not isinstance(events, list):
        return None
    added = _load_added(path)
    answers.update(added)
    return arch, spec, answers, events, added


def added_path(path: str) -> str:
    """The file beside the cache ``path`` that holds the scalar answers learned after it was written."""
    return path + ".add"


def _base(path: str) -> tuple:
    """What ties the answers added to the cache they were added to: its size and modification time."""
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)
    return st.st_size, st.st_mtime_ns


def _load_added(path: str, tie=None) -> dict:
    added = read_stamped(added_path(path), (_VERSION, _base(path) if tie is None else tie))
    return added if isinstance(added, dict) else {}


def load_current(name: str, wave64: bool, arch: str | None = None):
    """What a run of ``--arch NAME`` starts from: the data folder's cache where it is current (``load_snapshot``),
    else the committed base tables of ``arch`` (NAME itself where None: ``accel_base.py``) with the answers kept
    beside them; (architecture, tables spec, scalar answers, learned events, answers added since, what the added
    answers are tied to), or None where there is neither."""
    snap = load_snapshot(name, wave64)
    path = snapshot_path(name, wave64)
    if snap is not None and path is not None:
        return (*snap, _base(path))
    from .accel_base import load_base

    base = None if path is None else load_base(arch or name, wave64)
    if base is None or path is None:
        return None
    spec, answers, tie = base
    added = _load_added(path, tie)
    answers.update(added)
    return arch or name, spec, answers, [], added, tie


def save_added(name: str, wave64: bool, added: dict, tie=None) -> bool:
    """Keeps the scalar answers ``added`` since the cache of ``--arch NAME`` was written beside it (a small file:
    the cache itself is not written again), tied to that cache (``tie`` None) or to the committed base tables
    (their key); False where they are too many (the caller writes the cache)."""
    path = snapshot_path(name, wave64)
    if path is None or len(added) > _ADDED:
        return False
    write_stamped(added_path(path), (_VERSION, _base(path) if tie is None else tie), added)
    return True


def save_snapshot(name: str, arch: str, wave64: bool, spec: dict, answers: dict, events: list) -> None:
    """Writes the cache of ``--arch NAME`` (the scalar answers and learned events: the newest of them); the answers
    added beside the earlier one are in ``answers`` or forgotten."""
    path = snapshot_path(name, wave64)
    if len(answers) > _ANSWERS:
        answers = dict(list(answers.items())[-_ANSWERS:])
    if path is not None:
        write_cache_file(path, seal(marshal.dumps((_VERSION, arch, stamp(arch), spec, answers, events[-_EVENTS:]))))
        try:
            os.unlink(added_path(path))
        except OSError:
            pass


# -- answering the C loop ---------------------------------------------------------------------------
def scalar_answer(dec, data: bytes, off: int, tail: int) -> tuple:
    """(line text, bytes on the line, bytes to the next start, valid) of the scalar decoder at ``off``, as the
    batch path's walk (``tail`` 0) or its tail loop (``tail`` 1) takes it."""
    from .decoded import invalid_line

    d = dec.decode_at(data, off)
    if d.valid:
        return d.text.encode(), len(d.data), len(d.data), True
    if tail:
        size = min(4, len(data) - off)
        return invalid_line(data[off:off + size]).encode(), size, size, False
    return invalid_line(d.data).encode(), len(d.data), 4, False


_SOURCES = ("VSRC0", "VSRC1", "VSRC2", "VSRC3")  # (an export's source registers: their own text or ``off``)
_PROBES = ((11, 23, 37, 53), (101, 131, 151, 181))  # (distinct register numbers an export is rendered with)


def export_cut(dec) -> tuple | None:
    """(bytes, mask of the source fields, their (shift, width)) of the architecture's export encoding; None where
    it has none or its sources are not plain fields."""
    for name in ("EXP", "VEXPORT"):
        enc = dec.tables.encodings.get(name)
        fields = [None if enc is None else enc.field(f) for f in _SOURCES]
        if enc is not None and all(f is not None and len(f.ranges) == 1 for f in fields):
            cuts = tuple((f.lo, f.width) for f in fields if f is not None)
            return enc.width // 8, sum(((1 << w) - 1) << lo for lo, w in cuts), cuts
    return None


def export_format(dec, cut: tuple, word: int, text: bytes) -> tuple | None:
    """(format, order of the sources in it) of the export ``word`` whose text is ``text``: the scalar decoder's
    text of the word with its sources set to two sets of distinct registers, the registers cut out; None unless
    both and ``word``'s own text are that format filled in (the text depends on nothing else)."""
    import re

    size, mask, cuts = cut
    rest = word & ~mask

    def render(vals) -> str | None:
        w = rest | sum(v << lo for v, (lo, _) in zip(vals, cuts))
        d = dec.decode_at(w.to_bytes(size, "little") + bytes(_CONTEXT), 0)
        return d.text if d.valid and len(d.data) == size else None

    first = render(_PROBES[0])
    if first is None:
        return None
    order = []
    for m in re.finditer(r"\bv(\d+)\b", first):
        if int(m.group(1)) in _PROBES[0]:
            order.append(_PROBES[0].index(int(m.group(1))))
    fmt = re.sub(r"\bv(\d+)\b", lambda m: "v%d" if int(m.group(1)) in _PROBES[0] else m.group(0), first.replace("%", "%%"))
    own = tuple((word >> lo) & ((1 << w) - 1) for lo, w in cuts)
    if render(_PROBES[1]) != fmt % tuple(_PROBES[1][j] for j in order) or text != (fmt % tuple(own[j] for j in order)).encode():
        return None
    return fmt, tuple(order)


def learn_export(dec, answers: dict, data: bytes, off: int, got: tuple) -> dict:
    """The export format of the scalar answer ``got`` at ``off``, where it is an export's (the cut of the encoding
    kept too); what was added to ``answers``."""
    new: dict = {}
    cut = answers.get(("cut",), False)
    if cut is False:
        cut = answers[("cut",)] = new[("cut",)] = export_cut(dec)
    if cut is None or not got[3] or got[1] != cut[0] or off + cut[0] > len(data):
        return new
    word = int.from_bytes(data[off:off + cut[0]], "little")
    key = ("x", word & ~cut[1])
    if key not in answers:
        d = dec.decode_at(data, off)
        if d.valid and getattr(d, "encoding", None) in ("EXP", "VEXPORT"):
            answers[key] = new[key] = export_format(dec, cut, word, got[0])
    return new


def export_answer(answers: dict, data: bytes, off: int) -> tuple | None:
    """The answer at ``off`` from a learned export format, where the word is an export of one."""
    cut = answers.get(("cut",))
    if cut is None or off + cut[0] > len(data):
        return None
    size, mask, cuts = cut
    word = int.from_bytes(data[off:off + size], "little")
    got = answers.get(("x", word & ~mask))
    if got is None:
        return None
    vals = [(word >> lo) & ((1 << w) - 1) for lo, w in cuts]
    return (got[0] % tuple(vals[j] for j in got[1])).encode(), size, size, True


class Warm:
    """Answers from the cache alone: nothing new is known (the start goes to the scalar path); the scalar
    decoder's answers from the cache, else from a decoder made on first need."""

    def __init__(self, arch: str, wave64: bool, answers: dict):
        self.arch, self.wave64, self.answers = arch, wave64, answers
        self.new: dict = {}  # (the answers made in this run)
        self.invalid: set = set()  # (the offsets whose answer is no instruction: ``--json``'s valid false)
        self.total = 0  # (bytes of the code those offsets are in)
        self.spec: dict | None = None  # (the tables' spec, for words alone at the end: ``tail_answer``)
        self.tables = None
        self.dec: Decoder | None = None

    def cls_dense(self, p, idx, sel):
        return None

    def cls_wide(self, sel):
        return None

    def cls_two(self, key):
        return None

    def row(self, eid):
        return None

    def tpl(self, eid, key, key3, word, data, off):
        """The template of a word keyed whole whose text is a prefix and its 16-bit immediate as a number (a
        branch, ``s_wait_loadcnt``, ...: the base's ``("n16", high half of the word)``, ``regen/accel.number_formats``),
        or of a literal form's new constant (``regen/accel.literal_formats``)."""
        got = self.answers.get(("n16", (word >> 16) & 0xFFFF))
        if got is None:  # (a form that always reads a literal: the base's ``("lit", key's first dword)``)
            lit = self.answers.get(("lit", key & 0xFFFFFFFF))
            return None if lit is None else ((lit[0] + hex(key >> 32) + lit[1]).encode(), list(lit[2]))
        num = word & 0xFFFF
        return (got[0] + (hex(num) if num >= got[1] else str(num))).replace("%", "%%").encode(), []

    def pool(self, ix):
        """The text of a 16-bit field's value printed as a number (the base's ``("n16seg",)``: segment starts and
        where hex begins, ``regen/accel.number_segments``); None for any other."""
        segs = self.answers.get(("n16seg",), ())
        for start, hex_from in segs:
            if start <= ix < start + 65536:
                v = ix - start
                return (hex(v) if v >= hex_from else str(v)).encode()
        return None

    def scalar(self, data: bytes, off: int, tail: int):
        key = (tail, data[off:off + _CONTEXT])
        got = self.answers.get(key)
        if got is None and not tail:
            got = export_answer(self.answers, data, off)
        elif got is None:
            got = self.tail_answer(data, off)
        if got is None:
            dec = self.decoder()
            got = self.answers[key] = self.new[key] = scalar_answer(dec, data, off, tail)
            if not tail:
                self.new.update(learn_export(dec, self.answers, data, off, got))
        if not got[3] and self.total:  # (``--json``: at the offset in the whole code; a stream started again at a
            # symbol is its tail)
            self.invalid.add(off + self.total - len(data))
        return got

    def decoder(self) -> Decoder:
        """The scalar decoder, made on first need."""
        if self.dec is None:
            from .decoder import get_decoder

            self.dec = get_decoder(self.arch, self.wave64)
        return self.dec


    def tail_answer(self, data: bytes, off: int) -> tuple | None:
        """The answer of the tail loop at ``off`` without the scalar decoder, where it can be had: bytes short of a
        dword are no instruction; an instruction the tables render (by a template) from the bytes left, with any
        bytes after them, ends the listing as the scalar decoder would print it; else None."""
        left = data[off:]
        if len(left) < 4:
            from .decoded import invalid_line  # (only here: ``decoded`` imports the registry, ~20 ms)

            return invalid_line(left).encode(), len(left), len(left), False
        if self.spec is None or len(left) > 20:
            return None
        seen = []
        for pad in (bytes(_CONTEXT), b"\xff" * _CONTEXT):
            probe = _Probe(self.answers)
            lines = self.fast().listing(left + pad, 0, None, None, probe, None).split(b"\n")
            text, _, dwords = lines[0].partition(b"// 000000000000: ")
            if probe.asked or not text.startswith(b"\t") or 4 * len(dwords.split()) != len(left):
                return None
            seen.append(text[1:].rstrip(b" "))
        return (seen[0], len(left), len(left), True) if seen[0] == seen[1] else None

    def fast(self):
        """The C tables again (for words alone; the run's own are in use)."""
        if self.tables is None:
            ext = extension()
            self.tables = ext.Tables(self.spec) if ext is not None else None
        return self.tables


class _Probe(Warm):
    """Asks nothing: what the tables do not render is marked, not answered."""

    def __init__(self, answers: dict) -> None:
        self.asked, self.answers = 0, answers

    def scalar(self, data: bytes, off: int, tail: int):
        self.asked += off == 0  # (the first word's: what follows it is padding)
        return b"", 4, 4, False


class Full:
    """Answers from the batch decoder (``ArchBatch``), as its numpy path would find them."""

    def __init__(self, dec, ab, answers: dict):
        self.dec, self.ab, self.answers = dec, ab, answers
        self.wide: dict[int, int] = {}
        self.events: list = []  # what was learned (``replay`` learns it again in a later process)

    def replay(self, events: list) -> None:
        """Learns again what an earlier run learned: classes by their selectors, templates by the word that made
        them (where the entry id still names the same instruction and encoding), operand texts by their place in
        the pool (made in the same order, the places are the same)."""
        ab = self.ab
        for ev in events:
            if ev[0] == "d":
                self.cls_dense(*ev[1:])
            elif ev[0] == "w":
                self.cls_wide(ev[1])
            elif ev[0] == "k":
                self.cls_two(ev[1])
            elif ev[0] == "p":
                self.pool(ev[1])
            else:
                _, name, encoding, eid, key, key3, word, ctx = ev
                entry = ab.entries[eid] if 0 < eid < len(ab.entries) else None
                if entry is not None and (entry.name, entry.encoding) == (name, encoding):
                    self.tpl(eid, key, key3, word, ctx, 0)

    def cls_dense(self, p: int, idx: int, sel: int) -> int:
        self.events.append(("d", p, idx, sel))
        ab = self.ab
        eid = ab.entry_id(sel)
        v = -3 if eid == 0 and ab.cls_two[p] else eid
        ab.cls_table[idx] = v
        return v

    def cls_wide(self, sel: int) -> int:
        self.events.append(("w", sel))
        self.wide[sel] = eid = self.ab.entry_id(sel)
        return eid

    def cls_two(self, key: int) -> int:
        self.events.append(("k", key))
        return self.ab.entry_id64(key)

    def row(self, eid: int):
        ab = self.ab
        dw, wm, w3m, rlo, rhi = ab.np_rows()[:5]
        if eid >= len(dw):
            return None
        cols = ab.s_cols[:int(ab.s_count[eid]), eid].tolist()
        return int(dw[eid]), int(wm[eid]), int(w3m[eid]), int(rlo[eid]), int(rhi[eid]), bool(ab.vopd_rows[eid]), cols

    def tpl(self, eid: int, key: int, key3: int, word: int, data: bytes, off: int):
        ab = self.ab
        tid = ab.template_id(eid, key, key3, word, data, off)
        entry = ab.entries[eid]  # (a failure too: enough of them demote the entry to the scalar path, as again)
        self.events.append(("t", entry.name, entry.encoding, eid, key, key3, word, data[off:off + _CONTEXT]))
        if not tid:
            return False
        n = ab.tpl_nph[tid]
        return ab.tpl_fmt[tid].encode(), ab.tpl_base[tid, :n].tolist()

    def pool(self, ix: int):
        import bisect

        import numpy as np

        ab = self.ab
        if ix >= ab.pool_used:
            return None
        self.events.append(("p", ix))  # (a text made on demand: the export has it only where made again)
        if not ab.pool_known[ix]:
            s = bisect.bisect_right(ab.seg_starts, ix) - 1
            if s < 0 or ab.seg_compute[s] is None:
                return None
            ab.fill(np.array([ix]))
        if not ab.pool_ok[ix]:
            return False
        return ab.texts_bytes(np.array([ix]))[0]

    def scalar(self, data: bytes, off: int, tail: int):
        got = self.answers[(tail, data[off:off + _CONTEXT])] = scalar_answer(self.dec, data, off, tail)
        if not tail:
            learn_export(self.dec, self.answers, data, off, got)
        return got


# -- the listing --------------------------------------------------------------------------------------
def _labels(sec) -> tuple[list, list]:
    """A code section's symbols for the C loop: every label (the section's name at 0 where none is there, as
    llvm-objdump names code before the first symbol) and the plain ones, each sorted (offset, name bytes)."""
    labels = dict(sec.labels)
    if 0 not in labels and sec.data:
        labels[0] = sec.name
    return sorted((o, n.encode()) for o, n in labels.items()), sorted((o, n.encode()) for o, n in sec.plain.items())


def _run(tables, data: bytes, secs, path: str | None, resolver, out, as_json: bool = False) -> None:
    """The listing of raw bytes (``secs`` None) or of an ELF file's code sections, written to ``out`` (``as_json``:
    as ``--json``'s objects, ``accel_json.py``; ``resolver`` a ``Warm``)."""
    if as_json:
        from .accel_json import json_lines

        for sec in [None] if secs is None else secs:
            code, address = (data, 0) if sec is None else (sec.data, sec.address)
            labels = None if sec is None else _labels(sec)[0]  # (no plain symbols: branches print their offsets)
            resolver.invalid, resolver.total = set(), len(code)
            text = tables.listing(code, address, labels, None, resolver, None)
            out.write(json_lines(text, code, address, None if sec is None else sec.name, {} if sec is None else sec.labels,
                                 resolver.invalid, lambda off, code=code: resolver.decoder().decode_at(code, off).error))
        return
    if secs is None:
        tables.listing(data, 0, None, None, resolver, out.write)
        return
    out.write(f"\n{path}:\tfile format elf64-amdgpu\n".encode())
    for sec in secs:
        out.write(f"\nDisassembly of section {sec.name}:\n".encode())
        labels, plain = _labels(sec)
        tables.listing(sec.data, sec.address, labels, plain, resolver, out.write)


class _Discard:
    def write(self, data: bytes) -> None:
        pass


def _full(ext, arch: str, wave64: bool, answers: dict, events: list):
    """The C tables made from the batch decoder (after learning ``events`` again), with the resolver that answers
    from it."""
    from .accel_export import export
    from .batch_arch import arch_batch
    from .decoder import get_decoder

    dec = get_decoder(arch, wave64)
    ab = arch_batch(dec)
    resolver = Full(dec, ab, answers)
    resolver.replay(events)
    return ext.Tables(export(ab, resolver.wide)), resolver


_CACHED: dict = {}  # (--arch NAME, wave64) -> the cache read by ``cached_arch``


def cached_arch(name: str, wave64: bool) -> str | None:
    """The architecture ``--arch NAME`` names, where the data folder has a current cache for it (kept for
    ``write_listing``); else None (the registry of architectures resolves the name)."""
    if extension() is None:
        return None
    snap = _CACHED[(name, wave64)] = load_current(name, wave64)
    return None if snap is None else snap[0]


def write_listing(out, name: str, arch: str, wave64: bool, data: bytes, secs, path: str | None,
                  as_json: bool = False) -> bool:
    """``gpuisa decode --arch NAME``'s plain listing (``arch``: the architecture NAME names) through the C loop;
    False where the extension is not there (or, ``as_json``: ``--json``'s objects, where there is no cache or base
    tables to start from: the numpy path makes them)."""
    ext = extension()
    if ext is None:
        return False
    from .accel_export import export

    snap = _CACHED.pop((name, wave64), None) or load_current(name, wave64, arch)
    if snap is not None and snap[0] == arch:
        _, spec, answers, events, added, tie = snap
        tables, resolver = ext.Tables(spec), Warm(arch, wave64, answers)
        resolver.spec = spec
        _run(tables, data, secs, path, resolver, out, as_json)
        if not resolver.new:
            return True
        out.flush()
        added.update(resolver.new)
        size = len(data) if secs is None else sum(len(sec.data) for sec in secs)
        misses = tables.stats()["misses"]
        if misses > _REMAKE and misses * _REMAKE_BYTES > size:  # much the batch decoder would learn (new code):
            tables, full = _full(ext, arch, wave64, resolver.answers, events)  # the cache made again, with what
            _run(tables, data, secs, path, full, _Discard())  # the earlier runs learned
            save_snapshot(name, arch, wave64, export(full.ab, full.wide), full.answers, full.events)
        elif not save_added(name, wave64, added, tie):  # (few: the scalar answers kept beside the cache, which stays)
            save_snapshot(name, arch, wave64, spec, resolver.answers, events)
        return True
    if as_json:
        return False
    tables, full = _full(ext, arch, wave64, {}, [])
    _run(tables, data, secs, path, full, out)
    out.flush()
    save_snapshot(name, arch, wave64, export(full.ab, full.wide), full.answers, full.events)
    return True
