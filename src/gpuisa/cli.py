"""gpuisa command line: archs, show, search, list, diff, build.

Every user error is one line on stderr and exit code 2; imports of heavy
modules (rich) happen only when a terminal is attached, to keep cold starts fast.
The two commands run from build scripts, ``decode`` and ``ptx check``, are dispatched before argparse
is imported (``gpuisa.hotpath``).
"""

from __future__ import annotations

import sys

from .cliutil import open_store, progress_printer, rows_out
from .errors import UserError, echo, one_line, unexpected

TYPE_CHECKING = False  # (typing's import costs start-up)
if TYPE_CHECKING:
    import argparse
    from typing import overload  # (under TYPE_CHECKING: `ptx check --file` imports neither typing nor re)


class _LazyArchs:
    """gpuisa.archs imported on first use: commands of feature packages (e.g. `ptx check`) never need it."""

    def __getattr__(self, name):
        from . import archs as _archs

        return getattr(_archs, name)


archs = _LazyArchs()

# Feature packages add their own sub-commands: each module defines register(subparsers).
PLUGINS = ("gpuisa.amdxml.cli", "gpuisa.codec.cli", "gpuisa.semantics.cli", "gpuisa.ptx.cli", "gpuisa.web.cli",
           "gpuisa.crossmap.cli", "gpuisa.doclookup.cli", "gpuisa.lsp.cli", "gpuisa.factscli")
# Which plugin a command lives in, so a command imports only its own package (start-up time).
COMMAND_PLUGIN = {"import-amd": "gpuisa.amdxml.cli", "fetch": "gpuisa.amdxml.cli", "decode": "gpuisa.codec.cli",
                  "encode": "gpuisa.codec.cli", "eval": "gpuisa.semantics.cli", "coverage": "gpuisa.semantics.cli",
                  "ptx": "gpuisa.ptx.cli", "serve": "gpuisa.web.cli", "export-site": "gpuisa.web.cli",
                  "port": "gpuisa.crossmap.cli", "map": "gpuisa.crossmap.cli", "doc": "gpuisa.doclookup.cli",
                  "lsp": "gpuisa.lsp.cli", "timing": "gpuisa.factscli", "export-data": "gpuisa.factscli"}


def _tty() -> bool:
    return sys.stdout.isatty()


def _emit_json(obj) -> None:
    import json

    sys.stdout.write(json.dumps(obj, indent=2) + "\n")


if TYPE_CHECKING:  # (for mypy only: typing is not imported at run time)
    @overload
    def _arch(text: str) -> str: ...
    @overload
    def _arch(text: None) -> None: ...


def _arch(text: str | None) -> str | None:
    if text is None:
        return None
    from . import isas

    own = isas.with_own_archs(text)  # an architecture of an ISA registered with architectures of its own
    if own is not None:
        return text.strip().lower()
    try:
        return archs.resolve_arch(text).name
    except archs.UnknownArch as exc:
        raise UserError(str(exc)) from None


def cmd_archs(args) -> int:
    import json

    st = open_store()
    rows = st.archs()
    if args.json:
        _emit_json([{"name": r["name"], "title": r["title"], "family": r["family"], "vendor": r["vendor"],
                     "targets": json.loads(r["targets"]), "instructions": r["instructions"]} for r in rows])
        return 0
    rows_out(["arch", "family", "targets", "instructions"],
              [[r["title"], r["family"], " ".join(json.loads(r["targets"])), str(r["instructions"])] for r in rows])
    return 0


def cmd_show(args) -> int:
    from . import isas
    from .pages import NotFound, build_model

    st = open_store()
    arch = _arch(args.arch)
    if args.kind != "instruction":
        from .amdxml.kinds import build_kind_page, render_kind_text

        page = build_kind_page(st, args.name, args.kind, arch)
        if args.json:
            _emit_json(page)
        else:
            print(render_kind_text(page))
        return 0
    if args.isa and arch and isas.of_arch(arch).key != args.isa:
        raise UserError(f"--arch {args.arch} is not an architecture of the {args.isa} ISA")
    try:
        page = build_model(st, args.name, arch, isa=args.isa)  # the typed page (gpuisa.page.model)
    except NotFound as exc:
        raise UserError(str(exc)) from None
    if args.json:
        _emit_json(page.to_json())
    elif _tty():
        from .render.terminal import print_page

        print_page(page)
    else:
        from .render.text import render_page

        print(render_page(page))
    return 0


def cmd_search(args) -> int:
    st = open_store()
    arch = _arch(args.arch)
    rows = st.search(args.text, arch, args.limit, isa=args.isa)
    if args.json:
        _emit_json([{"name": r["name"], "arch": r["arch"], "isa": r["isa"], "summary": r["summary"]} for r in rows])
        return 0
    if not rows:
        print(f"no match for {args.text!r}", file=sys.stderr)
        return 1
    grouped: dict[str, list] = {}
    for r in rows:  # one line per instruction, its architectures newest first
        g = grouped.setdefault(r["name"], [r, []])
        g[1].append(archs.by_name(r["arch"]).title)
    rows_out(["name", "archs", "category", "summary"],
              [[name, " ".join(titles), r["category"], r["summary"]] for name, (r, titles) in grouped.items()])
    return 0


def cmd_list(args) -> int:
    st = open_store()
    arch = _arch(args.arch)
    if st.arch_row(arch) is None:
        raise UserError(f"architecture {arch} is not in the store")
    if args.encoding:
        known = st.encoding_names(arch)
        enc = args.encoding.upper().removeprefix("ENC_")
        if enc not in known:
            raise UserError(f"no encoding {args.encoding} in {arch} (allowed: {', '.join(known)})")
    else:
        enc = None
    rows = st.list_arch(arch, enc)
    if args.sort != "name":
        return _list_by_timing(arch, rows, args)
    if args.json:
        _emit_json([{"name": r["name"], "arch": arch, "encoding": r["encoding"], "opcode": r["opcode"],
                     "category": r["category"], "summary": r["summary"]} for r in rows])
        return 0
    rows_out(["name", "encoding", "opcode", "category"],
              [[r["name"], r["encoding"], "" if r["opcode"] is None else str(r["opcode"]), r["category"]] for r in rows])
    return 0


def _list_by_timing(arch: str, rows, args) -> int:
    """`list --sort latency|rthroughput`: slowest first (LLVM's scheduling model); rows without timing last."""
    from . import timing

    if timing.load(arch) is None:
        raise UserError(f"no timing facts for {arch} (python -m gpuisa.regen --steps timing)")
    timed = [(r, *timing.latency_of(arch, r["name"], r["encoding"])) for r in rows]
    col = 1 if args.sort == "latency" else 2
    timed.sort(key=lambda t: (t[col] is None, -(t[col] or 0), t[0]["name"]))
    if args.json:
        _emit_json([{"name": r["name"], "arch": arch, "encoding": r["encoding"], "latency": lat, "rthroughput": rt,
                     "timing_source": "model"} for r, lat, rt in timed])
        return 0
    rows_out(["name", "encoding", "latency", "rthroughput", "category"],
              [[r["name"], r["encoding"], "-" if lat is None else str(lat), "-" if rt is None else f"{rt:.2f}",
                r["category"]] for r, lat, rt in timed],
              f"{arch} by {args.sort} (LLVM's scheduling model, not measurements)")
    return 0


def cmd_diff(args) -> int:
    from .diff import diff_archs

    a, b = _arch(args.a), _arch(args.b)
    if args.semantics:
        from .semantics.diffs import semantics_diff

        d = semantics_diff(a, b)  # raises UserError for an architecture without pseudocode
        if args.json:
            _emit_json(d)
            return 0
        c = d["counts"]
        print(f"{archs.by_name(a).title} -> {archs.by_name(b).title} pseudocode: {c['same']} same, {c['differ']} differ, "
              f"{c['only_a']} only in {archs.by_name(a).title}, {c['only_b']} only in {archs.by_name(b).title}")
        for x in d["differ"]:
            print(f"\n{x['name']}\n{x['diff']}")
        return 0
    st = open_store()
    for x in (a, b):
        if st.arch_row(x) is None:
            raise UserError(f"architecture {x} is not in the store")
    d = diff_archs(st, a, b)
    if args.json:
        _emit_json(d)
        return 0
    ta, tb = archs.by_name(a).title, archs.by_name(b).title
    c = d["counts"]
    print(f"{ta} -> {tb}: {c['added']} added, {c['removed']} removed, {c['renumbered']} renumbered, "
          f"{c['reencoded']} re-encoded, {c['layout_changed']} with a changed field layout")
    if d["added"]:
        print("\nAdded:\n  " + " ".join(d["added"]))
    if d["removed"]:
        print("\nRemoved:\n  " + " ".join(d["removed"]))
    if d["renumbered"]:
        rows_out(["name", "encoding", ta, tb],
                  [[r["name"], r["encoding"], str(r["from"]), str(r["to"])] for r in d["renumbered"]], "\nRenumbered:")
    if d["reencoded"]:
        rows_out(["name", ta, tb], [[r["name"], " ".join(r["from"]), " ".join(r["to"])] for r in d["reencoded"]],
                  "\nRe-encoded:")
    if d["layout_changed"]:
        print("\nField layout changed:\n  " + " ".join(f"{r['name']}({r['encoding']})" for r in d["layout_changed"]))
    return 0


def cmd_build(args) -> int:
    from . import store

    if args.from_sources:
        from .data.amd import generate

        rc = generate.main([])
        if rc:
            return rc
    target = store.cache_db() if args.output is None else __import__("pathlib").Path(args.output)
    if sys.stderr.isatty():
        store.build(target, progress_printer())
    else:
        store.build(target)
    print(f"built {target}")
    return 0


def _parser(**kw):
    """argparse's parser with one-line errors (argparse imported here: ``decode`` and ``ptx check`` do without)."""
    import argparse

    from .hotpath import one_line_usage_error

    return type("_Parser", (argparse.ArgumentParser,), {"error": one_line_usage_error})(**kw)


CORE_COMMANDS = ("archs", "show", "search", "list", "diff", "build")


def make_parser(with_plugins: bool | str = True) -> argparse.ArgumentParser:
    """The parser; ``with_plugins`` is True (all), False (core only) or one plugin module name."""
    p = _parser(prog="gpuisa", description="Cross-vendor GPU instruction-set reference (AMD RDNA/CDNA, PTX).")
    p.add_argument("-v", "--verbose", action="count", default=0,
                   help="diagnostics on stderr (store builds, caches): -v informs, -vv debugs")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("archs", help="list architectures with family, targets and instruction count")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_archs)
    s = sub.add_parser("show", help="an instruction's reference page")
    s.add_argument("name")
    s.add_argument("--arch", help="family (rdna3.5, cdna3) or gfx target (gfx942); default: newest that has it")
    from . import isas  # the ISA registry: imports nothing else of the package

    s.add_argument("--isa", choices=isas.keys(), help="restrict to one ISA")
    s.add_argument("--kind", choices=["instruction", "format", "operand-type"], default="instruction",
                   help="what NAME is: an instruction (default), a data format (FMT_*) or an operand type (OPR_*)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_show)
    s = sub.add_parser("search", help="search names, summaries, encodings, formats and categories")
    s.add_argument("text")
    s.add_argument("--arch")
    s.add_argument("--isa", choices=isas.keys(), help="restrict to one ISA")
    s.add_argument("--limit", type=_positive_int, default=100, help="at most this many (instruction, architecture) results")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_search)
    s = sub.add_parser("list", help="instructions of an architecture")
    s.add_argument("--arch", required=True)
    s.add_argument("--encoding")
    s.add_argument("--sort", choices=["name", "latency", "rthroughput"], default="name",
                   help="order (latency, rthroughput: LLVM's scheduling model, slowest first)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_list)
    s = sub.add_parser("diff", help="differences between two generations")
    s.add_argument("a")
    s.add_argument("b")
    s.add_argument("--semantics", action="store_true", help="compare the pseudocode instead of the encodings")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_diff)
    s = sub.add_parser("build", help="rebuild the store from the committed facts (or --from-sources)")
    s.add_argument("--from-sources", action="store_true", help="first regenerate the facts with llvm-mc-22 and tinygrad")
    s.add_argument("--output", help="where to write the store (default: the user cache)")
    s.set_defaults(func=cmd_build)
    if with_plugins:
        _register_plugins(sub, PLUGINS if with_plugins is True else (with_plugins,))
    return p


def _register_plugins(sub, modules=PLUGINS) -> None:
    from .features import optional_module

    for mod in modules:
        module = optional_module(mod)
        if module is not None:
            module.register(sub)


def _positive_int(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{echo(text, 30)} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return value


def _check_port(args) -> None:
    """`serve` on an address that cannot be bound: one line now, not the server's error later."""
    import errno
    import socket

    try:
        info = socket.getaddrinfo(args.host.strip(), args.port, type=socket.SOCK_STREAM)[0]
        with socket.socket(info[0], socket.SOCK_STREAM) as s:
            s.bind(info[4])
    except OSError as exc:
        if exc.errno in (errno.EADDRINUSE, errno.EACCES, errno.EADDRNOTAVAIL):
            raise UserError(f"cannot listen on {echo(args.host, 60)} port {args.port} ({exc.strerror})") from None
    except (OverflowError, ValueError, UnicodeError):
        pass  # (serve itself says what is wrong with the host or port)


def main(argv: list[str] | None = None) -> int:
    import os
    import warnings

    if argv is None and sys.argv[1:2] in (["decode"], ["ptx"]):  # the process's own command line: no teardown
        from .hotpath import run_and_exit

        run_and_exit(main, sys.argv[1:])
    argv = sys.argv[1:] if argv is None else argv
    warnings.simplefilter("ignore", RuntimeWarning)  # numpy's overflow notes: results are exact by design
    for stream in (sys.stdout, sys.stderr):  # argv's undecodable bytes, echoed, print as \udcff
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    if os.environ.get("GPUISA_DEBUG"):
        return _main(argv)
    try:
        return _main(argv)
    except SystemExit:
        raise
    except Exception as exc:  # noqa: BLE001 -- never a traceback: one line, exit 2
        print(one_line(unexpected(exc)), file=sys.stderr)
        return 2


def _main(argv: list[str]) -> int:
    from .hotpath import dispatch

    code = dispatch(argv)  # `decode` and `ptx check` without the parser of every command
    if code is not None:
        return code
    # a core command needs no feature package imported: keeps `gpuisa show` fast
    first = next((a for a in argv if not a.startswith("-")), None)
    if first in CORE_COMMANDS:
        parser = make_parser(with_plugins=False)
    elif first in COMMAND_PLUGIN and "-h" not in argv and "--help" not in argv:
        parser = make_parser(with_plugins=COMMAND_PLUGIN[first])
    else:
        parser = make_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed a one-line usage error
        return 2 if exc.code else 0
    if args.verbose:
        from .logs import setup

        setup(args.verbose)
    try:
        if args.cmd == "serve":
            _check_port(args)
        return args.func(args)
    except UserError as exc:
        print(one_line(f"gpuisa: {exc}"), file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
