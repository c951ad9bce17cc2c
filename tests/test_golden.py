"""The codec against the committed golden corpora of llvm-mc-22 (``tests/golden/<target>.jsonl``, written by
``python -m gpuisa.regen.golden``): no llvm-mc needed.  Each valid pair is LLVM's own round trip (its
disassembler's text of the bytes, its assembler's bytes of that text); each rejected line is one llvm-mc-22
refuses.  The live differential against llvm-mc-22 is ``test_codec_differential.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuisa import archs
from gpuisa.codec.decoder import get_decoder
from gpuisa.codec.encoder import EncodeError, get_encoder

GOLDEN = Path(__file__).parent / "golden"
TARGETS = [a.llvm_target for a in archs.AMD_ARCHS if a.llvm_target]
# Agreement required per target and direction (share of the corpus; the disagreements are printed).
FLOOR = {"decode": 0.99, "encode": 0.99, "reject": 0.95}


def _rows(target: str) -> tuple[str, list[dict]]:
    path = GOLDEN / f"{target}.jsonl"
    if not path.exists():
        pytest.fail(f"{path} missing: run python -m gpuisa.regen.golden")
    lines = path.read_text().splitlines()
    return json.loads(lines[0])["arch"], [json.loads(x) for x in lines[1:]]


def _report(kind: str, target: str, total: int, bad: list) -> None:
    share = 1 - len(bad) / total if total else 1.0
    print(f"{target} {kind}: {total - len(bad)}/{total} = {100 * share:.2f}%")
    for x in bad[:15]:
        print("   ", x)
    assert share >= FLOOR[kind], f"{target} {kind} agreement {100 * share:.2f}% < {100 * FLOOR[kind]}%"


@pytest.mark.parametrize("target", TARGETS)
def test_decode_golden(target):
    arch, rows = _rows(target)
    pairs = [r for r in rows if "hex" in r]
    assert len(pairs) > 500, "a corpus covers every instruction form"
    bad = []
    for r in pairs:
        data = bytes.fromhex(r["hex"])
        d = get_decoder(arch, r["m"] == "w64").decode_at(data + b"\0" * 16, 0)
        if not (d.valid and d.text == r["text"] and len(d.data) == len(data)):
            bad.append((r["hex"], r["text"], d.text if d.valid else d.error))
    _report("decode", target, len(pairs), bad)


@pytest.mark.parametrize("target", TARGETS)
def test_encode_golden(target):
    arch, rows = _rows(target)
    pairs = [r for r in rows if "hex" in r]
    bad = []
    for r in pairs:
        try:
            got = get_encoder(arch, r["m"] == "w64").encode_line(r["text"]).data.hex()
        except EncodeError as exc:
            got = f"error: {exc}"
        if got != r["hex"]:
            bad.append((r["text"], r["hex"], got))
    _report("encode", target, len(pairs), bad)


@pytest.mark.parametrize("target", TARGETS)
def test_reject_golden(target):
    arch, rows = _rows(target)
    lines = [r for r in rows if "error" in r]
    assert lines, "a corpus has lines llvm-mc-22 rejects"
    bad = []
    for r in lines:
        try:
            got = get_encoder(arch, r["m"] == "w64").encode_line(r["text"]).data.hex()
        except EncodeError as exc:
            assert "\n" not in str(exc), "a rejection is one line"
            continue
        bad.append((r["text"], r["error"], got))
    _report("reject", target, len(lines), bad)
