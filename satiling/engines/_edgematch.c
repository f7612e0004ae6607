/* Exact backtracking search for edge-matching boards (the compiled half of edgematch.py).
 *
 * The Python wrapper plans the search (edgematch.py, class Plan) and hands this module plain
 * arrays:
 *
 *   - a fixed order of the free squares ("steps");
 *   - every piece type (equal pieces share one type, with a multiplicity) pre-rotated into
 *     "entries" (type, rotation, the four colours N E S W);
 *   - a candidate table: for a key that gives, per side, either the colour already fixed there or
 *     a wildcard, the entries that fit, as a range of one array.  Rim sides are keyed grey;
 *     wildcard sides face a square not yet filled, and only non-grey colours fit there, so the
 *     frame rules are in the table and cost nothing during the search;
 *   - per step, the key's constant part (rim, fixed pieces, wildcards) and up to four
 *     (colour slot, weight) pairs that read the neighbours placed earlier.
 *
 * The search is iterative: per depth the remaining range of its candidate list.  A node is one
 * piece placed.  On boards of at most 64 types, a key whose range holds one entry per type is also
 * read as a 64-bit set of types; the table order then walks that set masked by the free types, so
 * it never meets a piece already placed (measurements:
 * docs/decisions/2026-11-27-edgematch-exact-search.md).  It hands control back by time
 * (_handback.h): every few milliseconds it checks the deadline and runs Python's signal handlers,
 * so Ctrl-C raises KeyboardInterrupt at once; the counts so far stay readable on the object.
 *
 * Randomised value orders (``run(seed=...)``, for restarts): each square's candidates in a random
 * order (table order) or with ties broken at random (tight order), from a seeded generator, so a
 * run is reproducible.  The order never changes what a whole search counts, only when it meets
 * each solution.
 *
 * Knuth's estimate (Mathematics of Computation 29, 1975, pp. 121-136): follow one random
 * path, multiply the numbers of choices met; the sum of the partial products is an unbiased
 * estimate of the subtree's node count.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include "_handback.h"

/* The search counts a key's types below a bit (a popcount) at each candidate: on x86-64 with
 * glibc the search loop is built twice, with and without the popcnt instruction, and the loader
 * picks the one the processor runs (faster than the portable count; the install must not assume
 * the instruction, so no -mpopcnt; measurements:
 * docs/decisions/2026-11-27-edgematch-exact-search.md). */
#if defined(__x86_64__) && defined(__linux__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#endif
#endif
#ifndef POPCNT_CLONES
#define POPCNT_CLONES
#endif

typedef struct {
    PyObject_HEAD
    int nsteps, nkeys, nentries, ntypes, nslots;
    uint32_t *start;        /* candidate table: entries of key k are start[k] .. start[k+1]-1 */
    int32_t *ent_type;
    uint32_t *ent_col;      /* the entry's colours N E S W, one byte each */
    int32_t *mult0;         /* multiplicity of each type at the start */
    int32_t *step_cell;     /* colour slots of step i's square: 4*step_cell[i] .. +3 */
    uint32_t *step_base;
    int32_t *step_nbr;      /* [4*i + k]: colour slot read for the key (nslots: the zero slot) */
    uint32_t *step_w;       /* [4*i + k]: its weight */
    uint8_t *col0;          /* colour slots at the start (fixed pieces filled in) */
    int tight;              /* value order: 0 table order, 1 tightest next square first */
    uint32_t maxc, *buf;    /* tight or shuffled: per depth, its candidates in order (maxc at most) */
    uint32_t *score;
    uint64_t rng;           /* the value orders' generator in a seeded run; 0: no randomness */
    uint64_t rng_saved;     /* its state when a seeded run stopped (for resume) */
    int32_t *nx_k;          /* [i]: which of step i+1's four key reads sees step i's square (-1: none) */
    int32_t *nx_side;       /* [i]: the side of step i's square that read looks at */
    uint32_t *ent_tc;       /* [2e]: ent_type[e], [2e + 1]: ent_col[e] (one cache line apart less) */
    /* boards of at most 64 types: per key the types it files (bit t), and the free types */
    uint64_t *key_types;
    uint8_t *key_scan;      /* [k]: 1 if key k files two entries of one type (scan its range) */
    uint64_t *ent_bit;      /* [e]: bit ent_type[e] (0 on boards of more than 64 types) */
    uint64_t free_types;
    int bits;               /* key_types and free_types are kept (ntypes <= 64) */
    /* search state */
    uint8_t *col;
    int32_t *mult;
    uint32_t *pos, *end, *choice;
    uint64_t *rem, *kts;    /* table order by a type set: per depth the types not yet tried, and
                             * the key's types; kbase its range's start (pos = end then) */
    uint32_t *kbase;
    unsigned long long nodes, solutions;
    int d, k, live;         /* where a stopped run() resumes (2: after a whole-board prefix) */
    HandbackWatch watch;    /* who is shown the board filled so far, at looks (_handback.h) */
    int shown;              /* the steps filled at the look in progress */
} Search;

static uint64_t xorshift(uint64_t *x) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void *copy_buffer(PyObject *obj, Py_ssize_t want, const char *what) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    if (view.len != want) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zd", what, view.len, want);
        PyBuffer_Release(&view);
        return NULL;
    }
    void *out = PyMem_Malloc(want ? want : 1);
    if (out == NULL)
        PyErr_NoMemory();
    else
        memcpy(out, view.buf, want);
    PyBuffer_Release(&view);
    return out;
}

static void Search_dealloc(Search *s) {
    void *arrays[] = {s->start, s->ent_type, s->ent_col, s->mult0, s->step_cell, s->step_base,
                      s->step_nbr, s->step_w, s->col0, s->col, s->mult, s->pos, s->end, s->choice,
                      s->buf, s->score, s->nx_k, s->nx_side, s->ent_tc, s->key_types, s->key_scan,
                      s->ent_bit, s->rem, s->kts, s->kbase};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        PyMem_Free(arrays[i]);
    Py_XDECREF(s->watch.callback);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

/* Every key a step can form lies in the table, and every table range in the entries: the search
 * reads start[key] and start[key + 1] without a check, so a malformed table is refused here. */
static int check_table(const Search *s, int nkeys) {
    for (int k = 0; k < nkeys; k++)
        if (s->start[k] > s->start[k + 1]) {
            PyErr_SetString(PyExc_ValueError, "start is not non-decreasing");
            return -1;
        }
    if (s->start[0] != 0 || s->start[nkeys] > (uint32_t)s->nentries) {
        PyErr_SetString(PyExc_ValueError, "start reaches beyond the entries");
        return -1;
    }
    unsigned top = 0;                  /* the largest colour a slot can hold */
    const uint8_t *cols = (const uint8_t *)s->ent_col;
    for (Py_ssize_t i = 0; i < 4 * (Py_ssize_t)s->nentries; i++)
        if (cols[i] > top) top = cols[i];
    for (int i = 0; i <= s->nslots; i++)
        if (s->col0[i] > top) top = s->col0[i];
    for (int i = 0; i < s->nsteps; i++) {
        uint64_t most = s->step_base[i];
        for (int k = 0; k < 4; k++)
            most += (uint64_t)top * s->step_w[4 * i + k];
        if (most >= (uint64_t)nkeys) {
            PyErr_SetString(PyExc_ValueError, "a step's key can fall outside the table");
            return -1;
        }
    }
    return 0;
}

/* The per-depth candidate lists of the tight and the shuffled orders (made when first needed:
 * on a large board with a table order they would take maxc * steps words for nothing). */
static int ensure_lists(Search *s) {
    if (s->buf)
        return 0;
    s->maxc = 1;
    for (int k = 0; k < s->nkeys; k++)
        if (s->start[k + 1] - s->start[k] > s->maxc)
            s->maxc = s->start[k + 1] - s->start[k];
    s->buf = PyMem_Malloc(4 * (size_t)s->maxc * ((size_t)s->nsteps + 1));
    s->score = PyMem_Malloc(4 * (size_t)s->maxc);
    if (!s->buf || !s->score) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* The type sets of the keys (boards of at most 64 types): a key whose range lists its types in
 * increasing order, one entry each, is read as a bit set, so the search meets only free types and
 * finds type t's entry at start[key] + (the key's types below t); any other key is scanned. */
static int make_bits(Search *s) {
    PyMem_Free(s->key_types);
    PyMem_Free(s->key_scan);
    PyMem_Free(s->ent_bit);
    s->key_types = NULL, s->key_scan = NULL, s->ent_bit = NULL;
    s->bits = s->ntypes <= 64;
    s->ent_bit = PyMem_Calloc((size_t)s->nentries + 1, 8);
    if (s->ent_bit == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (!s->bits)
        return 0;
    s->key_types = PyMem_Calloc((size_t)s->nkeys, 8);
    s->key_scan = PyMem_Calloc((size_t)s->nkeys, 1);
    if (!s->key_types || !s->key_scan) {
        PyErr_NoMemory();
        return -1;
    }
    for (int e = 0; e < s->nentries; e++)
        s->ent_bit[e] = 1ULL << s->ent_type[e];
    for (int k = 0; k < s->nkeys; k++)
        for (uint32_t e = s->start[k]; e < s->start[k + 1]; e++) {
            if (e > s->start[k] && s->ent_type[e] <= s->ent_type[e - 1])
                s->key_scan[k] = 1;
            s->key_types[k] |= s->ent_bit[e];
        }
    return 0;
}

static int Search_init(Search *s, PyObject *args, PyObject *kw) {
    static char *names[] = {"nsteps", "nkeys", "nentries", "ntypes", "nslots", "start",
                            "ent_type", "ent_col", "mult", "step_cell", "step_base", "step_nbr",
                            "step_w", "col", "tight", NULL};
    int nkeys;
    PyObject *b[9];
    PyMem_Free(s->buf);                /* __init__ called again: the lists are remade */
    PyMem_Free(s->score);
    s->buf = NULL, s->score = NULL;
    s->tight = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iiiiiOOOOOOOOO|p", names, &s->nsteps, &nkeys,
                                     &s->nentries, &s->ntypes, &s->nslots, &b[0], &b[1], &b[2],
                                     &b[3], &b[4], &b[5], &b[6], &b[7], &b[8], &s->tight))
        return -1;
    int n = s->nsteps;
    if (n < 0 || nkeys < 1 || s->nentries < 0 || s->ntypes < 0 || s->nslots < 0) {
        PyErr_SetString(PyExc_ValueError, "negative size");
        return -1;
    }
    if (!(s->start = copy_buffer(b[0], 4 * ((Py_ssize_t)nkeys + 1), "start")) ||
        !(s->ent_type = copy_buffer(b[1], 4 * (Py_ssize_t)s->nentries, "ent_type")) ||
        !(s->ent_col = copy_buffer(b[2], 4 * (Py_ssize_t)s->nentries, "ent_col")) ||
        !(s->mult0 = copy_buffer(b[3], 4 * (Py_ssize_t)s->ntypes, "mult")) ||
        !(s->step_cell = copy_buffer(b[4], 4 * (Py_ssize_t)n, "step_cell")) ||
        !(s->step_base = copy_buffer(b[5], 4 * (Py_ssize_t)n, "step_base")) ||
        !(s->step_nbr = copy_buffer(b[6], 16 * (Py_ssize_t)n, "step_nbr")) ||
        !(s->step_w = copy_buffer(b[7], 16 * (Py_ssize_t)n, "step_w")) ||
        !(s->col0 = copy_buffer(b[8], (Py_ssize_t)s->nslots + 1, "col")))
        return -1;
    for (int i = 0; i < 4 * n; i++)
        if (s->step_nbr[i] < 0 || s->step_nbr[i] > s->nslots) {
            PyErr_SetString(PyExc_ValueError, "step_nbr out of range");
            return -1;
        }
    for (int i = 0; i < n; i++)
        if (s->step_cell[i] < 0 || 4 * s->step_cell[i] + 4 > s->nslots ||
            s->step_base[i] > (uint32_t)nkeys) {
            PyErr_SetString(PyExc_ValueError, "step out of range");
            return -1;
        }
    for (int i = 0; i < s->nentries; i++)
        if (s->ent_type[i] < 0 || s->ent_type[i] >= s->ntypes) {
            PyErr_SetString(PyExc_ValueError, "entry type out of range");
            return -1;
        }
    if (check_table(s, nkeys) < 0)
        return -1;
    s->nkeys = nkeys;
    if (s->tight && ensure_lists(s) < 0)
        return -1;
    PyMem_Free(s->nx_k);               /* __init__ called again */
    PyMem_Free(s->nx_side);
    PyMem_Free(s->ent_tc);
    s->nx_k = PyMem_Malloc(4 * ((size_t)n + 1));
    s->nx_side = PyMem_Malloc(4 * ((size_t)n + 1));
    s->ent_tc = PyMem_Malloc(8 * ((size_t)s->nentries + 1));
    if (!s->nx_k || !s->nx_side || !s->ent_tc) {
        PyErr_NoMemory();
        return -1;
    }
    for (int e = 0; e < s->nentries; e++) {
        const uint8_t *c = (const uint8_t *)s->ent_col + 4 * e;     /* side q in byte q */
        s->ent_tc[2 * e] = (uint32_t)s->ent_type[e];
        s->ent_tc[2 * e + 1] = c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
    }
    if (make_bits(s) < 0)
        return -1;
    for (int i = 0; i < n; i++) {          /* the read of step i+1's key that step i's square sets */
        s->nx_k[i] = -1, s->nx_side[i] = 0;
        for (int k = 0; i + 1 < n && k < 4; k++) {
            int32_t slot = s->step_nbr[4 * (i + 1) + k];
            if (s->step_w[4 * (i + 1) + k] && slot < s->nslots && slot / 4 == s->step_cell[i])
                s->nx_k[i] = k, s->nx_side[i] = slot % 4;
        }
    }
    s->col = PyMem_Malloc(s->nslots + 1);
    s->mult = PyMem_Malloc(4 * (s->ntypes + 1));
    s->pos = PyMem_Malloc(4 * (n + 1));
    s->end = PyMem_Malloc(4 * (n + 1));
    s->choice = PyMem_Malloc(4 * (n + 1));
    s->rem = PyMem_Calloc((size_t)n + 1, 8);
    s->kts = PyMem_Calloc((size_t)n + 1, 8);
    s->kbase = PyMem_Calloc((size_t)n + 1, 4);
    if (!s->col || !s->mult || !s->pos || !s->end || !s->choice || !s->rem || !s->kts || !s->kbase) {
        PyErr_NoMemory();
        return -1;
    }
    s->nodes = s->solutions = 0;
    s->live = 0;
    s->rng = s->rng_saved = 0;
    return 0;
}

static inline uint32_t key_of(const Search *s, int i) {
    const int32_t *nb = s->step_nbr + 4 * i;
    const uint32_t *w = s->step_w + 4 * i;
    return s->step_base[i] + s->col[nb[0]] * w[0] + s->col[nb[1]] * w[1] +
           s->col[nb[2]] * w[2] + s->col[nb[3]] * w[3];
}

/* Entry e's piece taken from the free ones, and given back. */
static inline void take(Search *s, uint32_t e) {
    if (--s->mult[s->ent_type[e]] == 0)
        s->free_types &= ~s->ent_bit[e];
}

static inline void give(Search *s, uint32_t e) {
    if (s->mult[s->ent_type[e]]++ == 0)
        s->free_types |= s->ent_bit[e];
}

static inline void put(Search *s, int i, uint32_t e) {
    memcpy(s->col + 4 * s->step_cell[i], &s->ent_col[e], 4);
}

/* The entry of the lowest type in ``*set`` (types of a key whose range starts at ``base`` and files
 * the types ``kts``, one entry each, in increasing order), taken out of the set. */
static inline __attribute__((always_inline)) uint32_t pop_entry(uint64_t *set, uint64_t kts,
                                                                uint32_t base) {
    uint64_t low = *set & -*set;
    *set ^= low;
    return base + (uint32_t)__builtin_popcountll(kts & (low - 1));
}

/* Run BODY for each live entry ``e`` of key ``key``, in table order: by the key's type set when it
 * has one (only free types are met), else by scanning its range. */
#define FOR_LIVE(s, key, e, BODY)                                                              \
    do {                                                                                       \
        if ((s)->bits && !(s)->key_scan[key]) {                                                \
            const uint64_t kt_ = (s)->key_types[key];                                          \
            for (uint64_t left_ = kt_ & (s)->free_types; left_;) {                             \
                uint32_t e = pop_entry(&left_, kt_, (s)->start[key]);                          \
                BODY                                                                           \
            }                                                                                  \
        } else {                                                                               \
            for (uint32_t e = (s)->start[key]; e < (s)->start[(key) + 1]; e++)                 \
                if ((s)->mult[(s)->ent_type[e]] > 0) {                                         \
                    BODY                                                                       \
                }                                                                              \
        }                                                                                      \
    } while (0)

/* Step d's candidates: pos[d] .. end[d] of the table, or with ``tight`` of buf: the live entries
 * ordered by the size of the next step's table range once they are placed, smallest first (ties in
 * table order, or at random in a seeded run).  A candidate that leaves the next square few choices
 * is tried first: on boards with few solutions this finds the first one sooner.  A seeded run in
 * table order shuffles the live entries.  Inlined by force: left to itself the compiler calls it
 * from the search loop, which slows counts (measurements:
 * docs/decisions/2026-11-27-edgematch-exact-search.md). */
static inline __attribute__((always_inline)) void open_step(Search *s, int d) {
    uint32_t key = key_of(s, d);
    s->rem[d] = 0;
    if (!s->tight && !s->rng) {
        if (s->bits && !s->key_scan[key]) {
            s->pos[d] = s->end[d] = 0;
            s->kts[d] = s->key_types[key];
            s->rem[d] = s->kts[d] & s->free_types;
            s->kbase[d] = s->start[key];
        } else {
            s->pos[d] = s->start[key];
            s->end[d] = s->start[key + 1];
        }
        return;
    }
    uint32_t *b = s->buf + (size_t)s->maxc * d, m = 0;
    if (!s->tight) {                   /* a random order of the live entries (Fisher-Yates) */
        FOR_LIVE(s, key, e, {
            uint32_t j = (uint32_t)(xorshift(&s->rng) % (m + 1));
            b[m++] = b[j];
            b[j] = e;
        });
        s->pos[d] = (uint32_t)(b - s->buf);
        s->end[d] = s->pos[d] + m;
        return;
    }
    /* the next step's key but for the read that sees step d's square (``kk``; -1: none reads
     * it, and every candidate leaves the next step the same range) */
    const uint32_t *restrict start = s->start;
    const uint32_t *restrict tc = s->ent_tc;
    uint32_t *restrict score = s->score;
    uint32_t part = 0, wk = 0, sc0 = 0, shift = 0;
    int kk = -1;
    if (d + 1 < s->nsteps) {
        const int32_t *nb = s->step_nbr + 4 * (d + 1);
        const uint32_t *w = s->step_w + 4 * (d + 1);
        kk = s->nx_k[d], shift = 8 * (uint32_t)s->nx_side[d];
        part = s->step_base[d + 1];
        for (int k = 0; k < 4; k++)
            if (k != kk)
                part += s->col[nb[k]] * w[k];
        if (kk >= 0)
            wk = w[kk];
        else
            sc0 = start[part + 1] - start[part];
    }
    FOR_LIVE(s, key, e, {
        uint32_t sc = sc0;
        if (kk >= 0) {                 /* as if e were placed: the next step's range */
            uint32_t next = part + (tc[2 * e + 1] >> shift & 0xff) * wk;
            sc = start[next + 1] - start[next];
        }
        if (s->rng)                    /* ties at random: the size in the high bits */
            sc = ((sc < 0xFFFFF ? sc : 0xFFFFF) << 12) | (uint32_t)(xorshift(&s->rng) & 0xfff);
        uint32_t j = m++;
        while (j > 0 && score[j - 1] > sc) {             /* insertion sort: a few candidates */
            score[j] = score[j - 1];
            b[j] = b[j - 1];
            j--;
        }
        score[j] = sc;
        b[j] = e;
    });
    s->pos[d] = (uint32_t)(b - s->buf);
    s->end[d] = s->pos[d] + m;
}

/* Reset the state and place ``prefix`` (entry indices for steps 0..k-1).  Returns k, or -1 if the
 * prefix does not fit (no solution below it), or -2 on a Python error. */
static int start_at(Search *s, PyObject *prefix) {
    s->live = 0;
    memcpy(s->col, s->col0, s->nslots + 1);
    memcpy(s->mult, s->mult0, 4 * s->ntypes);
    s->free_types = 0;
    for (int t = 0; s->bits && t < s->ntypes; t++)
        if (s->mult[t] > 0)
            s->free_types |= 1ULL << t;
    if (prefix == NULL || prefix == Py_None)
        return 0;
    PyObject *seq = PySequence_Fast(prefix, "prefix must be a sequence of entry indices");
    if (seq == NULL)
        return -2;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k > s->nsteps) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "prefix longer than the search");
        return -2;
    }
    int fits = 1;
    for (Py_ssize_t i = 0; i < k && fits; i++) {
        long e = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (e == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -2;
        }
        uint32_t key = key_of(s, (int)i);
        if (e < (long)s->start[key] || e >= (long)s->start[key + 1] || s->mult[s->ent_type[e]] == 0) {
            fits = 0;
            break;
        }
        take(s, (uint32_t)e);
        s->choice[i] = (uint32_t)e;
        put(s, (int)i, (uint32_t)e);
    }
    Py_DECREF(seq);
    return fits ? (int)k : -1;
}

/* The entries chosen on the first ``n`` steps, as a tuple of ints. */
static PyObject *choice_tuple(const Search *s, int n) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromUnsignedLong(s->choice[i]);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *solution_tuple(const Search *s) {
    return choice_tuple(s, s->nsteps);
}

/* A watcher's snapshot: the entries on the steps filled so far (the board at a look). */
static PyObject *show_choice(void *search) {
    const Search *s = search;
    return choice_tuple(s, s->shown);
}

/* A solution: count it, hand it to the callback.  Returns 1 to go on, 0 to stop (``limit``
 * solutions in this call), -1 on a Python error. */
static int found(Search *s, PyObject *callback, unsigned long long *left) {
    s->solutions++;
    if (callback != Py_None) {
        PyObject *t = solution_tuple(s);
        if (t == NULL)
            return -1;
        PyObject *r = PyObject_CallOneArg(callback, t);
        Py_DECREF(t);
        if (r == NULL)
            return -1;
        Py_DECREF(r);
    }
    return (*left && --*left == 0) ? 0 : 1;
}

/* run(prefix=None, limit=0, seconds=0.0, callback=None, max_nodes=0, resume=False, seed=0)
 * -> how it stopped, by name (handback_name): "done": the subtree below ``prefix`` is exhausted;
 * "limit": ``limit`` solutions found in this call; "time": the time ran out; "nodes": ``max_nodes``
 * more nodes were placed.
 * After 1, 2 or 3, ``resume=True`` goes on from where the search stopped (``prefix`` and ``seed``
 * are then ignored).  ``seed`` (not 0): the value orders are randomised from it (file head).
 * ``nodes`` and ``solutions`` accumulate over calls (reset() clears them). */
POPCNT_CLONES
static PyObject *Search_run(Search *s, PyObject *args, PyObject *kw) {
    static char *names[] = {"prefix", "limit", "seconds", "callback", "max_nodes", "resume", "seed",
                            NULL};
    PyObject *prefix = Py_None, *callback = Py_None;
    unsigned long long limit = 0, max_nodes = 0, seed = 0;
    double seconds = 0.0;                  /* 0: no deadline, as in every engine (_handback.h) */
    int resume = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OKdOKpK", names, &prefix, &limit, &seconds,
                                     &callback, &max_nodes, &resume, &seed))
        return NULL;
    if (callback != Py_None && !PyCallable_Check(callback)) {
        PyErr_SetString(PyExc_TypeError, "callback must be callable");
        return NULL;
    }
    if (!(seconds >= 0.0)) {
        PyErr_SetString(PyExc_ValueError, "run(): seconds is >= 0 (0: no deadline)");
        return NULL;
    }
    const int n = s->nsteps;
    const int32_t *ent_type = s->ent_type;
    int32_t *mult = s->mult;
    uint32_t *pos = s->pos, *end = s->end, *choice = s->choice;
    int d, k;
    if (resume && s->live == 2) {          /* a whole-board prefix: its one leaf was handed over */
        s->live = 0;
        return PyUnicode_FromString(handback_name(ENGINE_DONE));
    }
    if (resume && s->live) {
        d = s->d;
        k = s->k;
        s->rng = s->rng_saved;
    } else {
        s->live = 0;
        s->rng = 0;
        k = start_at(s, prefix);
        if (k == -2)
            return NULL;
        if (k == -1)
            return PyUnicode_FromString(handback_name(ENGINE_DONE));
        if (k == n) {
            int r = found(s, callback, &limit);
            if (r == 0)
                s->live = 2;                   /* a resume finds nothing more below it */
            return r < 0 ? NULL : PyUnicode_FromString(handback_name(r == 0 ? ENGINE_LIMIT : ENGINE_DONE));
        }
        d = k;
        if (seed) {                        /* never 0: 0 means no randomness */
            if (ensure_lists(s) < 0)
                return NULL;
            s->rng = (seed * 0x9E3779B97F4A7C15ULL) | 1;
        }
        open_step(s, d);
    }
    const uint32_t *buf = s->buf;
    const int listed = s->tight || s->rng;
    s->live = 0;                           /* live again only if we stop before the end */
    Handback hb;
    handback_start(&hb, seconds, 0, s->nodes);
    handback_watch(&hb, &s->watch, show_choice, s);
    unsigned long long nodes = s->nodes;
    const unsigned long long stop_at = max_nodes ? nodes + max_nodes : ~0ULL;
    int status = ENGINE_DONE;
    uint64_t *rem = s->rem;
    for (;;) {
        uint32_t e;
        if (pos[d] < end[d]) {
            if (listed) {              /* live when listed, and the same pieces are free again */
                e = buf[pos[d]++];
            } else {
                e = pos[d]++;
                if (mult[ent_type[e]] == 0)
                    continue;
            }
        } else if (rem[d]) {           /* by type set: the types free when the step opened */
            e = pop_entry(&rem[d], s->kts[d], s->kbase[d]);
        } else {
            if (d == k)
                break;
            d--;
            give(s, choice[d]);
            continue;
        }
        {
            nodes++;
            choice[d] = e;
            if (d + 1 == n) {
                s->nodes = nodes;
                int r = found(s, callback, &limit);
                if (r < 0) {
                    s->rng = 0;
                    return NULL;
                }
                if (r == 0) {
                    status = ENGINE_LIMIT;
                    break;
                }
                continue;
            }
            take(s, e);
            put(s, d, e);
            d++;
            open_step(s, d);
            if (nodes >= stop_at) {
                status = ENGINE_NODES;
                break;
            }
            if (handback_due(&hb, nodes)) {
                s->nodes = nodes;
                s->shown = d;              /* steps 0 .. d - 1 filled, for a watcher */
                int h = handback_look(&hb, nodes);
                if (h == ENGINE_ERROR) {
                    s->d = d, s->k = k, s->live = 1;     /* resumable after an interrupt too */
                    s->rng_saved = s->rng, s->rng = 0;
                    return NULL;
                }
                if (h) {
                    status = h;
                    break;
                }
            }
        }
    }
    s->nodes = nodes;
    if (status != ENGINE_DONE)
        s->d = d, s->k = k, s->live = 1;
    s->rng_saved = s->rng, s->rng = 0;     /* children() and estimate() keep the fixed order */
    return PyUnicode_FromString(handback_name(status));
}

/* The entries that fit the next step after ``prefix`` (in the order the search tries them). */
static PyObject *Search_children(Search *s, PyObject *prefix) {
    int k = start_at(s, prefix);
    if (k == -2)
        return NULL;
    PyObject *out = PyList_New(0);
    if (out == NULL || k < 0 || k == s->nsteps)
        return out;
    open_step(s, k);                       /* the candidates in the value order, as run() */
    uint64_t rem = s->rem[k];              /* by type set (then pos = end) */
    for (uint32_t i = s->pos[k]; i < s->end[k] || rem; i++) {
        uint32_t e;
        if (rem) {
            e = pop_entry(&rem, s->kts[k], s->kbase[k]);
        } else {
            e = s->tight || s->rng ? s->buf[i] : i;
            if (s->mult[s->ent_type[e]] == 0)
                continue;
        }
        PyObject *v = PyLong_FromUnsignedLong(e);
        if (v == NULL || PyList_Append(out, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(v);
    }
    return out;
}

/* estimate(prefix=None, probes=100, seed=1) -> mean of Knuth's estimate of the number of nodes
 * below ``prefix`` (the prefix's own nodes not counted). */
static PyObject *Search_estimate(Search *s, PyObject *args, PyObject *kw) {
    static char *names[] = {"prefix", "probes", "seed", NULL};
    PyObject *prefix = Py_None;
    int probes = 100;
    unsigned long long seed = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OiK", names, &prefix, &probes, &seed))
        return NULL;
    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 1;
    uint32_t *live = PyMem_Malloc(4 * ((size_t)s->nentries + 1));
    if (live == NULL)
        return PyErr_NoMemory();
    double total = 0;
    for (int p = 0; p < probes; p++) {
        int k = start_at(s, prefix);
        if (k == -2) {
            PyMem_Free(live);
            return NULL;
        }
        if (k < 0)
            break;
        double product = 1, sum = 0;
        for (int d = k; d < s->nsteps; d++) {
            uint32_t key = key_of(s, d), m = 0;
            for (uint32_t e = s->start[key]; e < s->start[key + 1]; e++)
                if (s->mult[s->ent_type[e]] > 0)
                    live[m++] = e;
            if (m == 0)
                break;
            product *= m;
            sum += product;
            uint32_t e = live[xorshift(&rng) % m];
            take(s, e);
            put(s, d, e);
        }
        total += sum;
    }
    PyMem_Free(live);
    return PyFloat_FromDouble(probes > 0 ? total / probes : 0.0);
}

/* watch(callback, seconds): at looks, at most every ``seconds`` of wall time, callback(entries)
 * with the entries on the steps filled so far; callback None: no one watches. */
static PyObject *Search_watch(Search *s, PyObject *args) {
    PyObject *callback;
    double every;
    if (!PyArg_ParseTuple(args, "Od", &callback, &every))
        return NULL;
    if (handback_set_watch(&s->watch, callback, every) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *Search_reset(Search *s, PyObject *unused) {
    (void)unused;
    s->nodes = s->solutions = 0;
    Py_RETURN_NONE;
}

static PyObject *Search_get_nodes(Search *s, void *c) {
    (void)c;
    return PyLong_FromUnsignedLongLong(s->nodes);
}
static PyObject *Search_get_solutions(Search *s, void *c) {
    (void)c;
    return PyLong_FromUnsignedLongLong(s->solutions);
}

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)(void (*)(void))Search_run, METH_VARARGS | METH_KEYWORDS,
     "run(prefix=None, limit=0, seconds=0, callback=None, max_nodes=0, resume=False, seed=0) -> "
     "how it stopped: 'done' (exhausted), 'limit' (solutions), 'time' or 'nodes'"},
    {"children", (PyCFunction)Search_children, METH_O, "children(prefix) -> entries fitting next"},
    {"estimate", (PyCFunction)(void (*)(void))Search_estimate, METH_VARARGS | METH_KEYWORDS,
     "estimate(prefix=None, probes=100, seed=1) -> Knuth's estimate of the nodes below prefix"},
    {"reset", (PyCFunction)Search_reset, METH_NOARGS, "clear the node and solution counters"},
    {"watch", (PyCFunction)Search_watch, METH_VARARGS,
     "watch(callback, seconds): callback(entries placed) at most every seconds while run() searches; None: stop"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "pieces placed so far", NULL},
    {"solutions", (getter)Search_get_solutions, NULL, "solutions found so far", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "satiling.engines._edgematch.Search",
    .tp_doc = "Backtracking search over a planned edge-matching board (see edgematch.py).",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_edgematch",
                                    "Compiled edge-matching backtracker.", -1, NULL, NULL,
                                    NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__edgematch(void) {
    if (PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
