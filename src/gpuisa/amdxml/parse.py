"""Streaming, hardened reader of AMD's machine-readable ISA XML (MR-ISA).

Parsing uses ``defusedxml``'s ``iterparse`` (no DTDs, no entity expansion, no
external entities) and clears each record (encoding, instruction, data format,
operand type, functional group) as soon as it has been turned into plain
Python data, so memory stays bounded for the 11-17 MB files.

The real files differ from AMD's schema document (see ../shared/README.md):
the condition tree is spelled ``CondtionExpression``; operand types may be
partitioned (``MicrocodeFormat`` with ``FieldPredefinedValues``); functional
subgroups are a separate top-level list.  Elements this reader does not know
are kept raw (tag, attributes, text) and reported once per tag.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import IO, Any, Callable

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from ..errors import UserError, echo

MAX_XML_BYTES = 256 * 1024 * 1024  # the largest real file is ~17 MB
# Bounds that keep memory under ~500 MB whatever the input (AMD's real files, for scale: nesting 13,
# largest record ~120 kB (an operand type), longest text ~1 kB, ~300 000 elements, ~1 800 instructions).
MAX_DEPTH = 24
MAX_RECORD_BYTES = 4 * 1024 * 1024  # bytes read while one record (or any not yet cleared element) is open
MAX_TEXT = 256 * 1024  # one text node or attribute value
MAX_ELEMENTS = 1_500_000
MAX_TOTAL_TEXT = 64 * 1024 * 1024  # characters of text in the whole file (real: ~5 M)
MAX_RECORDS = {"encoding": 2_000, "instruction": 10_000, "data_format": 2_000, "operand_type": 2_000,
               "functional_group": 2_000, "functional_subgroup": 2_000}
RADIXES = (2, 8, 10, 16)


class XmlImportError(UserError):
    """A file that cannot be imported: one line naming the file (and line) and why."""


class _Bad(ValueError):
    """A value inside a record that is not what the schema allows (turned into XmlImportError)."""


def _num(text: str | None, what: str, radix: str | int | None = 10, default: int | None = None) -> int:
    """An integer of the XML (``what`` names it in the error); a bad radix or digit is a _Bad."""
    if text is None or not text.strip():
        if default is None:
            raise _Bad(f"{what} is empty")
        return default
    try:
        base = int(radix) if radix is not None else 10
    except ValueError:
        raise _Bad(f"{what} has Radix={echo(radix, 30)} (allowed: 2, 8, 10, 16)") from None
    if base not in RADIXES:
        raise _Bad(f"{what} has Radix={echo(radix, 30)} (allowed: 2, 8, 10, 16)")
    try:
        value = int(text.strip(), base)
    except ValueError:
        raise _Bad(f"{what} {echo(text.strip(), 40)} is not a base-{base} number") from None
    if value.bit_length() > 1024:
        raise _Bad(f"{what} {echo(text.strip(), 40)} is out of range")
    return value


@dataclass
class XmlIsa:
    """Everything one architecture's XML holds, as plain data."""

    document: dict = field(default_factory=dict)
    architecture: dict = field(default_factory=dict)
    encodings: list[dict] = field(default_factory=list)
    instructions: list[dict] = field(default_factory=list)
    data_formats: list[dict] = field(default_factory=list)
    operand_types: list[dict] = field(default_factory=list)
    functional_groups: list[dict] = field(default_factory=list)
    functional_subgroups: list[dict] = field(default_factory=list)
    unknown: dict[str, dict] = field(default_factory=dict)  # tag -> first raw occurrence
    sha256: str = ""  # of the bytes parsed


def _text(el: ET.Element | None, tag: str, default: str | None = None) -> str | None:
    if el is None:
        return default
    child = el.find(tag)
    return child.text.strip() if child is not None and child.text is not None else default


def _bool(text: str | None) -> bool:
    return (text or "").strip().upper() == "TRUE"


def _raw(el: ET.Element) -> dict:
    return {"tag": el.tag, "attrib": dict(el.attrib), "text": (el.text or "").strip()[:200],
            "children": [c.tag for c in el][:20]}


class _Reader:
    def __init__(self) -> None:
        self.isa = XmlIsa()

    def note_unknown(self, parent: str, el: ET.Element) -> None:
        key = f"{parent}/{el.tag}"
        if key not in self.isa.unknown:
            self.isa.unknown[key] = _raw(el)

    def check_children(self, el: ET.Element, known: set[str], where: str) -> None:
        for c in el:
            if c.tag not in known:
                self.note_unknown(where, c)

    # --- records -----------------------------------------------------------
    def document(self, el: ET.Element) -> None:
        self.isa.document = {c.tag: (c.text or "").strip() for c in el}

    def architecture(self, el: ET.Element) -> None:
        self.isa.architecture = {"name": _text(el, "ArchitectureName"), "id": _text(el, "ArchitectureId")}
        self.check_children(el, {"ArchitectureName", "ArchitectureId"}, "Architecture")

    def bit_layout(self, fld: ET.Element) -> tuple[list[tuple[int, int]], list[dict]]:
        ranges: list[tuple[int, int]] = []
        padding: list[dict[str, Any]] = []
        layout = fld.find("BitLayout")
        if layout is None:
            return ranges, padding
        keyed = [(_num(r.get("Order"), "Range Order", default=0), r) for r in layout.findall("Range")]
        for order, r in sorted(keyed, key=lambda t: t[0], reverse=True):
            lo, n = _num(_text(r, "BitOffset"), "BitOffset", default=0), _num(_text(r, "BitCount"), "BitCount", default=0)
            if lo > 4096 or n > 4096:
                raise _Bad(f"bit range {lo}+{n} is out of range")
            ranges.append((lo + n - 1, lo))
            pad = r.find("Padding")
            if pad is not None:
                padding.append({"order": order, "bits": _num(_text(pad, "BitCount"), "Padding BitCount", default=0),
                                "value": _text(pad, "Value")})
        return ranges, padding

    def encoding(self, el: ET.Element) -> None:
        fields = []
        for fld in el.iter("Field"):
            ranges, padding = self.bit_layout(fld)
            fields.append({"name": _text(fld, "FieldName"), "ranges": ranges, "padding": padding,
                           "conditional": _bool(fld.get("IsConditional")), "description": _text(fld, "Description")})
        conditions = []
        for cond in el.iter("EncodingCondition"):
            expr = cond.find("CondtionExpression")
            if expr is None:
                expr = cond.find("ConditionExpression")
            tree = condition_tree(expr[0]) if expr is not None and len(expr) else None
            conditions.append({"name": _text(cond, "ConditionName"), "tree": tree})
        mask = el.find("EncodingIdentifierMask")
        self.isa.encodings.append({
            "name": _text(el, "EncodingName"),
            "order": _num(el.get("Order"), "Encoding Order", default=0),
            "width": _num(_text(el, "BitCount"), "Encoding BitCount", default=0),
            "mask": _num(mask.text, "EncodingIdentifierMask", mask.get("Radix", "2"), 0) if mask is not None else 0,
            "identifiers": [_num(i.text, "EncodingIdentifier", i.get("Radix", "2"))
                            for i in el.iter("EncodingIdentifier") if i.text and i.text.strip()],
            "conditions": conditions,
            "description": _text(el, "Description"),
            "fields": fields,
        })
        self.check_children(el, {"EncodingName", "BitCount", "EncodingIdentifierMask", "EncodingIdentifiers",
                                 "EncodingConditions", "Description", "MicrocodeFormat"}, "Encoding")

    def instruction(self, el: ET.Element) -> None:
        flags_el = el.find("InstructionFlags")
        flags = {c.tag: _bool(c.text) for c in flags_el} if flags_el is not None else {}
        encodings = []
        for ie in el.iter("InstructionEncoding"):
            opcode_el = ie.find("Opcode")
            opcode = (_num(opcode_el.text, "Opcode", opcode_el.get("Radix", "10"))
                      if opcode_el is not None and opcode_el.text and opcode_el.text.strip() else None)
            operands: list[dict[str, Any]] = []
            for op in ie.iter("Operand"):
                operands.append({
                    "input": op.get("Input") == "true", "output": op.get("Output") == "true",
                    "implicit_attr": op.get("IsImplicit") == "true",
                    "microcode_required": op.get("IsBinaryMicrocodeRequired", "true") == "true",
                    "order": _num(op.get("Order"), "Operand Order", default=0),
                    "field": _text(op, "FieldName"), "format": _text(op, "DataFormatName"),
                    "kind": _text(op, "OperandType"), "size": _num(_text(op, "OperandSize"), "OperandSize", default=0),
                })
            encodings.append({"encoding": _text(ie, "EncodingName"), "condition": _text(ie, "EncodingCondition", "default"),
                              "opcode": opcode, "operands": sorted(operands, key=lambda o: o["order"])})
        group = el.find("FunctionalGroup")
        aliases = [a.text.strip() for a in el.iter("AliasedInstructionName") if a.text]
        self.isa.instructions.append({
            "name": _text(el, "InstructionName"),
            "description": _text(el, "Description"),
            "flags": flags,
            "encodings": encodings,
            "group": _text(group, "Name") if group is not None else None,
            "subgroups": [s.text.strip() for s in group.iter("Subgroup") if s.text] if group is not None else [],
            "aliases": aliases,
        })
        self.check_children(el, {"InstructionFlags", "InstructionName", "Description", "InstructionEncodings",
                                 "FunctionalGroup", "AliasedInstructionNames"}, "Instruction")

    def data_format(self, el: ET.Element) -> None:
        fields = []
        for bm in el.iter("BitMap"):
            for fld in bm.findall("Field"):
                ranges, _ = self.bit_layout(fld)
                fields.append({"component": _num(bm.get("Order"), "BitMap Order", default=0), "name": _text(fld, "FieldName"),
                               "signedness": fld.get("Signedness"), "ranges": ranges})
        self.isa.data_formats.append({
            "name": _text(el, "DataFormatName"), "description": _text(el, "Description"),
            "data_type": _text(el, "DataType"), "bits": _num(_text(el, "BitCount"), "DataFormat BitCount", default=0),
            "components": _num(_text(el, "ComponentCount"), "ComponentCount", default=0), "fields": fields,
        })
        self.check_children(el, {"DataFormatName", "Description", "DataType", "BitCount", "ComponentCount",
                                 "DataAttributes"}, "DataFormat")

    def operand_type(self, el: ET.Element) -> None:
        values = []
        for pv in el.iter("PredefinedValue"):
            values.append({"name": _text(pv, "Name"), "value": _int(_text(pv, "Value")),
                           "description": _text(pv, "Description")})
        micro = []
        mf = el.find("MicrocodeFormat")
        if mf is not None:
            for fld in mf.iter("Field"):
                ranges, _ = self.bit_layout(fld)
                micro.append({"name": _text(fld, "FieldName"), "ranges": ranges,
                              "values": [{"name": _text(v, "Name"), "value": _int(_text(v, "Value"))}
                                         for v in fld.iter("FieldPredefinedValue")]})
        self.isa.operand_types.append({
            "name": _text(el, "OperandTypeName"), "description": _text(el, "Description"),
            "partitioned": el.get("IsPartitioned") == "true",
            "subtypes": [s.text.strip() for s in el.iter("Subtype") if s.text],
            "values": values, "microcode": micro,
        })
        self.check_children(el, {"OperandTypeName", "Description", "Subtypes", "OperandPredefinedValues",
                                 "MicrocodeFormat"}, "OperandType")

    def functional_group(self, el: ET.Element) -> None:
        self.isa.functional_groups.append({"name": _text(el, "Name"), "description": _text(el, "Description")})

    def functional_subgroup(self, el: ET.Element) -> None:
        self.isa.functional_subgroups.append({"name": _text(el, "Name"), "description": _text(el, "Description")})


def _int(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return int(text, 0)
    except ValueError:
        try:
            return int(text)
        except ValueError:
            return None


def condition_tree(el: ET.Element) -> list:
    """An encoding condition as nested lists: ["op", type, args...] / ["id", v] / ["lit", v] / ["ty", ...]."""
    if el.tag == "op":
        return ["op", el.get("type")] + [condition_tree(c) for c in el if c.tag != "ty"]
    if el.tag == "id":
        return ["id", el.get("val")]
    if el.tag == "lit":
        return ["lit", el.get("val")]
    return [el.tag, dict(el.attrib)]


# path of a record element -> handler name
_RECORDS = {("Spec", "Document"): "document", ("Spec", "ISA", "Architecture"): "architecture",
            ("Spec", "ISA", "Encodings", "Encoding"): "encoding",
            ("Spec", "ISA", "Instructions", "Instruction"): "instruction",
            ("Spec", "ISA", "DataFormats", "DataFormat"): "data_format",
            ("Spec", "ISA", "OperandTypes", "OperandType"): "operand_type",
            ("Spec", "ISA", "FunctionalGroups", "FunctionalGroup"): "functional_group",
            ("Spec", "ISA", "FunctionalSubgroups", "FunctionalSubgroup"): "functional_subgroup"}
_SECTIONS = {("Spec",), ("Spec", "ISA")} | {k[:-1] for k in _RECORDS}


def parse_stream(stream: IO[bytes], label: str, size: int | None = None,
                 progress: Callable[[int], None] | None = None) -> XmlIsa:
    """Parse one XML file from a binary stream; errors become one-line XmlImportError."""
    if size is not None and size > MAX_XML_BYTES:
        raise XmlImportError(f"{label}: {size} bytes is larger than the {MAX_XML_BYTES // 2**20} MiB limit for one ISA file")
    reader = _Reader()
    counted = _CountingStream(stream, MAX_XML_BYTES, label)
    try:
        _walk(reader, counted, label, progress)
    except DefusedXmlException as exc:
        raise XmlImportError(f"{label}: refused: {type(exc).__name__} ({exc}); DTDs and entities are not allowed") from None
    except ET.ParseError as exc:
        line, col = exc.position
        raise XmlImportError(f"{label}:{line}:{col}: not well-formed XML ({str(exc).split(':')[0]})") from None
    except (LookupError, UnicodeError) as exc:
        raise XmlImportError(f"{label}: cannot decode the file ({exc})") from None
    except RecursionError:
        raise XmlImportError(f"{label}: nested too deeply") from None
    if not reader.isa.document and not reader.isa.instructions:
        raise XmlImportError(f"{label}: not an AMD machine-readable ISA file (no <Document> or <Instructions>)")
    if not reader.isa.architecture.get("name"):
        raise XmlImportError(f"{label}: no <Architecture><ArchitectureName>; cannot tell which architecture it describes")
    reader.isa.sha256 = counted.hash.hexdigest()
    return reader.isa


def _walk(reader: _Reader, counted: "_CountingStream", label: str, progress) -> None:
    """The event loop: records handed to the reader and cleared; every bound of the module enforced."""
    stack: list[ET.Element] = []
    counts: dict[str, int] = {}
    elements = text_chars = 0
    last = 0
    for event, el in iterparse(counted, events=("start", "end"), forbid_dtd=True):
        if event == "start":
            stack.append(el)
            elements += 1
            if len(stack) > MAX_DEPTH:
                raise XmlImportError(f"{label}: <{_tag(el)}> is nested {len(stack)} deep; AMD's schema nests at most "
                                     f"{MAX_DEPTH} (refused)")
            if elements > MAX_ELEMENTS:
                raise XmlImportError(f"{label}: more than {MAX_ELEMENTS} XML elements; real ISA files have about "
                                     f"300000 (refused)")
            if len(el.attrib) > 64 or any(len(v) > MAX_TEXT for v in el.attrib.values()):
                raise XmlImportError(f"{label}: <{_tag(el)}> has attributes larger than any real ISA file's (refused)")
            continue
        stack.pop()
        if el.text is not None:
            text_chars += len(el.text)
            if len(el.text) > MAX_TEXT:
                raise XmlImportError(f"{label}: the text of <{_tag(el)}> is {len(el.text)} characters; at most "
                                     f"{MAX_TEXT} are allowed (refused)")
            if text_chars > MAX_TOTAL_TEXT:
                raise XmlImportError(f"{label}: more than {MAX_TOTAL_TEXT // 2**20} M characters of text; real ISA "
                                     "files have about 5 M (refused)")
        if len(stack) > 4:
            continue  # inside a record: handled with the record
        parent_path = tuple(e.tag for e in stack)
        path = parent_path + (el.tag,)
        handler = _RECORDS.get(path)
        if handler:
            counts[handler] = counts.get(handler, 0) + 1
            if counts[handler] > MAX_RECORDS.get(handler, 1):
                raise XmlImportError(f"{label}: more than {MAX_RECORDS.get(handler, 1)} <{el.tag}> records (refused)")
            try:
                getattr(reader, handler)(el)
            except _Bad as exc:
                raise XmlImportError(f"{label}: <{el.tag}> {_record_name(el)}: {exc}") from None
            el.clear()
            counted.mark()
            if progress and counted.read_bytes - last > 256 * 1024:
                progress(counted.read_bytes - last)
                last = counted.read_bytes
        elif parent_path in _SECTIONS and path not in _SECTIONS:
            reader.note_unknown("/".join(parent_path), el)
            el.clear()
            counted.mark()
    if progress:
        progress(counted.read_bytes - last)


def _tag(el: ET.Element) -> str:
    return echo(el.tag, 40)[1:-1]


def _record_name(el: ET.Element) -> str:
    for c in el:
        if c.tag.endswith("Name") and c.text:
            return echo(c.text.strip(), 60)
    return "(unnamed)"


class _CountingStream:
    """Read-through wrapper that enforces the byte limits while streaming: the whole file, and the bytes
    read since the last record was cleared (so no single element, text or attribute can grow unbounded)."""

    def __init__(self, stream: IO[bytes], limit: int, label: str):
        import hashlib

        self.stream, self.limit, self.label, self.read_bytes = stream, limit, label, 0
        self.hash = hashlib.sha256()
        self.marked = 0

    def mark(self) -> None:
        self.marked = self.read_bytes

    def read(self, n: int = -1) -> bytes:
        data = self.stream.read(n if n and n > 0 else 1 << 16)
        self.read_bytes += len(data)
        self.hash.update(data)
        if self.read_bytes > self.limit:
            raise XmlImportError(f"{self.label}: larger than the {self.limit // 2**20} MiB limit for one ISA file")
        if self.read_bytes - self.marked > MAX_RECORD_BYTES + (1 << 16):
            raise XmlImportError(f"{self.label}: one record is larger than {MAX_RECORD_BYTES // 2**20} MiB (the largest "
                                 "real one is ~120 kB; refused)")
        return data


def parse_file(path: str | os.PathLike, progress: Callable[[int], None] | None = None) -> XmlIsa:
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        return parse_stream(f, str(path), size, progress)
