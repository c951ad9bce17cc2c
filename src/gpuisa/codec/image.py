"""Image instructions (MIMG, VSAMPLE, VIMAGE): how many data and address registers LLVM prints.

LLVM decodes an image word as one variant of its instruction (fixed data and address register
counts, and for GFX10/11 NSA forms the number of extra address dwords), then asks for the variant
with the counts its fields want: data from DMASK, D16 and TFE (four for gathers), addresses from DIM
and A16.  Where the instruction has no such variant it prints the word as first decoded, whatever
the fields say.  So the printed counts depend on all those fields together; on GFX10+ they are
learned from llvm-mc-22 at generation time (``probe_image_forms``) as a table per plan:
(NSA, DIM, A16, wanted data count) -> (data count, address count, size llvm-mc re-encodes) or None
where LLVM rejects the word.  (The size read is 8 bytes and the NSA dwords the field asks for: llvm-mc
prints a shorter encoding where it lists fewer addresses than the NSA dwords hold.)  The wanted data count itself
is the ISA's rule (one register per enabled channel, or four for gathers; halved, rounded up, for packed 16-bit data; one more for TFE).

GFX9 and words outside the table use the per-field ``counts`` tables of ``named.py``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import operands as opd
from .named import RegisterCount, vaddr_list_text

if TYPE_CHECKING:
    from .named import NamedTables
    from .plans import OperandPlan, Plan


def wanted_data(fields: dict[str, int], gather: bool) -> int:
    d = 4 if gather else max(bin(fields.get("DMASK", 0)).count("1"), 1)
    if fields.get("D16"):
        d = (d + 1) // 2
    return d + (1 if fields.get("TFE") else 0)


def plan_ops(plan: Plan) -> tuple[int | None, int | None]:
    kd = next((k for k, sp in enumerate(plan.operands) if sp.field == "VDATA" and sp.kind == "vreg"), None)
    ka = next((k for k, sp in enumerate(plan.operands) if sp.field == "VADDR" and sp.kind == "vreg"
               or "VADDR0" in sp.tables or sp.field == "VADDR0"), None)
    return kd, ka


def operand_counts(dec, entry, enc, plan: Plan, fields: dict[str, int], buf, off: int, size: int):
    """(error, op_specs, NSA address text, GFX12 address list (op index, text), size) of an image word;
    other words come back with the plan's operands."""
    op_specs: Sequence[OperandPlan] = plan.operands
    key = f"{entry.name}|{entry.encoding}"
    form = dec.named.image_forms.get("plans", {}).get(key)
    if form is not None and not any(sp.omit for sp in op_specs):
        return _learned(dec, entry, enc, plan, fields, buf, off, form)
    nsa_text = None
    addr = _vaddr_list(dec, entry, fields)  # GFX12 image address lists: (op index, text)
    if addr is not None and addr[1] is None:
        return f"{entry.name}: address fields not valid for DIM={fields.get('DIM')} A16={fields.get('A16', 0)}", None, None, None, size
    raw_nsa = False
    for cnt in dec.named.counts.get(key, ()):
        if op_specs[cnt.operand].omit:
            continue
        nsa = op_specs[cnt.operand].field == "VADDR" and fields.get("NSA")
        idx = shift = 0
        for d, wd in zip(cnt.deps, cnt.widths):
            idx |= fields.get(d, 0) << shift
            shift += wd
        n = cnt.regs[idx]
        if n is None:
            return (f"{entry.name}: field values {', '.join(f'{d}={fields.get(d, 0)}' for d in cnt.deps)} are not valid together",
                    None, None, None, size)
        if nsa:  # non-sequential addresses: the first in VADDR, the others one byte each in extra dwords
            # GFX11 (one-bit NSA): at most 5 address slots, the last one holding the remaining registers
            slots = n if enc.field("NSA").width > 1 else min(n, 5)
            extra = (slots + 2) // 4
            if enc.field("NSA").width > 1 and fields["NSA"] != extra and dec.gfx == "GFX10":
                # GFX10 (probed): with more NSA dwords than needed LLVM lists the n addresses; with fewer it
                # prints the form as decoded, all 1 + 4*NSA address bytes and one data register
                extra = fields["NSA"]
                if extra < (n + 2) // 4:
                    n = slots = 1 + 4 * extra
                    raw_nsa = True
            if (enc.field("NSA").width > 1 and fields["NSA"] != extra) or n < 2:
                return f"{entry.name}: NSA={fields['NSA']} does not match {n} address registers", None, None, None, size
            if len(buf) - off < size + 4 * extra:
                return f"truncated: {entry.name} needs {size + 4 * extra} bytes", None, None, None, size
            nsa_text = _nsa_text(fields["VADDR"], buf[off + size:off + size + slots - 1], n)
            size += 4 * extra
            continue
        k = cnt.operand
        op_specs = [*op_specs[:k], dataclasses.replace(op_specs[k], count=n), *op_specs[k + 1:]]
    if raw_nsa:
        op_specs = [dataclasses.replace(sp, count=1) if sp.field == "VDATA" and sp.kind == "vreg" else sp for sp in op_specs]
    return None, op_specs, nsa_text, addr, size


def _vaddr_list(dec, entry, fields: dict[str, int]) -> tuple[int, str | None] | None:
    """(operand index, text or None if LLVM rejects) of a GFX12 image address list; None if not one."""
    vl = dec.named.vaddr_lists.get(f"{entry.name}|{entry.encoding}")
    if vl is None:
        return None
    idx = fields.get("DIM", 0) | (fields.get("A16", 0) << 3)
    n = vl.regs[idx]
    slots = [fields[f"VADDR{i}"] for i in range(5) if f"VADDR{i}" in fields]
    if n is None or (vl.last_zero is not None and vl.last_zero[idx] and slots[-1]):
        return vl.operand, None
    return vl.operand, vaddr_list_text(slots, n)


def _nsa_text(first: int, tail: bytes, n: int) -> str:
    """NSA address list: VADDR, then one register per byte; the last slot holds the registers left over."""
    regs = [first] + list(tail)
    toks = [f"v{r}" for r in regs]
    if len(regs) < n:
        toks[-1] = opd.reg_text("v", regs[-1], n - len(regs) + 1)
    return "[" + ", ".join(toks) + "]"


def _learned(dec, entry, enc, plan, fields, buf, off, form):
    gather, ti = form
    table = dec.named.image_forms["tables"][ti]
    nsa = enc.field("NSA")
    n = fields.get("NSA", 0) if nsa else 0
    got = table[n][fields.get("DIM", 0) | (fields.get("A16", 0) << 3)][min(wanted_data(fields, gather), 5) - 1]
    width = enc.width // 8
    if got is None:
        return f"{entry.name}: DMASK, D16, TFE, DIM, A16 values not valid together", None, None, None, width
    nd, na, _ = got
    # the size LLVM reads: GFX10, one dword per NSA count; GFX11 (one-bit NSA), one dword (at most 5 slots)
    size = width + 4 * (n if nsa is not None and nsa.width > 1 else (1 if n else 0))
    kd, ka = plan_ops(plan)
    assert kd is not None and ka is not None  # an image form's plan has its data and address operands
    op_specs = list(plan.operands)
    op_specs[kd] = dataclasses.replace(op_specs[kd], count=nd)
    nsa_text = addr = None
    gfx11_nsa = n and nsa is not None and nsa.width == 1
    if gfx11_nsa or "VADDR0" in fields:  # ray tracing: a register tuple per address slot
        slots = [fields[f"VADDR{i}"] for i in range(5) if f"VADDR{i}" in fields] or None
        bvh = _bvh_learned(entry, fields, buf, off, width, slots)
        if bvh is not None:
            if bvh[0] is not None:
                return bvh[0], None, None, None, width
            op_specs[kd] = dataclasses.replace(op_specs[kd], count=nd, past_ok=True)
            return None, op_specs, None if slots else bvh[1], (ka, bvh[1]) if slots else None, size
    if "VADDR0" in fields:  # GFX12: address fields in the word
        vl = dec.named.vaddr_lists.get(f"{entry.name}|{entry.encoding}")
        slots = [fields[f"VADDR{i}"] for i in range(5) if f"VADDR{i}" in fields]
        idx = fields.get("DIM", 0) | (fields.get("A16", 0) << 3)
        if vl is not None and vl.last_zero is not None and vl.last_zero[idx] and slots[-1]:
            return f"{entry.name}: unused address field VADDR{len(slots) - 1} is not zero", None, None, None, width
        if fields["VDATA"] + nd > 256 or slots[-1] + na - len(slots) + 1 > 256:
            # gfx1200 (llvm-mc-22, probed): the wanted data or address tuple would run past v255, so LLVM keeps
            # the form as first decoded: for a gather the counts of its missing d16+tfe variant, otherwise one
            # data register and one address per VADDR field; that data tuple prints even past v255
            first = table[n][idx][2] if gather else None
            nd, na = (first[0], first[1]) if first is not None else (1, len(slots))
            op_specs[kd] = dataclasses.replace(op_specs[kd], count=nd, past_ok=True)
        addr = (ka, vaddr_list_text(slots, na))
    elif n:  # NSA: extra dwords of address bytes
        if len(buf) - off < size:
            return f"truncated: {entry.name} needs {size} bytes", None, None, None, width
        slots = na if nsa.width > 1 else min(na, 5)
        nsa_text = _nsa_text(fields["VADDR"], buf[off + width:off + width + slots - 1], na)
    else:
        op_specs[ka] = dataclasses.replace(op_specs[ka], count=na)
    return None, op_specs, nsa_text, addr, size


# Ray-tracing address lists (llvm-mc-22, gfx1100 and gfx1200): registers per address slot without and with A16
# (None: no A16 form).  GFX11 NSA words hold each slot's first register in VADDR and the NSA bytes; GFX12 in the
# VADDR0..4 fields; GFX10's NSA lists single registers instead.
_BVH_SLOTS: dict[str, tuple[tuple[int, ...], tuple[int, ...] | None]] = {
    "image_bvh_intersect_ray": ((1, 1, 3, 3, 3), (1, 1, 3, 3)),
    "image_bvh64_intersect_ray": ((2, 1, 3, 3, 3), (2, 1, 3, 3)),
    "image_bvh8_intersect_ray": ((2, 2, 3, 3, 1), None),
    "image_bvh_dual_intersect_ray": ((2, 2, 3, 3, 2), None),
}


def bvh_slots(name: str, a16: int) -> tuple[int, ...] | None:
    """Registers per address slot of a GFX11/GFX12 ray-tracing instruction; None for other instructions."""
    slots = _BVH_SLOTS.get(name)
    return None if slots is None else slots[1 if a16 else 0]


def slots_text(regs: list[int], widths: tuple[int, ...]) -> str:
    """An address list of one register tuple per slot (printed past v255 too, as llvm-mc-22 does)."""
    return "[" + ", ".join(opd.reg_text("v", r, w) for r, w in zip(regs, widths, strict=False)) + "]"


def address_counts(named: NamedTables, entry, spec: OperandPlan, k: int) -> RegisterCount | None:
    """The encoder's address register count of a MIMG form the ``counts`` table leaves out (image atomics), from
    its learned ``image_forms`` table (not NSA): a ``counts``-shaped entry over DIM and A16; None if none."""
    form = named.image_forms.get("plans", {}).get(f"{entry.name}|{entry.encoding}")
    if form is None or spec.field != "VADDR":
        return None
    table = named.image_forms["tables"][form[1]][0]
    # (per DIM/A16 the largest count: a data count the form lacks falls back to the first-decoded variant's one)
    n = [max((got[1] for got in row if got is not None), default=None) for row in table]
    return RegisterCount(k, ("DIM", "A16"), (3, 1), n) if any(n) else None


def tuple_slots(widths: list[int], fields: int) -> bool:
    """A GFX12 image address list (not ray tracing) with a register tuple where LLVM wants one VGPR: anywhere but
    in the last of all ``fields`` VADDR fields (llvm-mc-22 gfx1200: image_load v[0:3], v[2:3], ... dim:2D refused)."""
    return any(w != 1 for w in widths[:-1]) or (bool(widths) and widths[-1] != 1 and len(widths) < fields)


def bvh_address_error(name: str, widths: list[int], a16: bool) -> str | None:
    """The encoder's check of a GFX11/GFX12 ray-tracing address list's register widths (None: fits)."""
    want = _BVH_SLOTS[name][1 if a16 else 0]
    if want is None:
        return f"{name} has no a16 form"
    if tuple(widths) != want:
        return f"{name} addresses are {len(want)} register tuples of {', '.join(map(str, want))} registers"
    return None


def _bvh_learned(entry, fields: dict[str, int], buf, off: int, width: int, slots: list[int] | None):
    """(error, address text) of a GFX11 NSA / GFX12 ray-tracing word, or None for other words."""
    widths = bvh_slots(entry.name, fields.get("A16", 0))
    if widths is None:
        return None
    if slots is None:  # GFX11 NSA: the first slot in VADDR, the others one byte each in the NSA dword
        if len(buf) - off < width + 4:
            return f"truncated: {entry.name} needs {width + 4} bytes", None
        slots = [fields["VADDR"], *buf[off + width:off + width + len(widths) - 1]]
    elif any(slots[len(widths):]):
        return f"{entry.name}: unused address field VADDR{len(widths)} is not zero", None
    return None, slots_text(slots, widths)


def nsa_by_a16(entry) -> bool:
    """image_bvh*_intersect_ray: how many address registers (so NSA dwords) it takes depends on A16, which the
    plan's probe held at 0; NSA values rejected there are valid with A16 (llvm-mc-22, gfx1030), so the image
    register counts (``operand_counts``) judge NSA instead of the plan's rejected values."""
    return entry.name.startswith("image_bvh")
