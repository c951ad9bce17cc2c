"""Per-instruction decode and encode through the print plans: the golden rows of a target, one at a time.

    .venv/bin/python benchmarks/bench_codec_rows.py [--targets gfx1100,gfx942,gfx1200] [--repeat 3]

Each row's bytes go through the scalar decoder's plan path (``Decoder._decode_slow``: no fast-path memo, no
batch tables) and its text through ``Encoder.encode_line``; CPU time (user + system of this process) per
instruction, best of ``--repeat``, after one warm-up pass (the plans loaded, the encoder's caches made).  The
rows that agree with the golden file (llvm-mc-22's own round trips) are counted, and a digest of every output
is printed, so two versions of the codec can be compared for both speed and output.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from gpuisa.codec.decoder import Decoder  # noqa: E402
from gpuisa.codec.encoder import EncodeError, Encoder  # noqa: E402


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _rows(target: str) -> tuple[str, list[tuple[str, bytes]]]:
    lines = (ROOT / "tests" / "golden" / f"{target}.jsonl").read_text().splitlines()
    arch = json.loads(lines[0])["arch"]
    rows = [(d["text"], bytes.fromhex(d["hex"])) for d in map(json.loads, lines[1:])
            if "text" in d and "hex" in d and d.get("m", "w32") == "w32"]
    return arch, rows


def _encode(enc: Encoder, text: str) -> str:
    try:
        return enc.encode_line(text).data.hex()
    except EncodeError as e:
        return f"error: {e}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--targets", default="gfx1100,gfx942,gfx1200")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    for target in args.targets.split(","):
        arch, rows = _rows(target)
        dec, enc = Decoder(arch), Encoder(arch)
        for text, data in rows:  # (warm-up: plans, named tables, the encoder's tables)
            dec._decode_slow(data, 0)
            _encode(enc, text)
        best_d = best_e = float("inf")
        for _ in range(args.repeat):
            t = _cpu()
            texts = [dec._decode_slow(data, 0).text for _, data in rows]
            best_d = min(best_d, _cpu() - t)
            t = _cpu()
            hexes = [_encode(enc, text) for text, _ in rows]
            best_e = min(best_e, _cpu() - t)
        same_d = sum(got == text for got, (text, _) in zip(texts, rows, strict=True))
        same_e = sum(got == data.hex() for got, (_, data) in zip(hexes, rows, strict=True))
        digest = hashlib.sha256("\n".join(map(str, texts + hexes)).encode()).hexdigest()[:12]
        print(f"{target} ({arch}), {len(rows)} rows: decode {best_d / len(rows) * 1e6:.1f} us/instruction CPU "
              f"({same_d} as llvm-mc), encode {best_e / len(rows) * 1e6:.1f} us/instruction CPU ({same_e} as llvm-mc); "
              f"outputs {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
