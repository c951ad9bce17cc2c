"""The ASGI application of ``gpuisa serve``: HTML pages, static files and the JSON API.

Read-only: pages and API answers are computed from the store (opened read-only) and cached in
memory, since the store does not change while the server runs.  Every request passes through
``guard``: a bounded request line and body, and security headers on every answer.
"""

from __future__ import annotations

import json
import re
import threading
from functools import lru_cache
from pathlib import Path

import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import archs
from ..diff import diff_archs
from . import playground
from .openapi import openapi_schema
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
        if path.startswith("/api/"):
            body, ctype = json.dumps({"error": message}).encode(), b"application/json"
        else:
            body, ctype = message.encode(), b"text/plain; charset=utf-8"
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", ctype), (b"content-length", str(len(body)).encode()), *SECURITY_HEADERS]})
        await send({"type": "http.response.body", "body": body})

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


def create_app(store_path: Path | None = None, cache_size: int = 2048) -> Starlette:
    site = Site(store_path)

    pages = BoundedCache(cache_size)
    searches = BoundedCache(cache_size)
    search_json = BoundedCache(cache_size)
    asm_json = BoundedCache(cache_size)  # /api/asm answers, encoded

    def render_page(path: str) -> tuple[int, bytes, str]:
        """(status, body, redirect target) of a canonical page path."""
        try:
            result = 200, site.render(path).encode(), ""
        except Redirect as r:
            result = 301, b"", r.path
        except PageMissing as exc:
            result = 404, site.render_template("error.html", {"title": "Not found", "status": 404,
                                                              "message": str(exc)}, path).encode(), ""
        pages.put(path, result)
        return result

    def search_cached(q: str, arch: str | None, limit: int) -> list[dict]:
        key = (q, arch, limit)
        rows = searches.get(key)
        if rows is None:
            rows = site.search_rows(q, arch, limit)
            searches.put(key, rows)
        return rows

    async def search_rows(q: str, arch: str | None, limit: int) -> list[dict]:
        rows = searches.get((q, arch, limit))  # answered from memory without a thread hop when cached
        return rows if rows is not None else await anyio.to_thread.run_sync(search_cached, q, arch, limit)

    @lru_cache(maxsize=128)
    def diff_cached(a: str, b: str) -> dict:
        return diff_archs(site.store, a, b)

    @lru_cache(maxsize=256)
    def show_cached(name: str, arch: str | None, isa: str | None) -> dict:
        from ..pages import build_page

        page = build_page(site.store, name, arch, isa)
        page["url"] = "/" + instruction_path(page["arch"], page["name"])
        return page

    schema_doc = openapi_schema(site.arch_names)

    def html(status: int, body: bytes) -> HTMLResponse:
        headers = {"cache-control": "public, max-age=300"} if status == 200 else {}
        return HTMLResponse(body, status_code=status, headers=headers)

    async def page(request: Request):
        path = request.url.path.strip("/")
        if request.url.path.endswith("/") and path:
            return RedirectResponse("/" + path, status_code=301)
        cached = pages.get(path)
        status, body, target = cached if cached is not None else await anyio.to_thread.run_sync(render_page, path)
        if status == 301:
            return RedirectResponse("/" + target, status_code=301)
        return html(status, body)

    async def search_page(request: Request):
        q, arch, err = request.query_params.get("q", ""), request.query_params.get("arch") or None, ""
        if len(q) > MAX_QUERY:
            q, err = q[:MAX_QUERY], f"search text is limited to {MAX_QUERY} characters"
        ctx = {"title": "Search", "q": q, "arch": arch or "", "error": err}
        try:
            arch = site.canonical_arch(arch) if arch else None
            if q.strip():
                ctx["results"] = await search_rows(q.strip(), arch, 100)
        except PageMissing as exc:
            ctx["error"] = str(exc)
        status = 422 if ctx["error"] else 200
        return HTMLResponse(await anyio.to_thread.run_sync(site.render_template, "search.html", ctx, "search"),
                            status_code=status)

    async def playground_page(request: Request):
        params = request.query_params
        ctx = {"title": "Playground", "native": site.native_archs(), "pg": _playground_form(params),
               "features": playground.available()}
        status = ctx["pg"].get("status", 200)
        body = await anyio.to_thread.run_sync(site.render_template, "playground.html", ctx, "playground")
        return HTMLResponse(body, status_code=status)

    # -- JSON API -----------------------------------------------------------------------------------------
    def error(status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    async def api_archs(request: Request):
        return JSONResponse([{"name": r["name"], "title": r["title"], "family": r["family"], "vendor": r["vendor"],
                              "isa": r["isa"], "kind": r["kind"], "targets": json.loads(r["targets"]),
                              "instructions": r["instructions"], "url": f"/isa/{r['name']}"} for r in site.arch_rows])

    async def api_show(request: Request):
        from ..pages import NotFound

        q = request.query_params
        name, arch, isa = q.get("name", ""), q.get("arch") or None, q.get("isa") or None
        if not name.strip() or len(name) > 100:
            return error(422, "name is required: an instruction name such as v_msad_u8 (at most 100 characters)")
        if not re.fullmatch(r"[A-Za-z0-9_.]+", name.strip()):
            return error(422, "name must be an instruction name: letters, digits, '_' and '.'")
        if isa is not None and isa not in ("amdgpu", "ptx"):
            return error(422, "isa must be amdgpu or ptx")
        try:
            arch = site.canonical_arch(arch) if arch else None
        except PageMissing as exc:
            return error(422 if isinstance(exc, UnknownArchName) else 404, str(exc))
        if arch and isa and archs.by_name(arch).isa != isa:
            return error(404, f"no instruction {name} in {arch}: it is not an architecture of the {isa} ISA")
        try:
            return JSONResponse(await anyio.to_thread.run_sync(show_cached, name.strip().lower(), arch, isa))
        except NotFound as exc:
            return error(404, str(exc))

    async def api_search(request: Request):
        q = request.query_params
        text, arch, limit = q.get("q", ""), q.get("arch") or None, q.get("limit", "30")
        if not text or len(text) > MAX_QUERY:
            return error(422, f"q is required: 1 to {MAX_QUERY} characters of search text")
        try:
            n = int(limit)
        except ValueError:
            n = 0
        if not 1 <= n <= MAX_LIMIT:
            return error(422, f"limit must be an integer from 1 to {MAX_LIMIT}")
        try:
            arch = site.canonical_arch(arch) if arch else None
        except PageMissing as exc:
            return error(422 if isinstance(exc, UnknownArchName) else 404, str(exc))
        if not text.strip():
            return JSONResponse([])
        key = (text.strip(), arch, n)
        body = search_json.get(key)
        if body is None:
            body = json.dumps(await search_rows(*key), ensure_ascii=False, separators=(",", ":")).encode()
            search_json.put(key, body)
        return Response(body, media_type="application/json")

    async def api_diff(request: Request):
        q = request.query_params
        try:
            a, b = site.canonical_arch(q.get("a", "")), site.canonical_arch(q.get("b", ""))
        except PageMissing as exc:
            return error(422 if isinstance(exc, UnknownArchName) else 404, f"a and b must be architectures: {exc}")
        if archs.by_name(a).kind != "native" or archs.by_name(a).isa != archs.by_name(b).isa:
            return error(422, "a and b must be generations of one native ISA (e.g. a=rdna2&b=rdna3)")
        d = await anyio.to_thread.run_sync(diff_cached, a, b)
        return JSONResponse({**d, "url": f"/diff/{a}/{b}"})

    async def body_json(request: Request) -> dict:
        try:
            data = json.loads(await request.body() or b"null")
        except (ValueError, UnicodeDecodeError):
            raise playground.BadInput("the body must be a JSON object") from None
        if not isinstance(data, dict):
            raise playground.BadInput("the body must be a JSON object")
        return data

    def api_action(action):
        async def endpoint(request: Request):
            try:
                data = await body_json(request)
                return JSONResponse(await anyio.to_thread.run_sync(action, data))
            except playground.FeatureMissing as exc:
                return error(404, str(exc))
            except playground.BadInput as exc:
                return error(422, str(exc))
        return endpoint

    async def api_asm(request: Request):
        """Compiler Explorer-style opcode documentation: {tooltip, html, url} (gpuisa.doclookup)."""
        from ..doclookup import DocNotFound, cached, lookup, public

        isa, opcode = request.path_params["isa"], request.path_params["opcode"]
        if isa not in ("amdgpu", "ptx"):
            return error(404, "isa must be amdgpu or ptx: /api/asm/{amdgpu|ptx}/{opcode}")
        arch = request.query_params.get("arch") or None
        body = asm_json.get((opcode, isa, arch))
        if body is None:
            doc = cached(opcode, isa, arch, site.store_path)
            try:  # site.store is per thread: taken in the worker thread
                doc = doc or await anyio.to_thread.run_sync(lambda: lookup(opcode, isa, arch, site.store))
            except DocNotFound as exc:
                return error(404, str(exc))
            body = json.dumps(public(doc), ensure_ascii=False, separators=(",", ":")).encode()
            asm_json.put((opcode, isa, arch), body)
        return Response(body, media_type="application/json", headers={"cache-control": "public, max-age=300"})

    async def api_unknown(request: Request):
        rest = request.path_params["rest"]
        if rest in ("decode", "encode", "eval"):
            return JSONResponse({"error": "use POST with a JSON body"}, status_code=405, headers={"allow": "POST"})
        if rest in ("archs", "show", "search", "diff", "openapi.json"):
            return JSONResponse({"error": "read-only: use GET"}, status_code=405, headers={"allow": "GET, HEAD"})
        return error(404, "no such API endpoint (see /api/openapi.json)")

    async def api_openapi(request: Request):
        return JSONResponse(schema_doc)

    async def not_found(request: Request, exc: HTTPException):
        if request.url.path.startswith("/api/"):
            return error(exc.status_code, exc.detail or "not found")
        if exc.status_code == 404:
            body = site.render_template("error.html", {"title": "Not found", "status": 404,
                                                       "message": "no such page"}, "")
            return HTMLResponse(body, status_code=404)
        return Response(str(exc.detail), status_code=exc.status_code, media_type="text/plain",
                        headers=getattr(exc, "headers", None))

    routes = [
        Route("/api/openapi.json", api_openapi),
        Route("/api/archs", api_archs),
        Route("/api/show", api_show),
        Route("/api/search", api_search),
        Route("/api/diff", api_diff),
        Route("/api/decode", api_action(lambda d: playground.decode(d.get("arch"), d.get("hex"))), methods=["POST"]),
        Route("/api/encode", api_action(lambda d: playground.encode(d.get("arch"), d.get("text"))), methods=["POST"]),
        Route("/api/eval", api_action(lambda d: playground.evaluate(d.get("arch"), d.get("name"), d.get("lanes", 1),
                                                                    d.get("operands"))), methods=["POST"]),
        Route("/api/asm/{isa}/{opcode}", api_asm),
        Route("/api/{rest:path}", api_unknown, methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
        Route("/search", search_page),
        Route("/playground", playground_page),
        Route("/{path:path}", page),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: not_found})
    app.state.site = site
    return guard(app)


def _playground_form(params) -> dict:
    """The no-JavaScript playground: the form's GET parameters answered on the server."""
    mode = params.get("mode", "decode")
    pg = {"mode": mode if mode in ("decode", "encode", "eval") else "decode", "arch": params.get("arch", "rdna3"),
          "hex": params.get("hex", ""), "text": params.get("text", ""), "name": params.get("name", ""),
          "lanes": params.get("lanes", "1"), "operands": params.get("operands", "")}
    try:
        if pg["mode"] == "decode" and pg["hex"]:
            pg["result"] = playground.decode(pg["arch"], pg["hex"])
        elif pg["mode"] == "encode" and pg["text"]:
            pg["result"] = playground.encode(pg["arch"], pg["text"])
        elif pg["mode"] == "eval" and pg["name"]:
            try:
                lanes = int(pg["lanes"])
            except ValueError:
                raise playground.BadInput(f"lanes must be an integer from 1 to {playground.MAX_LANES}") from None
            pg["result"] = playground.evaluate(pg["arch"], pg["name"], lanes,
                                               playground.parse_operands_text(pg["operands"]))
    except playground.FeatureMissing as exc:
        pg["error"], pg["status"] = str(exc), 404
    except playground.BadInput as exc:
        pg["error"], pg["status"] = str(exc), 422
    return pg
