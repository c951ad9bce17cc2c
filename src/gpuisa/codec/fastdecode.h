/* fastdecode.h: the types the C accelerator's two parts share (fastdecode.c: the walk and the listing;
 * fastdecode_tables.c: the tables, their loading, buffers and maps).  See fastdecode.c's header. */
#ifndef GPUISA_FASTDECODE_H
#define GPUISA_FASTDECODE_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 8

/* -- growable byte buffer ------------------------------------------------------------------------ */
typedef struct { char *p; size_t n, cap; } Buf;

static inline int buf_reserve(Buf *b, size_t more) {
    if (b->n + more <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + more) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) { PyErr_NoMemory(); return -1; }
    b->p = p; b->cap = cap;
    return 0;
}

static inline int buf_put(Buf *b, const char *s, size_t n) {
    if (buf_reserve(b, n) < 0) return -1;
    memcpy(b->p + b->n, s, n);
    b->n += n;
    return 0;
}

/* -- open-addressing map: (a, b) -> int64 (a probe reads one 32-byte slot) --------------------------- */
typedef struct { uint64_t a, b; int64_t v; uint64_t used; } Slot;
typedef struct { Slot *s; size_t cap, n; } Map;

static inline size_t map_hash(uint64_t a, uint64_t b, size_t cap) {
    uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    return (size_t)(h * 0xBF58476D1CE4E5B9ULL >> 17) & (cap - 1);
}

static inline int64_t *map_find(Map *m, uint64_t a, uint64_t b) {
    if (!m->cap) return NULL;
    size_t i = map_hash(a, b, m->cap);
    while (m->s[i].used) {
        if (m->s[i].a == a && m->s[i].b == b) return &m->s[i].v;
        i = (i + 1) & (m->cap - 1);
    }
    return NULL;
}

int map_put(Map *m, uint64_t a, uint64_t b, int64_t v);
void map_free(Map *m);


static inline Py_ssize_t utf8_chars(const char *s, Py_ssize_t n) {
    Py_ssize_t c = 0;
    for (Py_ssize_t j = 0; j < n; j++) c += ((unsigned char)s[j] & 0xC0) != 0x80;
    return c;
}

/* -- the tables ------------------------------------------------------------------------------------ */
typedef struct { int32_t dw; uint32_t w3m, rhi; uint8_t vopd, cnt; uint64_t wm, rlo, cols[MAXC]; } Row;
/* a template: its text with %% made % and the %s taken out (cut[j]: where operand j goes), pool bases */
/* (free: columns whose value the entry's own texts do not print and this template's do: ``tpl_free``) */
typedef struct { int64_t off; int32_t len, nph, ascii, bad, free; int32_t cut[MAXC]; int64_t bases[MAXC]; } Tpl;

typedef struct {
    PyObject_HEAD
    int32_t cls_base[512];
    uint32_t cls_sh[512], cls_mk[512], sel_mask[512];
    uint8_t cls_two[512];
    uint64_t two_mask[512];
    int has_vopd;
    uint32_t vopd_mask, vopd_value;
    int64_t *cls; Py_ssize_t ncls;
    Map wide, two, tpls;
    Map lits; /* the columns (a mask) whose value 255 is a literal in the dword after the word (optional): (entry id,
               * 0) of a one-dword entry (lit_eid/lit_col), (template key, 1 << 32 | entry id) of a two-dword one (lit2_*) */
    Row *rows; Py_ssize_t nrows, caprows;
    Tpl *tpl; Py_ssize_t ntpl, captpl;
    Buf tpl_text;
    uint8_t *pool_state; int64_t *pool_off; int32_t *pool_len; Py_ssize_t npool;
    Buf pool_text;
    Py_ssize_t misses, scalars;
} Tables;

/* the tables (fastdecode_tables.c) */
int rows_reserve(Tables *t, Py_ssize_t n);
int pool_set(Tables *t, Py_ssize_t ix, const char *s, Py_ssize_t n, int ok);
Py_ssize_t tpl_add(Tables *t, uint32_t eid, uint64_t key, uint32_t key3, const char *fmt, Py_ssize_t n,
                   const int64_t *bases, int nph);
int Tables_init(Tables *t, PyObject *args, PyObject *kw);
void Tables_dealloc(Tables *t);

/* the run's inputs (fastdecode_input.c) */
typedef struct { int64_t off; const char *name; Py_ssize_t len; } Label;
int read_labels(PyObject *seq, Label **out, Py_ssize_t *n);
int inline_like(uint32_t v);

#endif
