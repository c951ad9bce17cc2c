/* fastdecode_input.c: what the C loop (fastdecode.c) reads besides the tables: the symbols a listing is given
 * (sorted (offset, name bytes) pairs) and whether a literal dword prints as its hex. */
#include "fastdecode.h"

/* whether a 32-bit literal prints as something else than its hex (an integer or float inline constant's value) */
int inline_like(uint32_t v) {
    static const uint32_t floats[] = {0x3F000000, 0xBF000000, 0x3F800000, 0xBF800000, 0x40000000, 0xC0000000, 0x40800000,
                                      0xC0800000, 0x3E22F983, 0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400,
                                      0x3118, 0x3F00, 0xBF00, 0x3F80, 0xBF80, 0x4080, 0xC080, 0x3E22};
    if (v <= 64 || v >= 0xFFFFFFF0u) return 1;
    for (size_t k = 0; k < sizeof floats / sizeof floats[0]; k++)
        if (v == floats[k]) return 1;
    return 0;
}

int read_labels(PyObject *seq, Label **out, Py_ssize_t *n) {
    *out = NULL; *n = 0;
    if (seq == Py_None) return 0;
    PyObject *fast = PySequence_Fast(seq, "labels: a sequence of (offset, name bytes)");
    if (!fast) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    *out = calloc(k ? k : 1, sizeof(Label));
    int rc = *out ? 0 : -1;
    for (Py_ssize_t i = 0; i < k && rc == 0; i++) {
        long long o;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "Ly#", &o, &(*out)[i].name, &(*out)[i].len)) rc = -1;
        (*out)[i].off = o;
        if (rc == 0 && i && (*out)[i].off <= (*out)[i - 1].off) {
            PyErr_SetString(PyExc_ValueError, "labels: not sorted");
            rc = -1;
        }
    }
    *n = k;
    Py_DECREF(fast); /* (the names stay alive: the caller holds the list) */
    return rc;
}
