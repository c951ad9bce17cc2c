"""``gpuisa run`` (a program on one wave) and ``gpuisa eval`` of an encoded instruction."""

from __future__ import annotations

import json
import sys

from ..errors import UserError


def register_run(sub) -> None:
    if "run" in getattr(sub, "choices", {}):
        return
    r = sub.add_parser("run", help="run an AMD instruction sequence on one simulated wave (registers, memory, branches)")
    r.add_argument("program", help="assembly file (one instruction per line, labels, ; comments), '-' for stdin")
    r.add_argument("registers", nargs="*", metavar="REG=VALUE",
                   help="V1=1.5 V[2:3]=0x10 S0=7 EXEC=0xf VCC=0 SCC=1 M0=0 MEM:0x1000=1,2 LDS:0=5; a comma list "
                        "gives one value per lane (VGPRs) or consecutive words (memory)")
    r.add_argument("--arch", required=True, help="any AMD generation or gfx target (those without pseudocode of "
                   "their own carry semantics from the nearest that has them)")
    r.add_argument("--wave", type=int, choices=[32, 64], help="wave size (default: 32 on RDNA and CDNA5, 64 on CDNA1-4)")
    r.add_argument("--hex", action="store_true", help="the file holds machine code as hex text")
    r.add_argument("--lanes", type=int, help="lanes shown for VGPRs (default: every lane of EXEC at the start)")
    r.add_argument("--max-steps", type=int, default=1_000_000, help="stop with an error after this many instructions")
    r.add_argument("--json", action="store_true")
    r.set_defaults(func=cmd_run)


def _registers(items: list[str]) -> dict:
    out = {}
    for item in items:
        if "=" not in item:
            raise UserError(f"register {item!r} is not NAME=VALUE (for example V1=1.5 or S[0:1]=0x1000)")
        k, v = item.split("=", 1)
        if not k.strip() or not v:
            raise UserError(f"register {item!r} is not NAME=VALUE (for example V1=1.5 or S[0:1]=0x1000)")
        out[k.strip()] = v.split(",") if "," in v else v
    return out


def _read_program(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None


def cmd_run(args) -> int:
    from .encoded import hex_bytes
    from .machine import MachineError, from_values
    from .program import execute, from_bytes, parse, resolve, wave_size

    text = _read_program(args.program)
    try:
        arch = resolve(args.arch)
        wave = wave_size(arch, args.wave)
        ws = from_values(arch, wave, _registers(args.registers))
        start = ws.copy()
        prog = from_bytes(arch, hex_bytes(" ".join(text.split())), wave) if args.hex else parse(arch, text, wave)
        execute(prog, ws, args.max_steps)
    except MachineError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        print(json.dumps({"changed": ws.to_json(changed_only=start), "instructions": prog.instructions}, indent=2))
        return 0
    lanes = args.lanes or max(1, start.exec.bit_length())
    for line in render_state(ws, start, lanes, prog.instructions):
        print(line)
    return 0


def render_state(ws, start, lanes: int, count: int) -> list[str]:
    out = [f"{count} instruction(s) on {ws.arch}, wave{ws.wave}: {ws.steps} executed"]
    changed = ws.to_json(changed_only=start)
    for key in ("EXEC", "VCC", "SCC", "M0"):
        out.append(f"  {key:<6} {changed[key]:#x}" + ("" if changed[key] == start.to_json()[key] else "  (changed)"))
    for key, val in changed.items():
        if key[:1] in "VA" and key[1:].isdigit():
            vals = val[:lanes]
            out.append(f"  {key:<6} " + " ".join(f"{v:#x}" for v in vals) + (" ..." if len(val) > lanes else ""))
        elif key[:1] == "S" and key[1:].isdigit():
            out.append(f"  {key:<6} {val:#x}")
    for space in ("MEM", "LDS"):
        for addr, word in changed.get(space, {}).items():
            if start.to_json().get(space, {}).get(addr) != word:
                out.append(f"  {space}[{addr}] {word:#010x}")
    return out


def cmd_eval_encoded(args, registers: dict) -> int:
    from .encoded import evaluate_encoded, interpret
    from .machine import MachineError
    from .program import resolve

    if not args.arch:
        raise UserError("an encoded instruction needs --arch (an AMD generation or a gfx target)")
    try:
        resolve(args.arch)
        res = evaluate_encoded(args.arch, args.name, registers, wave=args.wave, lanes=args.lanes, hex_input=args.hex)
    except MachineError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    print(f"{res['instruction']}  ({res['encoding']}, {res['hex']}) on {res['arch']}, wave{res['wave']}, "
          f"{res['lanes']} lane(s)")
    for title, regs in (("read", res["reads"]), ("wrote", res["writes"])):
        print(f"{title}:" + ("" if regs else " nothing"))
        for reg, val in regs.items():
            fmt = res["formats"].get(reg.upper())
            vals = val if isinstance(val, list) else [val]
            for i, v in enumerate(vals):
                where = f"lane {i}" if isinstance(val, list) else "wave"
                f = interpret(v, fmt)
                shown = f"  = {f!r} ({fmt})" if f is not None else ""
                print(f"  {reg:<8} {where:<8} {v:#x}{shown}" if isinstance(v, int) else f"  {reg:<8} {where:<8} {v}")
    print("changed: " + (", ".join(res["changed"]) if res["changed"] else "nothing"))
    return 0
