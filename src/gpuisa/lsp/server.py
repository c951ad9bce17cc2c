"""``gpuisa lsp``: a Language Server (stdio) for AMDGPU assembly and PTX, on pygls.

Settings (``initializationOptions``, or the command line): ``arch`` (the AMD target of files that
name none), ``docsUrl`` (where hover links point: a ``gpuisa serve`` address).  Documents are
analysed on open and on every change; diagnostics are published then, and the other features
read that analysis.
"""

from __future__ import annotations

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer

from .. import isas
from . import features
from .model import Analysis, language_of

DEFAULT_DOCS_URL = "http://127.0.0.1:8000"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gpuisa")
    except PackageNotFoundError:
        return "0"


class GpuisaServer(LanguageServer):
    def __init__(self, arch: str | None = None, docs_url: str = DEFAULT_DOCS_URL):
        super().__init__("gpuisa-lsp", _version())
        self.arch = arch
        self.docs_url = docs_url
        self.analyses: dict[str, Analysis] = {}
        self.encoded_lines: dict = {}  # (arch, wave64, text) -> (bytes, None) | (None, reason)

    def analyse(self, uri: str) -> Analysis | None:
        doc = self.workspace.get_text_document(uri)
        lang = language_of(uri, doc.language_id)
        if lang is None:
            return None
        lines = doc.source.splitlines()
        an = isas.get(lang).hook("lsp")(lines, self.arch, self.encoded_lines)
        self.analyses[uri] = an
        return an

    def analysis(self, uri: str) -> Analysis | None:
        return self.analyses.get(uri) or self.analyse(uri)

    def publish(self, uri: str, version: int | None) -> None:
        an = self.analyse(uri)
        if an is None:
            return
        self.text_document_publish_diagnostics(
            t.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=features.diagnostics(an)))


def _check_arch(value) -> str | None:
    from .. import archs

    if not value:
        return None
    try:
        return archs.resolve_arch(str(value)).name
    except archs.UnknownArch:
        return None


def create_server(arch: str | None = None, docs_url: str = DEFAULT_DOCS_URL) -> GpuisaServer:
    ls = GpuisaServer(arch, docs_url)

    @ls.feature(t.INITIALIZE)
    def initialize(server: GpuisaServer, params: t.InitializeParams):
        opts = params.initialization_options or {}
        if isinstance(opts, dict):
            server.arch = _check_arch(opts.get("arch")) or server.arch
            server.docs_url = str(opts.get("docsUrl") or server.docs_url)

    @ls.feature(t.TEXT_DOCUMENT_DID_OPEN)
    def did_open(server: GpuisaServer, params: t.DidOpenTextDocumentParams):
        server.publish(params.text_document.uri, params.text_document.version)

    @ls.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(server: GpuisaServer, params: t.DidChangeTextDocumentParams):
        server.publish(params.text_document.uri, params.text_document.version)

    @ls.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(server: GpuisaServer, params: t.DidCloseTextDocumentParams):
        server.analyses.pop(params.text_document.uri, None)
        server.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                            diagnostics=[]))

    @ls.feature(t.TEXT_DOCUMENT_HOVER)
    def hover(server: GpuisaServer, params: t.HoverParams):
        an = server.analysis(params.text_document.uri)
        return an and features.hover(an, params.position.line, params.position.character, server.docs_url)

    @ls.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=[".", "%"]))
    def completion(server: GpuisaServer, params: t.CompletionParams):
        an = server.analysis(params.text_document.uri)
        items = features.completion(an, params.position.line, params.position.character) if an else []
        return t.CompletionList(is_incomplete=False, items=items)

    @ls.feature(t.TEXT_DOCUMENT_SIGNATURE_HELP, t.SignatureHelpOptions(trigger_characters=[" ", ","]))
    def signature_help(server: GpuisaServer, params: t.SignatureHelpParams):
        an = server.analysis(params.text_document.uri)
        return an and features.signature_help(an, params.position.line, params.position.character)

    @ls.feature(t.TEXT_DOCUMENT_DEFINITION)
    def definition(server: GpuisaServer, params: t.DefinitionParams):
        an = server.analysis(params.text_document.uri)
        return an and features.definition(an, params.text_document.uri, params.position.line,
                                          params.position.character)

    @ls.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(server: GpuisaServer, params: t.DocumentSymbolParams):
        an = server.analysis(params.text_document.uri)
        return features.document_symbols(an) if an else []

    @ls.feature(t.TEXT_DOCUMENT_INLAY_HINT, t.InlayHintOptions(resolve_provider=False))
    def inlay_hints(server: GpuisaServer, params: t.InlayHintParams):
        an = server.analysis(params.text_document.uri)
        if an is None:
            return []
        return features.inlay_hints(an, params.range.start.line, params.range.end.line)

    return ls
