"""Learn, from llvm-mc-22, which encoding field prints as which operand (generation time).

    python -m gpuisa.regen.probe            # writes artifacts/probe_<arch>.json (for inspection)
    python -m gpuisa.regen.plans            # probes and writes the committed plans

For every (instruction, encoding) of an LLVM-known architecture: a base word
(fixed bits + opcode + the first filler that llvm-mc accepts as that
instruction) is disassembled, then each free field is set to 1 in turn.  The
operand positions whose text changes are that field's operands; modifier
words that appear are recorded as well.  The result is a fact about LLVM's
syntax (field -> operand position), committed as data; the decoder and
encoder print and parse operand values themselves.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .. import archs
from ..codec import oracle
from ..codec.syntax import mnemonic_of, split_operands
from ..codec.tables import load_arch_tables
from ..sources.llvm import FILL_VARIANTS

COMMAND = "python -m gpuisa.regen.probe"


def _fill(enc, variant: dict[str, int]) -> int:
    word = 0
    for name, value in variant.items():
        f = enc.field(name)
        if f is not None and f.value is None and f.name != enc.op_field and value < (1 << f.width):
            word |= f.place(value)
    return word


def _names(e) -> tuple[str, ...]:
    """The mnemonics llvm-mc-22 may print for entry ``e``: its own; an entry without a syntax example (its bare
    name) also as the _e32/_e64 form."""
    return (e.mnemonic,) if e.syntax else (e.mnemonic, e.mnemonic + "_e32", e.mnemonic + "_e64")


def probe_values(width: int) -> list[int]:
    """Every value of a small field; 1, 16 and the top bit of a wide one (and for a 9-bit source, v1: an odd
    first VGPR, which a register tuple that must be even-aligned rejects)."""
    if width <= 4:
        return list(range(1, 1 << width))
    return sorted({1, 16, 1 << (width - 1)} | ({257} if width == 9 else set()))


def word_bytes(word: int, width: int) -> bytes:
    return word.to_bytes(width // 8, "little") + b"\0\0\0\0"  # room for a literal (zero)


def probe_arch(arch_name: str, wave64: bool = False, every_entry: bool = False) -> dict:
    """``every_entry``: the entries without a syntax example too (a 16-bit syntax mode has forms the default
    lacks: v_mov_b16 on gfx1200 with +real-true16); a word llvm-mc-22 prints as another mnemonic is dropped."""
    arch = archs.by_name(arch_name)
    target = arch.mc_target
    tables = load_arch_tables(arch_name)
    entries = [e for e in tables.entries if e.syntax or every_entry]
    base: dict[int, tuple[int, str, int]] = {}  # entry -> (word, text, size)
    for variant in FILL_VARIANTS:
        todo = [i for i, e in enumerate(entries) if i not in base or "/*" in base[i][1]]
        if not todo:
            break
        words = []
        for i in todo:
            e = entries[i]
            enc = tables.encodings[e.encoding]
            words.append(e.identifier | _fill(enc, variant))
        res = oracle.disassemble(target, [word_bytes(w, entries[i].width) for i, w in zip(todo, words)], wave64)
        for i, w, items in zip(todo, words, res):
            if items and items[0].offset == 0 and items[0].text and mnemonic_of(items[0].text) in _names(entries[i]):
                clean = "/*" not in items[0].text
                if i not in base or (clean and "/*" in base[i][1]):
                    base[i] = (w, items[0].text, items[0].size)
    return {"arch": arch_name, "target": target, "generated_by": COMMAND,
            "entries": probe_fields(target, tables, {i: (entries[i], *b) for i, b in base.items()}, wave64)}


def probe_fields(target: str, tables, base: dict, wave64: bool = False) -> dict[str, dict]:
    """Each free field of each base word set to a few values: ``{"name|ENC": {word, text, size, fields}}``;
    ``base`` maps any key to (entry, base word, its text, its size)."""
    entries = {i: b[0] for i, b in base.items()}
    base = {i: b[1:] for i, b in base.items()}
    probes: list[tuple[int, str, int]] = []
    for i, (w, _, _) in base.items():
        e = entries[i]
        enc = tables.encodings[e.encoding]
        for f in enc.fields:
            if f.value is not None or f.name == enc.op_field or (e.encoding == "VOPD" and f.name in ("OPX", "OPY")):
                continue
            for v in probe_values(f.width):
                probes.append((i, f"{f.name}={v}", f.insert(w, v)))
    res = oracle.disassemble(target, [word_bytes(w, entries[i].width) for i, _, w in probes], wave64)
    out: dict[str, dict] = {}
    for i, (w, text, size) in base.items():
        e = entries[i]
        out[f"{e.name}|{e.encoding}"] = {"word": w, "text": text, "size": size, "fields": {}}
    for (i, fname, _w), items in zip(probes, res):
        e = entries[i]
        rec = out[f"{e.name}|{e.encoding}"]
        btext = rec["text"]
        if not items or items[0].offset != 0 or items[0].text is None:
            rec["fields"][fname] = {"invalid": True}
            continue
        text = items[0].text
        if mnemonic_of(text) not in _names(e):
            rec["fields"][fname] = {"other": mnemonic_of(text)}
            continue
        bops, bmods = split_operands(btext)
        pops, pmods = split_operands(text)
        if not bops:
            pmods, pops = pops + pmods, []
        d: dict = {}
        if len(bops) == len(pops):
            changed = [k for k, (a, b) in enumerate(zip(bops, pops)) if a != b]
            if changed:
                d["ops"] = changed
                d["to"] = [pops[k] for k in changed]
        else:
            d["text"] = text
        added = [m for m in pmods if m not in bmods]
        removed = [m for m in bmods if m not in pmods]
        if added:
            d["add"] = added
        if removed:
            d["del"] = removed
        rec["fields"][fname] = d
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out_dir = Path("artifacts")
    out_dir.mkdir(exist_ok=True)
    names = argv or [a.name for a in archs.AMD_ARCHS if a.llvm_target]
    for name in names:
        doc = probe_arch(name)
        path = out_dir / f"probe_{name}.json"
        lines = ["{"] + [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in doc.items() if k != "entries"]
        lines.append('  "entries": {')
        items = sorted(doc["entries"].items())
        for j, (k, v) in enumerate(items):
            lines.append(f"    {json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}" + ("," if j < len(items) - 1 else ""))
        lines += ["  }", "}"]
        path.write_text("\n".join(lines) + "\n")
        print(f"{name}: {len(doc['entries'])} probed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
