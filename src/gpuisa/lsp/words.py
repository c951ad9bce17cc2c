"""Short explanations of registers and modifiers for hover and completion (the project's own words)."""

from __future__ import annotations

import re

AMD_REGISTERS = {
    "vcc": "vector condition code: a lane mask (64-bit; in wave32 only VCC_LO is used)",
    "vcc_lo": "low 32 bits of the vector condition code (the whole mask in wave32)",
    "vcc_hi": "high 32 bits of the vector condition code",
    "exec": "execution mask: which lanes run vector instructions (64-bit)",
    "exec_lo": "low 32 bits of the execution mask (the whole mask in wave32)",
    "exec_hi": "high 32 bits of the execution mask",
    "m0": "miscellaneous scalar register M0 (LDS limits, GDS/message operands, indexing)",
    "scc": "scalar condition code: one bit set by scalar compares and arithmetic",
    "null": "null register: reads as zero, writes are discarded",
    "off": "no address register (the instruction uses its scalar base or no offset)",
    "flat_scratch": "flat scratch base address (64-bit)",
    "flat_scratch_lo": "low half of the flat scratch base address",
    "flat_scratch_hi": "high half of the flat scratch base address",
    "xnack_mask": "mask of lanes that must replay after a page fault (XNACK)",
    "src_scc": "the scalar condition code read as a source operand",
    "src_execz": "1 when EXEC is zero, read as a source operand",
    "src_vccz": "1 when VCC is zero, read as a source operand",
    "src_lds_direct": "LDS direct read as a source operand",
    "lds_direct": "LDS direct read as a source operand",
    "tba": "trap base address", "tma": "trap memory address",
}
AMD_REG_PREFIX = {"v": "vector register (one 32-bit value per lane)",
                  "s": "scalar register (one 32-bit value for the wave)",
                  "a": "accumulation vector register (AGPR, matrix instructions)",
                  "ttmp": "trap-handler temporary scalar register"}
AMD_MODIFIERS = {
    "glc": "globally coherent: return the pre-op value (atomics) or bypass the near cache (loads)",
    "slc": "system level coherent: streaming access, fewer cache allocations",
    "dlc": "device level coherent (RDNA cache policy bit)",
    "nv": "non-volatile access", "sc0": "cache scope bit 0 (CDNA3)", "sc1": "cache scope bit 1 (CDNA3)",
    "nt": "non-temporal: streaming access", "th": "temporal hint (RDNA4 cache policy)",
    "scope": "memory scope of the access (RDNA4 cache policy)",
    "offset": "immediate byte offset added to the address", "offen": "the VGPR address is an offset",
    "idxen": "the VGPR address is an index", "addr64": "64-bit VGPR address", "lds": "return the data to LDS",
    "tfe": "texture fail enable: an extra VGPR reports a failed access", "gds": "use global data share",
    "clamp": "clamp the result (floats to [0, 1], integers saturate)",
    "mul": "output modifier: multiply the result by 2 or 4", "div": "output modifier: divide the result by 2",
    "row_mask": "DPP: which rows of lanes are written", "bank_mask": "DPP: which banks of lanes are written",
    "bound_ctrl": "DPP: out-of-range source lanes read zero", "fi": "DPP fetch-inactive: read disabled lanes too",
    "quad_perm": "DPP: permutation of the four lanes of each quad", "row_shl": "DPP: shift left within a row",
    "row_shr": "DPP: shift right within a row", "row_ror": "DPP: rotate right within a row",
    "row_mirror": "DPP: reverse the lanes of each row", "row_half_mirror": "DPP: reverse each half row",
    "row_share": "DPP: broadcast one lane of each row", "row_xmask": "DPP: lane index xor a mask",
    "dpp8": "DPP8: any permutation within each group of eight lanes",
    "op_sel": "select the high 16-bit half of each operand (and the destination)",
    "op_sel_hi": "packed math: select halves for the high result", "neg_lo": "packed math: negate low halves",
    "neg_hi": "packed math: negate high halves", "dst_sel": "SDWA: which part of the destination is written",
    "dst_unused": "SDWA: what happens to the unwritten destination bits",
    "src0_sel": "SDWA: which byte or word of source 0 is used", "src1_sel": "SDWA: which byte or word of source 1 is used",
    "lgkmcnt": "wait until at most this many LDS/GDS/constant/message operations are outstanding",
    "vmcnt": "wait until at most this many vector memory loads are outstanding",
    "expcnt": "wait until at most this many export/GDS writes are outstanding",
    "vscnt": "wait until at most this many vector memory stores are outstanding",
    "instid0": "s_delay_alu: dependency of the next instruction", "instid1": "s_delay_alu: a second dependency",
    "instskip": "s_delay_alu: how many instructions to skip before instid1 applies",
    "format": "buffer data and number format", "dmask": "image: which components are read or written",
    "dim": "image dimensionality", "unorm": "image coordinates are unnormalised",
    "a16": "16-bit image addresses", "d16": "16-bit image data", "r128": "128-bit resource descriptor",
    "sext": "SDWA: sign-extend the selected source", "abs": "absolute value of the source", "neg": "negate the source",
    "wave64": "wave64 syntax", "sendmsg": "s_sendmsg message", "hwreg": "hardware register selector",
}
PTX_SPECIAL = {
    "%tid": "thread index within the CTA (.x/.y/.z)", "%ntid": "CTA size in threads (.x/.y/.z)",
    "%ctaid": "CTA index within the grid (.x/.y/.z)", "%nctaid": "grid size in CTAs (.x/.y/.z)",
    "%laneid": "lane index within the warp", "%warpid": "warp index within the CTA (may change)",
    "%nwarpid": "number of warp slots", "%smid": "index of the multiprocessor", "%nsmid": "number of multiprocessors",
    "%gridid": "grid identifier", "%clock": "32-bit cycle counter", "%clock64": "64-bit cycle counter",
    "%globaltimer": "64-bit nanosecond timer", "%lanemask_eq": "mask of this lane",
    "%lanemask_lt": "mask of lanes below this one", "%lanemask_le": "mask of lanes up to this one",
    "%lanemask_gt": "mask of lanes above this one", "%lanemask_ge": "mask of lanes from this one up",
    "%clusterid": "cluster index within the grid", "%cluster_ctaid": "CTA index within the cluster",
    "%cluster_nctaid": "cluster size in CTAs", "%dynamic_smem_size": "dynamic shared memory size in bytes",
    "%total_smem_size": "shared memory size of the CTA in bytes",
}
PTX_MODIFIERS = {
    ".global": "state space: global memory", ".shared": "state space: shared memory of the CTA (or cluster)",
    ".local": "state space: per-thread local memory", ".param": "state space: kernel or function parameters",
    ".const": "state space: constant memory", ".tex": "state space: texture (deprecated)",
    ".nc": "through the non-coherent (read-only) cache", ".volatile": "volatile access, not reordered",
    ".relaxed": "relaxed memory ordering", ".acquire": "acquire memory ordering", ".release": "release memory ordering",
    ".acq_rel": "acquire-release memory ordering", ".weak": "weak (non-synchronising) access",
    ".cta": "scope: the CTA", ".cluster": "scope: the cluster", ".gpu": "scope: the GPU", ".sys": "scope: the system",
    ".rn": "round to nearest even", ".rz": "round toward zero", ".rm": "round toward minus infinity",
    ".rp": "round toward plus infinity", ".rni": "round to nearest even integer", ".rzi": "round toward zero integer",
    ".sat": "saturate the result", ".ftz": "flush subnormals to zero", ".approx": "fast approximation",
    ".full": "full-range approximation", ".wide": "result twice as wide as the sources", ".hi": "high half of the product",
    ".lo": "low half of the product", ".uni": "the branch is uniform across the warp", ".sync": "the warp synchronises",
    ".aligned": "every thread of the warp executes the same instruction", ".v2": "vector of two elements",
    ".v4": "vector of four elements", ".v8": "vector of eight elements", ".cc": "writes the carry flag",
    ".ca": "cache at all levels", ".cg": "cache in L2, not L1", ".cs": "streaming: evict first", ".lu": "last use",
    ".cv": "do not cache: fetch again", ".wb": "write back", ".wt": "write through",
}
_TYPES = {"b": "untyped bits", "u": "unsigned integer", "s": "signed integer", "f": "floating point"}
for _t in ("b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f16", "f32", "f64"):
    PTX_MODIFIERS.setdefault(f".{_t}", f"type: {_t[1:]}-bit {_TYPES[_t[0]]}")
PTX_MODIFIERS.update({".f16x2": "type: two packed 16-bit floats", ".bf16": "type: 16-bit bfloat",
                      ".bf16x2": "type: two packed 16-bit bfloats", ".tf32": "type: TensorFloat-32 (in 32 bits)",
                      ".e4m3": "type: 8-bit float, 4 exponent and 3 mantissa bits",
                      ".e5m2": "type: 8-bit float, 5 exponent and 2 mantissa bits", ".pred": "type: predicate"})
for _c in ("eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu",
           "num", "nan"):
    PTX_MODIFIERS.setdefault(f".{_c}", f"comparison .{_c}")

AMD_REG_RE = re.compile(r"^(v|s|a|ttmp)(\d+|\[(\d+):(\d+)\])$")


def amd_register(word: str) -> str | None:
    w = word.lower()
    if w in AMD_REGISTERS:
        return f"`{word}`: {AMD_REGISTERS[w]}"
    m = AMD_REG_RE.match(w)
    if not m:
        return None
    what = AMD_REG_PREFIX[m.group(1)]
    if m.group(3) is not None:
        lo, hi = int(m.group(3)), int(m.group(4))
        return f"`{word}`: {hi - lo + 1} consecutive {what.split(' (')[0]}s {m.group(1)}{lo}..{m.group(1)}{hi} ({32 * (hi - lo + 1)} bits)"
    return f"`{word}`: {what}"


def amd_modifier(word: str) -> str | None:
    key = re.split(r"[:(]", word.lower(), maxsplit=1)[0]
    if key in AMD_MODIFIERS:
        return f"`{word}`: {AMD_MODIFIERS[key]}"
    return None
