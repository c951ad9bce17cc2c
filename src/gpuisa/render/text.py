"""Plain-text rendering of the typed instruction page (``page.model``; used when stdout is not a terminal)."""

from __future__ import annotations

from .. import archs
from ..page.codec import from_json, to_json
from ..page.model import SECTIONS, Encoding, InstructionPage, Operand, Source
from ..sources.derive import CATEGORY_TITLES


def table(headers: list[str], rows: list[list[str]]) -> list[str]:
    cols = [headers] + rows
    widths = [max(len(str(r[i])) for r in cols) for i in range(len(headers))]
    out = ["  ".join(str(h).ljust(w) for h, w in zip(headers, widths)).rstrip()]
    out.append("  ".join("-" * w for w in widths))
    for r in rows:
        out.append("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
    return out


def category_text(cat: str) -> str:
    title = CATEGORY_TITLES.get(cat)
    return f"{cat} ({title})" if title else cat


def as_page(page: InstructionPage | dict) -> InstructionPage:
    """The typed page (a page's JSON, ``gpuisa show --json``, is read back into it)."""
    return page if isinstance(page, InstructionPage) else from_json(InstructionPage, page)


def isa_kind_text(page: InstructionPage) -> str:
    kind = "GPU Native ISA" if page.isa_kind == "native" else "GPU Virtual ISA"
    return f"{kind}, {page.vendor}"


def operand_rows(operands: list[Operand]) -> list[list[str]]:
    rows = []
    for o in operands:
        note = ("inferred" if o.inferred else "") + (("; " if o.inferred and o.note else "") + o.note if o.note else "")
        rows.append([o.name, o.role, o.kind or "?", o.format or "?", str(o.size or "?"), "implicit" if o.implicit else "",
                     note])
    return rows


def field_rows(enc: Encoding) -> list[list[str]]:
    rows = []
    for f in enc.fields:
        bits = ", ".join(f"{h}:{lo}" if h != lo else str(h) for h, lo in (f.ranges or [[f.hi, f.lo]]))
        rows.append([f.name, bits, f.bits or ""])
    return rows


def generation_rows(page: InstructionPage) -> list[list[str]]:
    rows = []
    for a in archs.generation_order(list(page.generations)):
        g = page.generations[a]
        title = archs.by_name(a).title + (" *" if a == page.arch else "")
        if g is None:
            rows.append([title, "-", "-", "absent"])
        else:
            rows.append([title, g.encoding, str(g.opcode), "same" if g.layout_same else "differs"])
    return rows


# Sections a page may have after its common part (``page.model.SECTIONS``); each is drawn by a module
# gpuisa.render.section_<key> with text_lines(page) -> list[str] and print_rich(page, console), which
# read the typed page (``page.model.InstructionPage``).
OPTIONAL_SECTIONS = SECTIONS


def section_module(key: str):
    from ..features import optional_module

    return optional_module(f"gpuisa.render.section_{key}")


def optional_sections_text(page: InstructionPage) -> list[str]:
    out: list[str] = []
    for key in OPTIONAL_SECTIONS:
        if getattr(page, key):
            mod = section_module(key)
            out += [""] + (mod.text_lines(page) if mod else [f"{key.capitalize()}:", f"  {to_json(getattr(page, key))}"])
    return out


def render_page(page: InstructionPage | dict) -> str:
    page = as_page(page)
    out = [f"{page.name}  ({isa_kind_text(page)}; {page.arch_title}; {category_text(page.category)})", ""]
    out.append(page.summary)
    if page.description:
        out += ["", f"Description ({page.description_source or 'vendor text'}):", page.description]
    if page.isa_kind == "virtual":
        return "\n".join(out + optional_sections_text(page) + ["", "Sources:"]
                         + [f"  - {source_label(s)}" for s in page.sources])
    if page.flags:
        out += ["", "Flags: " + flags_text(page.flags)]
    if page.subgroup:
        out += [f"Functional subgroup: {page.subgroup}"]
    for enc in page.encodings:
        out += [""] + encoding_lines(enc)
    out += ["", "Operands:"]
    out += ["  " + line for line in table(OPERAND_HEADERS, operand_rows(page.operands))]
    out += ["", "Targets: " + ", ".join(page.targets)]
    out += ["", "Across generations:"]
    out += ["  " + line for line in table(["arch", "encoding", "opcode", "layout"], generation_rows(page))]
    if page.generation_summary:
        out.append("  " + page.generation_summary)
    out += optional_sections_text(page)
    out += ["", "Sources:"]
    out += [f"  - {source_label(s)}" for s in page.sources]
    return "\n".join(out)


OPERAND_HEADERS = ["operand", "role", "kind", "format", "size", "", "note"]


def encoding_title(enc: Encoding) -> str:
    if enc.width is None:
        return (f"Encoding {enc.name} [{enc.condition}] opcode {enc.opcode}: "
                "a variant whose layout the loaded sources do not define")
    return (f"Encoding {enc.name} ({enc.width} bits) opcode {enc.opcode} identifier {enc.identifier}"
            + (f" [{enc.condition}]" if enc.condition != "default" else ""))


def encoding_lines(enc: Encoding) -> list[str]:
    out = [encoding_title(enc)]
    if enc.width is None:
        return out
    out += ["  " + line for line in table(["field", "bits", "fixed"], field_rows(enc))]
    if enc.syntax:
        out.append(f"  LLVM syntax: {enc.syntax}")
    return out


FLAG_NAMES = {"IsBranch": "branch", "IsConditionalBranch": "conditional branch", "IsIndirectBranch": "indirect branch",
              "IsProgramTerminator": "program terminator", "IsImmediatelyExecuted": "immediately executed"}


def flags_text(flags: dict) -> str:
    on = [FLAG_NAMES.get(k, k) for k, v in flags.items() if v]
    return ", ".join(on) if on else "none (" + ", ".join(FLAG_NAMES.get(k, k) for k in flags) + ": no)"


def source_label(s: Source) -> str:
    text = s.source + (f" {s.version}" if s.version else "")
    if s.inferred:
        text += " (inferred)"
    if s.note:
        text += f": {s.note}"
    return text
