"""`python -m gpuisa.ptx check|matrix ...`: the PTX commands alone, without loading every CLI plugin.

Same arguments, output and exit codes as `gpuisa ptx ...`; used where start-up time matters
(checking a .ptx file from a build script).
"""

import os
import sys

from ..errors import UserError
from . import cli
from .cli import check_file_args


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
