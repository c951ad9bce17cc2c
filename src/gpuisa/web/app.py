"""The ASGI application of ``gpuisa serve``: HTML pages, static files and the JSON API.

Read-only: pages and API answers are computed from the store (opened read-only) and cached in
memory, since the store does not change while the server runs.  Every request passes through
``guard``: a bounded request line and body, and security headers on every answer.
"""

from __future__ import annotations

import gzip
import json
import re
import threading
from functools import lru_cache
from pathlib import Path

import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import archs, isas
from ..diff import diff_archs
from . import playground
from .hardening import answer, harden
from .openapi import openapi_schema
from .search import api_rows, page_of
from .site import STATIC, PageMissing, Redirect, Site, UnknownArchName, instruction_path

MAX_BODY = 16 * 1024
MAX_TARGET = 2048  # path + query string
MAX_QUERY = 100
MAX_LIMIT = 200
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                 b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                                 b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class BoundedCache:
    """A thread-safe dict of at most ``size`` entries (oldest dropped first): answers of a read-only store."""

    def __init__(self, size: int):
        self.size = size
        self.data: dict = {}
        self.lock = threading.Lock()

    def get(self, key):
        return self.data.get(key)

    def put(self, key, value) -> None:
        with self.lock:
            if key not in self.data and len(self.data) >= self.size:
                self.data.pop(next(iter(self.data)))
            self.data[key] = value


def guard(app):
    """ASGI middleware: request-size limits and security headers."""

    async def plain(send, status: int, message: str, path: str):
        await answer(send, status, message, path, tuple(SECURITY_HEADERS))

    async def middleware(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        path = scope.get("path", "")
        if len(scope.get("raw_path") or path.encode()) + len(scope.get("query_string", b"")) > MAX_TARGET:
            return await plain(send, 414, f"request target too long (at most {MAX_TARGET} bytes)", path)
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    if int(value) > MAX_BODY:
                        return await plain(send, 413, f"request body too large (at most {MAX_BODY} bytes)", path)
                except ValueError:
                    return await plain(send, 400, "invalid Content-Length", path)
        seen = 0

        async def limited_receive():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > MAX_BODY:
                    raise HTTPException(413, f"request body too large (at most {MAX_BODY} bytes)")
            return message

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await app(scope, limited_receive, send_with_headers)

    return middleware


def wants_gzip(request: Request) -> bool:
    return "gzip" in request.headers.get("accept-encoding", "")


class Cached:
    """A rendered answer kept with its gzip form (compressed once, not per request)."""

    __slots__ = ("status", "body", "target", "gz")

    def __init__(self, status: int, body: bytes, target: str = ""):
        self.status, self.body, self.target = status, body, target
        self.gz = gzip.compress(body, 6, mtime=0) if len(body) > 500 else None

    def response(self, request: Request, media_type: str = "text/html; charset=utf-8", max_age: int = 300) -> Response:
        headers = {"cache-control": f"public, max-age={max_age}"} if self.status == 200 else {}
        headers["vary"] = "accept-encoding"
        if self.gz is not None and wants_gzip(request):
            headers["content-encoding"] = "gzip"
            return Response(self.gz, status_code=self.status, media_type=media_type, headers=headers)
        return Response(self.body, status_code=self.status, media_type=media_type, headers=headers)


class Pages:
    """The HTML side: every page of the reference, the search page and the playground."""

    def __init__(self, site: Site, cache_size: int):
        self.site = site
        self.pages = BoundedCache(cache_size)
        self.searches = BoundedCache(cache_size)

    def not_found_body(self, message: str, path: str) -> bytes:
        parts = path.strip("/").split("/") if path.strip("/") else []
        last = parts[-1] if parts else ""
        maybe = self.site.search.suggestions(last) if last and re.fullmatch(r"[A-Za-z0-9_.\-]{3,64}", last) else []
        prefer = parts[1] if len(parts) == 3 and parts[0] == "isa" else None
        for g in maybe:  # the generation asked for, where the suggestion has it
            g["link_arch"] = prefer if prefer in g["archs"] else g["archs"][0]
        return self.site.render_template("error.html", {"title": "Not found", "status": 404, "message": message,
                                                        "suggestions": maybe}, path).encode()

    def render_page(self, path: str) -> Cached:
        try:
            result = Cached(200, self.site.render(path).encode())
        except Redirect as r:
            result = Cached(301, b"", r.path)
        except PageMissing as exc:
            result = Cached(404, self.not_found_body(str(exc), path))
        self.pages.put(path, result)
        return result

    async def page(self, request: Request):
        path = request.url.path.strip("/")
        if request.url.path.endswith("/") and path:
            return RedirectResponse("/" + path, status_code=301)
        cached = self.pages.get(path) or await anyio.to_thread.run_sync(self.render_page, path)
        if cached.status == 301:
            return RedirectResponse("/" + cached.target, status_code=301)
        return cached.response(request)

    def search_groups(self, q: str, arch: str | None, isa: str | None = None) -> tuple[list[dict], str | None]:
        key = (q, arch, isa)
        hit = self.searches.get(key)
        if hit is None:
            hit = self.site.search.search(q, arch, isa)
            self.searches.put(key, hit)
        return hit

    def render_search(self, q: str, arch_text: str, isa_text: str, page: str) -> Cached:
        ctx = {"title": "Search", "q": q, "arch": arch_text, "isa": isa_text, "error": "",
               "isa_options": [(i.key, i.title) for i in isas.all_isas()]}
        if len(q) > MAX_QUERY:
            q, ctx["q"], ctx["error"] = q[:MAX_QUERY], q[:MAX_QUERY], f"search text is limited to {MAX_QUERY} characters"
        try:
            arch = self.site.canonical_arch(arch_text) if arch_text else None
            isa = isas.resolve(isa_text).key if isa_text else None
            if q.strip():
                groups, used = self.search_groups(q.strip(), arch, isa)
                ctx.update(page_of(groups, int(page) if page.isdigit() and len(page) < 6 else 1), used_arch=used or "")
        except (PageMissing, isas.UnknownIsa) as exc:
            ctx["error"] = str(exc)
        body = self.site.render_template("search.html", ctx, "search").encode()
        return Cached(422 if ctx["error"] else 200, body)

    async def search_page(self, request: Request):
        p = request.query_params
        key = ("page", p.get("q", ""), p.get("arch") or "", p.get("isa") or "", p.get("page", "1"))
        cached = self.searches.get(key)
        if cached is None:
            cached = await anyio.to_thread.run_sync(self.render_search, *key[1:])
            self.searches.put(key, cached)
        return cached.response(request, max_age=60)

    async def playground_page(self, request: Request):
        ctx: dict = {"title": "Playground", "native": self.site.native_archs(), "pg": await anyio.to_thread.run_sync(
            playground.form_state, request.query_params), "modes": list(playground.modes().values())}
        body = await anyio.to_thread.run_sync(self.site.render_template, "playground.html", ctx, "playground")
        return HTMLResponse(body, status_code=ctx["pg"].get("status", 200))

    async def not_found(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)  # the handler is registered for HTTPException only
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": exc.detail or "not found"}, status_code=exc.status_code)
        if exc.status_code == 404:
            return HTMLResponse(self.not_found_body("no such page", request.url.path), status_code=404)
        return Response(str(exc.detail), status_code=exc.status_code, media_type="text/plain",
                        headers=getattr(exc, "headers", None))


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class Api:
    """The JSON API (/api/...): read-only lookups and the playground's actions."""

    def __init__(self, site: Site, pages: Pages, cache_size: int):
        self.site, self.pages = site, pages
        self.search_json = BoundedCache(cache_size)
        self.asm_json = BoundedCache(cache_size)  # /api/asm answers, encoded
        self.schema_doc = openapi_schema(site.arch_names)
        self.show_cached = lru_cache(maxsize=256)(self._show)
        self.diff_cached = lru_cache(maxsize=128)(lambda a, b: diff_archs(site.store, a, b))

    def _show(self, name: str, arch: str | None, isa: str | None) -> dict:
        from ..pages import build_page

        page = isas.get(isa).build_page(self.site.store, name, arch) if isa else build_page(self.site.store, name, arch)
        page["url"] = "/" + instruction_path(page["arch"], page["name"])
        return page

    def arch_or_error(self, text: str | None, prefix: str = ""):
        try:
            return self.site.canonical_arch(text) if text else None, None
        except PageMissing as exc:
            return None, error(422 if isinstance(exc, UnknownArchName) else 404, prefix + str(exc))

    async def archs(self, request: Request):
        return JSONResponse([{"name": r["name"], "title": r["title"], "family": r["family"], "vendor": r["vendor"],
                              "isa": r["isa"], "kind": r["kind"], "targets": json.loads(r["targets"]),
                              "instructions": r["instructions"], "url": f"/isa/{r['name']}"} for r in self.site.arch_rows])

    async def show(self, request: Request):
        from ..pages import NotFound

        q = request.query_params
        name, isa = q.get("name", ""), q.get("isa") or None
        if not name.strip() or len(name) > 100:
            return error(422, "name is required: an instruction name such as v_msad_u8 (at most 100 characters)")
        if not re.fullmatch(r"[A-Za-z0-9_.]+", name.strip()):
            return error(422, "name must be an instruction name: letters, digits, '_' and '.'")
        if isa is not None and isa not in isas.keys():
            return error(422, f"isa must be one of {', '.join(isas.keys())}")
        arch, bad = self.arch_or_error(q.get("arch") or None)
        if bad:
            return bad
        if arch and isa and isas.of_arch(arch).key != isa:
            return error(404, f"no instruction {name} in {arch}: it is not an architecture of the {isa} ISA")
        try:
            return JSONResponse(await anyio.to_thread.run_sync(self.show_cached, name.strip().lower(), arch, isa))
        except NotFound as exc:
            return error(404, str(exc))

    async def search(self, request: Request):
        q = request.query_params
        text, limit = q.get("q", ""), q.get("limit", "30")
        if not text or len(text) > MAX_QUERY:
            return error(422, f"q is required: 1 to {MAX_QUERY} characters of search text")
        n = int(limit) if limit.isdigit() and len(limit) < 6 else 0
        if not 1 <= n <= MAX_LIMIT:
            return error(422, f"limit must be an integer from 1 to {MAX_LIMIT}")
        isa = q.get("isa") or None
        if isa is not None and isa not in isas.keys():
            return error(422, f"isa must be one of {', '.join(isas.keys())}")
        arch, bad = self.arch_or_error(q.get("arch") or None)
        if bad:
            return bad
        if not text.strip():
            return JSONResponse([])
        key = (text.strip(), arch, n, isa)
        cached = self.search_json.get(key)
        if cached is None:
            rows = await anyio.to_thread.run_sync(api_rows, self.site.search, *key)
            cached = Cached(200, json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode())
            self.search_json.put(key, cached)
        return cached.response(request, "application/json", 60)

    async def diff(self, request: Request):
        q = request.query_params
        a, bad = self.arch_or_error(q.get("a", "") or "-", "a and b must be architectures: ")
        b, bad2 = self.arch_or_error(q.get("b", "") or "-", "a and b must be architectures: ")
        if bad or bad2:
            return bad or bad2
        if archs.by_name(a).kind != "native" or archs.by_name(a).isa != archs.by_name(b).isa:
            return error(422, "a and b must be generations of one native ISA (e.g. a=rdna2&b=rdna3)")
        d = await anyio.to_thread.run_sync(self.diff_cached, a, b)
        return JSONResponse({**d, "url": f"/diff/{a}/{b}"})

    @staticmethod
    async def body_json(request: Request) -> dict:
        try:
            data = json.loads(await request.body() or b"null")
        except (ValueError, UnicodeDecodeError):
            raise playground.BadInput("the body must be a JSON object") from None
        if not isinstance(data, dict):
            raise playground.BadInput("the body must be a JSON object")
        return data

    def action(self, fn):
        async def endpoint(request: Request):
            try:
                data = await self.body_json(request)
                return JSONResponse(await anyio.to_thread.run_sync(fn, data))
            except playground.FeatureMissing as exc:
                return error(404, str(exc))
            except playground.BadInput as exc:
                return error(422, str(exc))
        return endpoint

    async def asm(self, request: Request):
        """Compiler Explorer-style opcode documentation: {tooltip, html, url} (gpuisa.doclookup)."""
        from ..doclookup import DocNotFound, cached, lookup, public

        isa, opcode = request.path_params["isa"], request.path_params["opcode"]
        if isa not in isas.keys("doc"):
            allowed = isas.keys("doc")
            return error(404, f"isa must be {' or '.join(allowed)}: /api/asm/{{{'|'.join(allowed)}}}/{{opcode}}")
        arch = request.query_params.get("arch") or None
        body = self.asm_json.get((opcode, isa, arch))
        if body is None:
            doc = cached(opcode, isa, arch, self.site.store_path)
            try:  # site.store is per thread: taken in the worker thread
                if not doc:
                    doc = await anyio.to_thread.run_sync(lambda: lookup(opcode, isa, arch, self.site.store))
            except DocNotFound as exc:
                return error(404, str(exc))
            body = json.dumps(public(doc), ensure_ascii=False, separators=(",", ":")).encode()
            self.asm_json.put((opcode, isa, arch), body)
        return Response(body, media_type="application/json", headers={"cache-control": "public, max-age=300"})

    async def unknown(self, request: Request):
        rest = request.path_params["rest"]
        if rest in ("decode", "encode", "eval", "ptx/check", "ptx/eval"):
            return JSONResponse({"error": "use POST with a JSON body"}, status_code=405, headers={"allow": "POST"})
        if rest in ("archs", "show", "search", "diff", "openapi.json", "schema/page.json"):
            return JSONResponse({"error": "read-only: use GET"}, status_code=405, headers={"allow": "GET, HEAD"})
        return error(404, "no such API endpoint (see /api/openapi.json)")

    async def openapi(self, request: Request):
        return JSONResponse(self.schema_doc)

    async def page_schema(self, request: Request):
        """The JSON schema of an instruction page (``schema/instruction-page.schema.json``), from the page model."""
        from ..page.schema import page_schema

        return JSONResponse(page_schema())

    def routes(self) -> list:
        post = ["POST"]
        return [
            Route("/api/openapi.json", self.openapi),
            Route("/api/schema/page.json", self.page_schema),
            Route("/api/archs", self.archs),
            Route("/api/show", self.show),
            Route("/api/search", self.search),
            Route("/api/diff", self.diff),
            Route("/api/decode", self.action(lambda d: playground.decode(d.get("arch"), d.get("hex"), d.get("wave64"))),
                  methods=post),
            Route("/api/encode", self.action(lambda d: playground.encode(d.get("arch"), d.get("text"), d.get("wave64"))),
                  methods=post),
            Route("/api/eval", self.action(lambda d: playground.evaluate(
                d.get("arch"), d.get("name"), d.get("lanes", 1), d.get("operands"), d.get("wave64"))), methods=post),
            Route("/api/ptx/check", self.action(lambda d: playground.ptx_check(d.get("text"), d.get("target"),
                                                                               d.get("version"))), methods=post),
            Route("/api/ptx/eval", self.action(lambda d: playground.ptx_evaluate(d.get("text"), d.get("operands"))),
                  methods=post),
            Route("/api/asm/{isa}/{opcode}", self.asm),
            Route("/api/{rest:path}", self.unknown, methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]),
        ]


def create_app(store_path: Path | None = None, cache_size: int = 4096) -> Starlette:
    site = Site(store_path)
    pages = Pages(site, cache_size)
    api = Api(site, pages, cache_size)
    routes = [
        *api.routes(),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
        Route("/search", pages.search_page),
        Route("/playground", pages.playground_page),
        Route("/{path:path}", pages.page),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: pages.not_found})
    app.state.site = site
    return guard(harden(cached_pages_first(pages, GZipMiddleware(app, minimum_size=800, compresslevel=6))))


def cached_pages_first(pages: Pages, app):
    """ASGI: a page already rendered is sent from memory before routing (the common case under load)."""

    async def fast(scope, receive, send):
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD") and not scope.get("query_string"):
            raw = scope["path"]
            cached = pages.pages.get(raw.strip("/")) if raw == "/" or not raw.endswith("/") else None
            if cached is not None and cached.status == 200:
                gz = cached.gz is not None and any(k == b"accept-encoding" and b"gzip" in v for k, v in scope["headers"])
                body = cached.gz if gz else cached.body
                headers = [(b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode()),
                           (b"cache-control", b"public, max-age=300"), (b"vary", b"accept-encoding")]
                if gz:
                    headers.append((b"content-encoding", b"gzip"))
                await send({"type": "http.response.start", "status": 200, "headers": headers})
                await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
                return
        await app(scope, receive, send)

    return fast
