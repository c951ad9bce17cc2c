"""`python -m gpuisa.ptx check|matrix ...`: the PTX commands alone, without loading every CLI plugin.

Same arguments, output and exit codes as `gpuisa ptx ...`; used where start-up time matters
(checking a .ptx file from a build script).
"""

from __future__ import annotations

import os
import sys

from ..errors import UserError
from . import cli

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import SimpleNamespace
else:  # types.SimpleNamespace (sys.implementation is one), without importing types: ~1 M instructions of start-up
    SimpleNamespace = type(sys.implementation)


def check_file_args(argv: list[str]):
    """`check --file F [--target T] [--version V] [--json]` read without argparse (whose import and
    help formatting cost a build script's every call a few milliseconds), else None."""
    if len(argv) < 3 or argv[0] != "check" or len(argv) > 8:
        return None
    args = argparse_free_namespace(instruction=None, file=None, target=None, version=None, json=False)
    rest = argv[1:]
    while rest:
        opt = rest.pop(0)
        if opt == "--json" and not args.json:
            args.json = True
        elif opt in ("--file", "--target", "--version") and rest and not rest[0].startswith("-") and (
                getattr(args, opt[2:]) is None):
            setattr(args, opt[2:], rest.pop(0))
        else:
            return None
    return args if args.file else None


def argparse_free_namespace(**kw) -> SimpleNamespace:
    """A plain namespace, as argparse gives."""
    return SimpleNamespace(**kw)


def main(argv: list[str] | None = None, prog: str = "python -m gpuisa.ptx") -> int:
    argv = sys.argv[1:] if argv is None else argv
    fast = check_file_args(argv)
    if fast is not None:
        try:
            return cli.cmd_check(fast)
        except UserError as exc:
            print(f"gpuisa: {exc}", file=sys.stderr)
            return 2
    import argparse

    parser = argparse.ArgumentParser(prog=prog)
    sub = parser.add_subparsers(dest="cmd", required=True)
    cli.register(sub)
    try:
        args = parser.parse_args(["ptx", *argv])
    except SystemExit as exc:  # argparse already printed a one-line usage error
        return 2 if exc.code else 0
    try:
        return args.func(args)
    except UserError as exc:
        print(f"gpuisa: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    code = main()
    # a short-lived command: skip tearing the interpreter down (about a tenth of a small file's time)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
