"""CLI plugin: ``gpuisa serve`` and ``gpuisa export-site``."""

from __future__ import annotations

import ipaddress
import sys
from pathlib import Path

from ..errors import UserError


def register(sub) -> None:
    s = sub.add_parser("serve", help="serve the reference as a web site with a JSON API (127.0.0.1:8000)")
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--eval-workers", type=int, default=None,
                   help="processes for the playground's decode/encode/eval (default: half the CPUs, 1 to 4)")
    s.add_argument("--eval-budget", type=float, default=2.0,
                   help="seconds a playground action may wait for a worker, then run (default 2; else 503/504)")
    s.set_defaults(func=cmd_serve)
    s = sub.add_parser("export-site", help="write the whole reference as static HTML/CSS/JS into DIR")
    s.add_argument("dir")
    s.add_argument("--jobs", type=int, default=None, help="worker processes (default: the CPU count, at most 8)")
    s.set_defaults(func=cmd_export_site)


def _store_path():
    from ..store import default_db_path

    return default_db_path()


def cmd_serve(args) -> int:
    if not 0 < args.port < 65536:
        raise UserError(f"--port must be from 1 to 65535 (got {args.port})")
    host = args.host.strip()
    if host != "localhost":
        try:
            ipaddress.ip_address(host)
        except ValueError:
            raise UserError(f"--host must be an IP address or localhost (got {args.host!r})") from None
    workers, budget = getattr(args, "eval_workers", None), getattr(args, "eval_budget", 2.0)
    if workers is not None and not 1 <= workers <= 32:
        raise UserError("--eval-workers must be from 1 to 32")
    if not 0.1 <= budget <= 60:
        raise UserError("--eval-budget must be from 0.1 to 60 seconds")
    import uvicorn

    from .app import create_app
    from .hardening import MAX_HEAD, http_protocol
    from .offload import serving

    app = create_app(_store_path())
    print(f"gpuisa: serving on http://{host}:{args.port}/ (Ctrl-C to stop)", file=sys.stderr)
    try:
        with serving(workers, budget):  # the playground's work in worker processes, off the event loop
            uvicorn.run(app, host=host, port=args.port, log_level="warning", server_header=False, access_log=False,
                        limit_concurrency=1000, http=http_protocol(), h11_max_incomplete_event_size=MAX_HEAD)
    except OSError as exc:
        raise UserError(f"cannot listen on {host}:{args.port}: {exc.strerror or exc}") from None
    return 0


def cmd_export_site(args) -> int:
    from .export import export_site

    out = Path(args.dir)
    if out.exists() and not out.is_dir():
        raise UserError(f"{out} exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / "index.html").exists():
        raise UserError(f"{out} is not empty and holds no earlier export: choose an empty or new folder")
    if args.jobs is not None and not 1 <= args.jobs <= 64:
        raise UserError("--jobs must be from 1 to 64")
    try:
        r = export_site(out, _store_path(), args.jobs)
    except OSError as exc:
        raise UserError(f"cannot write to {out}: {exc.strerror or exc}") from None
    print(f"wrote {r['pages']} pages to {r['dir']} in {r['seconds']:.1f} s")
    return 0
