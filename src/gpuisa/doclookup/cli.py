"""``gpuisa doc OPCODE``: an opcode as a compiler emits it -> {tooltip, html, url} (CLI plugin)."""

from __future__ import annotations

import json
import sys


def register(sub) -> None:
    s = sub.add_parser("doc", help="documentation of an opcode as compilers emit it (v_add_f32_e64, ld.global.nc.v4.f32)")
    s.add_argument("opcode", help="LLVM AMD mnemonic (with _e32/_e64/_dpp/_sdwa/_e64_dpp) or dotted PTX opcode")
    from .. import isas

    s.add_argument("--isa", choices=isas.keys("doc"), help="default: amdgpu for names with '_' and no '.', else ptx")
    s.add_argument("--arch", help="AMD architecture or gfx target (default: the newest that has it)")
    s.add_argument("--json", action="store_true", help="print {tooltip, html, url, ...} as JSON")
    s.set_defaults(func=cmd_doc)


def cmd_doc(args) -> int:
    from . import lookup, public

    doc = lookup(args.opcode, args.isa, args.arch)  # DocNotFound is a UserError: one line, exit 2
    if args.json:
        sys.stdout.write(json.dumps(public(doc), indent=2) + "\n")
    else:
        print(doc["tooltip"])
        print(f"page: {doc['url']}  (gpuisa show {doc['instruction']} --arch {doc['arch']})")
    return 0
