"""Adapter: LLVM's AMDGPU disassembler (``llvm-mc-22``) as a source of facts.

The opcode space of every encoding of every target is swept: one instruction
word per opcode (the encoding's fixed bits, the opcode, all other fields zero)
followed by an ``s_nop 0`` filler dword that absorbs a mandatory literal, fed
through ``llvm-mc -disassemble -show-encoding`` in one process per encoding.
Each decoded line carries its own bytes, which map it back to the opcode that
produced it, so invalid words (reported on stderr) simply leave gaps.

Output per target: ``{group: {opcode: (mnemonic, text)}}`` where ``mnemonic``
is LLVM's printed mnemonic (with ``_e32``/``_e64`` suffix) and ``text`` the
whole line, which shows the operand syntax, implicit registers included.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..model import Encoding

LLVM_MAJOR = "22"
FILLER = 0xBF800000  # s_nop 0 on GFX9..GFX12
_LINE = re.compile(r"^\s*(\S+)(.*?)\s*;\s*encoding:\s*\[([^\]]*)\]")
SUFFIXES = ("_e64_dpp", "_e32", "_e64", "_sdwa", "_dpp")


def find_llvm_mc() -> str | None:
    """Path of llvm-mc-22 (Debian package llvm-22), or None."""
    env = os.environ.get("GPUISA_LLVM_MC")
    if env:
        return env
    for cand in (f"llvm-mc-{LLVM_MAJOR}", f"/usr/lib/llvm-{LLVM_MAJOR}/bin/llvm-mc"):
        path = shutil.which(cand) or (cand if os.path.exists(cand) else None)
        if path:
            return path
    return None


def llvm_version(llvm_mc: str) -> str:
    out = subprocess.run([llvm_mc, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"LLVM version (\S+)", out)
    return m.group(1) if m else LLVM_MAJOR


def base_mnemonic(mnemonic: str) -> str:
    """v_cndmask_b32_e32 -> v_cndmask_b32."""
    for suf in SUFFIXES:
        if mnemonic.endswith(suf):
            return mnemonic[: -len(suf)]
    return mnemonic


def word_bytes(word: int, width: int) -> list[int]:
    return list(word.to_bytes(width // 8, "little"))


def disassemble_words(llvm_mc: str, target: str, words: list[tuple[int, int]], wave64: bool = False) -> list[tuple[list[int], str, str]]:
    """Disassemble (word, width) candidates, each followed by a filler dword.

    Returns every decoded line as (encoding bytes, mnemonic, text).  LLVM may
    canonicalise bits it ignores (e.g. VOP3P OP_SEL_HI), so callers match lines
    back to candidates by the bits they care about, not by all bytes.
    """
    lines = []
    for word, width in words:
        lines.append(" ".join(f"0x{b:02x}" for b in word_bytes(word, width) + word_bytes(FILLER, 32)))
    cmd = [llvm_mc, "-arch=amdgcn", f"-mcpu={target}", "-disassemble", "-show-encoding"]
    if wave64:
        cmd.append("-mattr=+wavefrontsize64")
    proc = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True, text=True)
    out = []
    for line in proc.stdout.splitlines():
        m = _LINE.match(line)
        if m:
            enc = [int(x, 16) for x in m.group(3).split(",") if x.strip()]
            out.append((enc, m.group(1), (m.group(1) + m.group(2)).strip()))
    return out


@dataclass(frozen=True)
class SweepGroup:
    """Encodings sharing fixed bits and opcode field are swept once."""

    name: str
    encoding: Encoding
    op_fields: tuple[str, ...]
    extra: int = 0  # extra fixed bits (e.g. the other VOPD half)
    # (mask, value) of more specific encodings carved out of this one's opcode space
    # (SOPK/SOP1/SOPC/SOPP inside SOP2, VOP1/VOPC inside VOP2, GFX9 VOP3P inside VOP3)
    exclude: tuple[tuple[int, int], ...] = ()


# Filler variants tried in turn for opcodes not yet decoded: all-zero fields first,
# then the "off"/null register spellings and VGPR sources some opcodes require.
FILL_VARIANTS: tuple[dict[str, int], ...] = (
    {},
    {"SADDR": 0x7C, "SOFFSET": 0x7C, "OP_SEL_HI": 0b111},
    {"SADDR": 0x7F, "SOFFSET": 0x7D, "OP_SEL_HI": 0b111, "SRC0": 256, "SRC1": 256, "SRC2": 256},
    {"SRC0": 256, "SRC1": 256, "SRC2": 256, "VSRC0": 0, "OP_SEL_HI": 0b111, "DMASK": 1},
    {"DMASK": 0xF, "UNRM": 1, "R128": 1},  # ray-tracing image forms (image_bvh*_intersect_ray) require these
    {"GDS": 1},  # GDS-only LDS forms (ds_add_gs_reg_rtn on gfx1100)
    {"SADDR": 0x7D},  # GFX10 FLAT: decoded only with SADDR = 0x7d (off), not 0, 0x7c or 0x7f
)


def _fill(enc: Encoding, variant: dict[str, int]) -> int:
    word = 0
    for name, value in variant.items():
        f = enc.field(name)
        if f is not None and f.value is None and value < (1 << f.width):
            word |= f.place(value)
    return word


def _half(text: str, op_name: str) -> tuple[str, str]:
    """For VOPD, the mnemonic and text of the half that the swept field selects."""
    halves = [h.strip() for h in text.split("::")]
    h = halves[1] if op_name == "OPY" and len(halves) > 1 else halves[0]
    return h.split()[0], h


def sweep_group(llvm_mc: str, target: str, group: SweepGroup) -> dict[int, tuple[str, str]]:
    enc = group.encoding
    nbytes = enc.width // 8
    results: dict[int, tuple[str, str]] = {}
    if not group.op_fields:
        word = enc.fixed_value | _fill(enc, {"EN": 0xF})
        for enc_bytes, mnemonic, text in disassemble_words(llvm_mc, target, [(word, enc.width)]):
            if len(enc_bytes) >= nbytes and int.from_bytes(bytes(enc_bytes[:nbytes]), "little") & enc.fixed_mask == enc.fixed_value:
                results[-1] = (mnemonic, text)  # -1: no opcode field
        return results
    for op_name in group.op_fields:
        op = enc.field(op_name)
        if op is None:
            continue
        mask = enc.fixed_mask | op.mask
        if group.extra:
            mask |= group.extra
        carved = {v for v in range(1 << op.width)
                  if any((enc.fixed_value | group.extra | op.place(v)) & m == val for m, val in group.exclude)}
        for variant in FILL_VARIANTS:
            todo = [v for v in range(1 << op.width) if v not in results and v not in carved]
            if not todo:
                break
            fill = _fill(enc, variant) & ~mask
            cands = [(enc.fixed_value | group.extra | fill | op.place(v), enc.width) for v in todo]
            for enc_bytes, mnemonic, text in disassemble_words(llvm_mc, target, cands):
                if len(enc_bytes) < nbytes:
                    continue
                word = int.from_bytes(bytes(enc_bytes[:nbytes]), "little")
                if word & enc.fixed_mask != enc.fixed_value or (group.extra and word & group.extra != group.extra):
                    continue
                v = op.extract(word)
                if v in results or v in carved:
                    continue
                if enc.name == "VOPD":
                    mnemonic, text = _half(text, op_name)
                results[v] = (mnemonic, text)
    return results


def sweep_target(llvm_mc: str, target: str, groups: list[SweepGroup], jobs: int = 4) -> dict[str, dict[int, tuple[str, str]]]:
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futs = {g.name: pool.submit(sweep_group, llvm_mc, target, g) for g in groups}
        return {name: fut.result() for name, fut in futs.items()}


def groups_for(encodings: dict[str, Encoding]) -> list[SweepGroup]:
    """One sweep group per distinct (fixed bits, opcode field) among the encodings."""
    seen: dict[tuple, str] = {}
    groups: list[SweepGroup] = []
    for name, enc in encodings.items():
        if enc.op_field is None:
            groups.append(SweepGroup(name, enc, ()))  # e.g. EXP: one fixed pattern, no opcode
            continue
        op = enc.field(enc.op_field)
        key = (enc.fixed_mask, enc.fixed_value, op.ranges if op else None, enc.width)
        if key in seen:
            continue
        seen[key] = name
        if name == "VOPD":
            # sweep each half with the other half fixed to a commonly valid op (v_dual_mov_b32 = 8)
            opy = enc.field("OPY")
            opx = enc.field("OPX")
            groups.append(SweepGroup("VOPD.X", enc, ("OPX",), opy.place(8) if opy else 0))
            groups.append(SweepGroup("VOPD.Y", enc, ("OPY",), opx.place(8) if opx else 0))
            continue
        groups.append(SweepGroup(name, enc, (enc.op_field,), exclude=_carved_out(enc, encodings)))
    return groups


def _carved_out(enc: Encoding, encodings: dict[str, Encoding]) -> tuple[tuple[int, int], ...]:
    """Encodings whose fixed bits strictly include this one's (they own part of its opcode space)."""
    out = []
    for other in encodings.values():
        m = other.fixed_mask
        if m != enc.fixed_mask and m & enc.fixed_mask == enc.fixed_mask \
                and other.fixed_value & enc.fixed_mask == enc.fixed_value and other.width >= enc.width \
                and (m, other.fixed_value) not in out:
            out.append((m, other.fixed_value))
    return tuple(out)


def parse_operand_tokens(text: str) -> list[str]:
    """'v_cndmask_b32_e32 v0, s0, v0, vcc_lo' -> ['v0', 's0', 'v0', 'vcc_lo'] (top-level commas)."""
    parts = text.split(None, 1)
    if len(parts) < 2:
        return []
    tokens, depth, cur = [], 0, ""
    for ch in parts[1]:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            tokens.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        tokens.append(cur.strip())
    return tokens
