"""Differences between two generations: added, removed, renumbered, re-encoded, layout changed."""

from __future__ import annotations

from .store import Store


def diff_archs(store: Store, a: str, b: str) -> dict:
    ea, eb = store.encodings_of(a), store.encodings_of(b)
    added = sorted(set(eb) - set(ea))
    removed = sorted(set(ea) - set(eb))
    renumbered, reencoded, relaid = [], [], []
    for name in sorted(set(ea) & set(eb)):
        da = {enc: (op, lay) for enc, op, lay in ea[name]}
        db = {enc: (op, lay) for enc, op, lay in eb[name]}
        if set(da) != set(db):
            reencoded.append({"name": name, "from": sorted(da), "to": sorted(db)})
        for enc in sorted(set(da) & set(db)):
            (opa, la), (opb, lb) = da[enc], db[enc]
            if opa != opb:
                renumbered.append({"name": name, "encoding": enc, "from": opa, "to": opb})
            if la != lb:
                relaid.append({"name": name, "encoding": enc})
    return {"from": a, "to": b, "added": added, "removed": removed, "renumbered": renumbered,
            "reencoded": reencoded, "layout_changed": relaid,
            "counts": {"added": len(added), "removed": len(removed), "renumbered": len(renumbered),
                       "reencoded": len(reencoded), "layout_changed": len(relaid)}}
