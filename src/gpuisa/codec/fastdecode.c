/* fastdecode: the hot loop of `gpuisa decode`'s plain listing, in C.
 *
 * Why C: on a 200,000-instruction code object the whole `gpuisa decode` process took 0.22-0.28 s (rdna3,
 * rdna4, cdna3) against 0.40-0.65 s for llvm-objdump-22 and 0.41 s for llvm-mc-22; the goal is 4x, about
 * 0.1 s for the whole process.  Of that time `import numpy` alone is 58-70 ms, the batch walk ~76 ms and
 * the listing's formatting ~62 ms: no Python or numpy formulation of the walk fits.  Here the walk, the
 * rendering of each distinct word from its %-template and the listing lines are one pass over the bytes.
 *
 * What it does: `Tables(spec)` holds a copy of the batch decoder's tables (batch_arch.ArchBatch, exported by
 * codec/accel.py: class table, entry rows, templates, operand-text pool).  `Tables.listing(data, address,
 * labels, plain, resolver)` walks the instruction starts of `data` exactly as the scalar main loop does
 * (classify the dword, size from the entry row, the scalar path where the batch path cannot vouch, the tail
 * loop over the last bytes), renders each distinct word once (its cut operands' texts from the pool, its
 * template keyed by the entry and the rest of the word) and writes llvm-objdump's lines (text padded to 59
 * columns, `// ADDRESS: DWORDS`, branch targets as <symbol+0x..>, `<symbol>:` headers, a symbol inside an
 * instruction restarting the walk there) into one bytes object.
 *
 * Whatever the tables do not hold goes to the resolver (Python): `cls_dense/cls_wide/cls_two` (a selector
 * not classified yet), `row` (a new entry), `tpl` (a template not made yet), `pool` (an operand text not
 * made yet), `scalar` (the scalar decoder's text, size and step at one start).  A resolver answer of None
 * means "not known": the start goes to `scalar`.  Answers are kept for the rest of the run.
 *
 * Measured (benchmarks/bench_decode.py, warm data folder): the whole process 0.04-0.05 s CPU; this loop ~30 ms
 * of it for 200,000 instructions (one pass, no per-word cache: a render from the template is cheaper than a
 * lookup in a table of the distinct words, and touches less fresh memory).  The tables and the map live in
 * fastdecode_tables.c, the symbols and literal values in fastdecode_input.c, the shared types in fastdecode.h.
 *
 * The pure-Python/numpy path (codec/batch*.py, codec/listing.py) is the reference and the fallback: it runs
 * when this module is missing (no compiler at install time) or GPUISA_NO_ACCEL=1; tests check that both
 * give the same bytes.
 */
#include "fastdecode.h"

/* -- one run --------------------------------------------------------------------------------------- */
typedef struct {
    Tables *t;
    PyObject *resolver; /* None: every miss fails the run (returns None) */
    PyObject *data;     /* the whole input (bytes) */
    PyObject *stream;   /* the bytes of the current stream (data from its start), made when first needed */
    const uint8_t *p;   /* the stream */
    Py_ssize_t len, start;
    Buf out;
    PyObject *write; /* None: the listing is returned as one bytes object */
    Buf scratch;      /* the text of the word being rendered */
} Run;

#define CHUNK (1 << 20)

/* the lines made so far to the writer (a read-only memoryview of them: the callee must not keep it) */
static int flush_out(Run *r) {
    if (r->write == Py_None || !r->out.n) return 0;
    PyObject *mv = PyMemoryView_FromMemory(r->out.p, r->out.n, PyBUF_READ);
    if (!mv) return -1;
    PyObject *got = PyObject_CallOneArg(r->write, mv), *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb); /* (the writer's error, kept while the view is released) */
    PyObject *rel = PyObject_CallMethod(mv, "release", NULL); /* (fails where the writer kept a view of it) */
    int ok = got && rel;
    Py_XDECREF(rel);
    Py_DECREF(mv);
    Py_XDECREF(got);
    if (et) {
        PyErr_Clear();
        PyErr_Restore(et, ev, tb);
    }
    r->out.n = 0;
    return ok ? 0 : -1;
}

static inline uint32_t dword_at(const Run *r, Py_ssize_t byte) { /* little-endian, zero past the end */
    uint32_t v = 0;
    if (byte >= 0 && byte + 4 <= r->len) {
        memcpy(&v, r->p + byte, 4);
        return v; /* (little-endian hosts; see PyInit) */
    }
    for (int k = 0; k < 4; k++)
        if (byte + k < r->len) v |= (uint32_t)r->p[byte + k] << (8 * k);
    return v;
}

static PyObject *stream_bytes(Run *r) {
    if (!r->stream) r->stream = r->start ? PyBytes_FromStringAndSize((const char *)r->p, r->len)
                                         : (Py_INCREF(r->data), r->data);
    return r->stream;
}

/* resolver.name(*args): a new reference, or NULL with an exception set */
static PyObject *ask(Run *r, const char *name, const char *fmt, ...) {
    r->t->misses++;
    va_list va;
    va_start(va, fmt);
    PyObject *args = Py_VaBuildValue(fmt, va);
    va_end(va);
    if (!args) return NULL;
    PyObject *f = PyObject_GetAttrString(r->resolver, name);
    PyObject *got = f ? PyObject_CallObject(f, args) : NULL;
    Py_XDECREF(f);
    Py_DECREF(args);
    return got;
}

static int row_known(Run *r, int64_t eid) { /* 1: row there; 0: not (start to scalar); -1: error */
    Tables *t = r->t;
    if (eid < t->nrows) return 1;
    PyObject *got = ask(r, "row", "(L)", (long long)eid);
    if (!got) return PyErr_Occurred() ? -1 : 0;
    if (got == Py_None) { Py_DECREF(got); return 0; }
    int dw, vopd;
    unsigned long long wm, rlo;
    unsigned int w3m, rhi;
    PyObject *cols;
    int ok = PyArg_ParseTuple(got, "iKIKIpO", &dw, &wm, &w3m, &rlo, &rhi, &vopd, &cols);
    if (ok && rows_reserve(t, eid + 1) == 0) {
        Row *row = &t->rows[eid];
        memset(row, 0, sizeof(Row));
        row->dw = dw; row->wm = wm; row->w3m = w3m; row->rlo = rlo; row->rhi = rhi; row->vopd = (uint8_t)vopd;
        Py_ssize_t n = PySequence_Size(cols);
        for (Py_ssize_t j = 0; j < n && j < MAXC; j++) {
            PyObject *c = PySequence_GetItem(cols, j);
            row->cols[j] = c ? PyLong_AsUnsignedLongLongMask(c) : 0;
            Py_XDECREF(c);
        }
        row->cnt = (uint8_t)(n > MAXC ? MAXC : n);
        for (Py_ssize_t e = t->nrows; e < eid; e++) t->rows[e].dw = 0; /* (rows between: the scalar path) */
        if (eid >= t->nrows) t->nrows = eid + 1;
    }
    Py_DECREF(got);
    return PyErr_Occurred() ? -1 : 1;
}

/* an integer answer of the resolver (None: unknown -> *known = 0) */
static int ask_int(Run *r, PyObject *got, int64_t *v, int *known) {
    if (!got) return PyErr_Occurred() ? -1 : 0;
    *known = got != Py_None;
    if (*known) *v = PyLong_AsLongLong(got);
    Py_DECREF(got);
    return PyErr_Occurred() ? -1 : 0;
}

/* entry id of the instruction at dword i (0: the scalar path); -1 on error */
static int classify(Run *r, Py_ssize_t i, Py_ssize_t n4, int64_t *eid) {
    Tables *t = r->t;
    uint32_t d0 = dword_at(r, 4 * i);
    int p = d0 >> 23, known = 1;
    int64_t idx = (int64_t)t->cls_base[p] + ((d0 >> t->cls_sh[p]) & t->cls_mk[p]);
    int64_t v = t->cls[idx];
    *eid = 0;
    if (v == -1) { /* a selector met for the first time */
        known = 0;
        if (ask_int(r, ask(r, "cls_dense", "(iLI)", p, (long long)idx, d0 & t->sel_mask[p]), &v, &known) < 0) return -1;
        if (!known) return 0;
        t->cls[idx] = v;
    }
    if (v == -2) { /* a wide bucket */
        uint32_t sel = d0 & t->sel_mask[p];
        int64_t *got = map_find(&t->wide, sel, 0);
        if (got) v = *got;
        else {
            known = 0;
            if (ask_int(r, ask(r, "cls_wide", "(I)", sel), &v, &known) < 0) return -1;
            if (!known) return 0;
            if (map_put(&t->wide, sel, 0, v) < 0) return -1;
        }
        if (v == 0 && t->cls_two[p]) v = -3;
    }
    if (v == -3) { /* the second dword chooses too */
        if (i + 1 >= n4) return 0;
        uint64_t key = ((uint64_t)d0 | (uint64_t)dword_at(r, 4 * i + 4) << 32) & t->two_mask[p];
        int64_t *got = map_find(&t->two, key, 0);
        if (got) v = *got;
        else {
            known = 0;
            if (ask_int(r, ask(r, "cls_two", "(K)", (unsigned long long)key), &v, &known) < 0) return -1;
            if (!known) return 0;
            if (map_put(&t->two, key, 0, v) < 0) return -1;
        }
    }
    if (v <= 0) return 0;
    int rk = row_known(r, v);
    if (rk <= 0) return rk;
    *eid = v;
    return 0;
}

/* pool text state at ix (1 ASCII text, 3 other text, 2 not printable), asking the resolver where not known;
 * -1 on error */
static int pool_ask(Run *r, int64_t ix);

static inline int pool_ok(Run *r, int64_t ix) {
    Tables *t = r->t;
    if (ix >= 0 && ix < t->npool && t->pool_state[ix]) return t->pool_state[ix];
    return pool_ask(r, ix);
}

static int pool_ask(Run *r, int64_t ix) {
    Tables *t = r->t;
    PyObject *got = ask(r, "pool", "(L)", (long long)ix);
    if (!got) return PyErr_Occurred() ? -1 : 2;
    int rc; /* (None, not known: not printable for the rest of the run, its starts go to the scalar path) */
    if (got == Py_None || got == Py_False) rc = pool_set(t, ix, NULL, 0, 0) < 0 ? -1 : 2;
    else {
        char *s;
        Py_ssize_t n;
        rc = PyBytes_AsStringAndSize(got, &s, &n) < 0 || pool_set(t, ix, s, n, 1) < 0 ? -1 : t->pool_state[ix];
    }
    Py_DECREF(got);
    return rc;
}

static int64_t template_of(Run *r, uint32_t eid, uint64_t key, uint32_t key3, uint64_t w64, uint32_t w3, Py_ssize_t off) {
    Tables *t = r->t;
    int64_t *got = map_find(&t->tpls, key, (uint64_t)eid << 32 | key3);
    if (got) return *got;
    PyObject *word = PyLong_FromUnsignedLongLong(w3), *sh = PyLong_FromLong(64), *hi = NULL, *lo = NULL, *w = NULL;
    if (word && sh) hi = PyNumber_Lshift(word, sh);
    if (hi) lo = PyLong_FromUnsignedLongLong(w64);
    if (lo) w = PyNumber_Or(hi, lo);
    Py_XDECREF(word); Py_XDECREF(sh); Py_XDECREF(hi); Py_XDECREF(lo);
    if (!w) return -1;
    PyObject *s = stream_bytes(r);
    if (!s) { Py_DECREF(w); return -1; }
    PyObject *ans = ask(r, "tpl", "(IKINOn)", eid, (unsigned long long)key, key3, w, s, off);
    if (!ans) return PyErr_Occurred() ? -1 : 0;
    int64_t tid = 0;
    if (ans == Py_None || ans == Py_False) /* (no template; None, not known: none for the rest of the run) */
        tid = map_put(&t->tpls, key, (uint64_t)eid << 32 | key3, 0) < 0 ? -1 : 0;
    else {
        const char *fmt;
        Py_ssize_t n;
        PyObject *bases;
        int64_t b[MAXC] = {0};
        if (PyArg_ParseTuple(ans, "y#O", &fmt, &n, &bases)) {
            Py_ssize_t nb = PySequence_Size(bases);
            for (Py_ssize_t j = 0; j < nb && j < MAXC; j++) {
                PyObject *c = PySequence_GetItem(bases, j);
                b[j] = c ? PyLong_AsLongLong(c) : 0;
                Py_XDECREF(c);
            }
            tid = PyErr_Occurred() || nb > MAXC ? -1 : tpl_add(t, eid, key, key3, fmt, n, b, (int)nb);
        } else tid = -1;
    }
    Py_DECREF(ans);
    if (tid < 0 && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "resolver.tpl: bad answer");
    return tid;
}

/* renders the word at dword i of entry eid into r->scratch: 0, 1 where the batch path cannot vouch for it (the
 * scalar path decides), -1 on error; *ascii: whether the text is ASCII (one column per byte) */
static int word_text(Run *r, int64_t eid, Py_ssize_t i, Py_ssize_t n4, int *ascii, int *extra) {
    Tables *t = r->t;
    const Row rw = t->rows[eid]; /* (the resolver may grow the rows) */
    uint64_t w64 = ((uint64_t)dword_at(r, 4 * i) | (uint64_t)dword_at(r, 4 * i + 4) << 32) & rw.wm;
    uint32_t w3 = rw.w3m ? dword_at(r, 4 * (i + 2 < n4 ? i + 2 : n4 - 1)) & rw.w3m : 0;
    uint64_t vals[MAXC];
    int all_ascii = 1, litc = -1, own = 0; /* (litc: the column holding the literal marker, its text the next dword
    * in hex; own: the columns the entry's own texts do not print, which only a template's own may) */
    int64_t *lc = !t->lits.n || rw.dw > 2 ? NULL : rw.dw == 1 ? map_find(&t->lits, (uint64_t)eid, 0)
                : map_find(&t->lits, w64 & rw.rlo, 1ULL << 32 | (uint64_t)eid);
    Py_ssize_t lat = 4 * (i + rw.dw); /* (the literal: the dword after the word) */
    *extra = 0;
    for (int j = 0; j < rw.cnt; j++) {
        uint64_t pk = rw.cols[j], w = pk & 0x8000 ? (uint64_t)w3 : w64;
        unsigned wd = (pk >> 8) & 63;
        vals[j] = (w >> (pk & 63)) & ((1ULL << wd) - 1);
        if (lc && (*lc >> j & 1) && vals[j] == 255) {
            if (litc >= 0 || i + rw.dw >= n4 || inline_like(dword_at(r, lat))) return 1; /* (one literal column) */
            litc = j;
            continue;
        }
        int st = pool_ok(r, (int64_t)(pk >> 16) + (int64_t)vals[j]);
        if (st < 0) return -1;
        if (st != 1 && st != 3) own |= 1 << j;
    }
    int64_t tid;
    if (own) { /* (only a template the tables hold, made for such values: ``tpl_free``) */
        int64_t *got = map_find(&t->tpls, w64 & rw.rlo, (uint64_t)eid << 32 | (w3 & rw.rhi));
        if (!got || *got <= 0 || (own & ~t->tpl[*got].free)) return 1;
        tid = *got;
    } else {
        tid = template_of(r, (uint32_t)eid, w64 & rw.rlo, w3 & rw.rhi, w64, w3, 4 * i);
        if (tid <= 0) return tid < 0 ? -1 : 1;
    }
    if (t->tpl[tid].nph > rw.cnt || t->tpl[tid].bad) return 1;
    int64_t ix[MAXC];
    char lit_text[16];
    int lit_len = litc >= 0 ? snprintf(lit_text, sizeof lit_text, "0x%x", (unsigned)dword_at(r, lat)) : 0;
    if (litc >= t->tpl[tid].nph) return 1; /* (the template does not print the column: not a source) */
    for (int j = 0; j < t->tpl[tid].nph; j++) {
        if (j == litc) continue;
        ix[j] = t->tpl[tid].bases[j] + (int64_t)vals[j];
        int st = pool_ok(r, ix[j]);
        if (st != 1 && st != 3) return st < 0 ? -1 : 1;
        all_ascii &= st == 1;
    }
    const Tpl *tp = &t->tpl[tid];
    Py_ssize_t total = tp->len;
    for (int j = 0; j < tp->nph; j++) total += j == litc ? lit_len : t->pool_len[ix[j]];
    Buf *b = &r->scratch;
    b->n = 0;
    if (buf_reserve(b, total) < 0) return -1;
    const char *lit = t->tpl_text.p + tp->off;
    char *w = b->p;
    int32_t at = 0;
    for (int j = 0; j < tp->nph; j++) {
        memcpy(w, lit + at, tp->cut[j] - at);
        w += tp->cut[j] - at;
        at = tp->cut[j];
        if (j == litc) {
            memcpy(w, lit_text, lit_len);
            w += lit_len;
            continue;
        }
        memcpy(w, t->pool_text.p + t->pool_off[ix[j]], t->pool_len[ix[j]]);
        w += t->pool_len[ix[j]];
    }
    memcpy(w, lit + at, tp->len - at);
    b->n = total;
    *ascii = all_ascii && tp->ascii;
    *extra = litc >= 0;
    return 0;
}

/* -- the listing ----------------------------------------------------------------------------------- */
typedef struct {
    Label *labels; Py_ssize_t nlabels; /* sorted: every symbol (headers, targets' <sym+0x..>) */
    Label *plain; Py_ssize_t nplain;   /* sorted: symbols without a type (their name is the operand) */
    uint64_t address;
    int elf;
} Syms;

static char hex_pairs[512]; /* byte -> its two upper-case hex digits (PyInit fills it) */

static char *hex_digits(char *w, uint64_t v, int n) { /* v as n upper-case hex digits */
    int k = n;
    for (; k >= 2; k -= 2, v >>= 8) memcpy(w + k - 2, hex_pairs + 2 * (v & 0xFF), 2);
    if (k) w[0] = "0123456789ABCDEF"[v & 15];
    return w + n;
}

static int put_hex(Buf *b, const char *fmt, unsigned long long v) {
    char tmp[40];
    int n = snprintf(tmp, sizeof tmp, fmt, v);
    return buf_put(b, tmp, n);
}

static const Label *find_label(const Label *ls, Py_ssize_t n, __int128 off) {
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (ls[mid].off < off) lo = mid + 1; else hi = mid;
    }
    return lo < n && ls[lo].off == off ? &ls[lo] : NULL;
}

/* ` <sym+0x..>` of a branch target (llvm-objdump's), into b */
static int describe(Buf *b, const Syms *sy, __int128 target) {
    const __int128 m64 = ((__int128)1 << 64) - 1;
    __int128 off = (target & m64) - (__int128)sy->address;
    if (off < 0) return 0;
    Py_ssize_t lo = 0, hi = sy->nlabels; /* bisect_right(at, off) - 1 */
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if ((__int128)sy->labels[mid].off <= off) lo = mid + 1; else hi = mid;
    }
    if (lo == 0) return 0;
    const Label *l = &sy->labels[lo - 1];
    unsigned long long delta = (unsigned long long)((target - (__int128)sy->address - l->off) & m64);
    if (buf_put(b, " <", 2) < 0 || buf_put(b, l->name, l->len) < 0) return -1;
    if (delta && put_hex(b, "+0x%llx", delta) < 0) return -1;
    return buf_put(b, ">", 1);
}

static int starts_with(const char *s, Py_ssize_t n, const char *prefix) {
    size_t k = strlen(prefix);
    return (size_t)n >= k && memcmp(s, prefix, k) == 0;
}

/* one listing line: TAB, text padded to 59 columns, `// ADDRESS: DWORDS` (bytes where the size is not whole
 * dwords), a branch's target, newline */
/* (chars: the text's characters, -1: counted here) */
static int emit_line(Run *r, const Syms *sy, const char *text, Py_ssize_t tlen, Py_ssize_t chars, Py_ssize_t off,
                     Py_ssize_t size) {
    Buf *b = &r->out;
    uint64_t addr = sy->address + (uint64_t)(r->start + off);
    uint32_t d0 = dword_at(r, off);
    Buf end = {0};
    int rc = -1;
    const char *cut = NULL; /* the operand replaced by a plain symbol's name */
    const Label *name = NULL;
    if (sy->elf) {
        int sopp = (d0 >> 23) == 0x17F, sopk = (d0 >> 28) == 0xB;
        if ((sopp && (starts_with(text, tlen, "s_branch ") || starts_with(text, tlen, "s_cbranch_"))) ||
            (!sopp && sopk && starts_with(text, tlen, "s_subvector_loop_"))) {
            int32_t simm = (int32_t)(d0 & 0xFFFF);
            if (simm & 0x8000) simm -= 0x10000;
            __int128 target = (__int128)addr + 4 + 4 * (__int128)simm;
            name = find_label(sy->plain, sy->nplain, target - (__int128)sy->address);
            if (name) {
                cut = text + tlen;
                for (const char *q = text + tlen; q > text; q--)
                    if (q[-1] == ' ') { cut = q - 1; break; }
            } else if (describe(&end, sy, target) < 0) goto done;
        }
    }
    Py_ssize_t shown = cut ? cut - text : tlen, nlen = name ? name->len : 0;
    if (chars < 0 || cut) chars = utf8_chars(text, shown);
    if (buf_reserve(b, 1 + shown + 1 + nlen + 59 + 3 + 18 + 3 * size + 9 + end.n + 1) < 0) goto done;
    char *w = b->p + b->n;
    *w++ = '\t';
    memcpy(w, text, shown); w += shown;
    if (cut) {
        *w++ = ' ';
        memcpy(w, name->name, nlen); w += nlen;
        chars += utf8_chars(name->name, nlen) + 1;
    }
    if (chars < 59) { memset(w, ' ', 59 - chars); w += 59 - chars; }
    memcpy(w, "// ", 3); w += 3;
    w = hex_digits(w, addr, addr >> 48 ? (addr >> 60 ? 16 : (addr >> 56 ? 15 : (addr >> 52 ? 14 : 13))) : 12);
    *w++ = ':'; *w++ = ' ';
    Py_ssize_t n4 = r->len / 4;
    if (size & 3) {
        for (Py_ssize_t j = 0; j < size; j++) {
            if (j) *w++ = ' ';
            w = hex_digits(w, off + j < r->len ? r->p[off + j] : 0, 2);
        }
    } else {
        for (Py_ssize_t j = 0; j < size / 4; j++) { /* (as the numpy path: the dwords past the last one repeat it) */
            Py_ssize_t k = off / 4 + j;
            uint32_t d = (off & 3) ? dword_at(r, off + 4 * j) : dword_at(r, 4 * (k < n4 ? k : n4 - 1));
            if (j) *w++ = ' ';
            w = hex_digits(w, d, 8);
        }
    }
    if (end.n) { memcpy(w, end.p, end.n); w += end.n; }
    *w++ = '\n';
    b->n = w - b->p;
    rc = 0;
done:
    free(end.p);
    return rc;
}

/* the scalar path at byte `off` of the stream: its line; *step: bytes to the next start; *tail: 1 where
 * the tail loop takes over after it */
static int scalar_line(Run *r, const Syms *sy, Py_ssize_t off, int tail, Py_ssize_t *step, int *to_tail) {
    r->t->scalars++;
    PyObject *s = stream_bytes(r);
    PyObject *f = s ? PyObject_GetAttrString(r->resolver, "scalar") : NULL;
    PyObject *got = f ? PyObject_CallFunction(f, "Oni", s, off, tail) : NULL;
    Py_XDECREF(f);
    if (!got) return -1;
    const char *text;
    Py_ssize_t tlen, size, adv;
    int valid, rc = -1;
    if (PyArg_ParseTuple(got, "y#nnp", &text, &tlen, &size, &adv, &valid)) {
        if (adv <= 0) adv = 1;
        *step = adv;
        *to_tail = !tail && valid && (size & 3);
        rc = emit_line(r, sy, text, tlen, -1, off, size);
    }
    Py_DECREF(got);
    return rc;
}

static int emit_headers(Run *r, const Syms *sy, Py_ssize_t *next, int64_t at) {
    while (*next < sy->nlabels && sy->labels[*next].off == at) {
        const Label *l = &sy->labels[*next];
        if (put_hex(&r->out, "\n%016llx <", sy->address + (uint64_t)at) < 0 || buf_put(&r->out, l->name, l->len) < 0 ||
            buf_put(&r->out, ">:\n", 3) < 0)
            return -1;
        (*next)++;
    }
    return 0;
}

/* decodes one stream (the data from r->start); *restart: the offset of a symbol inside an instruction, where
 * a new stream begins (-1: none) */
static int walk(Run *r, const Syms *sy, Py_ssize_t *next, int64_t *restart) {
    Tables *t = r->t;
    Py_ssize_t n4 = r->len / 4, off = 0;
    int tail = n4 < 2;
    *restart = -1;
    while (off < r->len) {
        if (!tail && off / 4 >= n4 - 1) tail = 1; /* (the main loop covers the dwords before the last) */
        Py_ssize_t step = 0;
        int to_tail = 0;
        if (sy->elf && emit_headers(r, sy, next, r->start + off) < 0) return -1;
        int64_t eid = 0;
        int batch = 0, ascii = 0;
        Py_ssize_t i = off / 4;
        if (!tail) {
            if (classify(r, i, n4, &eid) < 0) return -1;
            int dw = eid ? t->rows[eid].dw : 0;
            if (i + (dw > 2 ? dw : 2) > n4) dw = 0; /* (the scalar path wants 8 bytes in view, 96-bit words 12) */
            if (dw == 3 && t->has_vopd && (dword_at(r, off) & t->vopd_mask) == t->vopd_value && !t->rows[eid].vopd) dw = 0;
            if (dw > 0) {
                int extra = 0;
                int rc = word_text(r, eid, i, n4, &ascii, &extra);
                if (rc < 0) return -1;
                if (rc == 0) {
                    batch = 1;
                    step = 4 * (dw + extra);
                    if (emit_line(r, sy, r->scratch.p, r->scratch.n, ascii ? (Py_ssize_t)r->scratch.n : -1, off, step) < 0)
                        return -1;
                }
            }
        }
        if (!batch) {
            if (scalar_line(r, sy, off, tail, &step, &to_tail) < 0) return -1;
        }
        int64_t here = r->start + off, nxt = here + step;
        if (sy->elf && *next < sy->nlabels && sy->labels[*next].off > here && sy->labels[*next].off < nxt) {
            *restart = sy->labels[*next].off;
            return 0;
        }
        off += step;
        tail = tail || to_tail;
        if (r->out.n >= CHUNK && flush_out(r) < 0) return -1;
    }
    return 0;
}

static PyObject *Tables_listing(Tables *t, PyObject *args) {
    PyObject *data, *labels, *plain, *resolver;
    unsigned long long address;
    PyObject *write = Py_None;
    if (!PyArg_ParseTuple(args, "SKOOO|O", &data, &address, &labels, &plain, &resolver, &write)) return NULL;
    Syms sy = {0};
    sy.address = address;
    sy.elf = labels != Py_None;
    Run r = {0};
    r.t = t; r.resolver = resolver; r.data = data; r.write = write;
    PyObject *res = NULL;
    if (read_labels(labels, &sy.labels, &sy.nlabels) < 0 || read_labels(plain, &sy.plain, &sy.nplain) < 0) goto done;
    const uint8_t *all = (const uint8_t *)PyBytes_AS_STRING(data);
    Py_ssize_t total = PyBytes_GET_SIZE(data), next = 0;
    int64_t start = 0;
    while (start < total) {
        r.p = all + start; r.len = total - start; r.start = start;
        Py_CLEAR(r.stream);
        int64_t again;
        if (walk(&r, &sy, &next, &again) < 0) goto done;
        if (again < 0) break;
        start = again;
    }
    if (write != Py_None) {
        if (flush_out(&r) == 0) { res = Py_None; Py_INCREF(res); }
    } else res = PyBytes_FromStringAndSize(r.out.p ? r.out.p : "", r.out.n);
done:
    Py_CLEAR(r.stream);
    free(r.out.p); free(r.scratch.p); free(sy.labels); free(sy.plain);
    return res;
}

static PyObject *Tables_stats(Tables *t, PyObject *noargs) {
    return Py_BuildValue("{s:n,s:n,s:n,s:n}", "misses", t->misses, "scalars", t->scalars, "templates",
                         t->ntpl ? t->ntpl - 1 : 0, "pool", t->npool);
}

static PyMethodDef Tables_methods[] = {
    {"listing", (PyCFunction)Tables_listing, METH_VARARGS,
     "listing(data, address, labels, plain, resolver[, write]) -> bytes: llvm-objdump's lines of data (labels None: "
     "raw bytes, no headers or targets), or None after passing them to write(memoryview) a chunk at a time"},
    {"stats", (PyCFunction)Tables_stats, METH_NOARGS, "counts of this object's runs: resolver questions, scalar starts"},
    {NULL}
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gpuisa.codec.fastdecode.Tables",
    .tp_basicsize = sizeof(Tables),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The batch decoder's tables (see codec/accel.py: export)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tables_init,
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_methods = Tables_methods,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "fastdecode",
                                    "The hot loop of gpuisa decode's plain listing (see the C source's header).", -1};

PyMODINIT_FUNC PyInit_fastdecode(void) {
    const uint32_t one = 1;
    if (*(const uint8_t *)&one != 1) {
        PyErr_SetString(PyExc_ImportError, "fastdecode: little-endian hosts only");
        return NULL;
    }
    for (int v = 0; v < 256; v++) {
        hex_pairs[2 * v] = "0123456789ABCDEF"[v >> 4];
        hex_pairs[2 * v + 1] = "0123456789ABCDEF"[v & 15];
    }
    if (PyType_Ready(&TablesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&TablesType);
    if (PyModule_AddObject(m, "Tables", (PyObject *)&TablesType) < 0) { Py_DECREF(&TablesType); Py_DECREF(m); return NULL; }
    PyModule_AddIntConstant(m, "MAXC", MAXC);
    return m;
}
