"""Differential checks against llvm-mc-22: random words through both decoders.

    python -m gpuisa.regen.differential [--words N] [--seed S] [arch ...]

Each random 64-bit word is decoded by both; what is compared is the list of
(offset, text or invalid) of the instructions starting inside its 8 bytes
(a literal or second half may extend past them into separator bytes that
both decoders see).  Disagreements go to ``artifacts/decode_<arch>.txt``.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
from pathlib import Path

from .. import archs
from ..codec import oracle
from ..codec.decoder import get_decoder


def ours(arch: str, probe: bytes, wave64: bool = False, index: int = 0) -> list[tuple[int, str | None]]:
    dec = get_decoder(arch, wave64)
    out = []
    for d in dec.decode(probe + oracle.separator(index)):
        if d.offset >= len(probe):
            break
        out.append((d.offset, d.text if d.valid else None))
    return out


def compare(arch: str, probes: list[bytes], wave64: bool = False):
    a = archs.by_name(arch)
    ref = oracle.disassemble(a.mc_target, probes, wave64)
    rows = []
    for i, (p, r) in enumerate(zip(probes, ref)):
        theirs = [(it.offset, it.text) for it in r]
        if theirs and theirs[0][1] == oracle.CRASHED:
            continue  # the reference crashed on this word: no verdict to compare with
        mine = ours(arch, p, wave64, i)
        rows.append((p, mine, theirs, mine == theirs))
    return rows


def random_words(n: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    return [rng.getrandbits(64).to_bytes(8, "little") for _ in range(n)]


def enc_of(arch: str, probe: bytes) -> str:
    d = get_decoder(arch).decode_at(probe + oracle.separator(0), 0)
    if d.encoding:
        return d.encoding
    return "invalid"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--words", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="artifacts")
    ap.add_argument("arch", nargs="*")
    args = ap.parse_args(argv)
    names = args.arch or [x.name for x in archs.AMD_ARCHS if x.llvm_target]
    out = Path(args.out)
    out.mkdir(exist_ok=True)
    summary = {}
    for name in names:
        rows = compare(name, random_words(args.words, args.seed))
        per_enc: collections.defaultdict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
        lines = []
        for p, mine, theirs, ok in rows:
            e = enc_of(name, p)
            per_enc[e][0] += 1
            per_enc[e][1] += ok
            if not ok:
                lines.append(f"{p.hex()}\t{e}\tours={mine}\tllvm={theirs}")
        agree = sum(r[3] for r in rows)
        (out / f"decode_{name}.txt").write_text("\n".join(lines) + "\n")
        summary[name] = {"words": len(rows), "llvm_crashed": args.words - len(rows), "agree": agree,
                         "pct": round(100 * agree / len(rows), 3),
                         "per_encoding": {k: {"words": v[0], "pct": round(100 * v[1] / v[0], 2)}
                                          for k, v in sorted(per_enc.items(), key=lambda kv: -kv[1][0])}}
        print(f"{name}: {summary[name]['pct']}% of {len(rows)} words agree", file=sys.stderr)
    (out / "decode_summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def encode_agreement(arch: str, sample: int | None = None, seed: int = 1) -> dict:
    """Operand variants of every (instruction, encoding): our bytes vs llvm-mc's, and our text of llvm-mc's bytes.

    Texts come from our decoder applied to varied field values; llvm-mc assembles each.  Where llvm-mc
    accepts the text: ``bytes_ok`` counts identical bytes, ``text_ok`` counts our decoding of llvm-mc's
    bytes printing llvm-mc's own text.  Per encoding figures are returned too.
    """
    from ..codec.encoder import EncodeError, get_encoder
    from ..codec.tables import load_arch_tables
    from .examples import variant_words

    a = archs.by_name(arch)
    t = load_arch_tables(arch)
    dec = get_decoder(arch)
    enc = get_encoder(arch)
    entries = list(t.entries)
    if sample is not None and sample < len(entries):
        entries = random.Random(seed).sample(entries, sample)
    texts: list[tuple[str, str]] = []
    for e in entries:
        for _, data in variant_words(arch, e.name, e.encoding):
            d = dec.decode_at(data, 0)
            if d.valid and d.text is not None and d.name == e.name:
                texts.append((e.encoding, d.text))
    ref = oracle.assemble(a.mc_target, [x[1] for x in texts])
    per: collections.defaultdict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    bad: list[str] = []
    for (encname, text), (rb, rtext) in zip(texts, ref):
        if rb is None:
            continue
        per[encname][0] += 1
        try:
            ours = enc.encode_line(text).data
        except EncodeError as exc:
            ours = None
            bad.append(f"{text}\tencode error: {exc}")
        if ours == rb:
            per[encname][1] += 1
        elif ours is not None:
            bad.append(f"{text}\tours={ours.hex()} llvm={rb.hex()}")
        d = dec.decode_at(rb + b"\0" * 8, 0)
        if d.valid and d.text == rtext:
            per[encname][2] += 1
        else:
            bad.append(f"{rb.hex()}\tdecode ours={d.text!r} llvm={rtext!r}")
    total = sum(v[0] for v in per.values())
    return {"arch": arch, "accepted": total, "bytes_ok": sum(v[1] for v in per.values()),
            "text_ok": sum(v[2] for v in per.values()),
            "per_encoding": {k: {"accepted": v[0], "bytes_ok": v[1], "text_ok": v[2]} for k, v in sorted(per.items())},
            "disagreements": bad}
