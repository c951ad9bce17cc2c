"""The PTX validator's committed forms index (``data/ptx/forms.marshal``; what it holds and how it is read:
``ptx/forms_index.py``), made from the family files with the form corrections applied.

    python -m gpuisa.regen.ptxforms [--check]      (or: python -m gpuisa.regen --steps ptxforms)
"""

from __future__ import annotations

import copy
import marshal
import sys

from ..ptx import catalog, forms_index
from ..ptx.corrections import correct_forms


def build() -> bytes:
    """The index file's bytes, made from the family files: the first line, the header's size (4 bytes,
    little-endian), the header (key, ignored tokens, {head: (start, end)}), the heads' entries
    (``forms_index.head_entry``: each form marshalled on its own, its equal strings shared)."""
    ignored = catalog.ignored_tokens()
    spans, chunks, at = {}, [], 0
    for head, forms in sorted(catalog.forms_by_head().items()):
        fixed = correct_forms(copy.deepcopy(forms))
        one = [marshal.dumps(_shared(form, {}), forms_index.MARSHAL_VERSION) for _, form in fixed]
        blob = marshal.dumps(forms_index.head_entry(fixed, one), forms_index.MARSHAL_VERSION)
        spans[head] = (at, at + len(blob))
        chunks.append(blob)
        at += len(blob)
    header = marshal.dumps((forms_index.source_key(), ignored, spans), forms_index.MARSHAL_VERSION)
    return forms_index.GENERATED_BY + len(header).to_bytes(4, "little") + header + b"".join(chunks)


def _shared(obj, strings: dict):
    """The same containers with equal strings made one object: marshal writes each string once and then
    refers to it (half the bytes, half the time to load), and what it writes depends on the content only
    (marshal shares an object that more than one container holds)."""
    if isinstance(obj, str):  # (a new object, not interned: the bytes do not depend on other users of the string)
        return strings.setdefault(obj, obj.encode().decode())
    if isinstance(obj, list):
        return [_shared(x, strings) for x in obj]
    if isinstance(obj, tuple):
        return tuple(_shared(x, strings) for x in obj)
    if isinstance(obj, dict):
        return {_shared(k, strings): _shared(v, strings) for k, v in obj.items()}
    return obj


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    data = build()
    if "--check" in argv:
        try:
            with open(forms_index.INDEX_PATH, "rb") as fh:
                same = fh.read() == data
        except OSError:
            same = False
        print(f"{forms_index.INDEX_PATH}: {'up to date' if same else 'stale: run python -m gpuisa.regen --steps ptxforms'}")
        return 0 if same else 1
    with open(forms_index.INDEX_PATH, "wb") as fh:
        fh.write(data)
    print(f"wrote {forms_index.INDEX_PATH} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
