"""``gpuisa lsp``: start the language server on stdio (CLI plugin)."""

from __future__ import annotations

from ..errors import UserError


def register(sub) -> None:
    s = sub.add_parser("lsp", help="language server (stdio) for AMDGPU assembly (.s/.asm/.amdgcn) and PTX (.ptx)")
    s.add_argument("--arch", help="AMD target of files that name none (.amdgcn_target or '; arch: rdna3' win)")
    s.add_argument("--docs-url", default=None, help="base URL of hover links (default http://127.0.0.1:8000, "
                                                     "where `gpuisa serve` listens)")
    s.add_argument("--stdio", action="store_true", help="accepted for editors that pass it; stdio is the only transport")
    s.set_defaults(func=cmd_lsp)


def cmd_lsp(args) -> int:
    from .. import archs

    arch = None
    if args.arch:
        try:
            arch = archs.resolve_arch(args.arch).name
        except archs.UnknownArch as exc:
            raise UserError(str(exc)) from None
    from .server import DEFAULT_DOCS_URL, create_server

    create_server(arch, args.docs_url or DEFAULT_DOCS_URL).start_io()
    return 0
