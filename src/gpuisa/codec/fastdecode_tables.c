/* fastdecode_tables.c: the C accelerator's tables (the batch decoder's, exported by codec/accel.py), their
 * loading from the spec dict, and the map's writer.  See fastdecode.c's header. */
#include "fastdecode.h"

int map_put(Map *m, uint64_t a, uint64_t b, int64_t v) {
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 1024;
        Slot *s = calloc(cap, sizeof(Slot));
        if (!s) { PyErr_NoMemory(); return -1; }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->s[i].used) continue;
            size_t j = map_hash(m->s[i].a, m->s[i].b, cap);
            while (s[j].used) j = (j + 1) & (cap - 1);
            s[j] = m->s[i];
        }
        free(m->s);
        m->s = s; m->cap = cap;
    }
    size_t i = map_hash(a, b, m->cap);
    while (m->s[i].used) {
        if (m->s[i].a == a && m->s[i].b == b) { m->s[i].v = v; return 0; }
        i = (i + 1) & (m->cap - 1);
    }
    m->s[i].used = 1;
    m->s[i].a = a; m->s[i].b = b; m->s[i].v = v;
    m->n++;
    return 0;
}

void map_free(Map *m) { free(m->s); m->s = NULL; m->cap = m->n = 0; }

static int copy_buffer(PyObject *spec, const char *key, void *dst, Py_ssize_t size) {
    PyObject *o = PyDict_GetItemString(spec, key);
    if (!o) { PyErr_Format(PyExc_KeyError, "%s", key); return -1; }
    Py_buffer v;
    if (PyObject_GetBuffer(o, &v, PyBUF_SIMPLE) < 0) return -1;
    if (v.len != size) {
        PyBuffer_Release(&v);
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, not %zd", key, v.len, size);
        return -1;
    }
    memcpy(dst, v.buf, size);
    PyBuffer_Release(&v);
    return 0;
}

/* a bytes-like value of the spec, copied into a fresh block; its length in items of `item` bytes */
static void *copy_array(PyObject *spec, const char *key, Py_ssize_t item, Py_ssize_t *count) {
    PyObject *o = PyDict_GetItemString(spec, key);
    if (!o) { PyErr_Format(PyExc_KeyError, "%s", key); return NULL; }
    Py_buffer v;
    if (PyObject_GetBuffer(o, &v, PyBUF_SIMPLE) < 0) return NULL;
    if (v.len % item) { PyBuffer_Release(&v); PyErr_Format(PyExc_ValueError, "%s: ragged", key); return NULL; }
    void *p = malloc(v.len ? v.len : 1);
    if (!p) { PyBuffer_Release(&v); PyErr_NoMemory(); return NULL; }
    memcpy(p, v.buf, v.len);
    *count = v.len / item;
    PyBuffer_Release(&v);
    return p;
}

int rows_reserve(Tables *t, Py_ssize_t n) {
    if (n <= t->caprows) return 0;
    Py_ssize_t cap = t->caprows ? t->caprows : 256;
    while (cap < n) cap *= 2;
    Row *r = realloc(t->rows, cap * sizeof(Row));
    if (!r) { PyErr_NoMemory(); return -1; }
    memset(r + t->caprows, 0, (cap - t->caprows) * sizeof(Row));
    t->rows = r; t->caprows = cap;
    return 0;
}

static int pool_reserve(Tables *t, Py_ssize_t n) {
    if (n <= t->npool) return 0;
    uint8_t *s = realloc(t->pool_state, n);
    int64_t *o = realloc(t->pool_off, n * sizeof(int64_t));
    int32_t *l = realloc(t->pool_len, n * sizeof(int32_t));
    if (s) t->pool_state = s;
    if (o) t->pool_off = o;
    if (l) t->pool_len = l;
    if (!s || !o || !l) { PyErr_NoMemory(); return -1; }
    memset(s + t->npool, 0, n - t->npool);
    t->npool = n;
    return 0;
}

/* pool index -> text (state 1: ASCII, 3: other UTF-8) or not printable (state 2) */
int pool_set(Tables *t, Py_ssize_t ix, const char *s, Py_ssize_t n, int ok) {
    if (ix < 0) { PyErr_SetString(PyExc_ValueError, "negative pool index"); return -1; }
    if (ix >= t->npool && pool_reserve(t, ix + 1 > 2 * t->npool ? ix + 1 : 2 * t->npool) < 0) return -1;
    t->pool_state[ix] = ok ? (utf8_chars(s, n) == n ? 1 : 3) : 2;
    t->pool_off[ix] = (int64_t)t->pool_text.n;
    t->pool_len[ix] = ok ? (int32_t)n : 0;
    return ok ? buf_put(&t->pool_text, s, n) : 0;
}

Py_ssize_t tpl_add(Tables *t, uint32_t eid, uint64_t key, uint32_t key3, const char *fmt, Py_ssize_t n,
                          const int64_t *bases, int nph) {
    if (t->ntpl == t->captpl) {
        Py_ssize_t cap = t->captpl ? 2 * t->captpl : 1024;
        Tpl *p = realloc(t->tpl, cap * sizeof(Tpl));
        if (!p) { PyErr_NoMemory(); return -1; }
        t->tpl = p; t->captpl = cap;
    }
    if (t->ntpl == 0) { memset(&t->tpl[0], 0, sizeof(Tpl)); t->ntpl = 1; } /* tid 0: none */
    Py_ssize_t tid = t->ntpl++;
    Tpl *tp = &t->tpl[tid];
    tp->off = (int64_t)t->tpl_text.n; tp->nph = nph; tp->ascii = utf8_chars(fmt, n) == n; tp->bad = nph > MAXC;
    tp->free = 0;
    memset(tp->bases, 0, sizeof(tp->bases));
    memset(tp->cut, 0, sizeof(tp->cut));
    for (int j = 0; j < nph && j < MAXC; j++) tp->bases[j] = bases[j];
    if (buf_reserve(&t->tpl_text, n) < 0) return -1;
    char *w = t->tpl_text.p + t->tpl_text.n;
    int k = 0;
    for (Py_ssize_t j = 0; j < n; j++) { /* %s: where the next operand goes; %%: a percent sign; else unusable */
        if (fmt[j] != '%') { *w++ = fmt[j]; continue; }
        if (j + 1 < n && fmt[j + 1] == '%') *w++ = '%';
        else if (j + 1 < n && fmt[j + 1] == 's' && k < nph && k < MAXC) tp->cut[k++] = (int32_t)(w - (t->tpl_text.p + t->tpl_text.n));
        else tp->bad = 1;
        j++;
    }
    tp->bad |= k != nph;
    tp->len = (int32_t)(w - (t->tpl_text.p + t->tpl_text.n));
    t->tpl_text.n += tp->len;
    if (map_put(&t->tpls, key, (uint64_t)eid << 32 | key3, tid) < 0) return -1;
    return tid;
}

static int load_rows(Tables *t, PyObject *spec) {
    Py_ssize_t n, k;
    int32_t *dw = copy_array(spec, "dw", 4, &n);
    uint64_t *wm = copy_array(spec, "wm", 8, &k), *rlo = copy_array(spec, "rlo", 8, &k);
    uint32_t *w3m = copy_array(spec, "w3m", 4, &k), *rhi = copy_array(spec, "rhi", 4, &k);
    uint8_t *vopd = copy_array(spec, "vopd_rows", 1, &k), *cnt = copy_array(spec, "count", 1, &k);
    uint64_t *cols = copy_array(spec, "cols", 8, &k); /* per entry MAXC packed columns */
    int rc = -1;
    if (dw && wm && rlo && w3m && rhi && vopd && cnt && cols && k == n * MAXC && rows_reserve(t, n) == 0) {
        for (Py_ssize_t e = 0; e < n; e++) {
            Row *r = &t->rows[e];
            r->dw = dw[e]; r->wm = wm[e]; r->rlo = rlo[e]; r->w3m = w3m[e]; r->rhi = rhi[e];
            r->vopd = vopd[e]; r->cnt = cnt[e] > MAXC ? MAXC : cnt[e];
            memcpy(r->cols, cols + e * MAXC, sizeof(r->cols));
        }
        t->nrows = n;
        rc = 0;
    } else if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "entry rows: inconsistent lengths");
    }
    free(dw); free(wm); free(rlo); free(w3m); free(rhi); free(vopd); free(cnt); free(cols);
    return rc;
}

/* (key, second key: bkey's array, 0 where bkey is NULL) -> value */
static int load_pairs(Map *m, PyObject *spec, const char *kkey, const char *bkey, const char *vkey) {
    Py_ssize_t n, k, nb = 0;
    uint64_t *keys = copy_array(spec, kkey, 8, &n), *b = bkey ? copy_array(spec, bkey, 8, &nb) : NULL;
    int64_t *vals = copy_array(spec, vkey, 8, &k);
    int rc = -1;
    if (keys && vals && n == k && (!bkey || (b && nb == n))) {
        rc = 0;
        for (Py_ssize_t i = 0; i < n && rc == 0; i++) rc = map_put(m, keys[i], b ? b[i] : 0, vals[i]);
    } else if (!PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "%s: inconsistent lengths", kkey);
    }
    free(keys); free(vals); free(b);
    return rc;
}

/* templates: eid, key, key3 (arrays), their formats (one blob, lengths), placeholders and pool bases, and
 * (optional: the base tables') the columns each may print where the entry's own texts do not */
static int load_templates(Tables *t, PyObject *spec) {
    Py_ssize_t n, k, nb, nf, nfree = 0;
    uint8_t *fr = PyDict_GetItemString(spec, "tpl_free") ? copy_array(spec, "tpl_free", 1, &nfree) : NULL;
    int32_t *eid = copy_array(spec, "tpl_eid", 4, &n);
    uint64_t *key = copy_array(spec, "tpl_key", 8, &k);
    uint32_t *key3 = copy_array(spec, "tpl_key3", 4, &k);
    int32_t *len = copy_array(spec, "tpl_len", 4, &k);
    int8_t *nph = copy_array(spec, "tpl_nph", 1, &k);
    int64_t *bases = copy_array(spec, "tpl_bases", 8, &nb);
    char *fmt = copy_array(spec, "tpl_text", 1, &nf);
    int rc = -1;
    if (eid && key && key3 && len && nph && bases && fmt && nb == n * MAXC) {
        rc = 0;
        int64_t at = 0;
        for (Py_ssize_t i = 0; i < n && rc == 0; i++) {
            if (len[i] < 0) { /* a key known to have no template */
                rc = map_put(&t->tpls, key[i], (uint64_t)(uint32_t)eid[i] << 32 | key3[i], 0);
                continue;
            }
            if (at + len[i] > nf) { PyErr_SetString(PyExc_ValueError, "templates: text too short"); rc = -1; break; }
            Py_ssize_t tid = tpl_add(t, (uint32_t)eid[i], key[i], key3[i], fmt + at, len[i], bases + i * MAXC, nph[i]);
            rc = tid < 0 ? -1 : 0;
            if (tid > 0 && fr && i < nfree) t->tpl[tid].free = fr[i];
            at += len[i];
        }
    } else if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "templates: inconsistent lengths");
    }
    free(eid); free(key); free(key3); free(len); free(nph); free(bases); free(fmt); free(fr);
    return rc;
}

static int load_pool(Tables *t, PyObject *spec) {
    Py_ssize_t n, k, nt;
    int64_t *ix = copy_array(spec, "pool_ix", 8, &n);
    int32_t *len = copy_array(spec, "pool_len", 4, &k);
    char *text = copy_array(spec, "pool_text", 1, &nt);
    PyObject *size = PyDict_GetItemString(spec, "pool_size");
    int rc = -1;
    if (ix && len && text && n == k && size && pool_reserve(t, PyLong_AsSsize_t(size)) == 0) {
        rc = 0;
        int64_t at = 0;
        for (Py_ssize_t i = 0; i < n && rc == 0; i++) {
            int ok = len[i] >= 0;
            if (ok && at + len[i] > nt) { PyErr_SetString(PyExc_ValueError, "pool: text too short"); rc = -1; break; }
            rc = pool_set(t, ix[i], text + at, ok ? len[i] : 0, ok);
            if (ok) at += len[i];
        }
    } else if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "pool: inconsistent lengths");
    }
    free(ix); free(len); free(text);
    return rc;
}

int Tables_init(Tables *t, PyObject *args, PyObject *kw) {
    PyObject *spec;
    if (!PyArg_ParseTuple(args, "O!", &PyDict_Type, &spec)) return -1;
    if (copy_buffer(spec, "cls_base", t->cls_base, sizeof(t->cls_base)) < 0 ||
        copy_buffer(spec, "cls_sh", t->cls_sh, sizeof(t->cls_sh)) < 0 ||
        copy_buffer(spec, "cls_mk", t->cls_mk, sizeof(t->cls_mk)) < 0 ||
        copy_buffer(spec, "sel_mask", t->sel_mask, sizeof(t->sel_mask)) < 0 ||
        copy_buffer(spec, "cls_two", t->cls_two, sizeof(t->cls_two)) < 0 ||
        copy_buffer(spec, "two_mask", t->two_mask, sizeof(t->two_mask)) < 0)
        return -1;
    PyObject *vopd = PyDict_GetItemString(spec, "vopd");
    t->has_vopd = vopd && vopd != Py_None;
    if (t->has_vopd && !PyArg_ParseTuple(vopd, "II", &t->vopd_mask, &t->vopd_value)) return -1;
    free(t->cls);
    t->cls = copy_array(spec, "cls_table", 8, &t->ncls);
    if (!t->cls) return -1;
    for (int p = 0; p < 512; p++) {
        if (t->cls_base[p] < 0 || t->cls_base[p] >= t->ncls) { PyErr_SetString(PyExc_ValueError, "class base"); return -1; }
        if (t->cls_sh[p] > 31) { PyErr_SetString(PyExc_ValueError, "class shift"); return -1; }
        if ((int64_t)t->cls_base[p] + t->cls_mk[p] >= t->ncls) { PyErr_SetString(PyExc_ValueError, "class mask"); return -1; }
    }
    if (load_rows(t, spec) < 0 || load_pairs(&t->wide, spec, "wide_sel", NULL, "wide_eid") < 0 ||
        load_pairs(&t->two, spec, "two_key", NULL, "two_eid") < 0 || load_templates(t, spec) < 0 || load_pool(t, spec) < 0)
        return -1;
    if (PyDict_GetItemString(spec, "lit_eid") && load_pairs(&t->lits, spec, "lit_eid", NULL, "lit_col") < 0) return -1;
    if (PyDict_GetItemString(spec, "lit2_key") && load_pairs(&t->lits, spec, "lit2_key", "lit2_eid", "lit2_col") < 0)
        return -1;
    return 0;
}

void Tables_dealloc(Tables *t) {
    free(t->cls); map_free(&t->wide); map_free(&t->two); map_free(&t->tpls); map_free(&t->lits);
    free(t->rows); free(t->tpl); free(t->tpl_text.p); free(t->pool_state); free(t->pool_off); free(t->pool_len);
    free(t->pool_text.p);
    Py_TYPE(t)->tp_free((PyObject *)t);
}
