"""``gpuisa decode`` and ``gpuisa encode`` (CLI plugin: ``register(subparsers)``)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from ..errors import UserError

BRANCHES = re.compile(r"^s_(branch|cbranch_\w+)$")


def register(sub) -> None:
    s = sub.add_parser("decode", help="disassemble AMD machine code (hex bytes, dwords, a raw file or an ELF code object)")
    s.add_argument("hex", nargs="*", help="bytes '05 00 39 d6', dwords '0xd6390005', or one hex string")
    s.add_argument("--arch", required=True, help="architecture: family (rdna4) or gfx target (gfx1200)")
    s.add_argument("--file", help="raw binary or ELF code object (.hsaco/.co)")
    s.add_argument("--wave64", action="store_true", help="wave64 syntax (vcc instead of vcc_lo) on RDNA")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_decode)
    s = sub.add_parser("encode", help="assemble AMD instructions in LLVM's syntax")
    s.add_argument("text", nargs="*", help="instruction text, e.g. 'v_msad_u8 v5, v1, v2, s3'")
    s.add_argument("--arch", required=True)
    s.add_argument("--file", help="assembly file: one instruction per line, ; and // comments, labels")
    s.add_argument("--wave64", action="store_true")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_encode)


def _arch(name: str) -> str:
    from .. import archs

    try:
        return archs.resolve_arch(name).name
    except archs.UnknownArch as exc:
        raise UserError(str(exc)) from None


def parse_hex(tokens: list[str]) -> bytes:
    """'05 00 39 d6' bytes, '0xd6390005' little-endian dwords (or 0x + 16 digits: qwords), or one hex string."""
    text = " ".join(tokens).replace(",", " ").split()
    if not text:
        raise UserError("no bytes given (pass hex bytes, 0x dwords, or --file FILE)")
    out = bytearray()
    for pos, tok in enumerate(text, 1):
        t = tok.lower()
        if t.startswith("0x"):
            digits = t[2:]
            if not digits or not all(c in "0123456789abcdef" for c in digits) or len(digits) > 16:
                raise UserError(f"token {pos} {tok!r} is not a hex dword (0x followed by up to 8 hex digits)")
            width = 4 if len(digits) <= 8 else 8
            out += int(digits, 16).to_bytes(width, "little")
        else:
            if not all(c in "0123456789abcdef" for c in t) or len(t) % 2:
                raise UserError(f"token {pos} {tok!r} is not hex bytes (an even number of hex digits)")
            out += bytes.fromhex(t)
    return bytes(out)


def _labels_and_sections(data: bytes):
    from .elf import ElfError, code_sections, is_elf

    if is_elf(data):
        try:
            secs = code_sections(data)
        except ElfError as exc:
            raise UserError(str(exc)) from None
        if not secs:
            raise UserError("the ELF file has no executable section")
        return [(s.name, s.address, s.data, s.labels) for s in secs]
    return [(None, 0, data, {})]


def _branch_target(d) -> int | None:
    if d.valid and d.name and BRANCHES.match(d.name) and "SIMM16" in d.fields:
        simm = d.fields["SIMM16"]
        if simm >= 0x8000:
            simm -= 0x10000
        return d.offset + 4 + 4 * simm
    return None


def cmd_decode(args) -> int:
    from .decoder import get_decoder

    arch = _arch(args.arch)
    if args.file:
        try:
            data = Path(args.file).read_bytes()
        except OSError as exc:
            raise UserError(f"cannot read {args.file}: {exc.strerror}") from None
        if args.hex:
            raise UserError("give either hex bytes or --file, not both")
    else:
        data = parse_hex(args.hex)
    dec = get_decoder(arch, args.wave64)
    results = []
    for sec_name, addr, blob, labels in _labels_and_sections(data):
        for d in dec.decode(blob, addr):
            d.target = _branch_target(d)
            results.append((sec_name, labels, addr, d))
    if args.json:
        out = []
        for sec_name, labels, addr, d in results:
            j = d.to_json()
            if sec_name is not None:
                j["section"] = sec_name
                lab = labels.get(d.offset - addr)
                if lab:
                    j["label"] = lab
            if d.target is not None:
                j["target"] = d.target
            out.append(j)
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
        return 0
    enc_cache = {}
    last_sec = object()
    for sec_name, labels, addr, d in results:
        if sec_name != last_sec and sec_name is not None:
            print(f"section {sec_name}:")
        last_sec = sec_name
        lab = labels.get(d.offset - addr)
        if lab:
            print(f"{lab}:")
        text = d.text if d.valid else f"<invalid: {d.error}>"
        extra = ""
        if d.target is not None:
            tl = labels.get(d.target - addr)
            extra = f"   -> 0x{d.target:x}" + (f" <{tl}>" if tl else "")
        print(f"  {d.offset:06x}: {d.data.hex(' '):<36} {text}{extra}")
        if d.valid and d.encoding:
            enc = enc_cache.get(d.encoding) or dec.tables.encodings[d.encoding]
            enc_cache[d.encoding] = enc
            parts = []
            for f in enc.sorted_fields():
                v = f.extract(int.from_bytes(d.data[:enc.width // 8], "little"))
                meaning = d.meanings.get(f.name)
                parts.append(f"{f.name}[{f.bits_text()}]={v}" + (f"({meaning})" if meaning else ""))
            print(f"          {d.encoding}: " + " ".join(parts))
    return 0


def _read_source(args) -> list[tuple[int, str]]:
    if args.file:
        try:
            text = Path(args.file).read_text()
        except OSError as exc:
            raise UserError(f"cannot read {args.file}: {exc.strerror}") from None
        return list(enumerate(text.splitlines(), 1))
    if not args.text:
        raise UserError("no instruction given (pass the text or --file FILE.s)")
    return list(enumerate(" ".join(args.text).split("\n"), 1))


def assemble_lines(arch: str, lines: list[tuple[int, str]], wave64: bool = False) -> list[tuple[int, str, object]]:
    """Two passes: label offsets, then each instruction (branch labels become SIMM16 offsets)."""
    from .encoder import EncodeError, get_encoder, strip_comment

    enc = get_encoder(arch, wave64)
    insts: list[tuple[int, str]] = []
    labels: dict[str, int] = {}
    offset = 0
    sizes: list[int] = []
    for lineno, raw in lines:
        line = strip_comment(raw)
        while line and re.match(r"^[A-Za-z_.$][\w.$]*:", line):
            name, line = line.split(":", 1)
            labels[name] = offset
            line = line.strip()
        if not line:
            continue
        probe = re.sub(r"^(s_(?:branch|cbranch_\w+))\s+[A-Za-z_.$][\w.$]*$", r"\1 0", line)
        try:
            size = len(enc.encode_line(probe).data)
        except EncodeError as exc:
            raise UserError(f"line {lineno}: {exc}") from None
        insts.append((lineno, line))
        sizes.append(size)
        offset += size
    out = []
    offset = 0
    for (lineno, line), size in zip(insts, sizes):
        m = re.match(r"^(s_(?:branch|cbranch_\w+))\s+([A-Za-z_.$][\w.$]*)$", line)
        if m and m.group(2) in labels:
            delta = (labels[m.group(2)] - offset - 4) // 4
            line = f"{m.group(1)} {delta & 0xFFFF}"
        elif m:
            raise UserError(f"line {lineno}: unknown label {m.group(2)!r}")
        try:
            out.append((offset, line, enc.encode_line(line)))
        except EncodeError as exc:
            raise UserError(f"line {lineno}: {exc}") from None
        offset += size
    return out


def cmd_encode(args) -> int:
    arch = _arch(args.arch)
    results = assemble_lines(arch, _read_source(args), args.wave64)
    if args.json:
        if len(results) == 1:
            sys.stdout.write(json.dumps(results[0][2].to_json(), indent=2) + "\n")
        else:
            sys.stdout.write(json.dumps([dict(r.to_json(), offset=o, text=t) for o, t, r in results], indent=2) + "\n")
        return 0
    for off, text, r in results:
        print(f"{off:06x}: {r.data.hex(' '):<36} {text}")
        print(f"        {r.encoding}: " + " ".join(f"{k}={v}" for k, v in r.fields.items()))
    return 0
