"""Committed data files written one entry per line, so a regenerate shows small diffs."""

from __future__ import annotations

import json


def dumps_one_per_line(head: dict, key: str, items: dict | list) -> str:
    """``{head keys..., key: {k: v, ...}}`` (or a list) with each item compact on its own line."""
    lines = ["{", *[f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]]
    if isinstance(items, dict):
        entries = [f"{json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}" for k, v in items.items()]
        open_, close = "{", "}"
    else:
        entries = [json.dumps(v, separators=(",", ":")) for v in items]
        open_, close = "[", "]"
    lines.append(f"  {json.dumps(key)}: {open_}")
    lines += [f"    {e}" + ("," if i < len(entries) - 1 else "") for i, e in enumerate(entries)]
    lines += [f"  {close}", "}"]
    return "\n".join(lines) + "\n"
