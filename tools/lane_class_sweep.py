"""Agreement of the encoder with llvm-mc-22 on lane and scalar-operand instructions, every operand kind in every slot.

    GPUISA_HOME=/tmp/gh .venv/bin/python tools/lane_class_sweep.py [--show N] [arch ...]

For each generation (one CPU each) the lines are made here from templates: every operand slot of
v_readlane/v_writelane/v_readfirstlane, v_permlane*, v_mov_b32, s_getreg/s_setreg, v_cndmask (SGPR masks, wave32
and wave64), v_div_scale/v_add_co (SGPR carry-outs) and v_cmp (SGPR destinations) gets each kind of value in turn
(SGPRs low and top, m0, vcc_lo/hi, exec_lo/hi, ttmp, null, inline constants, literals, VGPRs), the other slots
keeping their default; SDWA sources beside an SGPR or VCC.  llvm-mc-22 is the truth: a line agrees when both
refuse it or both give the same bytes (the sweep reports the lines llvm-mc-22 accepts and refuses apart).
"""

from __future__ import annotations

import argparse
import sys

from gpuisa.codec import oracle
from gpuisa.codec.encoded import EncodeError
from gpuisa.codec.processor_codec import encoder_for

CPUS = {"cdna1": "gfx908", "cdna2": "gfx90a", "cdna3": "gfx942", "cdna4": "gfx950", "cdna5": "gfx1250",
        "rdna1": "gfx1010", "rdna2": "gfx1030", "rdna3": "gfx1100", "rdna35": "gfx1150", "rdna4": "gfx1200"}

# scalar-or-constant values of one dword; the VGPR and the literal are kinds of their own
S32 = ["s6", "s7", "s101", "s105", "m0", "vcc_lo", "vcc_hi", "exec_lo", "exec_hi", "ttmp4", "ttmp15", "null",
       "vcc", "exec", "0", "-1", "64", "-16", "0.5", "-4.0", "0x1234", "v2", "v255", "src_scc", "flat_scratch_lo"]
SDST = ["s4", "s101", "s105", "m0", "vcc_lo", "vcc_hi", "exec_lo", "exec_hi", "ttmp3", "null", "v4", "vcc", "0"]
SDST64 = ["s[4:5]", "s[100:101]", "s[104:105]", "vcc", "exec", "ttmp[2:3]", "null", "s4", "vcc_lo", "v[4:5]"]

# (template, slot values): {} in the template is filled with each value in turn, one slot per template
TEMPLATES: list[tuple[str, list[str]]] = [
    ("v_readlane_b32 {}, v2, s6", SDST), ("v_readlane_b32 s4, {}, s6", S32), ("v_readlane_b32 s4, v2, {}", S32),
    ("v_writelane_b32 {}, s7, s6", ["v1", "v255", "s1", "a1"]), ("v_writelane_b32 v1, {}, s6", S32),
    ("v_writelane_b32 v1, s6, {}", S32), ("v_writelane_b32 v1, {}, m0", S32), ("v_writelane_b32 v1, 5, {}", S32),
    ("v_readfirstlane_b32 {}, v2", SDST), ("v_readfirstlane_b32 s4, {}", S32),
    ("v_permlane16_b32 v1, {}, s6, s7", S32), ("v_permlane16_b32 v1, v2, {}, s7", S32),
    ("v_permlane16_b32 v1, v2, s6, {}", S32), ("v_permlanex16_b32 v1, v2, {}, s7", S32),
    ("v_permlanex16_b32 v1, v2, s6, {}", S32), ("v_permlane64_b32 v1, {}", S32),
    ("v_permlane16_swap_b32 v1, {}", S32), ("v_permlane32_swap_b32 v1, {}", S32),
    ("v_permlane16_var_b32 v1, v2, {}", S32), ("v_permlanex16_var_b32 v1, v2, {}", S32),
    ("v_mov_b32 v1, {}", S32), ("v_mov_b32_e64 v1, {}", S32), ("v_mov_b32 {}, v1", ["v1", "s1", "m0", "exec_lo"]),
    ("s_getreg_b32 {}, hwreg(HW_REG_MODE)", SDST), ("s_setreg_b32 hwreg(HW_REG_MODE), {}", S32),
    ("s_setreg_imm32_b32 hwreg(HW_REG_MODE), {}", ["0x1234", "1", "s1", "-1"]),
    ("v_cndmask_b32 v1, v2, v3, {}", SDST64 + SDST), ("v_cndmask_b32_e64 v1, {}, v3, s[4:5]", S32),
    ("v_cndmask_b32_e64 v1, v2, {}, s[4:5]", S32), ("v_cndmask_b32_e64 v1, {}, v3, s4", S32),
    ("v_div_scale_f32 {}, vcc, v2, v3, v4", ["v1", "s1"]), ("v_div_scale_f32 v1, {}, v2, v3, v4", SDST64 + SDST),
    ("v_div_scale_f32 v1, vcc, {}, v3, v4", S32), ("v_div_scale_f64 v[2:3], {}, v[4:5], v[6:7], v[8:9]", SDST64 + SDST),
    ("v_add_co_u32 v1, {}, v2, v3", SDST64 + SDST), ("v_add_co_u32_e64 v1, {}, v2, v3", SDST64 + SDST),
    ("v_add_co_u32_e64 v1, s[4:5], {}, v3", S32), ("v_add_co_ci_u32_e64 v1, {}, v2, v3, s[6:7]", SDST64 + SDST),
    ("v_add_co_ci_u32_e64 v1, s[4:5], v2, v3, {}", SDST64 + SDST), ("v_addc_co_u32_e64 v1, {}, v2, v3, s[6:7]", SDST64),
    ("v_addc_co_u32_e64 v1, s[4:5], v2, v3, {}", SDST64 + SDST),
    ("v_cmp_eq_u32_e64 {}, v1, v2", SDST64 + SDST), ("v_cmp_eq_u32_e64 s[4:5], {}, v2", S32),
    ("v_cmp_lt_f32_e64 {}, v1, v2", SDST64 + SDST), ("v_cmpx_eq_u32_e64 {}, v1, v2", SDST64 + SDST + ["v1, v2"]),
    ("v_cmp_class_f32_e64 {}, v1, v2", SDST64 + SDST),
    ("v_add_f32_sdwa v0, {}, s2 dst_sel:DWORD src0_sel:DWORD src1_sel:DWORD", S32),
    ("v_cndmask_b32_sdwa v0, {}, v2, vcc dst_sel:DWORD src0_sel:DWORD src1_sel:DWORD", S32),
    ("v_cmp_eq_u32_sdwa s[4:5], {}, s1 src0_sel:DWORD src1_sel:DWORD", S32),
]


def lines() -> list[str]:
    return [t.format(v) for t, vals in TEMPLATES for v in vals]


def sweep(arch: str, wave64: bool, show: int) -> tuple[int, int, int, int]:
    """(lines, agreeing, llvm accepts, agreeing among those) for one arch and wave size."""
    cpu = CPUS[arch]
    text = lines()
    ref = oracle.assemble(cpu, text, wave64=wave64)
    try:
        enc = encoder_for(arch, wave64=wave64)
    except Exception as e:  # (a wave size the generation does not run)
        print(f"{arch}{'-w64' if wave64 else ''}: {e}", file=sys.stderr)
        return 0, 0, 0, 0
    agree = acc = acc_agree = 0
    bad = []
    for line, (want, msg) in zip(text, ref):
        try:
            got: bytes | None = enc.encode_line(line).data
        except EncodeError:
            got = None
        acc += want is not None
        if got == want:
            agree += 1
            acc_agree += want is not None
        else:
            bad.append(f"  {line!r}: llvm {want.hex() if want else msg!r}, ours {got.hex() if got else 'refused'}")
    for b in bad[:show]:
        print(f"{arch}{'-w64' if wave64 else ''}{b}")
    return len(text), agree, acc, acc_agree


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("arch", nargs="*", default=list(CPUS))
    ap.add_argument("--show", type=int, default=0, help="print up to N disagreements per run")
    args = ap.parse_args(argv)
    for arch in args.arch:
        for w64 in ((False, True) if arch.startswith("rdna") else (arch != "cdna5",)):
            n, agree, acc, acc_agree = sweep(arch, w64, args.show)
            print(f"{arch:8s} {'wave64' if w64 else 'wave32'}: {agree}/{n} agree; "
                  f"llvm-mc-22 accepts {acc}, same bytes {acc_agree}; refuses {n - acc}, both refuse {agree - acc_agree}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
