"""HTML helpers for the web reference: SVG bit-layout diagrams and value formatting.

The diagram draws an encoding as rows of 32 bits, most significant dword on top
(the same order as the field tables, which list the most significant field
first).  Each field is a box whose width is proportional to its bit count, with
its bit range above it; fixed bits (the encoding's identifying bits, and on an
instruction page the opcode) are printed as 0/1 inside the box.  Bits that no
field covers are drawn as hatched "unused" boxes.  Everything written into the
SVG goes through ``markupsafe.escape``; the output is a ``Markup`` string that
Jinja inserts as is.

Only SVG presentation attributes and CSS classes are used (no ``style=``), so
the pages work under a Content-Security-Policy without ``'unsafe-inline'``.
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

BITS_PER_ROW = 32
BIT_PX = 22
LEFT = 78  # room for the row label ("63–32")
ROW_GAP = 24
BOX_TOP = 16  # bit numbers above the box
BOX_H = 58
CAPTION_H = 26
CHAR_W = 6.7  # approx. width of one 11px monospace glyph


def _segments(field: dict) -> list[tuple[int, int]]:
    return [tuple(r) for r in field.get("ranges") or [[field["hi"], field["lo"]]]]


def _fixed_bits(field: dict, opcode_field: str | None, opcode: int | None) -> str:
    if field.get("bits"):
        return field["bits"]
    if opcode_field and field["name"] == opcode_field and opcode is not None:
        width = sum(hi - lo + 1 for hi, lo in _segments(field))
        if 0 <= opcode < (1 << width):
            return format(opcode, f"0{width}b")
    return ""


def layout_svg(fields: list[dict], width: int, title: str, caption: str, *, opcode_field: str | None = None,
               opcode: int | None = None) -> Markup:
    """An SVG diagram of an encoding's fields.

    ``fields``: the page JSON's field dicts (name, hi, lo, optional ranges/value/bits);
    ``opcode_field``/``opcode``: print the opcode's bits in that field (instruction pages).
    """
    width = max(int(width or 0), 1)
    rows = max((width + BITS_PER_ROW - 1) // BITS_PER_ROW, 1)
    row_bits = min(width, BITS_PER_ROW)
    total_w = LEFT + row_bits * BIT_PX + 2
    row_h = BOX_TOP + BOX_H + ROW_GAP
    total_h = CAPTION_H + rows * row_h
    parts: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="layout" viewBox="0 0 {total_w} {total_h}" '
        f'width="{total_w}" height="{total_h}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<text class="caption" x="0" y="16">{escape(caption)}</text>',
    ]
    covered: set[int] = set()
    groups: list[str] = []
    for f in fields:
        segs = _segments(f)
        bits = _fixed_bits(f, opcode_field, opcode)
        kind = "fixed" if f.get("bits") else ("opcode" if bits else "var")
        bits_label = ", ".join(f"{hi}:{lo}" if hi != lo else str(hi) for hi, lo in segs)
        pieces = []
        consumed = 0  # bits of the fixed value already printed (segments are MSB part first)
        for hi, lo in segs:
            for row in range(rows):
                row_top = width - 1 - row * BITS_PER_ROW
                row_low = max(row_top - BITS_PER_ROW + 1, 0)
                shi, slo = min(hi, row_top), max(lo, row_low)
                if shi < slo:
                    continue
                n = shi - slo + 1
                covered.update(range(slo, shi + 1))
                seg_bits = bits[consumed:consumed + n] if bits else ""
                consumed += n
                pieces.append(_box(f["name"], shi, slo, row, row_top, kind, seg_bits))
        groups.append(f'<g class="field {kind}" data-field="{escape(f["name"])}" data-bits="{escape(bits_label)}">'
                      f"<title>{escape(f['name'])}: bits {escape(bits_label)}"
                      + (f" = {escape(bits)}" if bits else "") + "</title>" + "".join(pieces) + "</g>")
    parts += groups
    for row in range(rows):
        row_top = width - 1 - row * BITS_PER_ROW
        row_low = max(row_top - BITS_PER_ROW + 1, 0)
        y = CAPTION_H + row * row_h
        parts.append(f'<text class="rowlabel" x="0" y="{y + BOX_TOP + BOX_H / 2 + 4:.0f}">{row_top}–{row_low}</text>')
        bit = row_top
        while bit >= row_low:  # unused runs
            if bit in covered:
                bit -= 1
                continue
            start = bit
            while bit >= row_low and bit not in covered:
                bit -= 1
            parts.append(_box("", start, bit + 1, row, row_top, "unused", ""))
    parts.append("</svg>")
    return Markup("".join(parts))


def _box(name: str, hi: int, lo: int, row: int, row_top: int, kind: str, bits: str) -> str:
    n = hi - lo + 1
    x = LEFT + (row_top - hi) * BIT_PX
    w = n * BIT_PX
    y = CAPTION_H + row * (BOX_TOP + BOX_H + ROW_GAP)
    cx = x + w / 2
    out = [f'<rect class="box {kind}" x="{x + 1}" y="{y + BOX_TOP}" width="{w - 2}" height="{BOX_H}" rx="3"/>']
    if n == 1:
        out.append(f'<text class="bitno" x="{cx:.0f}" y="{y + 11}" text-anchor="middle">{hi}</text>')
    else:
        out.append(f'<text class="bitno" x="{x + 3}" y="{y + 11}">{hi}</text>')
        out.append(f'<text class="bitno" x="{x + w - 3}" y="{y + 11}" text-anchor="end">{lo}</text>')
    if kind == "unused":
        return "".join(out)
    label = escape(name)
    mid = y + BOX_TOP + BOX_H / 2
    fits = len(name) * CHAR_W <= w - 6
    if fits:
        ty = mid - 4 if bits else mid + 4
        out.append(f'<text class="name" x="{cx:.0f}" y="{ty:.0f}" text-anchor="middle">{label}</text>')
    else:  # narrow field: the name reads bottom-to-top
        ty = mid + (0 if not bits else -2)
        out.append(f'<text class="name vertical" x="{cx + 4:.0f}" y="{ty:.0f}" text-anchor="middle" '
                   f'transform="rotate(-90 {cx + 4:.0f} {ty:.0f})">{label}</text>')
    if bits:
        if len(bits) * CHAR_W * 0.9 <= w - 4:
            out.append(f'<text class="bits" x="{cx:.0f}" y="{mid + 14:.0f}" text-anchor="middle">{escape(bits)}</text>')
        elif not fits:
            pass  # a narrow fixed field: the bits are in the tooltip and the table
        else:
            out.append(f'<text class="bits small" x="{cx:.0f}" y="{mid + 14:.0f}" text-anchor="middle" '
                       f'textLength="{w - 6}" lengthAdjust="spacingAndGlyphs">{escape(bits)}</text>')
    return "".join(out)


_FMT = re.compile(r"^FMT_(NUM|ANY)_([A-Z]+)(\d+)$")
_FMT_KINDS = {"U": "unsigned integer", "I": "signed integer", "F": "IEEE floating point",
              "B": "untyped bits", "BF": "bfloat (8-bit exponent) floating point", "PK2_U": "two packed unsigned",
              "PK2_I": "two packed signed", "PK2_F": "two packed floating point"}


def format_note(fmt: str) -> str:
    """A short description of a data-format name, in our words, from its spelling (FMT_NUM_U32)."""
    m = _FMT.match(fmt or "")
    if m:
        kind = _FMT_KINDS.get(m.group(2))
        if kind:
            return f"{m.group(3)}-bit {kind}"
    m = re.match(r"^FMT_NUM_PK(\d+)_([A-Z]+)(\d+)$", fmt or "")
    if m:
        kind = _FMT_KINDS.get(m.group(2), m.group(2).lower())
        return f"{m.group(1)} packed {m.group(3)}-bit values ({kind})"
    return ""


def slug_ok(text: str) -> bool:
    """Whether ``text`` is safe as one URL path segment and file name (names, encodings, formats)."""
    return bool(re.fullmatch(r"[A-Za-z0-9_.][A-Za-z0-9_.\-]{0,99}", text or "")) and text not in (".", "..")
