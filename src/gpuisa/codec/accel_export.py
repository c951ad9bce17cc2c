"""The batch decoder's tables (``batch_arch.ArchBatch``) as the C loop (``fastdecode.c``) reads them: plain bytes
and numbers (``fastdecode.Tables``'s spec), for ``accel.py``'s cache and the committed base tables
(``regen/accel.py``).  Imports numpy: only a run that made the batch decoder calls it."""

from __future__ import annotations


def export(ab, wide: dict) -> dict:
    """The tables of ``ab`` (an ``ArchBatch``) as bytes and numbers (``fastdecode.Tables``'s spec); ``wide``: the
    selectors of wide buckets classified in this run (selector -> entry id)."""
    import numpy as np

    from .batch_arch import MAXC

    dw, wm, w3m, rlo, rhi = ab.np_rows()[:5]
    n = len(dw)
    cols = np.zeros((n, MAXC), np.uint64)
    cols[:, :ab.s_cols.shape[0]] = ab.s_cols.T
    wide = dict(wide)
    wide.update(zip(ab.wide_sel.tolist(), ab.wide_eid.tolist()))
    two = ab.sel64_ids
    spec = {"cls_base": ab.cls_base32.astype("<i4").tobytes(), "cls_sh": ab.cls_sh.astype("<u4").tobytes(),
            "cls_mk": ab.cls_mk.astype("<u4").tobytes(), "sel_mask": ab.sel_mask.astype("<u4").tobytes(),
            "cls_two": ab.cls_two.astype(np.uint8).tobytes(),
            "two_mask": (ab.two_mask if ab.two_mask is not None else np.zeros(512, np.uint64)).astype("<u8").tobytes(),
            "vopd": None if ab.dec.vopd is None else tuple(int(x) for x in ab.dec.vopd),
            "cls_table": ab.cls_table.astype("<i8").tobytes(),
            "dw": dw.astype("<i4").tobytes(), "wm": wm.astype("<u8").tobytes(), "w3m": w3m.astype("<u4").tobytes(),
            "rlo": rlo.astype("<u8").tobytes(), "rhi": rhi.astype("<u4").tobytes(),
            "vopd_rows": np.asarray(ab.vopd_rows, np.uint8).tobytes(),
            "count": np.asarray(ab.s_count, np.uint8).tobytes(), "cols": cols.astype("<u8").tobytes(),
            "wide_sel": np.array(list(wide), np.uint64).tobytes(), "wide_eid": np.array(list(wide.values()), np.int64).tobytes(),
            "two_key": np.array(list(two), np.uint64).tobytes(), "two_eid": np.array(list(two.values()), np.int64).tobytes()}
    spec.update(_export_templates(ab))
    spec.update(_export_pool(ab))
    return spec


def _export_templates(ab) -> dict:
    import numpy as np

    from .batch_arch import MAXC

    keys = sorted(ab.tpl_ids.items(), key=lambda kv: (kv[1] == 0, kv[1]))  # (templates in id order, then failures)
    fmts = [ab.tpl_fmt[tid].encode() if tid else b"" for _, tid in keys]
    free = getattr(ab, "tpl_free", {})
    bases = np.zeros((len(keys), MAXC), np.int64)
    for i, (_, tid) in enumerate(keys):
        if tid:
            bases[i, :ab.tpl_nph[tid]] = ab.tpl_base[tid, :ab.tpl_nph[tid]]
    return {"tpl_eid": np.array([k[0] for k, _ in keys], "<i4").tobytes(),
            "tpl_key": np.array([k[1] for k, _ in keys], "<u8").tobytes(),
            "tpl_key3": np.array([k[2] for k, _ in keys], "<u4").tobytes(),
            "tpl_len": np.array([len(f) if tid else -1 for f, (_, tid) in zip(fmts, keys)], "<i4").tobytes(),
            "tpl_nph": np.array([ab.tpl_nph[tid] for _, tid in keys], np.int8).tobytes(),
            "tpl_bases": bases.astype("<i8").tobytes(), "tpl_text": b"".join(fmts),
            # (the columns a template's own texts print where the entry's do not: ``regen/accel_seeds.py``'s)
            "tpl_free": np.array([free.get(tid, 0) for _, tid in keys], np.uint8).tobytes()}


def _export_pool(ab) -> dict:
    import numpy as np

    ix = np.flatnonzero(ab.pool_known[:ab.pool_used])
    ok = ab.pool_ok.take(ix)
    texts = ab.texts_bytes(ix[ok]).tolist()
    lens = np.full(len(ix), -1, np.int32)
    lens[ok] = [len(t) for t in texts]
    return {"pool_ix": ix.astype("<i8").tobytes(), "pool_len": lens.astype("<i4").tobytes(),
            "pool_text": b"".join(texts), "pool_size": int(ab.pool_used)}
