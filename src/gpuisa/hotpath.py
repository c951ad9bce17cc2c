"""The two commands that build scripts run many times, ``gpuisa decode`` and ``gpuisa ptx check``, dispatched
before the CLI's parser of every command is built (argparse, the plugins' ``register``).

Their arguments are read here when they are the plain forms (``decode --arch A (--file F | HEX...)
[--json] [--wave64] [--fields]``; ``ptx check --file F [--target T] [--version V] [--json]``, read by
``ptx/__main__.py``); anything else (``-h``, abbreviations, a mistake) goes to argparse, which prints the
help or the one-line usage error.  Same output and exit codes either way.

Start-up, measured with ``python -X importtime`` and ``perf stat`` (``benchmarks/bench_decode.py``):
* numpy's BLAS (OpenBLAS) starts a thread per core when numpy is imported, about 30 ms of CPU time on
  this 2-core machine; ``decode`` does no linear algebra, so it asks for one thread
  (``OPENBLAS_NUM_THREADS``, unless the user set it) before numpy is imported.
* A process that ran one command from its own command line (``main()`` without arguments, as the
  console script calls it) ends with ``os._exit`` once its output is flushed: tearing down the
  interpreter frees every object one by one (the decoder's tables and text pools: ~60 ms of a 200,000-
  instruction decode), which the operating system does at once.  Nothing of these two commands needs
  ``atexit``; in-process callers (tests, embeddings) pass ``argv`` and get a normal return.
"""

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import SimpleNamespace
else:  # types.SimpleNamespace (sys.implementation is one), without importing types: ~1 M instructions of start-up
    SimpleNamespace = type(sys.implementation)

_DECODE_FLAGS = ("--json", "--wave64", "--fields")
_DECODE_OPTIONS = ("--arch", "--file")


class Args(SimpleNamespace):
    """A plain namespace, as argparse gives."""


def decode_args(argv: list[str]) -> Args | None:
    """``decode``'s arguments in their plain forms, else None (argparse decides)."""
    if argv[:1] != ["decode"]:
        return None
    args = Args(cmd="decode", hex=[], arch=None, file=None, json=False, wave64=False, fields=False)
    rest, hex_done = argv[1:], False
    while rest:
        tok = rest.pop(0)
        hex_done = hex_done or bool(args.hex and tok.startswith("-"))
        name, eq, value = tok.partition("=")
        if tok in _DECODE_FLAGS and not getattr(args, tok[2:]):
            setattr(args, tok[2:], True)
        elif name in _DECODE_OPTIONS and getattr(args, name[2:]) is None:
            if not eq:
                if not rest or rest[0].startswith("-"):
                    return None
                value = rest.pop(0)
            setattr(args, name[2:], value)
        elif tok and not tok.startswith("-") and not hex_done:  # (hex on both sides of an option: argparse)
            args.hex.append(tok)
        else:
            return None
    return args if args.arch is not None else None


def dispatch(argv: list[str]) -> int | None:
    """The exit code of ``decode`` or ``ptx check`` run here, or None: the CLI's parser takes ``argv``."""
    if "-h" in argv or "--help" in argv:
        return None
    if argv[:2] == ["ptx", "check"]:
        return _ptx_check(argv)
    args = decode_args(argv)
    if args is None:
        return None
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # (read when numpy loads its BLAS)
    import gc

    from .codec.cli import cmd_decode
    from .errors import UserError, one_line

    collecting = gc.isenabled()
    gc.disable()  # (the decode makes few reference cycles: the collector's passes over its objects cost ~6%)
    try:
        return cmd_decode(args)
    except UserError as exc:
        print(one_line(f"gpuisa: {exc}"), file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    finally:
        if collecting:
            gc.enable()


def _ptx_check(argv: list[str]) -> int:
    from .ptx.cli import check_file_args

    fast = check_file_args(argv[1:])
    if fast is not None:  # the plain form, as ptx.__main__.main runs it (without importing that module)
        from .ptx.cli import cmd_check

        try:
            return cmd_check(fast)
        except Exception as exc:  # (errors is imported when one is raised: start-up)
            from .errors import UserError

            if not isinstance(exc, UserError):
                raise
            print(f"gpuisa: {exc}", file=sys.stderr)
            return 2
    import argparse  # (argparse reads the others: its usage errors in one line too)

    from .errors import UserError, one_line
    from .ptx.__main__ import main as ptx_main

    argparse.ArgumentParser.error = one_line_usage_error  # type: ignore[method-assign]  # on purpose: one-line usage errors
    try:
        return ptx_main(argv[1:], prog="gpuisa")
    except UserError as exc:
        print(one_line(f"gpuisa: {exc}"), file=sys.stderr)
        return 2


def run_ptx_check() -> None:
    """``gpuisa ptx check ...`` from the process's command line, for the installed launcher (scripts/gpuisa),
    without importing the CLI module (gpuisa.cli: ~2 M instructions, a sixtieth of a 2,500-instruction
    kernel's check), as ``cli.main`` runs it: undecodable bytes print escaped, an error no command turned
    into a UserError is one line (exit code 2; GPUISA_DEBUG=1: the traceback), no interpreter teardown.
    With ``-h``/``--help`` it returns (the CLI's parser prints the help)."""
    argv = sys.argv[1:]
    if "-h" in argv or "--help" in argv:
        return
    for stream in (sys.stdout, sys.stderr):  # (as cli.main)
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    run_and_exit(_guarded_ptx_check, argv)


def _guarded_ptx_check(argv: list[str]) -> int:
    if os.environ.get("GPUISA_DEBUG"):
        return _ptx_check(argv)
    try:
        return _ptx_check(argv)
    except Exception as exc:  # noqa: BLE001 -- never a traceback: one line, exit 2
        from .errors import one_line, unexpected

        print(one_line(unexpected(exc)), file=sys.stderr)
        return 2


def one_line_usage_error(self, message: str):
    """argparse's ``error`` as the CLI prints it: one line, exit code 2."""
    from .errors import one_line

    message = one_line(message, 300)
    print(f"gpuisa: {message} (see gpuisa {self.prog.split(' ', 1)[-1] if ' ' in self.prog else ''} --help)".replace("  ", " "),
          file=sys.stderr)
    raise SystemExit(2)


def run_and_exit(main, argv: list[str]) -> None:
    """Runs ``main(argv)`` (the process's own command line) and ends the process with its exit code, without
    the interpreter's teardown; output is flushed first (a reader that went away: exit code 0, as a pipe's
    ``head`` expects)."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        code = code or 0
    except OSError:
        code = code or 1
    try:
        sys.stderr.flush()
    except OSError:
        pass
    os._exit(code if isinstance(code, int) else 1)
