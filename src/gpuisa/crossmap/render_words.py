"""Proof figures in words, shared by the page section and the port command."""

from __future__ import annotations


def proof_words(entry: dict) -> str:
    """'checked on 30,000 inputs; differs outside the domain, e.g. a = 0x00800000' (or why not checked)."""
    c = entry.get("checked")
    if not c:
        return "listed (not executed)" if entry.get("relation") != "no single counterpart" else ""
    per = c["vectors"] // max(1, len(c["archs"]))
    words = f"checked on {per:,} inputs on each of {', '.join(c['archs'])}"
    if c["agreed"] != c["vectors"]:
        words += f"; {c['vectors'] - c['agreed']:,} DISAGREE"
    else:
        words += "; all agree" if entry["relation"] != "approximate" else "; all within the bound"
    cx = c.get("counterexample")
    if cx:
        var = cx.get("outside")
        val = cx["inputs"].get(var) if var else None
        against = f" from {cx['against']}" if cx.get("against") else ""
        if cx.get("how"):
            words += f"; differs when {cx['how']}"
        else:
            words += f"; differs{against} outside the domain, e.g. {var} = {val}"
    return words
