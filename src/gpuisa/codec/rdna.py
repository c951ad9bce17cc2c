"""GFX10+ (RDNA) printing rules learned from llvm-mc-19 at generation time, and their use by the decoder.

    python -m gpuisa.codec.named rdna1 rdna2 rdna3 rdna3.5 rdna4   # (re)writes the tables, with the others

Each probe disassembles words built from a plan's base word with a few fields set and records what
LLVM prints; nothing is copied from LLVM's sources.  Tables (in ``named_<arch>.json``):

* ``th_scope``: GFX12 cache-policy tokens that depend on the scope too (``th:TH_LOAD_BYPASS`` is
  ``TH_LOAD_LU`` at system scope; atomics name ``TH_ATOMIC_CASCADE_*`` at device and system scope):
  per TH table (the plan's token for TH=1), ``"TH/SCOPE"`` -> the token LLVM prints instead.
"""

from __future__ import annotations

from .. import archs
from .plans import load_plans
from .syntax import split_operands
from .tables import load_arch_tables


def _th_class(plan: dict) -> str | None:
    m = plan.get("mods", {})
    if "TH" not in m or "SCOPE" not in m or "v" not in m["TH"]:
        return None
    first = m["TH"]["v"].get("1")
    return first[0][0] if first and first[0] else None


def probe_th_scope(arch_name: str) -> dict:
    """``th_scope`` (see the module docstring): every TH x SCOPE value on one plan per TH table."""
    from . import oracle

    t = load_arch_tables(arch_name)
    plans = load_plans(arch_name)
    reps: dict[str, list[str]] = {}
    for key, plan in sorted(plans.items()):
        cls = _th_class(plan)
        if cls is not None and len(reps.setdefault(cls, [])) < 2:
            reps[cls].append(key)
    jobs, words = [], []
    for cls, keys in sorted(reps.items()):
        for key in keys:
            enc = t.encodings[key.split("|")[1]]
            th, sc = enc.field("TH"), enc.field("SCOPE")
            for s in range(1 << sc.width):
                for h in range(1 << th.width):
                    w = plans[key]["w"]
                    w = (w & ~th.place((1 << th.width) - 1)) | th.place(h)
                    w = (w & ~sc.place((1 << sc.width) - 1)) | sc.place(s)
                    jobs.append((cls, key, h, s))
                    words.append(w.to_bytes(enc.width // 8, "little"))
    got = oracle.disassemble(archs.by_name(arch_name).llvm_target, words) if words else []
    out: dict[str, dict[str, str]] = {}
    for (cls, key, h, s), r in zip(jobs, got):
        text = r[0].text if r and r[0].offset == 0 and r[0].text else None
        if text is None:
            continue
        tok = next((m for m in split_operands(text)[1] if m.startswith("th:")), "")
        mine = plans[key]["mods"]["TH"]["v"].get(str(h), [[""]])[0]
        mine = mine[0] if mine else ""
        if tok != mine:
            out.setdefault(cls, {})[f"{h}/{s}"] = tok
    return out


def th_token(dec, plan: dict, fields: dict[str, int]) -> str | None:
    """The ``th:`` token LLVM prints instead of the TH table's, where the scope changes it; None if not."""
    table = dec.named.get("th_scope")
    if not table or "SCOPE" not in fields:
        return None
    cls = _th_class(plan)
    return table.get(cls, {}).get(f"{fields.get('TH', 0)}/{fields['SCOPE']}") if cls else None


def th_plain_mods(named: dict, plan: dict, mods: list[str]) -> list[str]:
    """The encoder's side of ``th_token``: a scope-dependent ``th:`` token becomes the plan's token for
    the same TH value (the lowest such value; a returning atomic's low bit comes from its data operand)."""
    table = named.get("th_scope")
    cls = _th_class(plan) if table else None
    if not cls or cls not in table:
        return mods
    out = []
    for m in mods:
        hits = sorted(int(k.split("/")[0]) for k, tok in table[cls].items() if tok == m and m)
        if m.startswith("th:") and hits:
            add = plan["mods"]["TH"]["v"].get(str(hits[0]), [[]])[0]
            out += add if add else []
        else:
            out.append(m)
    return out


def probe_scalar_tables(arch_name: str, st: dict) -> None:
    """Adds to ``src_tables`` (``named.py``) the scalar-memory register operands (SDATA, SBASE, SOFFSET):
    LLVM's token for every value of the field (scaled as the plan scales it; None where it rejects the
    word), so register classes (``exec_hi/*Invalid register...*/``) and tuples past the last SGPR print as
    LLVM prints them."""
    from . import oracle

    t = load_arch_tables(arch_name)
    plans = load_plans(arch_name)
    jobs, words = [], []
    for key, plan in sorted(plans.items()):
        enc = t.encodings.get(key.split("|")[1])
        if enc is None or enc.name != "SMEM":
            continue
        for k, spec in enumerate(plan["ops"]):
            f = enc.field(spec.get("f", "")) if spec.get("k") == "ssrc" else None
            if f is None or f.width > 8 or "imm_if" in spec:
                continue
            jobs.append((key, k, f.width, spec.get("s", 1)))
            for v in range(1 << f.width):
                words.append(((plan["w"] & ~f.place((1 << f.width) - 1)) | f.place(v)).to_bytes(enc.width // 8, "little"))
    got = oracle.disassemble(archs.by_name(arch_name).llvm_target, words) if words else []
    i = 0
    for key, k, width, scale in jobs:
        toks: list = [None] * ((1 << width) * scale)
        for v in range(1 << width):
            r, w = got[i + v], words[i + v]
            text = r[0].text if r and r[0].offset == 0 and r[0].text and r[0].size == len(w) else None
            ops = split_operands(text)[0] if text else []
            toks[v * scale] = ops[k] if k < len(ops) else None
        i += 1 << width
        if toks not in st["tables"]:
            st["tables"].append(toks)
        st["ops"].setdefault(key, {})[str(k)] = st["tables"].index(toks)


def probe_named(arch_name: str, done: dict) -> dict:
    """Every table of this module for a GFX10+ architecture (called by ``named.build_arch``; ``done``:
    the tables probed before, extended in place)."""
    out: dict = {}
    if "src_tables" in done:
        probe_scalar_tables(arch_name, done["src_tables"])
    th = probe_th_scope(arch_name)
    if th:
        out["th_scope"] = th
    return out
