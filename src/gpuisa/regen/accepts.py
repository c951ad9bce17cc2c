"""Which kinds of value LLVM 22's assembler accepts in each source operand (generation time).

    python -m gpuisa.regen.accepts [arch ...]   # adds "src_rejects" and "hwreg_aliases" to codec/data/named_<arch>.json

A source field can encode SGPRs, VGPRs, inline constants and the literal, but an instruction may take only
some of them (WMMA's A and B are VGPRs, GFX12's WMMA takes no SGPR, a VOP3 DPP src1 no SGPR...).  For each
instruction form, the plan's own text (or, where LLVM refuses it, the text with VGPRs for SGPRs) is
assembled with each source replaced in turn by an SGPR, a VGPR, an inline integer and a literal of the
operand's size; the kinds LLVM refuses where the baseline assembles are recorded per operand position,
and the encoder refuses them with a one-line reason.  The hardware-register names of other generations are
assembled too: those LLVM takes (GFX12's HW_REG_MODE for HW_REG_WAVE_MODE) go to "hwreg_aliases".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import archs
from ..codec import oracle
from ..codec.named import load_named
from ..codec.plans import load_plans
from .named_key import add_key
from .plans import SREG

if TYPE_CHECKING:
    from ..codec.plans import Plan
    from ..model import Arch

KINDS = ("s", "v", "i", "l")  # SGPR, VGPR, inline constant, literal


def _value(kind: str, n: int) -> str:
    """A value of each kind away from the plan's own registers (v0, s0, their tuples), so that no overlap
    rule (an MFMA's srcC against its destination) refuses it, and aligned for any tuple size."""
    if kind == "s":
        return "s40" if n == 1 else f"s[40:{39 + n}]"
    if kind == "v":  # (below v128: some 16-bit sources take only v0..v127)
        return "v64" if n == 1 else f"v[64:{63 + n}]"
    return "1" if kind == "i" else "0x1234"


def _text(plan: Plan, ops: list[str]) -> str:
    return " ".join([plan.mnemonic, ", ".join(ops)] + list(plan.base_mods))


def _sources(plan: Plan) -> list[tuple[int, int]]:
    return [(k, sp.count) for k, sp in enumerate(plan.operands)
            if sp.kind == "src" and sp.field.startswith("SRC") and sp.scale == 1]


def _bases(plan: Plan, srcs: list[tuple[int, int]]) -> list[list[str]]:
    """Texts to vary one source of: VGPRs in the other sources first (one SGPR more must not break the constant-bus
    limit), then VGPRs for every SGPR, then the plan's own text with its source SGPRs where the probe's SGPR is (an
    SGPR read twice is one constant-bus read: v_writelane_b32 v1, s40, s40 on GFX9)."""
    toks = [sp.text.split("/*")[0] for sp in plan.operands]
    vsrc = list(toks)
    for k, n in srcs:
        vsrc[k] = "v0" if n == 1 else f"v[0:{n - 1}]"
    same = list(toks)
    for k, n in srcs:
        if SREG.fullmatch(toks[k]):
            same[k] = _value("s", n)
    return [vsrc, [SREG.sub(lambda m: "v" + m.group(1), t) for t in toks], same]


def _mixed(plan: Plan, srcs: list[tuple[int, int]]) -> list[list[str]]:
    """Every choice of VGPR or SGPR per source, for the forms none of ``_bases`` assembles (v_readlane_b32 s0, v64,
    s40: a VGPR source beside an SGPR lane select)."""
    toks = [sp.text.split("/*")[0] for sp in plan.operands]
    out = []
    for mask in range(1, (1 << len(srcs)) - 1):
        base = list(toks)
        for j, (k, n) in enumerate(srcs):
            base[k] = _value("s" if mask >> j & 1 else "v", n)
        out.append(base)
    return out


def _run(arch: Arch, plans: dict[str, Plan], bases: Callable[[Plan, list[tuple[int, int]]], list[list[str]]],
         keys: list[str], out: dict[str, dict[str, list[str]]]) -> set[str]:
    """Probe ``keys`` on the texts ``bases`` gives; record the refused kinds of the first base that assembles;
    return the keys with such a base."""
    jobs = []  # (key, position or -1 for the baseline, kind, text)
    for key in keys:
        plan = plans[key]
        srcs = _sources(plan)
        for base in bases(plan, srcs):
            jobs.append((key, -1, "", _text(plan, base)))
            for k, n in srcs:
                for kind in KINDS:
                    jobs.append((key, k, kind, _text(plan, base[:k] + [_value(kind, n)] + base[k + 1:])))
    got = oracle.assemble(arch.mc_target, [j[3] for j in jobs])
    done: set[str] = set()
    ok_base = False
    for (key, k, kind, _), (data, _) in zip(jobs, got):
        if k == -1:
            ok_base = data is not None and key not in done
            if ok_base:
                done.add(key)
            continue
        if ok_base and data is None:
            lst = out.setdefault(key, {}).setdefault(str(k), [])
            if kind not in lst:
                lst.append(kind)
    return done


def probe(arch_name: str) -> dict[str, dict[str, list[str]]]:
    arch = archs.by_name(arch_name)
    plans = load_plans(arch_name)
    keys = [key for key, plan in sorted(plans.items()) if _sources(plan)]
    out: dict[str, dict[str, list[str]]] = {}
    done = _run(arch, plans, _bases, keys, out)
    _run(arch, plans, _mixed, [k for k in keys if k not in done and len(_sources(plans[k])) > 1], out)
    return {k: v for k, v in sorted(out.items()) if any(v.values())}


def probe_hwreg(arch_name: str) -> dict[str, str]:
    """The hardware-register names of other generations LLVM's assembler takes for this one (``hwreg(HW_REG_MODE)``
    on GFX12, printed HW_REG_WAVE_MODE) -> the id it encodes."""
    own = load_named(arch_name).hwreg
    names = sorted({n for a in archs.AMD_ARCHS if a.llvm_target for n in load_named(a.name).hwreg.values()
                    if not n.isdigit()} - set(own.values()))
    got = oracle.assemble(archs.by_name(arch_name).mc_target, [f"s_getreg_b32 s0, hwreg({n})" for n in names])
    out = {}
    for n, (data, _) in zip(names, got):
        if data is not None:
            out[n] = str(int.from_bytes(data[:4], "little") & 0x3F)
    return out


def main(argv: list[str] | None = None) -> int:
    add_key("src_rejects", probe, lambda name, t: f"{name}: {len(t)} forms refuse some kind of source value", argv)
    return add_key("hwreg_aliases", probe_hwreg, lambda name, t: f"{name}: {len(t)} other hardware-register names", argv)


if __name__ == "__main__":
    raise SystemExit(main())
