"""`python -m gpuisa.ptx check|matrix ...`: the PTX commands alone, without loading every CLI plugin.

Same arguments, output and exit codes as `gpuisa ptx ...`; used where start-up time matters
(checking a .ptx file from a build script).
"""

from __future__ import annotations

import argparse
import sys

from ..errors import UserError
from . import cli


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gpuisa.ptx")
    sub = parser.add_subparsers(dest="cmd", required=True)
    cli.register(sub)
    args = parser.parse_args(["ptx", *(sys.argv[1:] if argv is None else argv)])
    try:
        return args.func(args)
    except UserError as exc:
        print(f"gpuisa: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
