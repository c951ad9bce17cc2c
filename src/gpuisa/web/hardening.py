"""Limits that keep ``gpuisa serve`` answering whatever a client sends: request heads, JSON bodies, content types.

Two layers, each answering one line (JSON under /api/, plain text elsewhere) and never a 500:

* ``BoundedHttpToolsProtocol``: uvicorn's httptools protocol with a limit on the bytes of a request head
  (request line and headers) still incomplete, checked as the bytes arrive, and a time limit on an incomplete
  head.  httptools itself buffers a header of any length, and uvicorn's ``h11_max_incomplete_event_size`` only
  applies to h11, so without it a 64 MiB header is read in full.  Past the limit the server answers 431 and
  closes the connection; memory stays bounded by the limit plus one read.  ``http_protocol()`` picks it, or
  h11 (bounded by ``h11_max_incomplete_event_size``) where httptools is not installed.
* ``harden``: ASGI middleware: a complete head of more than ``MAX_HEAD`` bytes or ``MAX_HEADERS`` headers -> 431;
  a POST to /api/ with a non-JSON Content-Type -> 415; a JSON body nested deeper than ``MAX_JSON_DEPTH`` -> 400
  (``json.loads`` recurses, so 10,000 ``[`` would otherwise raise RecursionError).  The body is read once here,
  through the outer ``guard``'s size limit, and handed on unchanged.
"""

from __future__ import annotations

import asyncio
import json
import re

MAX_HEAD = 16 * 1024  # request line + headers of a complete head (h11's limit is set to the same)
RAW_HEAD_LIMIT = 64 * 1024  # bytes read while a head is still incomplete: then 431 and the connection closes
HEAD_TIMEOUT = 10.0  # seconds an incomplete head may take (a client trickling a header forever)
MAX_HEADERS = 100
MAX_JSON_DEPTH = 16

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKET = bytes(c for c in range(256) if c not in b"[]{}")


def json_depth(raw: bytes, limit: int = MAX_JSON_DEPTH) -> int:
    """How deep the arrays and objects of a JSON text nest, counted up to ``limit + 1`` (strings skipped)."""
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKET)
    opening = brackets.count(b"[") + brackets.count(b"{")
    if opening <= limit:
        return opening
    depth = deepest = 0
    for c in brackets:
        if c in (0x5B, 0x7B):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        else:
            depth -= 1
    return deepest


def json_content_type(value: bytes | None) -> bool:
    """Whether a POST body's Content-Type may hold JSON: absent, application/json or application/*+json."""
    if value is None:
        return True
    mime = value.split(b";", 1)[0].strip().lower()
    return mime in (b"", b"application/json") or (mime.startswith(b"application/") and mime.endswith(b"+json"))


async def answer(send, status: int, message: str, path: str, extra: tuple = ()) -> None:
    """One line: ``{"error": ...}`` under /api/, plain text elsewhere; the connection is kept."""
    if path.startswith("/api/"):
        body, ctype = json.dumps({"error": message}).encode(), b"application/json"
    else:
        body, ctype = message.encode(), b"text/plain; charset=utf-8"
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", ctype), (b"content-length", str(len(body)).encode()), *extra]})
    await send({"type": "http.response.body", "body": body})


def head_problem(scope) -> str | None:
    headers = scope.get("headers") or []
    if len(headers) > MAX_HEADERS:
        return f"too many request headers (at most {MAX_HEADERS})"
    size = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
    size += sum(len(k) + len(v) + 4 for k, v in headers)
    if size > MAX_HEAD:
        return f"request headers too large (at most {MAX_HEAD} bytes)"
    return None


async def read_body(receive) -> bytes:
    """The whole body (the outer guard's receive raises 413 past its limit)."""
    chunks, more = [], True
    while more:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ConnectionAbortedError
        chunks.append(message.get("body", b""))
        more = message.get("more_body", False)
    return b"".join(chunks)


def harden(app):
    """ASGI middleware: head limits (431), JSON Content-Type (415) and JSON depth (400) of API bodies."""
    from starlette.exceptions import HTTPException

    async def middleware(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        path = scope.get("path", "")
        problem = head_problem(scope)
        if problem:
            return await answer(send, 431, problem, path, ((b"connection", b"close"),))
        if scope["method"] != "POST" or not path.startswith("/api/"):
            return await app(scope, receive, send)
        ctype = next((v for k, v in scope["headers"] if k == b"content-type"), None)
        if not json_content_type(ctype):
            return await answer(send, 415, "the body must be JSON: send it with Content-Type: application/json", path)
        try:
            body = await read_body(receive)
        except HTTPException as exc:
            return await answer(send, exc.status_code, str(exc.detail), path)
        except ConnectionAbortedError:
            return None
        if json_depth(body) > MAX_JSON_DEPTH:
            return await answer(send, 400, f"the JSON body is nested too deeply (at most {MAX_JSON_DEPTH} levels)", path)
        from . import offload

        if offload.ACTIVE is not None and path in offload.API:  # the playground's work: on a worker process
            status, answer_body = await offload.api_answer(offload.ACTIVE, path, body)
            await send({"type": "http.response.start", "status": status, "headers": [
                (b"content-type", b"application/json"), (b"content-length", str(len(answer_body)).encode())]})
            return await send({"type": "http.response.body", "body": answer_body})
        replayed = False

        async def replay():
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await app(scope, replay, send)

    return middleware


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # httptools absent: uvicorn uses h11, bounded by h11_max_incomplete_event_size
    HttpToolsProtocol = None  # type: ignore[misc, assignment]  # optional dependency: None marks it absent

if HttpToolsProtocol is not None:
    class BoundedHttpToolsProtocol(HttpToolsProtocol):
        """httptools with a bounded, timed request head: 431 and close past ``RAW_HEAD_LIMIT`` or ``HEAD_TIMEOUT``."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._head_bytes = 0
            self._in_head = False  # from a message's first byte to the end of its headers
            self._head_timer: asyncio.TimerHandle | None = None

        def data_received(self, data: bytes) -> None:
            super().data_received(data)  # httptools keeps at most this read of an unfinished head
            if not self._in_head or self.transport.is_closing():
                return
            self._head_bytes += len(data)
            if self._head_bytes > RAW_HEAD_LIMIT:
                self._refuse(f"request headers too large (at most {MAX_HEAD} bytes)")
            elif self._head_timer is None and self._head_bytes:
                self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._refuse, "request headers took too long")

        def on_message_begin(self) -> None:
            self._in_head, self._head_bytes = True, 0
            super().on_message_begin()

        def on_headers_complete(self) -> None:
            self._in_head = False
            self._cancel_timer()
            super().on_headers_complete()

        def connection_lost(self, exc) -> None:
            self._cancel_timer()
            super().connection_lost(exc)

        def _cancel_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _refuse(self, message: str) -> None:
            self._head_timer = None
            if self.transport.is_closing():
                return
            if self.cycle is None or self.cycle.response_complete:  # no answer of an earlier request under way
                body = message.encode()
                self.transport.write(b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; "
                                     b"charset=utf-8\r\nconnection: close\r\ncontent-length: "
                                     + str(len(body)).encode() + b"\r\n\r\n" + body)
            self.transport.close()
else:
    BoundedHttpToolsProtocol = None  # type: ignore[misc, assignment]  # no httptools: None selects h11


def http_protocol():
    """What to pass as uvicorn's ``http``: the bounded httptools protocol, else "h11"."""
    return "h11" if BoundedHttpToolsProtocol is None else BoundedHttpToolsProtocol
