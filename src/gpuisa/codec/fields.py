"""``gpuisa decode --fields``: the per-field listing (each instruction's encoding fields, their bit ranges,
values and meanings) from the scalar decoder, one ``Decoded`` per instruction; with ``--json``, JSON Lines of
``Decoded.to_json()`` (plus section, label and branch target), each written as it is made."""

from __future__ import annotations

import json
import re
import sys

_BRANCHES = re.compile(r"^s_(branch|cbranch_\w+)$")


def _branch_target(d) -> int | None:
    if d.valid and d.name and _BRANCHES.match(d.name) and "SIMM16" in d.fields:
        simm = d.fields["SIMM16"]
        if simm >= 0x8000:
            simm -= 0x10000
        return d.offset + 4 + 4 * simm
    return None


def _field_text(dec, d, enc_cache: dict) -> str:
    enc = enc_cache.get(d.encoding) or dec.tables.encodings[d.encoding]
    enc_cache[d.encoding] = enc
    word = int.from_bytes(d.data[:enc.width // 8], "little")
    parts = []
    for f in enc.sorted_fields():
        meaning = d.meanings.get(f.name)
        parts.append(f"{f.name}[{f.bits_text()}]={f.extract(word)}" + (f"({meaning})" if meaning else ""))
    return f"          {d.encoding}: " + " ".join(parts)


def write_fields(arch: str, wave64: bool, source, as_json: bool, syntax16: str | None = None) -> None:
    """``source``: raw bytes, or the ``elf.CodeSection``s of an ELF file; ``syntax16``: the decoder's 16-bit syntax."""
    from .decoder import get_decoder

    dec = get_decoder(arch, wave64, syntax16)
    secs = [(None, 0, source, {})] if isinstance(source, (bytes, bytearray)) else \
        [(s.name, s.address, s.data, s.labels) for s in source]
    out = sys.stdout
    enc_cache: dict = {}
    for sec_name, addr, blob, labels in secs:
        if sec_name is not None and not as_json:
            out.write(f"section {sec_name}:\n")
        for d in dec.decode(blob, addr):
            target = _branch_target(d)
            lab = labels.get(d.offset - addr)
            if as_json:
                j = d.to_json()
                if sec_name is not None:
                    j["section"] = sec_name
                if lab:
                    j["label"] = lab
                if target is not None:
                    j["target"] = target
                out.write(json.dumps(j) + "\n")
                continue
            if lab:
                out.write(f"{lab}:\n")
            text = d.text if d.valid else f"<invalid: {d.error}>"
            extra = ""
            if target is not None:
                tl = labels.get(target - addr)
                extra = f"   -> 0x{target:x}" + (f" <{tl}>" if tl else "")
            out.write(f"  {d.offset:06x}: {d.data.hex(' '):<36} {text}{extra}\n")
            if d.valid and d.encoding:
                out.write(_field_text(dec, d, enc_cache) + "\n")
