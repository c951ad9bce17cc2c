"""Adapter: AMD machine-readable-ISA tables as shipped in the pinned tinygrad wheel.

tinygrad 0.14.0 carries Python tables generated from AMD's XML for RDNA3.5
(folder ``rdna3``), RDNA4 (``rdna4``) and CDNA4 (``cdna``): encodings with bit
fields (``ins.py``), opcodes (``enum.py``) and per-operand data format, size and
kind (``operands.py``).  We read those files as *data*: they are parsed with
``ast`` and never imported or executed, so no tinygrad code runs and none is
copied into this project.

Normalisation back to AMD's spelling:
- field names are upper-cased; tinygrad's ``clmp`` is AMD's ``CLAMP``, its
  ``opsel`` AMD's ``OP_SEL``, and its ``opsel_hi``/``opsel_hi2`` pair AMD's
  single two-range ``OP_SEL_HI``.
- opcode names lose the ``_E32``/``_E64`` suffixes tinygrad uses for CDNA.
- tinygrad's VOP3-family operand tables name the first source ``vsrc0`` with
  kind OPR_VGPR (merged in from the DPP variant).  AMD's native encoding lists
  it as ``SRC0`` with the encoding's source kind; :func:`native_operand_fix`
  restores that and records the correction in the operand's provenance note.
"""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass
from pathlib import Path

from ..model import Encoding, Field, Provenance

TINYGRAD_VERSION = "0.14.0"
SOURCE_NAME = "tinygrad AMD MR-ISA tables"

# tinygrad folder -> our architecture key
FOLDER_ARCH = {"rdna3": "rdna3.5", "rdna4": "rdna4", "cdna": "cdna4"}

# Subclasses that are encoding *variants* (literal, DPP, SDWA); issue 2 keeps base encodings.
VARIANT_SUFFIXES = ("_LIT", "_DPP16", "_DPP8", "_SDWA", "_SDWA_SDST")
# tinygrad's VOP1_SDST/VOP3_SDST only retype VDST as an SGPR (v_readfirstlane_b32, VOP3 compares):
# AMD lists those opcodes under ENC_VOP1/ENC_VOP3 (see the shared XML fixtures), so they fold into the base.
FOLDED_SUFFIXES = ("_SDST",)
# AMD's encoding names where tinygrad's differ (CDNA3 XML: VOP3B-style form is VOP3_SDST_ENC).
ENCODING_RENAME = {"cdna": {"VOP3SD": "VOP3_SDST_ENC"}}

# AMD spells these OP_SEL / OP_SEL_HI in its XML (see the shared fixtures); tinygrad: opsel / opsel_hi.
FIELD_RENAME = {"clmp": "CLAMP", "opsel": "OP_SEL", "opsel_hi": "OP_SEL_HI", "opsel_hi2": "OP_SEL_HI2"}


def provenance(folder: str, note: str = "", inferred: bool = False) -> Provenance:
    return Provenance(SOURCE_NAME, f"tinygrad=={TINYGRAD_VERSION} ({folder})", note, inferred)


def autogen_dir() -> Path:
    """Folder of the installed wheel's AMD tables.

    Found with ``find_spec`` (which does not run tinygrad) and checked against the wheel's
    ``.dist-info`` folder name; ``importlib.metadata`` would cost ~90 ms at every start.
    """
    spec = importlib.util.find_spec("tinygrad")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the tinygrad wheel is not installed; pip install tinygrad==" + TINYGRAD_VERSION)
    pkg = Path(list(spec.submodule_search_locations)[0])
    infos = sorted(pkg.parent.glob("tinygrad-*.dist-info"))
    versions = [i.name[len("tinygrad-"):-len(".dist-info")] for i in infos]
    if TINYGRAD_VERSION not in versions:
        raise RuntimeError(f"tinygrad {', '.join(versions) or '?'} is installed; gpuisa's tables are pinned to {TINYGRAD_VERSION}")
    return pkg / "runtime" / "autogen" / "amd"


def _const(node: ast.AST):
    return ast.literal_eval(node)


@dataclass
class TinygradEncoding:
    name: str
    base: str | None  # parent class for refinements (VOP3_SDST -> VOP3)
    encoding: Encoding
    op_class: str | None  # VOP3Op
    ops: set[str] | None  # opcode names admitted (None: all of op_class)


@dataclass
class TinygradArch:
    folder: str
    encodings: dict[str, TinygradEncoding]
    opcodes: dict[str, dict[str, int]]  # op class -> canonical name -> opcode
    operands: dict[tuple[str, str], dict[str, tuple[str, int, str]]]  # (op class, name) -> field -> (fmt, size, kind)


def _canonical(name: str) -> str:
    for suf in ("_E32", "_E64"):
        if name.endswith(suf):
            return name[: -len(suf)]
    return name


def parse_enums(path: Path) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, str]]]:
    """Enum classes -> {name: value}, plus alias maps {alias: target}."""
    tree = ast.parse(path.read_text())
    values: dict[str, dict[str, int]] = {}
    aliases: dict[str, dict[str, str]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        vals: dict[str, int] = {}
        al: dict[str, str] = {}
        for stmt in node.body:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
                key = stmt.targets[0].id
                if isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, int):
                    vals[key] = stmt.value.value
                elif isinstance(stmt.value, ast.Name):
                    al[key] = stmt.value.id
        values[node.name] = vals
        aliases[node.name] = al
    return values, aliases


def _canonical_opcodes(values: dict[str, int], aliases: dict[str, str]) -> dict[str, int]:
    """Name -> opcode, preferring the suffix-free spelling (V_CNDMASK_B32 over _E64)."""
    out: dict[str, int] = {}
    for name, value in values.items():
        out[_canonical(name)] = value
    for alias, target in aliases.items():
        if target in values:
            out[_canonical(alias)] = values[target]
    return out


def _field_from_call(attr: str, call: ast.Call) -> tuple[str, tuple[int, int], int | None, str | None, set[str] | None]:
    fn = call.func.id if isinstance(call.func, ast.Name) else ""
    hi, lo = _const(call.args[0]), _const(call.args[1])
    fixed = None
    op_class = None
    ops = None
    if fn == "FixedBitField":
        fixed = _const(call.args[2])
    elif fn == "EnumBitField":
        op_class = _name(call.args[2])
        if len(call.args) > 3 and isinstance(call.args[3], ast.Set):
            ops = {_attr(e) for e in call.args[3].elts}
    name = FIELD_RENAME.get(attr, attr.upper())
    return name, (hi, lo), fixed, op_class, ops


def parse_ins(path: Path, folder: str) -> dict[str, TinygradEncoding]:
    tree = ast.parse(path.read_text())
    raw: dict[str, tuple[str | None, list[tuple[str, tuple[int, int], int | None]], str | None, set[str] | None]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        base = node.bases[0].id if node.bases and isinstance(node.bases[0], ast.Name) else None
        base = None if base == "Inst" else base
        fields = []
        op_class, ops = None, None
        for stmt in node.body:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and isinstance(stmt.targets[0], ast.Name):
                name, rng, fixed, oc, o = _field_from_call(stmt.targets[0].id, stmt.value)
                if oc:
                    op_class, ops = oc, o
                fields.append((name, rng, fixed))
        raw[node.name] = (base, fields, op_class, ops)

    # folded refinements hand their opcodes to the base encoding
    for cls, (base, _fields, _op_class, ops) in raw.items():
        if base and cls.endswith(FOLDED_SUFFIXES) and ops:
            base_ops = raw[base][3]
            if base_ops is not None:
                base_ops.update(ops)
    out: dict[str, TinygradEncoding] = {}
    rename = ENCODING_RENAME.get(folder, {})
    for cls, (base, fields, op_class, ops) in raw.items():  # (fields and op_class are this class's own)
        if any(cls.endswith(s) for s in VARIANT_SUFFIXES + FOLDED_SUFFIXES):
            continue
        merged: dict[str, tuple[tuple[int, int], int | None]] = {}
        if base:
            bfields = raw[base][1]
            for n, r, v in bfields:
                merged[n] = (r, v)
            op_class = op_class or raw[base][2]
        for n, r, v in fields:
            merged[n] = (r, v)
        # Refinements (e.g. VOP3P_MFMA) re-use bits the base names differently: drop overlapped base fields.
        if base:
            own = {n for n, _, _ in fields}
            own_bits = set()
            for n in own:
                (hi, lo), _ = merged[n]
                own_bits |= set(range(lo, hi + 1))
            for n in list(merged):
                if n in own:
                    continue
                (hi, lo), _ = merged[n]
                if own_bits & set(range(lo, hi + 1)):
                    del merged[n]
        name = rename.get(cls, cls)
        out[name] = TinygradEncoding(name, base, _build_encoding(name, merged, folder), op_class, ops)
    return out


def _build_encoding(name: str, merged: dict[str, tuple[tuple[int, int], int | None]], folder: str) -> Encoding:
    fields: list[Field] = []
    hi2 = merged.pop("OP_SEL_HI2", None)
    for fname, ((hi, lo), value) in merged.items():
        ranges: tuple[tuple[int, int], ...] = ((hi, lo),)
        if fname == "OP_SEL_HI" and hi2 is not None:
            ranges = (hi2[0], (hi, lo))  # bit 14 is OP_SEL_HI[2], 60:59 are OP_SEL_HI[1:0]
        fields.append(Field(fname, ranges, value))
    width = max(f.hi for f in fields) + 1
    width = 32 if width <= 32 else 64 if width <= 64 else 96 if width <= 96 else 128
    op_field = "OP" if any(f.name == "OP" for f in fields) else ("OPX" if any(f.name == "OPX" for f in fields) else None)
    enc = Encoding(name, width, tuple(fields), op_field, provenance(folder))
    return Encoding(name, width, tuple(enc.sorted_fields()), op_field, enc.provenance)


def _name(node: ast.expr | None) -> str:
    """The identifier of a plain name in tinygrad's tables."""
    if not isinstance(node, ast.Name):
        raise ValueError(f"tinygrad's tables have a name of another shape: {ast.dump(node) if node else None}")
    return node.id


def _attr(node: ast.expr) -> str:
    """The attribute of an ``A.B`` expression in tinygrad's tables."""
    if not isinstance(node, ast.Attribute):
        raise ValueError(f"tinygrad's tables have a member of another shape: {ast.dump(node)}")
    return node.attr


def _dotted(node: ast.expr | None) -> tuple[str, str]:
    """(``A``, ``B``) of an ``A.B`` key of tinygrad's operand table."""
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
        raise ValueError(f"tinygrad's operand table has a key of another shape: {ast.dump(node) if node else None}")
    return node.value.id, node.attr


def parse_operands(path: Path) -> dict[tuple[str, str], dict[str, tuple[str, int, str]]]:
    tree = ast.parse(path.read_text())
    out: dict[tuple[str, str], dict[str, tuple[str, int, str]]] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else None
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict) and isinstance(target, ast.Name) \
                and target.id == "OPERANDS":
            for k, v in zip(node.value.keys, node.value.values):
                cls_name, member = _dotted(k)
                key = (cls_name, _canonical(member))
                if not isinstance(v, ast.Dict):
                    raise ValueError(f"tinygrad's operand table has a value of another shape: {ast.dump(v)}")
                fields = {}
                for fk, fv in zip(v.keys, v.values):
                    if not (isinstance(fk, ast.Constant) and isinstance(fk.value, str) and isinstance(fv, ast.Tuple)):
                        raise ValueError(f"tinygrad's operand table has an entry of another shape: {ast.dump(fv)}")
                    fmt, size, kind = fv.elts
                    fields[fk.value] = (_attr(fmt), _const(size), _attr(kind))
                out[key] = fields
    return out


def load_arch(folder: str, root: Path | None = None) -> TinygradArch:
    root = root or autogen_dir()
    values, aliases = parse_enums(root / folder / "enum.py")
    opcodes = {cls: _canonical_opcodes(values[cls], aliases.get(cls, {})) for cls in values}
    encodings = parse_ins(root / folder / "ins.py", folder)
    operands = parse_operands(root / folder / "operands.py")
    # tinygrad's per-encoding op sets name enum members; map them to canonical names
    for te in encodings.values():
        if te.ops is not None:
            te.ops = {_canonical(o) for o in te.ops} | {
                _canonical(a) for a, t in aliases.get(te.op_class or "", {}).items() if t in te.ops
            }
    return TinygradArch(folder, encodings, opcodes, operands)


def encoding_for(arch: TinygradArch, op_class: str, name: str) -> TinygradEncoding | None:
    """The most specific encoding class admitting this opcode (refinement over base)."""
    best = None
    for te in arch.encodings.values():
        if te.op_class != op_class:
            continue
        if te.ops is not None and name not in te.ops:
            continue
        if best is None or (te.base is not None and best.base is None):
            best = te
    return best


def native_operand_fix(enc_name: str, field: str, kind: str, other_src_kind: str | None) -> tuple[str, str, str]:
    """Undo the DPP merge in tinygrad's VOP3-family tables: (v)src0/OPR_VGPR -> SRC0/source kind.

    AMD's native VOP3 encodings take any source in SRC0 (OPR_SRC on RDNA); the VGPR-only
    kind belongs to the DPP variants, whose VSRC0 tinygrad merged into the native row.
    """
    if field in ("vsrc0", "src0") and kind == "OPR_VGPR" and enc_name.startswith("VOP3"):
        kind_used = other_src_kind if other_src_kind and other_src_kind.startswith("OPR_SRC") else "OPR_SRC"
        return "SRC0", kind_used, f"tinygrad lists {field}/OPR_VGPR (DPP variant); native SRC0 kind used"
    if field == "vsrc0" and enc_name.startswith("VOP3"):
        return "SRC0", kind, ""  # the native encoding's field is SRC0
    return field.upper(), kind, ""
