"""The batch path (``Decoder.decode_listing``, numpy) must give exactly what the scalar path gives:
``decode_at`` at each instruction start, walked one instruction at a time -- on random words (most are
invalid or change the alignment), on real-looking instruction streams with randomised registers (as the
benchmark's input), with ragged and cut-short tails, and again once the per-process templates exist; and
the generated tables of ``gpuisa.codec.batch_data`` against the scalar decoder as it is now.  The text
form (``Decoder.decode_text``) must be the scalar listing joined: each decode_at text and a newline."""

from __future__ import annotations

import functools
import json
import random

import numpy as np
import pytest

from gpuisa.codec import batch_arch, batch_data
from gpuisa.codec.batch_arch import ArchBatch
from gpuisa.codec.batch_text import invalid_line
from gpuisa.codec.decoder import Decoder
from gpuisa.codec.plans import load_plans
from gpuisa.codec.tables import load_arch_tables
from gpuisa.regen.differential import random_words
from gpuisa.regen.examples import variant_words

TARGETS = ["rdna1", "rdna2", "rdna3", "rdna3.5", "rdna4", "cdna1", "cdna2", "cdna3", "cdna4"]


@functools.lru_cache(maxsize=None)
def scalar(arch: str, wave64: bool = False) -> Decoder:
    """The scalar reference of an architecture, one per test process: it is only asked for ``decode_at``, whose
    per-word caches give what a fresh decoder computes (the batch side always starts from a fresh Decoder)."""
    return Decoder(arch, wave64)


_REFERENCE: dict = {}


def one_at_a_time(dec: Decoder, data: bytes, base: int = 0) -> list[tuple[int, str | None, int]]:
    """The scalar reference: decode_at at each start; an invalid dword is skipped, as LLVM does.  A listing of
    one of ``scalar``'s decoders (kept for the process) is computed once per input: the listing and text tests
    read the same streams."""
    key = (id(dec), data)
    if key not in _REFERENCE:
        _REFERENCE[key] = _walk_scalar(dec, data, 0)
    return [(off + base, text, size) for off, text, size in _REFERENCE[key]]


def _walk_scalar(dec: Decoder, data: bytes, base: int) -> list[tuple[int, str | None, int]]:
    out, off = [], 0
    while off < len(data):
        d = dec.decode_at(data, off)
        out.append((off + base, d.text if d.valid else None, len(d.data)))
        off += len(d.data) if d.valid else min(4, len(data) - off)
    return out


@functools.lru_cache(maxsize=None)
def _variant_pool(arch: str) -> tuple:
    """Every (entry, example words) of the architecture, made once per test process (the same list each call)."""
    return tuple((e, data) for e in load_arch_tables(arch).entries for _, data in variant_words(arch, e.name, e.encoding))


def stream_like_code(arch: str, count: int, seed: int) -> list[bytes]:
    """Instructions of every (instruction, encoding) the plans know, register fields randomised."""
    rng = random.Random(seed)
    t = load_arch_tables(arch)
    plans = load_plans(arch)
    pool = _variant_pool(arch)
    out = []
    for _ in range(count):
        e, data = rng.choice(pool)
        enc = t.encodings[e.encoding]
        word = int.from_bytes(data[:enc.width // 8], "little")
        for spec in plans[f"{e.name}|{e.encoding}"].operands:
            f = enc.field(spec.field) if spec.field else None
            if f is not None and spec.kind in ("vreg", "src", "ssrc", "imm") and rng.random() < 0.7:
                word = f.insert(word, rng.randrange(1 << min(f.width, 9)))
        out.append(word.to_bytes(enc.width // 8, "little") + data[enc.width // 8:])
    return out


def text_one_at_a_time(dec: Decoder, data: bytes) -> str:
    """The scalar listing as text: decode_at's text per instruction, a newline after each; bytes that are no
    instruction as the directive that makes them."""
    return "".join((t if t is not None else invalid_line(data[off:off + n])) + "\n"
                   for off, t, n in one_at_a_time(dec, data))


def _diff(got, want):
    bad = [(g, w) for g, w in zip(got, want) if g != w]
    return bad[:5] if bad or len(got) == len(want) else [("lengths", len(got), len(want))]


@pytest.mark.parametrize("arch", TARGETS)
def test_batch_listing_equals_scalar_on_random_words(arch):
    blob = b"".join(random_words(3000, 7)) + bytes.fromhex("0700")  # a ragged tail
    got = Decoder(arch).decode_listing(blob, base_offset=0x40)
    want = one_at_a_time(scalar(arch), blob, 0x40)
    assert got == want, _diff(got, want)
    assert sum(size for _, _, size in got) == len(blob)


@pytest.mark.parametrize("arch", TARGETS)
def test_batch_listing_equals_scalar_on_code_like_streams(arch):
    insts = stream_like_code(arch, 4000, 11)
    blob = b"".join(insts)
    want = one_at_a_time(scalar(arch), blob)
    valid = sum(1 for _, t, _ in want if t is not None)
    assert valid > len(insts) // 2  # the input is mostly real instructions, not noise
    for _ in range(2):  # again, with the templates made by the first run
        got = Decoder(arch).decode_listing(blob)
        assert got == want, _diff(got, want)


@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna3"])
def test_batch_listing_cut_short_anywhere(arch):
    insts = stream_like_code(arch, 300, 5)
    blob = b"".join(insts)
    rng = random.Random(2)
    ends = sorted({len(blob)} | {rng.randrange(8, len(blob)) for _ in range(25)})
    for end in ends:
        part = blob[:end]
        got = Decoder(arch).decode_listing(part)
        assert got == one_at_a_time(scalar(arch), part), end


@pytest.mark.parametrize("arch", ["rdna3", "cdna3"])
def test_batch_listing_small_and_odd_inputs(arch):
    dec = Decoder(arch)
    for data in (b"", b"\x01", b"\x00\x00\x80\xbf", bytes.fromhex("000080bf00"), bytes(7), b"\xff" * 8, b"\xff" * 13):
        assert dec.decode_listing(data) == one_at_a_time(scalar(arch), data), data.hex()


def test_batch_listing_keeps_wave64_apart():
    """Templates are per (architecture, wave size): vcc prints differently in wave64."""
    insts = stream_like_code("rdna3", 1500, 3)
    blob = b"".join(insts)
    for wave64 in (False, True, False):
        assert Decoder("rdna3", wave64).decode_listing(blob) == one_at_a_time(scalar("rdna3", wave64), blob)


def _object_key(d) -> tuple:
    return (d.offset, d.data, d.text, d.valid, d.encoding, d.name, d.error, d.target, dict(d.fields), dict(d.meanings))


def one_object_at_a_time(dec: Decoder, data: bytes, base: int = 0) -> list:
    out, off = [], 0
    while off < len(data):
        d = dec.decode_at(data, off)
        d.offset += base
        out.append(d)
        off += len(d.data) if d.valid else min(4, len(data) - off)
    return out


@pytest.mark.parametrize("arch", ["rdna1", "rdna3", "rdna4", "cdna1", "cdna3"])
def test_batch_objects_equal_scalar_objects(arch):
    """``Decoder.decode`` (batch) makes the objects decode_at makes: same texts, fields and meanings."""
    blob = b"".join(stream_like_code(arch, 1500, 4)) + b"".join(random_words(500, 9)) + b"\x01\x02\x03"
    got = [_object_key(d) for d in Decoder(arch).decode(blob, 0x20)]
    want = [_object_key(d) for d in one_object_at_a_time(Decoder(arch), blob, 0x20)]
    assert got == want, _diff(got, want)


# -- the precomputed tables (codec/data/batch_<arch>.json, ``gpuisa.codec.batch_data``) -----------------------
def _stored(arch: str) -> dict:
    path = batch_data.data_path(arch)
    assert path.exists(), f"{path.name} missing: run {batch_data.REGEN} {arch}"
    return json.loads(path.read_text())


@pytest.mark.parametrize("arch", TARGETS)
def test_precomputed_tables_are_current(arch):
    """The file's fingerprint (the scalar decoder's code and data it was made from) must be the current one;
    a stale file is ignored at run time (same output, slow first decode), so regenerate it."""
    doc = _stored(arch)
    assert doc["fingerprint"] == batch_data.fingerprint(Decoder(arch)), \
        f"{batch_data.data_path(arch).name} is stale (the scalar decoder changed): run {batch_data.REGEN} {arch}"


def _forced(arch: str, doc: dict) -> ArchBatch:
    """An ``ArchBatch`` filled from the stored file whatever its fingerprint says."""
    ab = ArchBatch(Decoder(arch))
    batch_data._load(ab, doc)
    ab.precomputed = "loaded"
    return ab


@pytest.mark.parametrize("arch", ["rdna2", "rdna3", "rdna4", "cdna3"])
def test_stored_class_table_and_operand_texts_equal_the_scalar_decoder(arch):
    doc = _stored(arch)
    dec = Decoder(arch)
    ab = _forced(arch, doc)
    rng = random.Random(4)
    # class table: a sample of first dwords, through the scalar class chooser
    for dw in [rng.getrandbits(32) for _ in range(3000)]:
        eid = int(ab.classify(np.array([dw], dtype=np.uint32))[0])
        c = dec.fast._choose(dw)
        if eid > 0:
            assert c and c[0] is ab.entries[eid], hex(dw)
    # operand texts: sampled values of every stored table, through the scalar operand printer
    entries = dec.tables.entries
    for info in doc["segments"]:
        if info[0] != "alone":
            continue
        _, ei, k, w, blob, invalid = info
        texts = blob.split("\n")
        aligned = dec.plans[f"{entries[ei].name}|{entries[ei].encoding}"].operands[k].align_note is not None
        for v in rng.sample(range(len(texts)), min(40, len(texts))):
            # (an odd VGPR starting an even-aligned tuple is left to the scalar path: no stored text)
            want = False if aligned and v >= 256 and v & 1 else dec._operand_alone(entries[ei], k, v)
            assert (False if v in invalid else texts[v]) == want, (entries[ei].name, k, v)


@pytest.mark.parametrize("arch", ["rdna1", "rdna3", "rdna4", "cdna1", "cdna3"])
def test_stored_templates_equal_fresh_scalar_renders(arch, monkeypatch):
    """Words made from sampled stored templates (their key, random values the stored tables accept in the cut
    operands) decode in batch, with the stored tables forced in, exactly as decode_at decodes them now."""
    doc = _stored(arch)
    ab = _forced(arch, doc)
    monkeypatch.setitem(batch_arch._SHARED, (ab.dec.arch, False), ab)
    rng = random.Random(6)
    words = []
    stored = batch_data.stored_templates(doc)
    for eid, key, key3, _fmt, bases in rng.sample(stored, min(600, len(stored))):
        nd, _, _, _, _, slots = ab.rows[eid]
        if not nd:
            continue
        word = key | key3 << 64
        for (_, lo, w, _, _, seg), base in zip(slots, bases):
            okv = [v for v in range(1 << min(w, 10)) if ab.pool_ok[seg + v] and ab.pool_ok[ab.seg_starts[base] + v]]
            word |= rng.choice(okv) << lo if okv else 0
        words.append(word.to_bytes(4 * nd, "little"))
    blob = b"".join(words)
    known = len(ab.tpl_fmt)
    got = Decoder(arch).decode_listing(blob)
    want = _walk_scalar(Decoder(arch), blob, 0)
    assert got == want, _diff(got, want)
    assert len(ab.tpl_fmt) - known < len(words) // 10  # the stored templates did the work
    assert sum(t is not None for _, t, _ in got) > len(words) // 2


def test_stale_precomputed_tables_are_not_used(monkeypatch):
    monkeypatch.setattr(batch_data, "fingerprint", lambda dec, cached=False: "not the stored one")
    dec = Decoder("rdna3")
    ab = ArchBatch(dec)
    batch_data.seed(ab)
    assert ab.precomputed.startswith("batch_rdna3.json is stale") and batch_data.REGEN in ab.precomputed
    assert (ab.cls_table < 0).all() and len(ab.tpl_fmt) == 1


def test_stored_texts_are_made_one_at_a_time():
    """Hand-made stored segments: the asked-for lines of a stored text (by line offsets, also where the text
    is not ASCII), a register table's names from its function, an all-empty segment; only the texts asked
    for are made."""
    ab = ArchBatch.__new__(ArchBatch)
    ab._init_pool()
    lines = ab._segment("lines", 4, None, ("v0\n\nttmp3\n-1", np.ones(4, bool)))
    other = ab._segment("other", 3, None, ("a\nbé\nc", np.ones(3, bool)))
    regs = ab._segment("regs", 32, None, (lambda v: f"s{v}", np.ones(32, bool)))
    empty = ab._segment("empty", 8, None, (None, np.ones(8, bool)))
    assert ab._segment("lines", 4, None, ("x", np.ones(1, bool))) == lines  # (one segment per key)
    idx = np.array([lines + 2, other + 1, regs + 17, lines, empty + 5, lines + 1, other + 2, lines + 3, 0])
    assert ab.texts(idx).tolist() == ["ttmp3", "bé", "s17", "v0", "", "", "c", "-1", ""]
    assert ab.texts_bytes(idx[:3]).tolist() == [b"ttmp3", "bé".encode(), b"s17"]
    made = np.flatnonzero(ab.pool_sid[:ab.pool_used])
    assert set(made.tolist()) == set(idx.tolist())  # (nothing else was made)


def test_remembered_fingerprint_follows_every_change(tmp_path, monkeypatch):
    """A remembered value is recomputed when a file it depends on changes (size or time), and a damaged
    cache is rebuilt: a stale precomputed file is never taken for a current one."""
    import os

    monkeypatch.setenv("GPUISA_HOME", str(tmp_path / "home"))
    files = [tmp_path / "a.py", tmp_path / "b.json"]
    files[0].write_text("x = 1\n")
    files[1].write_text("{}")

    def digest():
        return batch_data._files_digest(files)

    first = batch_data._remembered(files, digest)
    assert first == digest() and (tmp_path / "home" / "cache" / "codec_sources.json").exists()
    assert batch_data._remembered(files, lambda: "not computed again") == first
    files[0].write_text("x = 2\n")  # same size, later time
    st = files[0].stat()
    os.utime(files[0], ns=(st.st_atime_ns, st.st_mtime_ns + 1000))
    second = batch_data._remembered(files, digest)
    assert second != first and second == digest()
    (tmp_path / "home" / "cache" / "codec_sources.json").write_text("not json")  # a damaged cache is rebuilt
    assert batch_data._remembered(files, digest) == second
    # and at run time the precomputed file is used through the remembered fingerprint
    dec = Decoder("rdna1")
    assert dec.tables.store_path
    assert batch_data.fingerprint(dec, cached=True) == batch_data.fingerprint(dec) == _stored("rdna1")["fingerprint"]
    assert batch_data.fingerprint(dec, cached=True) == _stored("rdna1")["fingerprint"]  # (now remembered)


def test_precomputed_tables_are_read_from_the_package_only(tmp_path, monkeypatch):
    """The precomputed file is parsed from the package each time (no parsed copy in the user's data folder:
    nothing there is unpickled): the same tables as the JSON, a changed file read as it now is, and nothing
    written to the data folder."""
    import os
    import shutil

    monkeypatch.setenv("GPUISA_HOME", str(tmp_path / "home"))
    path = tmp_path / "batch_rdna1.json"
    shutil.copy(batch_data.data_path("rdna1"), path)
    raw = json.loads(path.read_text())

    def same(doc):
        assert doc["fingerprint"] == raw["fingerprint"] and doc["segments"] == raw["segments"]
        assert doc["template_formats"] == raw["template_formats"]
        assert np.array_equal(doc["classes"], batch_data.unpack(raw["classes"]))
        for key in ("entries", "templates"):
            assert doc[key].keys() == raw[key].keys()
            assert all(np.array_equal(doc[key][k], batch_data.unpack(v)) for k, v in raw[key].items())

    same(batch_data.read_tables(path))
    raw["fingerprint"] = "changed"
    path.write_text(json.dumps(raw))
    same(batch_data.read_tables(path))
    assert not os.path.exists(tmp_path / "home")  # (nothing cached in the data folder)


def test_remembered_fingerprints_are_capped(tmp_path, monkeypatch):
    """The cache keeps the most recently computed sets of files only (one per architecture and checkout):
    it does not grow with every checkout ever used."""
    import json

    monkeypatch.setenv("GPUISA_HOME", str(tmp_path / "home"))
    sets = []
    for i in range(batch_data._REMEMBERED + 5):
        f = tmp_path / f"f{i}.py"
        f.write_text(f"x = {i}\n")
        sets.append([f])
        assert batch_data._remembered([f], lambda i=i: f"digest {i}") == f"digest {i}"
    known = json.loads((tmp_path / "home" / "cache" / "codec_sources.json").read_text())
    assert len(known) == batch_data._REMEMBERED
    assert batch_data._remembered(sets[-1], lambda: "recomputed") == f"digest {len(sets) - 1}"
    assert batch_data._remembered(sets[0], lambda: "recomputed") == "recomputed"  # (the oldest was dropped)


# -- the text form (``Decoder.decode_text``, ``gpuisa.codec.batch_text``) -----------------------------------
def _text_diff(got: str, want: str):
    g, w = got.split("\n"), want.split("\n")
    return _diff(g, w)


def test_invalid_line_assembles_back_to_its_bytes():
    """Hand-computed: a dword is little-endian, a short tail is its bytes in order."""
    assert invalid_line(bytes.fromhex("01020304")) == ".long 0x04030201"
    assert invalid_line(bytes.fromhex("0700")) == ".byte 0x07, 0x00"
    assert invalid_line(b"\xff") == ".byte 0xff"


@pytest.mark.parametrize("arch", TARGETS)
def test_text_equals_scalar_listing_on_random_words(arch):
    blob = b"".join(random_words(3000, 7)) + bytes.fromhex("0700")  # mostly invalid or misaligned, a ragged tail
    got = Decoder(arch).decode_text(blob)
    want = text_one_at_a_time(scalar(arch), blob)
    assert got == want, _text_diff(got, want)
    assert ".long 0x" in got and got.endswith(".byte 0x07, 0x00\n")


@pytest.mark.parametrize("arch", TARGETS)
def test_text_equals_scalar_listing_on_code_like_streams(arch):
    blob = b"".join(stream_like_code(arch, 4000, 11))  # (the listing test's stream: its reference is made once)
    want = text_one_at_a_time(scalar(arch), blob)
    for _ in range(2):  # again, with what the first run made
        got = Decoder(arch).decode_text(blob)
        assert got == want, _text_diff(got, want)


@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna3"])
def test_text_cut_short_anywhere_and_small_inputs(arch):
    blob = b"".join(stream_like_code(arch, 300, 6))
    rng = random.Random(3)
    ends = sorted({len(blob)} | {rng.randrange(1, len(blob)) for _ in range(20)})
    for part in [blob[:end] for end in ends] + [b"", b"\x01", b"\x00\x00\x80\xbf", bytes(7), b"\xff" * 13]:
        assert Decoder(arch).decode_text(part) == text_one_at_a_time(scalar(arch), part), len(part)


@pytest.mark.parametrize("step", [256, 1000])
def test_listing_and_text_span_steps(monkeypatch, step):
    """Streams of many steps of the walk (steps made small here; the jump of 128 instructions must not pass a
    step's end, or the instructions it passes are lost), with invalid words mixed in, in both wave sizes."""
    from gpuisa.codec import batch

    monkeypatch.setattr(batch, "STEP", step)
    blob = b"".join(w for pair in zip(stream_like_code("rdna3", 2500, 8), random_words(500, 3) * 5) for w in pair)
    blob = b"".join(stream_like_code("cdna3", 2000, 9)) + blob
    for arch, wave64 in (("rdna3", False), ("rdna3", True), ("cdna3", False)):
        want = one_at_a_time(scalar(arch, wave64), blob)
        got = Decoder(arch, wave64).decode_listing(blob)
        assert got == want, _diff(got, want)
        got_text = Decoder(arch, wave64).decode_text(blob)
        want_text = text_one_at_a_time(scalar(arch, wave64), blob)
        assert got_text == want_text, _text_diff(got_text, want_text)


@pytest.mark.parametrize("arch", ["rdna1", "rdna3", "rdna4", "cdna3"])
def test_scalar_fallbacks_are_rare_on_default_forms(arch, monkeypatch):
    """The batch path itself prints almost every instruction in its default form (the encoder's first example
    of every instruction and encoding, valid, shuffled; DPP/SDWA forms are the scalar path's): special forms
    with nothing cut (s_waitcnt, s_sendmsg, s_endpgm) and classes the second dword chooses (GFX10 MTBUF)
    included; only exports are left to the scalar decoder.  (Counts calls, times nothing.)"""
    from gpuisa.codec import batch

    calls = []
    real = batch._Scalar.decode_at

    def counted(self, data, off):
        d = real(self, data, off)
        calls.append(d.encoding)
        return d

    monkeypatch.setattr(batch._Scalar, "decode_at", counted)
    t = load_arch_tables(arch)
    insts = [data for e in t.entries for _, data in variant_words(arch, e.name, e.encoding)[:1]]
    ref = Decoder(arch)
    insts = [w for w in insts if (d := ref.decode_at(w + bytes(12), 0)).valid and len(d.data) == len(w)]
    random.Random(2).shuffle(insts)
    Decoder(arch).decode_text(b"".join(insts))
    others = [enc for enc in calls if enc not in ("EXP", "VEXPORT")]
    assert len(others) <= len(insts) // 100, sorted(set(map(str, others)))
