"""``gpuisa decode`` and ``gpuisa encode`` (CLI plugin: ``register(subparsers)``)."""

from __future__ import annotations

import sys

from ..errors import UserError, one_line


def register(sub) -> None:
    s = sub.add_parser("decode", help="disassemble AMD machine code (hex bytes, dwords, a raw file or an ELF code object)",
                       description="Prints llvm-objdump -d's listing (offsets, dwords, symbols, branch targets) from the "
                                   "batch decoder; --fields lays out each encoding field instead (slower).")
    s.add_argument("hex", nargs="*", help="bytes '05 00 39 d6', dwords '0xd6390005', or one hex string")
    s.add_argument("--arch", required=True, help="architecture: family (rdna4) or gfx target (gfx1200)")
    s.add_argument("--file", help="raw binary or ELF code object (.hsaco/.co/.o)")
    s.add_argument("--wave64", action="store_true", help="wave64 syntax (vcc instead of vcc_lo) on RDNA")
    s.add_argument("--fields", action="store_true", help="each instruction's encoding fields and their meanings")
    s.add_argument("--json", action="store_true", help="JSON Lines: one object per instruction, written as decoded")
    _mode_options(s)
    s.set_defaults(func=cmd_decode)
    s = sub.add_parser("encode", help="assemble AMD instructions in LLVM's syntax",
                       description="With --file every line that does not assemble is reported (FILE:LINE:COLUMN: "
                                   "error: reason) and the exit code is 1; -o writes nothing then.")
    s.add_argument("text", nargs="*", help="instruction text, e.g. 'v_msad_u8 v5, v1, v2, s3'")
    s.add_argument("--arch", required=True)
    s.add_argument("--file", help="assembly file: one instruction per line, ; and // comments, labels")
    s.add_argument("-o", "--output", help="write the bytes to this file (only when every line assembles)")
    s.add_argument("--wave64", action="store_true")
    s.add_argument("--json", action="store_true")
    _mode_options(s)
    s.set_defaults(func=cmd_encode)


def _mode_options(s) -> None:
    s.add_argument("--mattr", "-mattr", metavar="FEATURES",
                   help="LLVM's -mattr features: +real-true16 (v1.l/v1.h halves, GFX11's default) or -real-true16 "
                        "(whole VGPRs, GFX12's and gfx1250's default), +wavefrontsize64")
    g = s.add_mutually_exclusive_group()
    g.add_argument("--true16", action="store_const", const="true16", dest="syntax16",
                   help="16-bit operands as VGPR halves (-mattr=+real-true16)")
    g.add_argument("--fake16", action="store_const", const="fake16", dest="syntax16",
                   help="16-bit operands as whole VGPRs (-mattr=-real-true16)")


def _modes(args, arch: str) -> tuple[bool, str | None]:
    """(wave64, 16-bit syntax key: None for LLVM 22's default) of --wave64, --mattr, --true16/--fake16."""
    from .. import archs

    a = archs.resolve_arch(arch)
    wave64, mode = bool(getattr(args, "wave64", False)), None
    try:
        if getattr(args, "mattr", None):
            w, mode = archs.parse_mattr(a, args.mattr)
            wave64 = wave64 or w
        if getattr(args, "syntax16", None):
            mode = archs.syntax16_mode(a, args.syntax16)
    except archs.UnknownArch as exc:
        raise UserError(str(exc)) from None
    return wave64, mode


def _arch(name: str) -> str:
    from .. import archs

    try:
        return archs.codec_key(name)  # (the gfx target of a processor that differs from its generation: gfx1011)
    except archs.UnknownArch as exc:
        raise UserError(str(exc)) from None


def _variant(name: str) -> bool:
    """Whether ``name`` is a processor whose feature flags set it apart from its generation (its own codec)."""
    from .. import archs

    try:
        return bool(archs.processor(name).features)
    except archs.UnknownArch:
        return False


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


def _read_input(args) -> bytes:
    if args.file:
        if args.hex:
            raise UserError("give either hex bytes or --file, not both")
        try:
            with open(args.file, "rb") as fh:  # (no pathlib: start-up)
                return fh.read()
        except OSError as exc:
            raise UserError(f"cannot read {args.file}: {exc.strerror}") from None
    return parse_hex(args.hex)


def _code_sections(data: bytes):
    from .elf import ElfError, code_sections

    try:
        secs = code_sections(data)
    except ElfError as exc:
        raise UserError(str(exc)) from None
    if not secs:
        raise UserError("the ELF file has no executable section")
    return secs


class _TextOut:
    """A text stream (one without ``.buffer``: an embedding's) taking the listing's bytes."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, data) -> None:
        self.stream.write(bytes(data).decode())

    def flush(self) -> None:
        self.stream.flush()


def cmd_decode(args) -> int:
    if getattr(args, "mattr", None) or getattr(args, "syntax16", None):
        args.wave64, syntax16 = _modes(args, _arch(args.arch))
        if syntax16 is not None:
            return _decode_syntax16(args, syntax16)
    fast = not args.fields  # (the C loop where built: ``accel.py``; --json too)
    cached = None
    if fast:  # (a name with a current decode cache or base tables is a generation's: no registry import, ~50 ms)
        from .accel import cached_arch

        cached = cached_arch(args.arch, args.wave64)
        fast = cached is not None or not _variant(args.arch)
    arch = cached or _arch(args.arch)
    data = _read_input(args)
    secs = _code_sections(data) if data[:4] == b"\x7fELF" else None  # (``elf.is_elf``, not imported for raw bytes)
    if args.fields:
        from .fields import write_fields

        write_fields(arch, args.wave64, data if secs is None else secs, args.json)
        return 0
    sys.stdout.flush()
    out = getattr(sys.stdout, "buffer", None) or _TextOut(sys.stdout)
    if fast:  # (else, or where the extension is not built, the numpy path below)
        from .accel import write_listing

        if write_listing(out, args.arch, arch, args.wave64, data, secs, args.file, args.json):
            out.flush()
            return 0
    from .processor_codec import decoder_for

    return _write_listing(out, decoder_for(arch, args.wave64), args, data, secs)


def _write_listing(out, dec, args, data: bytes, secs) -> int:
    """The scalar decoder's listing (raw bytes, or an ELF's code sections) to ``out``."""
    from .listing import write_elf, write_raw

    if secs is None:
        write_raw(out, dec, data, args.json)
    else:
        write_elf(out, dec, args.file, secs, args.json)
    out.flush()
    return 0


def _decode_syntax16(args, syntax16: str) -> int:
    """``decode`` in the 16-bit syntax LLVM 22 does not default to: the scalar decoder (the C and batch tables
    model the default)."""
    from .decoder import get_decoder

    arch = _arch(args.arch)
    data = _read_input(args)
    secs = _code_sections(data) if data[:4] == b"\x7fELF" else None
    if args.fields:
        from .fields import write_fields

        write_fields(arch, args.wave64, data if secs is None else secs, args.json, syntax16)
        return 0
    sys.stdout.flush()
    out = getattr(sys.stdout, "buffer", None) or _TextOut(sys.stdout)
    return _write_listing(out, get_decoder(arch, args.wave64, syntax16), args, data, secs)


def _read_source(args) -> tuple[str, list[tuple[int, str]]]:
    from pathlib import Path

    if args.file:
        if args.text:
            raise UserError("give either instruction text or --file, not both")
        try:
            text = Path(args.file).read_text()
        except OSError as exc:
            raise UserError(f"cannot read {args.file}: {exc.strerror}") from None
        return args.file, list(enumerate(text.splitlines(), 1))
    if not args.text:
        raise UserError("no instruction given (pass the text or --file FILE.s)")
    return "", list(enumerate(" ".join(args.text).split("\n"), 1))


def assemble_lines(arch: str, lines: list[tuple[int, str]], wave64: bool = False):
    """(offset, text, Encoded) per instruction and every error (``asmfile.AsmError``)."""
    from .asmfile import assemble
    from .processor_codec import encoder_for

    return assemble(encoder_for(arch, wave64), lines)


def cmd_encode(args) -> int:
    import json
    from pathlib import Path

    arch = _arch(args.arch)
    source, lines = _read_source(args)
    args.wave64, syntax16 = _modes(args, arch)
    if syntax16 is None:
        results, errors = assemble_lines(arch, lines, args.wave64)
    else:  # (the 16-bit syntax LLVM 22 does not default to)
        from .asmfile import assemble
        from .encoder import get_encoder

        results, errors = assemble(get_encoder(arch, args.wave64, syntax16), lines)
    if errors and not source:  # instruction text on the command line: the first error, one line (exit 2)
        e = errors[0]
        raise UserError(e.reason if len(lines) == 1 else f"line {e.line}: {e.reason}")
    if errors:  # a file: every bad line, as llvm-mc reports them, and exit 1 (-o writes nothing)
        sys.stdout.flush()
        for e in errors:
            print(one_line(e.format(source)), file=sys.stderr)
        return 1
    if args.output:
        try:
            Path(args.output).write_bytes(b"".join(r.data for _, _, r in results))
        except OSError as exc:
            raise UserError(f"cannot write {args.output}: {exc.strerror}") from None
    if args.json:
        mode = {"syntax16": syntax16} if syntax16 else {}  # (the 16-bit syntax where it is not LLVM 22's default)
        if len(results) == 1 and not source:
            sys.stdout.write(json.dumps(dict(results[0][2].to_json(), **mode), indent=2) + "\n")
        else:
            sys.stdout.write(json.dumps([dict(r.to_json(), offset=o, text=t, **mode) for o, t, r in results], indent=2)
                             + "\n")
        return 0
    if args.output:
        return 0
    for off, text, r in results:
        print(f"{off:06x}: {r.data.hex(' '):<36} {text}")
        print(f"        {r.encoding}: " + " ".join(f"{k}={v}" for k, v in r.fields.items()))
    return 0
