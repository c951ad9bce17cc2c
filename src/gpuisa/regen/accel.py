"""The C accelerator's committed base tables (what the file holds and how it is read: ``codec/accel_base.py``),
one per architecture, made from its batch tables (which must be current: ``--steps batch`` first).

    python -m gpuisa.regen.accel [--check] [ARCH ...]      (or: python -m gpuisa.regen --steps accel)
"""

from __future__ import annotations

import marshal
import sys
import zlib

from ..codec import accel
from ..codec.accel_base import VERSION, base_path, code_fingerprint, header

_FIELDS_AT_MOST = 16  # export shapes enumerated where their named fields have at most this many bits


class StaleBatch(Exception):
    pass


def export_formats(dec) -> dict:
    """The scalar answers no input is needed for: the export encoding's cut and the format of each export shape
    (the named fields' values, the other bits 0) whose text the format gives (``accel.export_format``)."""
    cut = accel.export_cut(dec)
    out: dict = {("cut",): cut}
    if cut is None:
        return out
    size, mask, _ = cut
    enc = next(dec.tables.encodings[n] for n in ("EXP", "VEXPORT") if n in dec.tables.encodings)
    fields = [f for f in enc.fields if f.value is None and f.name not in accel._SOURCES]
    if sum(f.width for f in fields) > _FIELDS_AT_MOST:
        return out
    base = int(enc.fixed_value)
    words = [base]
    for f in fields:
        words = [f.insert(w, v) for w in words for v in range(1 << f.width)]
    for word in sorted(words):
        data = word.to_bytes(size, "little")
        d = dec.decode_at(data + bytes(accel._CONTEXT), 0)
        if not d.valid or len(d.data) != size or getattr(d, "encoding", None) not in ("EXP", "VEXPORT"):
            continue
        fmt = accel.export_format(dec, cut, word, d.text.encode())
        if fmt is not None:
            out[("x", word & ~mask)] = fmt
    return out


def build(arch: str) -> bytes:
    """The file's bytes for ``arch`` (wave32)."""
    from ..codec.batch_arch import ArchBatch
    from ..codec.batch_data import seed
    from ..codec.decoder import Decoder

    dec = Decoder(arch)
    ab = ArchBatch(dec)
    seed(ab)
    if ab.precomputed != "loaded":
        raise StaleBatch(f"{arch}: {ab.precomputed}")
    from ..codec.batch_data import data_path, read_tables

    batch_fp = read_tables(data_path(arch))["fingerprint"]
    payload = (VERSION, arch, False, batch_fp, code_fingerprint(), accel.export(ab, {}), export_formats(dec))
    return header(arch, False) + zlib.compress(marshal.dumps(payload, 2), 9)


def main(argv: list[str] | None = None) -> int:
    from .. import archs

    argv = sys.argv[1:] if argv is None else argv
    check = "--check" in argv
    names = [a for a in argv if a != "--check"] or [a.name for a in archs.AMD_ARCHS if a.llvm_target]
    bad = 0
    for name in names:
        path = base_path(name, False)
        assert path is not None
        try:
            data = build(name)
        except StaleBatch as exc:
            print(f"regen accel: {exc}", file=sys.stderr)
            return 2
        if check:
            try:
                with open(path, "rb") as fh:
                    same = fh.read() == data
            except OSError:
                same = False
            bad += not same
            print(f"{path}: {'up to date' if same else 'stale: run python -m gpuisa.regen --steps accel'}")
            continue
        with open(path, "wb") as fh:
            fh.write(data)
        print(f"wrote {path} ({len(data):,} bytes)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
