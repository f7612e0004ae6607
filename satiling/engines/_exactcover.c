/* Exact cover with multiplicities by dancing links (Knuth's Algorithm X), or on boards of up to
   128 cells by bitboards (de Bruijn's fill of the first empty cell; see "the bitboard search"
   below), both with the pocket cut.

   The readable reference of the same search is satiling/engines/exactcover_ref.py (class Walk);
   the Python wrapper, with the documentation of the model, is satiling/engines/exactcover.py.

   Items 0..nitems-1 have bounds lo..hi (lo >= 1: primary, must be met; lo == 0: secondary).  Rows
   are sets of items.  A solution is a set of rows meeting every item's bounds.  Items with hi == 1
   (cells, pieces used once) branch n-ary over their rows, exactly as DLX; items with hi > 1 (a
   piece with several copies) branch binary on their first row: in, or out.  The item branched on
   is the primary item with the fewest rows beyond what it still needs ("minimum remaining
   values"); ties go to the lowest number, so a board fills in the order its cells are numbered.

   The pocket cut: items 0..ncells-1 may be cells of a board, with their neighbours.  Before a row
   is taken, the open cells next to it are flood-filled; a pocket whose size is no sum of the
   areas of the pieces still to place can never be covered, and the row is not tried.

   The search is iterative (an explicit stack), so it can stop after a node budget or a number of
   solutions, return to Python, and continue where it stopped: Ctrl-C and time limits are handled
   by the caller between two calls.  Knuth's random-path estimate of the tree size and his
   position measure (the part of the tree left of the current path) give the progress.

   Memory: a row's nodes are contiguous and a node's links sit together (16 bytes). */
#ifndef EXACTCOVER_BOARD        /* the file is read three times: see "the bitboard search" */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include "_handback.h"

/* 128-bit boards need a 128-bit integer (gcc and clang have one; __extension__ keeps -Wpedantic
   quiet about it); without one, boards of up to 64 cells use bitboards and larger ones dancing
   links (MAX_BOARD tells Python which). */
#if defined(__SIZEOF_INT128__)
#define EXACTCOVER_128 1
__extension__ typedef unsigned __int128 u128;
#else
#define EXACTCOVER_128 0
#endif

/* The index of the lowest set bit of a nonzero word. */
static inline int lowest_bit(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    while (!(x & 1)) { x >>= 1; n++; }
    return n;
#endif
}

typedef struct { int up, down, item, row; } Node;   /* nodes 0..nitems-1 are the item headers */

enum { ST_IDLE, ST_ENTER, ST_NEXT, ST_BACK, ST_DONE };               /* where the search is */
enum { BR_NARY, BR_IN, BR_OUT, BR_OPT_IN, BR_OPT_OUT };              /* how a level branched */

typedef struct {
    PyObject_HEAD
    int nitems, nrows, nnodes, root;
    Node *N;
    int *rowstart;                  /* row r's nodes: rowstart[r] .. rowstart[r + 1] - 1 */
    int *lo, *hi, *cnt, *len;       /* bounds, rows taken, rows still live, per item */
    int *left, *right;              /* the ring of primary items not yet met (root = nitems) */
    char *inring;
    /* pocket cut */
    int ncells, nareas, pocket_limit, words, minarea;
    int *nbrstart, *nbr;            /* cell c's neighbours: nbr[nbrstart[c] .. nbrstart[c + 1]] */
    int *area, *rem, *rowarea;      /* area classes: size, copies left; each row's class (-1) */
    uint64_t *reach;                /* the pocket sizes the pieces left can fill (a bit set) */
    long long reach_version, rem_version;
    long long *mark, stamp;
    int *queue;
    /* the search */
    unsigned long long pace;        /* nodes between looks at the clock, as the last run left it */
    HandbackWatch watch;            /* who is shown the rows taken, at looks (_handback.h) */
    int state, level, maxlevel;
    int *item_at, *kind, *x_at, *deg, *idx;
    int *trail, ntrail;             /* assumptions applied: +row taken, -row-1 hidden */
    long long nodes, cuts, solutions;
    long long work;                 /* links and candidates touched, ever: a machine-free cost */
    uint64_t rng;
    /* the bitboard search (board = 64 or 128 cells at most; 0: dancing links) */
    int board, maxcand;
    void *bmask, *bborder, *bnbr, *bcur;  /* per row: cells, cells around; per cell: neighbours */
    void *bcand;                    /* per cell, the rows whose first cell it is: {mask, row, piece} */
    int *rpiece, *rcand, *cstart, *fits, *lrow, *lfit;
    int *bstart;                    /* per cell, runs of candidates of one piece: blocks[bstart[c]..] */
    struct Block { uint64_t pbit; int from, to; } *blocks;
    int nrules, *rshift;            /* neighbours by shifts: OR of (S & rmask[k]) shifted by rshift[k] */
    void *rmask;
    int *room;                      /* copies left per item; [nitems]: no piece, [nitems + 1]: banned */
    uint64_t full;                  /* bit i: piece item ncells + i has no copy left; bit 63: banned */
} Engine;

/* -- links ------------------------------------------------------------------------------------- */
static inline void ring_remove(Engine *e, int c) {
    e->left[e->right[c]] = e->left[c]; e->right[e->left[c]] = e->right[c]; e->inring[c] = 0;
}
static inline void ring_restore(Engine *e, int c) {
    e->left[e->right[c]] = c; e->right[e->left[c]] = c; e->inring[c] = 1;
}

/* Unlink the nodes of x's row other than x itself from their items. */
static inline void hide_others(Engine *e, int x) {
    Node *N = e->N;
    int r = N[x].row;
    e->work += e->rowstart[r + 1] - e->rowstart[r];
    for (int j = e->rowstart[r]; j < e->rowstart[r + 1]; j++) {
        if (j == x) continue;
        N[N[j].down].up = N[j].up; N[N[j].up].down = N[j].down; e->len[N[j].item]--;
    }
}
static inline void unhide_others(Engine *e, int x) {
    Node *N = e->N;
    int r = N[x].row;
    for (int j = e->rowstart[r + 1] - 1; j >= e->rowstart[r]; j--) {
        if (j == x) continue;
        e->len[N[j].item]++; N[N[j].down].up = j; N[N[j].up].down = j;
    }
}
/* Unlink every node of row r (a row ruled out, or taken on its own). */
static inline void hide_row(Engine *e, int r) {
    Node *N = e->N;
    e->work += e->rowstart[r + 1] - e->rowstart[r];
    for (int j = e->rowstart[r]; j < e->rowstart[r + 1]; j++) {
        N[N[j].down].up = N[j].up; N[N[j].up].down = N[j].down; e->len[N[j].item]--;
    }
}
static inline void unhide_row(Engine *e, int r) {
    Node *N = e->N;
    for (int j = e->rowstart[r + 1] - 1; j >= e->rowstart[r]; j--) {
        e->len[N[j].item]++; N[N[j].down].up = j; N[N[j].up].down = j;
    }
}
/* Item c is full: every row still meeting it leaves its other items (DLX's cover). */
static void close_item(Engine *e, int c) {
    for (int i = e->N[c].down; i != c; i = e->N[i].down) hide_others(e, i);
}
static void reopen_item(Engine *e, int c) {
    for (int i = e->N[c].up; i != c; i = e->N[i].up) unhide_others(e, i);
}

/* Count row r (already unlinked from its items, except from ``skip``) as taken. */
static void take(Engine *e, int r, int skip) {
    Node *N = e->N;
    for (int j = e->rowstart[r]; j < e->rowstart[r + 1]; j++) {
        int c = N[j].item;
        if (c == skip) continue;
        e->cnt[c]++;
        if (e->cnt[c] == e->hi[c]) close_item(e, c);
        if (e->inring[c] && e->cnt[c] >= e->lo[c]) ring_remove(e, c);
    }
    if (e->rowarea[r] >= 0) { e->rem[e->rowarea[r]]--; e->rem_version++; }
}
static void untake(Engine *e, int r, int skip) {
    Node *N = e->N;
    if (e->rowarea[r] >= 0) { e->rem[e->rowarea[r]]++; e->rem_version++; }
    for (int j = e->rowstart[r + 1] - 1; j >= e->rowstart[r]; j--) {
        int c = N[j].item;
        if (c == skip) continue;
        if (e->lo[c] > 0 && !e->inring[c] && e->cnt[c] == e->lo[c]) ring_restore(e, c);
        if (e->cnt[c] == e->hi[c]) reopen_item(e, c);
        e->cnt[c]--;
    }
}

/* -- the pocket cut ------------------------------------------------------------------------------ */
static int fillable(Engine *e, int size) {
    if (e->nareas == 1) return size % e->area[0] == 0 && size / e->area[0] <= e->rem[0];
    if (e->reach_version != e->rem_version) {            /* sums of the copies left, by shifts */
        memset(e->reach, 0, e->words * sizeof(uint64_t));
        e->reach[0] = 1;
        for (int a = 0; a < e->nareas; a++)
            for (int k = 0; k < e->rem[a]; k++) {
                int s = e->area[a], ws = s / 64, bs = s % 64;
                for (int w = e->words - 1; w >= ws; w--) {
                    uint64_t v = e->reach[w - ws] << bs;
                    if (bs && w - ws - 1 >= 0) v |= e->reach[w - ws - 1] >> (64 - bs);
                    e->reach[w] |= v;
                }
            }
        e->reach_version = e->rem_version;
    }
    return size < e->words * 64 && (e->reach[size / 64] >> (size % 64)) & 1;
}

/* 1 if taking row r would leave a pocket of open cells that no set of the pieces left fills.
   Each flood fill has its own stamp; meeting a cell that an earlier fill gave up on (too large)
   means this is the same large region, so it is left alone too. */
static int bad_pocket(Engine *e, int r) {
    Node *N = e->N;
    int bad = 0, start = e->rowstart[r], end = e->rowstart[r + 1];
    if (!e->ncells) return 0;
    for (int j = start; j < end; j++) if (N[j].item < e->ncells) e->cnt[N[j].item]++;
    long long base = e->stamp + 1;
    for (int k = start; k < end && !bad; k++) {
        int c = N[k].item;
        if (c >= e->ncells) continue;
        for (int a = e->nbrstart[c]; a < e->nbrstart[c + 1] && !bad; a++) {
            int s = e->nbr[a];
            if (e->cnt[s] || e->mark[s] >= base) continue;
            int head = 0, tail = 0, gave_up = 0;
            e->mark[s] = ++e->stamp; e->queue[tail++] = s;
            while (head < tail && !gave_up) {
                int y0 = e->queue[head++];
                for (int b = e->nbrstart[y0]; b < e->nbrstart[y0 + 1]; b++) {
                    int y = e->nbr[b];
                    if (e->cnt[y] || e->mark[y] == e->stamp) continue;
                    if (e->mark[y] >= base) { gave_up = 1; break; }
                    e->mark[y] = e->stamp; e->queue[tail++] = y;
                }
                if (tail > e->pocket_limit) gave_up = 1;
            }
            if (!gave_up && !fillable(e, tail)) bad = 1;
        }
    }
    for (int j = start; j < end; j++) if (N[j].item < e->ncells) e->cnt[N[j].item]--;
    return bad;
}

/* -- choosing --------------------------------------------------------------------------------- */
/* The ring item with the fewest rows beyond its need (-1: the ring is empty); *slack < 0: dead. */
static int choose(Engine *e, int *slack) {
    int best = -1, bs = INT32_MAX;
    for (int c = e->right[e->root]; c != e->root; c = e->right[c]) {
        int s = e->len[c] - (e->lo[c] - e->cnt[c]);
        if (s < bs) { bs = s; best = c; if (s <= 0) break; }
    }
    *slack = bs;
    return best;
}

/* A live row when every primary item is met (the rest are optional: in or out); -1: none. */
static int live_row(Engine *e) {
    for (int c = 0; c < e->nitems; c++)
        if (e->len[c] > 0 && e->cnt[c] < e->hi[c]) return e->N[e->N[c].down].row;
    return -1;
}

/* -- the search ---------------------------------------------------------------------------------- */
static int grow(Engine *e) {
    if (e->level + 1 < e->maxlevel) return 0;
    int m = e->maxlevel * 2;
    int **arrays[] = {&e->item_at, &e->kind, &e->x_at, &e->deg, &e->idx, &e->lrow, &e->lfit};
    for (int k = 0; k < 7; k++) {
        int *p = PyMem_Realloc(*arrays[k], m * sizeof(int));
        if (!p) { PyErr_NoMemory(); return -1; }
        *arrays[k] = p;
    }
    e->maxlevel = m;
    return 0;
}

/* The row taken at level l (-1: none, the level left a row out). */
static inline int row_at(Engine *e, int l) {
    if (e->board) return e->lrow[l];
    return e->kind[l] == BR_OUT || e->kind[l] == BR_OPT_OUT ? -1 : e->N[e->x_at[l]].row;
}

/* The rows of the current solution, assumptions first, in a new tuple. */
static PyObject *solution_tuple(Engine *e) {
    int n = 0;
    for (int t = 0; t < e->ntrail; t++) n += e->trail[t] >= 0;
    for (int l = 0; l < e->level; l++) n += row_at(e, l) >= 0;
    PyObject *tup = PyTuple_New(n);
    if (!tup) return NULL;
    int k = 0;
    for (int t = 0; t < e->ntrail; t++)
        if (e->trail[t] >= 0) PyTuple_SET_ITEM(tup, k++, PyLong_FromLong(e->trail[t]));
    for (int l = 0; l < e->level; l++)
        if (row_at(e, l) >= 0) PyTuple_SET_ITEM(tup, k++, PyLong_FromLong(row_at(e, l)));
    return tup;
}

/* A watcher's snapshot: the rows taken so far (the partial solution at a look). */
static PyObject *show_rows(void *engine) {
    return solution_tuple((Engine *)engine);
}

/* Record the solution the search stands on; -1 on an error. */
static int found_solution(Engine *e, PyObject *out) {
    e->solutions++;
    if (!out) return 0;
    PyObject *t = solution_tuple(e);
    if (!t || PyList_Append(out, t) < 0) { Py_XDECREF(t); return -1; }
    Py_DECREF(t);
    return 0;
}

/* Run until the budget of nodes is spent (0: none), ``max_solutions`` were found (0: no limit),
   or the tree is exhausted.  Appends solutions to ``out`` (a list) unless it is NULL (counting).
   Returns 1 when exhausted, 0 when paused, -1 on an error. */
static int dlx_step(Engine *e, long long budget, long long max_solutions, PyObject *out, Handback *hb) {
    long long stop_at = budget > 0 ? e->nodes + budget : -1, found = 0;
    Node *N = e->N;
    for (;;) {
        int l = e->level, x, c;
        switch (e->state) {
        case ST_ENTER: {
            int slack;
            if (grow(e) < 0) return -1;
            c = choose(e, &slack);
            if (c < 0) {
                int r = live_row(e);
                if (r < 0) {                                     /* a solution */
                    if (found_solution(e, out) < 0) return -1;
                    e->state = ST_BACK;
                    if (max_solutions > 0 && ++found >= max_solutions) return ENGINE_LIMIT;
                    continue;
                }
                e->item_at[l] = -1; e->kind[l] = BR_OPT_IN; e->x_at[l] = e->rowstart[r];
                e->deg[l] = 2; e->idx[l] = 0;
                e->state = ST_NEXT;
                continue;
            }
            if (slack < 0) { e->state = ST_BACK; continue; }
            e->item_at[l] = c; e->idx[l] = 0;
            if (e->hi[c] == 1) {
                e->kind[l] = BR_NARY; e->deg[l] = e->len[c];
                close_item(e, c);
                ring_remove(e, c);
                e->x_at[l] = N[c].down;
            } else {
                e->kind[l] = BR_IN; e->deg[l] = 2; e->x_at[l] = N[c].down;
            }
            e->state = ST_NEXT;
            continue;
        }
        case ST_NEXT:                                    /* try the next child of level l */
            if (stop_at >= 0 && e->nodes >= stop_at) return ENGINE_NODES;
            if (handback_due(hb, (unsigned long long)e->nodes)) {
                int r = handback_look(hb, (unsigned long long)e->nodes);
                if (r) return r;                         /* ENGINE_TIME, or an exception */
            }
            x = e->x_at[l];
            c = e->item_at[l];
            if (e->kind[l] == BR_NARY) {
                if (x == c) {                            /* every row tried */
                    ring_restore(e, c);
                    reopen_item(e, c);
                    e->state = ST_BACK;
                    continue;
                }
                e->nodes++;
                if (bad_pocket(e, N[x].row)) { e->cuts++; e->x_at[l] = N[x].down; e->idx[l]++; continue; }
                e->cnt[c]++;
                take(e, N[x].row, c);
            } else if (e->kind[l] == BR_IN || e->kind[l] == BR_OPT_IN) {
                e->nodes++;
                hide_row(e, N[x].row);
                if (bad_pocket(e, N[x].row)) {
                    e->cuts++;
                    e->kind[l] = e->kind[l] == BR_IN ? BR_OUT : BR_OPT_OUT; e->idx[l] = 1;
                    continue;
                }
                take(e, N[x].row, -1);
            } else {                                     /* out: the row stays hidden */
                e->nodes++;
            }
            e->level++;
            e->state = ST_ENTER;
            continue;
        case ST_BACK:                                    /* the child of level l - 1 is done */
            if (e->level == 0) { e->state = ST_DONE; return ENGINE_DONE; }
            l = --e->level;
            x = e->x_at[l];
            c = e->item_at[l];
            switch (e->kind[l]) {
            case BR_NARY:
                untake(e, N[x].row, c);
                e->cnt[c]--;
                e->x_at[l] = N[x].down; e->idx[l]++;
                break;
            case BR_IN: case BR_OPT_IN:
                untake(e, N[x].row, -1);
                e->kind[l] = e->kind[l] == BR_IN ? BR_OUT : BR_OPT_OUT; e->idx[l] = 1;
                break;
            default:                                     /* out done: bring the row back */
                unhide_row(e, N[x].row);
                continue;                                /* and back up once more */
            }
            e->state = ST_NEXT;
            continue;
        case ST_DONE:
            return ENGINE_DONE;
        default:
            PyErr_SetString(PyExc_RuntimeError, "the search was not started");
            return ENGINE_ERROR;
        }
    }
}

/* Undo everything: unwind the search stack, then the assumptions. */
static void dlx_unwind(Engine *e) {
    if (e->state == ST_ENTER || e->state == ST_NEXT || e->state == ST_BACK) {
        /* a level whose children are being tried has its branch applied; close it */
        if (e->state == ST_NEXT) {
            int l = e->level;
            if (e->kind[l] == BR_NARY) { ring_restore(e, e->item_at[l]); reopen_item(e, e->item_at[l]); }
            else if (e->kind[l] == BR_OUT || e->kind[l] == BR_OPT_OUT) unhide_row(e, e->N[e->x_at[l]].row);
        }
        while (e->level > 0) {
            int l = --e->level, x = e->x_at[l], c = e->item_at[l];
            switch (e->kind[l]) {
            case BR_NARY:
                untake(e, e->N[x].row, c); e->cnt[c]--;
                ring_restore(e, c); reopen_item(e, c);
                break;
            case BR_IN: case BR_OPT_IN:
                untake(e, e->N[x].row, -1); unhide_row(e, e->N[x].row);
                break;
            default:
                unhide_row(e, e->N[x].row);
            }
        }
    }
    while (e->ntrail > 0) {
        int t = e->trail[--e->ntrail];
        if (t >= 0) { untake(e, t, -1); unhide_row(e, t); }
        else unhide_row(e, -t - 1);
    }
    e->state = ST_IDLE;
}

/* Whether every node of row r is still linked (a row hidden, or cut off by a full item, is not). */
static int row_live(Engine *e, int r) {
    for (int x = e->rowstart[r]; x < e->rowstart[r + 1]; x++)
        if (e->N[e->N[x].up].down != x) return 0;
    return 1;
}

/* Apply assumptions: rows forced out (negative: -(row + 1)) first, then rows forced in.
   Returns 0 if they contradict each other or the bounds (no solution), 1 if fine. */
/* One assumption as a row, in pass 0 (rows forced out, written -(row + 1)) or pass 1 (rows
   forced in): 1 with the row in *r, 0 when it belongs to the other pass, -1 on an error. */
static int assumed_row(Engine *e, PyObject *lit, int pass, int *r) {
    long v = PyLong_AsLong(lit);
    if (v == -1 && PyErr_Occurred()) return -1;
    if ((v < 0) != (pass == 0)) return 0;
    *r = v < 0 ? (int)(-v - 1) : (int)v;
    if (*r < 0 || *r >= e->nrows) { PyErr_SetString(PyExc_ValueError, "row out of range"); return -1; }
    return 1;
}

static int dlx_assume(Engine *e, PyObject *lits) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(lits);
    PyObject **items = PySequence_Fast_ITEMS(lits);
    for (int pass = 0; pass < 2; pass++)
        for (Py_ssize_t i = 0; i < n; i++) {
            int r, got = assumed_row(e, items[i], pass, &r);
            if (got <= 0) { if (got < 0) return -1; continue; }
            if (!row_live(e, r)) {
                if (pass == 0) continue;                 /* already out */
                return 0;
            }
            hide_row(e, r);
            if (pass == 1) take(e, r, -1);
            e->trail[e->ntrail++] = pass == 0 ? -r - 1 : r;
        }
    for (int c = 0; c < e->nitems; c++)
        if (e->cnt[c] > e->hi[c] || e->len[c] < e->lo[c] - e->cnt[c]) return 0;
    return 1;
}

/* -- estimates ---------------------------------------------------------------------------------- */
static uint64_t next_rand(Engine *e) {
    e->rng ^= e->rng << 13; e->rng ^= e->rng >> 7; e->rng ^= e->rng << 17; return e->rng;
}

/* One random path from the present state: the sum of the running products of the degrees (an
   unbiased estimate of the number of nodes below, Knuth 1975).  Leaves the state as it was. */
static double dlx_probe(Engine *e) {
    double product = 1, total = 0;
    int base = e->level, ok = 1;
    Node *N = e->N;
    while (ok) {
        int slack, c = choose(e, &slack), l = e->level;
        if (grow(e) < 0) return -1;
        if (c < 0) {
            int r = live_row(e);
            if (r < 0) break;
            product *= 2; total += product;
            e->item_at[l] = -1; e->x_at[l] = e->rowstart[r];
            hide_row(e, r);
            if (next_rand(e) & 1) { e->kind[l] = BR_OPT_OUT; }
            else if (bad_pocket(e, r)) { e->kind[l] = BR_OPT_OUT; ok = 0; }
            else { e->kind[l] = BR_OPT_IN; take(e, r, -1); }
            e->level++;
            continue;
        }
        if (slack < 0) break;
        e->item_at[l] = c;
        if (e->hi[c] == 1) {
            int d = e->len[c];
            product *= d; total += product;
            int x = N[c].down;
            for (int k = (int)(next_rand(e) % d); k > 0; k--) x = N[x].down;
            close_item(e, c); ring_remove(e, c);
            e->kind[l] = BR_NARY; e->x_at[l] = x;
            if (bad_pocket(e, N[x].row)) { e->level++; e->cnt[c]++; e->kind[l] = -1; break; }
            e->cnt[c]++; take(e, N[x].row, c);
        } else {
            product *= 2; total += product;
            int x = N[c].down;
            e->x_at[l] = x;
            hide_row(e, N[x].row);
            if (next_rand(e) & 1) e->kind[l] = BR_OUT;
            else if (bad_pocket(e, N[x].row)) { e->kind[l] = BR_OUT; ok = 0; }
            else { e->kind[l] = BR_IN; take(e, N[x].row, -1); }
        }
        e->level++;
    }
    while (e->level > base) {
        int l = --e->level, x = e->x_at[l], c = e->item_at[l];
        switch (e->kind[l]) {
        case -1: e->cnt[c]--; ring_restore(e, c); reopen_item(e, c); break;   /* cut at once */
        case BR_NARY: untake(e, N[x].row, c); e->cnt[c]--; ring_restore(e, c); reopen_item(e, c); break;
        case BR_IN: case BR_OPT_IN: untake(e, N[x].row, -1); unhide_row(e, N[x].row); break;
        default: unhide_row(e, N[x].row);
        }
    }
    return total;
}


static int *int_array(PyObject *seq, Py_ssize_t *n, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return NULL;
    *n = PySequence_Fast_GET_SIZE(f);
    int *a = PyMem_Malloc((*n + 1) * sizeof(int));
    if (!a) { Py_DECREF(f); PyErr_NoMemory(); return NULL; }
    for (Py_ssize_t i = 0; i < *n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(f); PyMem_Free(a); return NULL; }
        a[i] = (int)v;
    }
    Py_DECREF(f);
    return a;
}

/* -- the bitboard search ------------------------------------------------------------------------
   On a board of at most 128 cells whose cells must all be covered, de Bruijn's rule beats the
   fewest-rows rule: fill the first empty cell (in the cells' order), trying only the rows whose
   first cell it is; a row fits when it meets no full cell and its piece has a copy left.  Boards
   and rows are bit sets, so a node costs a few machine words where dancing links update dozens of
   lists; the pocket cut floods the empty cells around the new piece through neighbour masks.
   The same code is compiled for 64-bit and 128-bit boards (BITS), by reading this file again. */
#define EXACTCOVER_BOARD
#define BITS uint64_t
#define B(name) name##64
#include "_exactcover.c"
#undef BITS
#undef B
#if EXACTCOVER_128
#define BITS u128
#define B(name) name##128
#include "_exactcover.c"
#undef BITS
#undef B
#define DEAD128(e, r) dead128(e, ((u128 *)(e)->bcur)[0] | ((u128 *)(e)->bmask)[r], \
                              ((u128 *)(e)->bborder)[r])
#else   /* never called: a board of 128 is refused when the engine is made */
#define fits128 fits64
#define fewest_by_piece128 fewest_by_piece64
#define board_step128 board_step64
#define board_probe128 board_probe64
#define board_unwind128 board_unwind64
#define board_assume128 board_assume64
#define board_init128 board_init64
#define DEAD128(e, r) 0
#endif

/* The first branching of the bitboard search, for cubes: the rows that fit the first empty cell,
   or those of the piece with fewer fitting rows, if there is one (de Bruijn placed the X
   pentomino first: its few places, then the board filled cell by cell, visit fewer nodes than
   filling cell by cell from the start; docs/decisions/2026-11-27-exact-cover-engine.md). */
static PyObject *board_children(Engine *e) {
    int n = e->board == 64 ? fits64(e, 0) : fits128(e, 0);
    if (n > 0) n = e->board == 64 ? fewest_by_piece64(e, n) : fewest_by_piece128(e, n);
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int k = 0; k < n; k++) {
        int r = e->fits[k];
        int dead = e->board == 64
            ? dead64(e, ((uint64_t *)e->bcur)[0] | ((uint64_t *)e->bmask)[r], ((uint64_t *)e->bborder)[r])
            : DEAD128(e, r);
        if (dead) continue;
        PyObject *v = PyLong_FromLong(r);
        if (!v || PyList_Append(out, v) < 0) { Py_XDECREF(v); Py_DECREF(out); return NULL; }
        Py_DECREF(v);
    }
    return Py_BuildValue("(iN)", n < 0 ? -1 : e->item_at[0], out);
}

static int step(Engine *e, long long budget, long long max_solutions, PyObject *out, Handback *hb) {
    if (e->board == 64) return board_step64(e, budget, max_solutions, out, hb);
    if (e->board == 128) return board_step128(e, budget, max_solutions, out, hb);
    return dlx_step(e, budget, max_solutions, out, hb);
}
static double probe(Engine *e) {
    if (e->board == 64) return board_probe64(e);
    if (e->board == 128) return board_probe128(e);
    return dlx_probe(e);
}
static void unwind(Engine *e) {
    if (e->board == 64) board_unwind64(e);
    else if (e->board == 128) board_unwind128(e);
    else dlx_unwind(e);
}
static int assume(Engine *e, PyObject *lits) {
    if (e->board == 64) return board_assume64(e, lits);
    if (e->board == 128) return board_assume128(e, lits);
    return dlx_assume(e, lits);
}

/* -- Python interface ----------------------------------------------------------------------------- */
static void Engine_dealloc(Engine *e) {
    void *arrays[] = {e->N, e->rowstart, e->lo, e->hi, e->cnt, e->len, e->left, e->right,
                      e->inring, e->nbrstart, e->nbr, e->area, e->rem, e->rowarea, e->reach,
                      e->mark, e->queue, e->item_at, e->kind, e->x_at, e->deg, e->idx, e->trail,
                      e->bmask, e->bborder, e->bnbr, e->bcur, e->bcand, e->rpiece, e->rcand,
                      e->cstart, e->fits, e->lrow, e->lfit, e->room, e->bstart, e->blocks,
                      e->rshift, e->rmask};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) PyMem_Free(arrays[k]);
    Py_XDECREF(e->watch.callback);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

/* Engine(row_items, row_start, lo, hi, nbr_start, nbr, areas, area_counts, row_area, pocket_limit)
   row_items[row_start[r]:row_start[r+1]]: the items of row r; nbr likewise for the cells
   (the first len(nbr_start) - 1 items); areas / area_counts: the piece areas and how many
   pieces have each; row_area: each row's area class (-1: none). */
static int Engine_init(Engine *e, PyObject *args, PyObject *kw) {
    PyObject *o_items, *o_start, *o_lo, *o_hi, *o_nstart, *o_nbr, *o_areas, *o_counts, *o_rarea;
    PyObject *o_rules = NULL;
    int pocket_limit = 1 << 30, board = 0;
    (void)kw;                               /* positional arguments only */
    if (!PyArg_ParseTuple(args, "OOOOOOOOO|iiO", &o_items, &o_start, &o_lo, &o_hi, &o_nstart, &o_nbr,
                          &o_areas, &o_counts, &o_rarea, &pocket_limit, &board, &o_rules))
        return -1;
    Py_ssize_t nn, ns, ni, nh, nc1, nnb, na, nac, nra;
    int *items = int_array(o_items, &nn, "row items"), *start = int_array(o_start, &ns, "row starts");
    e->lo = int_array(o_lo, &ni, "lo"); e->hi = int_array(o_hi, &nh, "hi");
    e->nbrstart = int_array(o_nstart, &nc1, "neighbour starts");
    e->nbr = int_array(o_nbr, &nnb, "neighbours");
    e->area = int_array(o_areas, &na, "areas"); e->rem = int_array(o_counts, &nac, "area counts");
    e->rowarea = int_array(o_rarea, &nra, "row areas");
    if (!items || !start || !e->lo || !e->hi || !e->nbrstart || !e->nbr || !e->area || !e->rem || !e->rowarea)
        goto fail;
    if (ns < 1 || ni != nh || na != nac || nra != ns - 1 || nc1 < 1 || nc1 - 1 > ni) {
        PyErr_SetString(PyExc_ValueError, "inconsistent matrix arrays"); goto fail;
    }
    int nitems = (int)ni, nrows = (int)ns - 1;
    e->nitems = nitems; e->nrows = nrows; e->root = nitems; e->nnodes = nitems + (int)nn;
    e->ncells = (int)nc1 - 1; e->nareas = (int)na; e->pocket_limit = pocket_limit;
    e->N = PyMem_Malloc(e->nnodes * sizeof(Node));
    e->rowstart = PyMem_Malloc((nrows + 1) * sizeof(int));
    e->cnt = PyMem_Calloc(nitems + 1, sizeof(int)); e->len = PyMem_Calloc(nitems + 1, sizeof(int));
    e->left = PyMem_Malloc((nitems + 1) * sizeof(int)); e->right = PyMem_Malloc((nitems + 1) * sizeof(int));
    e->inring = PyMem_Calloc(nitems + 1, 1);
    e->mark = PyMem_Calloc(e->ncells + 1, sizeof(long long));
    e->queue = PyMem_Malloc((e->ncells + 1) * sizeof(int));
    e->words = (e->ncells + 64) / 64 + 1;
    e->reach = PyMem_Calloc(e->words, sizeof(uint64_t));
    int m = e->maxlevel = e->ncells + 64;
    e->item_at = PyMem_Malloc(m * sizeof(int)); e->kind = PyMem_Malloc(m * sizeof(int));
    e->x_at = PyMem_Malloc(m * sizeof(int)); e->deg = PyMem_Malloc(m * sizeof(int));
    e->idx = PyMem_Malloc(m * sizeof(int)); e->lrow = PyMem_Malloc(m * sizeof(int));
    e->lfit = PyMem_Malloc(m * sizeof(int));
    e->trail = PyMem_Malloc((nrows + 1) * sizeof(int));
    if (!e->N || !e->rowstart || !e->cnt || !e->len || !e->left || !e->right || !e->inring || !e->mark
        || !e->queue || !e->reach || !e->item_at || !e->kind || !e->x_at || !e->deg || !e->idx || !e->trail
        || !e->lrow || !e->lfit) {
        PyErr_NoMemory(); goto fail;
    }
    for (int c = 0; c < nitems; c++) {
        e->N[c] = (Node){c, c, c, -1};
        if (e->hi[c] < 1 || e->lo[c] < 0 || e->lo[c] > e->hi[c]) {
            PyErr_SetString(PyExc_ValueError, "item bounds must satisfy 0 <= lo <= hi, hi >= 1"); goto fail;
        }
    }
    int n = nitems;
    for (int r = 0; r < nrows; r++) {
        if (start[r] < 0 || start[r] >= start[r + 1] || start[r + 1] > nn) {
            PyErr_SetString(PyExc_ValueError, "every row needs at least one item"); goto fail;
        }
        e->rowstart[r] = n;
        for (int k = start[r]; k < start[r + 1]; k++, n++) {
            int c = items[k];
            if (c < 0 || c >= nitems) { PyErr_SetString(PyExc_ValueError, "item out of range"); goto fail; }
            e->N[n] = (Node){e->N[c].up, c, c, r};
            e->N[e->N[c].up].down = n; e->N[c].up = n; e->len[c]++;
        }
        if (e->rowarea[r] >= e->nareas) { PyErr_SetString(PyExc_ValueError, "row area class"); goto fail; }
    }
    e->rowstart[nrows] = n;
    for (int c = 0; c < e->ncells; c++)
        for (int a = e->nbrstart[c]; a < e->nbrstart[c + 1]; a++)
            if (a < 0 || a >= nnb || e->nbr[a] < 0 || e->nbr[a] >= e->ncells) {
                PyErr_SetString(PyExc_ValueError, "neighbour out of range"); goto fail;
            }
    /* the ring: primary items in order */
    int prev = e->root;
    for (int c = 0; c < nitems; c++)
        if (e->lo[c] > 0) { e->right[prev] = c; e->left[c] = prev; e->inring[c] = 1; prev = c; }
    e->right[prev] = e->root; e->left[e->root] = prev;
    e->rng = 88172645463325252ULL;
    e->reach_version = -1;
    e->state = ST_IDLE;
    if (board && ((board != 64 && !(board == 128 && EXACTCOVER_128)) || e->ncells > board || e->nareas == 0)) {
        PyErr_SetString(PyExc_ValueError, EXACTCOVER_128
                        ? "board must be 0, 64 or 128, with the cells and areas given"
                        : "board must be 0 or 64 (no 128-bit integers here), with the cells and areas given");
        goto fail;
    }
    e->board = board;
    e->minarea = 1 << 30;
    for (int a = 0; a < e->nareas; a++) if (e->area[a] < e->minarea) e->minarea = e->area[a];
    if ((board == 64 && board_init64(e, o_rules) < 0) || (board == 128 && board_init128(e, o_rules) < 0))
        goto fail;
    PyMem_Free(items); PyMem_Free(start);
    return 0;
fail:
    PyMem_Free(items); PyMem_Free(start);
    return -1;
}

static PyObject *Engine_start(Engine *e, PyObject *args) {
    PyObject *lits;
    if (!PyArg_ParseTuple(args, "O", &lits)) return NULL;
    PyObject *f = PySequence_Fast(lits, "assumptions must be a sequence");
    if (!f) return NULL;
    unwind(e);
    e->nodes = e->cuts = e->solutions = 0;
    int ok = assume(e, f);
    Py_DECREF(f);
    if (ok < 0) { unwind(e); return NULL; }
    e->level = 0;
    e->state = ok ? ST_ENTER : ST_DONE;
    return PyBool_FromLong(ok);
}

static PyObject *Engine_run(Engine *e, PyObject *args) {
    long long budget = 0, max_solutions = 0;
    int keep = 1;
    double seconds = 0.0;
    if (!PyArg_ParseTuple(args, "|LLpd", &budget, &max_solutions, &keep, &seconds)) return NULL;
    if (budget < 0 || max_solutions < 0 || !(seconds >= 0.0)) {
        PyErr_SetString(PyExc_ValueError, "run(): budget, max_solutions and seconds are >= 0");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    Handback hb;
    handback_start(&hb, seconds, 0, (unsigned long long)e->nodes);
    handback_keep_pace(&hb, e->pace, seconds);
    handback_watch(&hb, &e->watch, show_rows, e);
    int res = step(e, budget, max_solutions, keep ? out : NULL, &hb);
    e->pace = hb.every;
    if (res < 0) { Py_DECREF(out); return NULL; }
    return Py_BuildValue("(Ns)", out, handback_name(res));
}

/* watch(callback, seconds): at looks, at most every ``seconds`` of wall time, callback(rows) with
   the rows the search has taken (assumed ones first); callback None: no one watches. */
static PyObject *Engine_watch(Engine *e, PyObject *args) {
    PyObject *callback;
    double every;
    if (!PyArg_ParseTuple(args, "Od", &callback, &every)) return NULL;
    if (handback_set_watch(&e->watch, callback, every) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Engine_estimate(Engine *e, PyObject *args) {
    int probes;
    unsigned long long seed = 0;
    if (!PyArg_ParseTuple(args, "i|K", &probes, &seed)) return NULL;
    if (e->state != ST_ENTER || e->level != 0) {
        PyErr_SetString(PyExc_RuntimeError, "estimate right after start()"); return NULL;
    }
    if (seed) e->rng = seed * 0x9E3779B97F4A7C15ULL | 1;
    double sum = 0;
    for (int p = 0; p < probes; p++) {
        double t = probe(e);
        if (t < 0) return NULL;
        sum += t;
    }
    return PyFloat_FromDouble(probes > 0 ? sum / probes : 0.0);
}

/* The choices the search makes at the root of the present state: (item, [row, ...]) where each
   row is a literal of the cube it opens: +row taken (n-ary), or +row / -(row + 1) (binary);
   (-1, []) when the root is a leaf or dead. */
static PyObject *Engine_children(Engine *e, PyObject *Py_UNUSED(ignored)) {
    if (e->state != ST_ENTER || e->level != 0) {
        PyErr_SetString(PyExc_RuntimeError, "children right after start()"); return NULL;
    }
    if (e->board) return board_children(e);
    int slack, c = choose(e, &slack);
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    if (c < 0) {
        int r = live_row(e);
        if (r >= 0) { c = -2; Py_DECREF(out); return Py_BuildValue("(i[ii])", c, r, -r - 1); }
        return Py_BuildValue("(iN)", -1, out);
    }
    if (slack < 0) return Py_BuildValue("(iN)", -1, out);
    if (e->hi[c] == 1) {
        close_item(e, c);
        for (int x = e->N[c].down; x != c; x = e->N[x].down) {
            if (bad_pocket(e, e->N[x].row)) continue;
            PyObject *v = PyLong_FromLong(e->N[x].row);
            if (!v || PyList_Append(out, v) < 0) {
                Py_XDECREF(v); reopen_item(e, c); Py_DECREF(out); return NULL;
            }
            Py_DECREF(v);
        }
        reopen_item(e, c);
        return Py_BuildValue("(iN)", c, out);
    }
    int r = e->N[e->N[c].down].row;
    Py_DECREF(out);
    return Py_BuildValue("(i[ii])", c, r, -r - 1);
}

/* -- what is left: the search's position as subtrees not yet searched ------------------------
   Where the search stopped (it hands back in ST_NEXT: the next child of level l untried; every
   level above has one child in progress), the part of the tree not yet searched is: at each level
   d < l, the children after the one in progress; at level l, the children from the untried one
   on.  Each is a cube: the literals chosen above it (row r in: r, out: -(r + 1)) and its own.
   They partition the solutions not yet found, so a stopped count goes on with them alone. */
static int rem_literal(Engine *e, int d) {        /* the literal chosen at level d */
    if (e->board) return e->lrow[d];
    int r = e->N[e->x_at[d]].row;
    return (e->kind[d] == BR_OUT || e->kind[d] == BR_OPT_OUT) ? -r - 1 : r;
}

/* Append the cube path[0..d-1] + lit to out; -1 on an error. */
static int rem_add(Engine *e, PyObject *out, int d, int lit) {
    PyObject *cube = PyList_New(d + 1);
    if (!cube) return -1;
    for (int k = 0; k <= d; k++) {
        PyObject *v = PyLong_FromLong(k < d ? rem_literal(e, k) : lit);
        if (!v) { Py_DECREF(cube); return -1; }
        PyList_SET_ITEM(cube, k, v);
    }
    int bad = PyList_Append(out, cube);
    Py_DECREF(cube);
    return bad;
}

/* The children of level d still to search: from the current one (``from_current``) or after it. */
static int rem_level(Engine *e, PyObject *out, int d, int from_current) {
    if (e->board) {
        for (int k = e->idx[d] + (from_current ? 0 : 1); k < e->deg[d]; k++)
            if (rem_add(e, out, d, e->fits[e->lfit[d] + k]) < 0) return -1;
        return 0;
    }
    int x = e->x_at[d], c = e->item_at[d];
    if (e->kind[d] == BR_NARY) {
        for (x = from_current ? x : e->N[x].down; x != c; x = e->N[x].down)
            if (rem_add(e, out, d, e->N[x].row) < 0) return -1;
        return 0;
    }
    int r = e->N[x].row, in = e->kind[d] == BR_IN || e->kind[d] == BR_OPT_IN;
    if (in && from_current && rem_add(e, out, d, r) < 0) return -1;
    if (in || from_current) return rem_add(e, out, d, -r - 1);
    return 0;                                     /* the out branch in progress: nothing after */
}

static PyObject *Engine_remaining(Engine *e, PyObject *Py_UNUSED(ignored)) {
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    int l = e->level, ok = 0;
    switch (e->state) {
    case ST_DONE:
        return out;
    case ST_NEXT:                                 /* level l's untried children, and above */
        for (int d = 0; d < l && ok == 0; d++) ok = rem_level(e, out, d, 0);
        if (ok == 0) ok = rem_level(e, out, l, 1);
        break;
    case ST_ENTER:                                /* the node at level l untouched, and above */
        for (int d = 0; d < l && ok == 0; d++) ok = rem_level(e, out, d, 0);
        if (ok == 0) {
            PyObject *cube = PyList_New(l);
            if (!cube) ok = -1;
            for (int k = 0; k < l && ok == 0; k++) {
                PyObject *v = PyLong_FromLong(rem_literal(e, k));
                if (!v) ok = -1; else PyList_SET_ITEM(cube, k, v);
            }
            if (ok == 0) ok = PyList_Append(out, cube);
            Py_XDECREF(cube);
        }
        break;
    case ST_BACK:                                 /* the child of level l - 1 is done */
        for (int d = 0; d < l && ok == 0; d++) ok = rem_level(e, out, d, 0);
        break;
    default:
        Py_DECREF(out);
        PyErr_SetString(PyExc_RuntimeError, "the search was not started");
        return NULL;
    }
    if (ok < 0) { Py_DECREF(out); return NULL; }
    return out;
}

/* Knuth's measure of progress: the part of the tree left of the current path. */
static PyObject *Engine_progress(Engine *e, PyObject *Py_UNUSED(ignored)) {
    if (e->state == ST_DONE) return PyFloat_FromDouble(1.0);
    if (e->state == ST_IDLE) return PyFloat_FromDouble(0.0);
    double done = 0, scale = 1;
    int top = e->state == ST_NEXT ? e->level : e->level - 1;
    for (int d = 0; d <= top && d < e->maxlevel; d++) {
        if (e->deg[d] <= 0) break;
        scale /= e->deg[d]; done += e->idx[d] * scale;
    }
    return PyFloat_FromDouble(done);
}

static PyObject *Engine_stats(Engine *e, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("{sLsLsL}", "nodes", e->nodes, "cuts", e->cuts, "solutions", e->solutions);
}

static PyObject *Engine_work(Engine *e, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLongLong(e->work);
}

static PyMethodDef Engine_methods[] = {
    {"start", (PyCFunction)Engine_start, METH_VARARGS,
     "start(assume): reset, then force rows in (r) or out (-(r + 1)); False if they contradict"},
    {"run", (PyCFunction)Engine_run, METH_VARARGS,
     "run(budget=0, max_solutions=0, keep=True, seconds=0.0) -> (solutions, status): status \"done\" (exhausted), \"limit\" (max_solutions found), \"nodes\" (budget spent) or \"time\" (seconds passed; 0: none)"},
    {"watch", (PyCFunction)Engine_watch, METH_VARARGS,
     "watch(callback, seconds): callback(rows taken) at most every seconds while run() searches; None: stop"},
    {"estimate", (PyCFunction)Engine_estimate, METH_VARARGS,
     "estimate(probes, seed=0): Knuth's estimate of the nodes below the started state"},
    {"children", (PyCFunction)Engine_children, METH_NOARGS,
     "children(): (item, cube literals) of the first branching below the started state"},
    {"progress", (PyCFunction)Engine_progress, METH_NOARGS, "the part of the tree done"},
    {"remaining", (PyCFunction)Engine_remaining, METH_NOARGS,
     "remaining() -> cubes (lists of row literals) that partition what is not yet searched"},
    {"stats", (PyCFunction)Engine_stats, METH_NOARGS, "nodes, cuts and solutions since start()"},
    {"work", (PyCFunction)Engine_work, METH_NOARGS,
     "links and candidates touched since the engine was made: a cost that no machine changes"},
    {NULL, NULL, 0, NULL}
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "satiling.engines._exactcover.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Exact cover with multiplicities and a pocket cut (see exactcover.py)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_exactcover", NULL, -1, NULL, NULL,
                                    NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__exactcover(void) {
    if (PyType_Ready(&EngineType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType); Py_DECREF(m); return NULL;
    }
    if (PyModule_AddIntConstant(m, "MAX_BOARD", EXACTCOVER_128 ? 128 : 64) < 0) {
        Py_DECREF(m); return NULL;
    }
    return m;
}

#else   /* EXACTCOVER_BOARD: the bitboard search for boards of BITS */

static inline int B(ctz)(BITS x) {
    uint64_t lo = (uint64_t)x;
    return lo ? lowest_bit(lo) : 64 + lowest_bit((uint64_t)(x >> 63 >> 1));
}
typedef struct { BITS mask; uint64_t pbit; int row; } B(Cand);   /* pbit: its piece's bit in full */

/* Whether a piece left fits a pocket exactly (a pocket no larger than the largest piece can only
   be filled by one piece: a row with the pocket's cells, whose first cell is the pocket's). */
static int B(one_piece)(Engine *e, BITS pocket) {
    const B(Cand) *k = (B(Cand) *)e->bcand + e->cstart[B(ctz)(pocket)];
    const B(Cand) *end = (B(Cand) *)e->bcand + e->cstart[B(ctz)(pocket) + 1];
    for (; k < end; k++) if (k->mask == pocket && !(k->pbit & e->full)) return 1;
    return 0;
}

static inline int B(pop)(BITS x) {                /* no popcount instruction without -mpopcnt */
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

/* The cells next to the cells of s, by shifts (every lattice numbered so that few offsets occur). */
static inline BITS B(grow)(Engine *e, BITS s) {
    const BITS *m = e->rmask;
    BITS out = s;
    for (int k = 0; k < e->nrules; k++) {
        int d = e->rshift[k];
        out |= d > 0 ? (s & m[k]) << d : (s & m[k]) >> -d;
    }
    return out;
}

/* The same as dead() below, flooding whole fronts by shifts. */
static int B(dead_by_shifts)(Engine *e, BITS board, BITS seeds) {
    BITS empty = ~board & ((BITS *)e->bcur)[1], big = 0;
    seeds &= empty;
    while (seeds) {
        BITS reg = seeds & -seeds, prev = 0;
        int steps = 0;
        while (reg != prev && !(reg & big) && steps++ <= e->pocket_limit) {
            prev = reg;
            reg = B(grow)(e, reg) & empty;
        }
        if (reg != prev) big |= reg;                 /* too large, or part of a large region */
        else {
            int size = B(pop)(reg);
            if (!fillable(e, size) || (size < 2 * e->minarea && !B(one_piece)(e, reg))) return 1;
        }
        seeds &= ~reg;
    }
    return 0;
}

/* 1 if the empty cells next to a new piece (seeds) lie in a pocket no pieces left can fill. */
static int B(dead)(Engine *e, BITS board, BITS seeds) {
    if (e->nrules) return B(dead_by_shifts)(e, board, seeds);
    const BITS *nbr = e->bnbr;
    BITS empty = ~board & ((BITS *)e->bcur)[1];
    BITS big = 0;                                /* cells of regions too large to follow */
    seeds &= empty;
    while (seeds) {
        BITS reg = seeds & -seeds, frontier = reg;
        int size = 0, gave_up = 0;
        while (frontier) {                       /* each cell of the pocket passes here once */
            BITS add = nbr[B(ctz)(frontier)] & empty & ~reg;
            frontier &= frontier - 1;
            reg |= add; frontier |= add;
            if (++size > e->pocket_limit || (add & big)) { gave_up = 1; break; }
        }
        if (gave_up) big |= reg;
        else if (!fillable(e, size) || (size < 2 * e->minarea && !B(one_piece)(e, reg))) return 1;
        seeds &= ~reg;
    }
    return 0;
}

static inline void B(take)(Engine *e, int r) {
    int p = e->rpiece[r];
    ((BITS *)e->bcur)[0] |= ((BITS *)e->bmask)[r];
    e->cnt[p]++;
    if (--e->room[p] == 0) e->full |= 1ULL << (p - e->ncells);
    if (e->rowarea[r] >= 0) { e->rem[e->rowarea[r]]--; e->rem_version++; }
}
static inline void B(untake)(Engine *e, int r) {
    int p = e->rpiece[r];
    ((BITS *)e->bcur)[0] ^= ((BITS *)e->bmask)[r];
    e->cnt[p]--;
    if (e->room[p]++ == 0) e->full &= ~(1ULL << (p - e->ncells));
    if (e->rowarea[r] >= 0) { e->rem[e->rowarea[r]]++; e->rem_version++; }
}

/* The rows that fit the first empty cell, stacked after the previous level's; -1: board full. */
static int B(fits)(Engine *e, int l) {
    BITS board = ((BITS *)e->bcur)[0], open = ~board & ((BITS *)e->bcur)[1];
    if (!open) return -1;
    int c = B(ctz)(open), off = l == 0 ? 0 : e->lfit[l - 1] + e->deg[l - 1], n = 0;
    e->work += e->cstart[c + 1] - e->cstart[c];
    const B(Cand) *cand = e->bcand;
    int *fits = e->fits + off;
    uint64_t full = e->full;
    const struct Block *b = e->blocks + e->bstart[c], *bend = e->blocks + e->bstart[c + 1];
    for (; b < bend; b++) {
        if (b->pbit & full) continue;                /* every copy of this piece is placed */
        for (const B(Cand) *k = cand + b->from, *end = cand + b->to; k < end; k++)
            if (!(k->mask & board) && !(k->pbit & full)) fits[n++] = k->row;
    }
    e->item_at[l] = c; e->lfit[l] = off; e->deg[l] = n; e->idx[l] = 0;
    return n;
}

/* If some piece has fewer than n fitting rows, put them at level 0 instead; the new count. */
static int B(fewest_by_piece)(Engine *e, int n) {
    BITS board = ((BITS *)e->bcur)[0];
    const B(Cand) *cand = e->bcand;
    int count[64] = {0}, best = -1, np = e->nitems - e->ncells;
    for (int k = 0; k < e->nrows; k++)
        if (!(cand[k].mask & board) && !(cand[k].pbit & e->full)) count[lowest_bit(cand[k].pbit)]++;
    for (int p = 0; p < np; p++) {           /* a piece used exactly once, not yet placed: its */
        int c = e->ncells + p;                 /* rows split the solutions (with two copies, or  */
        if (e->lo[c] == 1 && e->hi[c] == 1 && e->cnt[c] == 0       /* none, they would not) */
            && count[p] < n && (best < 0 || count[p] < count[best]))
            best = p;
    }
    if (best < 0) return n;
    int m = 0;
    for (int k = 0; k < e->nrows; k++)
        if (!(cand[k].mask & board) && cand[k].pbit == 1ULL << best) e->fits[m++] = cand[k].row;
    e->item_at[0] = e->ncells + best; e->deg[0] = m;
    return m;
}

/* Every cell is covered: whether the other items have what they need. */
static int B(complete)(Engine *e) {
    for (int c = e->ncells; c < e->nitems; c++) if (e->cnt[c] < e->lo[c]) return 0;
    return 1;
}

static int B(board_step)(Engine *e, long long budget, long long max_solutions, PyObject *out, Handback *hb) {
    long long stop_at = budget > 0 ? e->nodes + budget : -1, found = 0;
    const BITS *mask = e->bmask, *border = e->bborder;
    for (;;) {
        int l = e->level;
        switch (e->state) {
        case ST_ENTER:
            if (B(fits)(e, l) < 0) {
                if (B(complete)(e)) {
                    if (found_solution(e, out) < 0) return -1;
                    if (max_solutions > 0 && ++found >= max_solutions) { e->state = ST_BACK; return ENGINE_LIMIT; }
                }
                e->state = ST_BACK;
                continue;
            }
            e->state = ST_NEXT;
            continue;
        case ST_NEXT: {
            if (e->idx[l] == e->deg[l]) { e->state = ST_BACK; continue; }
            if (stop_at >= 0 && e->nodes >= stop_at) return ENGINE_NODES;
            if (handback_due(hb, (unsigned long long)e->nodes)) {
                int h = handback_look(hb, (unsigned long long)e->nodes);
                if (h) return h;                         /* ENGINE_TIME, or an exception */
            }
            int r = e->fits[e->lfit[l] + e->idx[l]];
            e->nodes++;
            if (B(dead)(e, ((BITS *)e->bcur)[0] | mask[r], border[r])) { e->cuts++; e->idx[l]++; continue; }
            B(take)(e, r);
            e->lrow[l] = r;
            e->level++;
            e->state = ST_ENTER;
            continue;
        }
        case ST_BACK:
            if (e->level == 0) { e->state = ST_DONE; return ENGINE_DONE; }
            l = --e->level;
            B(untake)(e, e->lrow[l]);
            e->idx[l]++;
            e->state = ST_NEXT;
            continue;
        case ST_DONE:
            return ENGINE_DONE;
        default:
            PyErr_SetString(PyExc_RuntimeError, "the search was not started");
            return ENGINE_ERROR;
        }
    }
}

static double B(board_probe)(Engine *e) {
    double product = 1, total = 0;
    int base = e->level;
    for (;;) {
        int l = e->level, n = B(fits)(e, l);
        if (n <= 0) break;
        product *= n; total += product;
        int r = e->fits[e->lfit[l] + (int)(next_rand(e) % n)];
        if (B(dead)(e, ((BITS *)e->bcur)[0] | ((BITS *)e->bmask)[r], ((BITS *)e->bborder)[r])) break;
        B(take)(e, r);
        e->lrow[l] = r;
        e->level++;
    }
    while (e->level > base) B(untake)(e, e->lrow[--e->level]);
    return total;
}

static void B(board_unwind)(Engine *e) {
    while (e->level > 0) B(untake)(e, e->lrow[--e->level]);
    while (e->ntrail > 0) {
        int t = e->trail[--e->ntrail];
        if (t >= 0) B(untake)(e, t);
        else ((B(Cand) *)e->bcand)[e->rcand[-t - 1]].pbit = 1ULL << (e->rpiece[-t - 1] - e->ncells);
    }
    e->state = ST_IDLE;
}

static int B(board_assume)(Engine *e, PyObject *lits) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(lits);
    PyObject **items = PySequence_Fast_ITEMS(lits);
    for (int pass = 0; pass < 2; pass++)
        for (Py_ssize_t i = 0; i < n; i++) {
            int r, got = assumed_row(e, items[i], pass, &r);
            if (got <= 0) { if (got < 0) return -1; continue; }
            B(Cand) *k = (B(Cand) *)e->bcand + e->rcand[r];
            if (pass == 0) {                     /* banned: its piece bit is the one always full */
                if (k->pbit != 1ULL << 63) { k->pbit = 1ULL << 63; e->trail[e->ntrail++] = -r - 1; }
                continue;
            }
            if ((((BITS *)e->bcur)[0] & k->mask) || (k->pbit & e->full)) return 0;
            B(take)(e, r);
            e->trail[e->ntrail++] = r;
        }
    return 1;
}

/* The bit sets of the rows and cells; -1 (with an exception) when the matrix is no such board. */
static int B(board_init)(Engine *e, PyObject *o_rules) {
    int nr = e->nrows, nc = e->ncells;
    BITS *mask = PyMem_Calloc(nr + 1, sizeof(BITS)), *border = PyMem_Calloc(nr + 1, sizeof(BITS));
    BITS *nbr = PyMem_Calloc(nc + 1, sizeof(BITS)), *cur = PyMem_Calloc(2, sizeof(BITS));
    e->bmask = mask; e->bborder = border; e->bnbr = nbr; e->bcur = cur;
    e->rpiece = PyMem_Malloc((nr + 1) * sizeof(int)); e->cstart = PyMem_Calloc(nc + 2, sizeof(int));
    e->rcand = PyMem_Malloc((nr + 1) * sizeof(int)); e->bcand = PyMem_Malloc((nr + 1) * sizeof(B(Cand)));
    e->room = PyMem_Malloc((e->nitems + 2) * sizeof(int));
    if (!mask || !border || !nbr || !cur || !e->rpiece || !e->cstart || !e->rcand || !e->bcand || !e->room) {
        PyErr_NoMemory(); return -1;
    }
    for (int c = 0; c < e->nitems; c++) e->room[c] = e->hi[c];
    e->room[e->nitems] = 1 << 30;
    e->room[e->nitems + 1] = 0;
    if (e->nitems - nc > 62) {
        PyErr_SetString(PyExc_ValueError, "the bitboard search takes at most 62 pieces"); return -1;
    }
    e->full = 1ULL << 63;
    for (int c = 0; c < nc; c++) {
        cur[1] |= (BITS)1 << c;
        for (int a = e->nbrstart[c]; a < e->nbrstart[c + 1]; a++) nbr[c] |= (BITS)1 << e->nbr[a];
        if (e->lo[c] != 1 || e->hi[c] != 1) {
            PyErr_SetString(PyExc_ValueError, "the bitboard search needs every cell covered once"); return -1;
        }
    }
    for (int r = 0; r < nr; r++) {
        int first = -1;
        e->rpiece[r] = e->nitems;
        for (int j = e->rowstart[r]; j < e->rowstart[r + 1]; j++) {
            int c = e->N[j].item;
            if (c < nc) { mask[r] |= (BITS)1 << c; if (first < 0 || c < first) first = c; }
            else if (e->rpiece[r] == e->nitems) e->rpiece[r] = c;
            else {
                PyErr_SetString(PyExc_ValueError, "the bitboard search takes one piece per row");
                return -1;
            }
        }
        if (first < 0) {
            PyErr_SetString(PyExc_ValueError, "the bitboard search needs a cell in every row");
            return -1;
        }
        for (int c = 0; c < nc; c++) if ((mask[r] >> c) & 1) border[r] |= nbr[c];
        border[r] &= ~mask[r];
        e->cstart[first + 1]++;
    }
    for (int c = 0; c < nc; c++) {
        if (e->cstart[c + 1] > e->maxcand) e->maxcand = e->cstart[c + 1];
        e->cstart[c + 1] += e->cstart[c];
    }
    int *fill = PyMem_Calloc(nc + 1, sizeof(int));
    e->fits = PyMem_Malloc(((size_t)nc + 2) * (e->maxcand + 1) * sizeof(int));
    if (!fill || !e->fits) { PyMem_Free(fill); PyErr_NoMemory(); return -1; }
    for (int r = 0; r < nr; r++) {
        int first = B(ctz)(mask[r]);
        int k = e->rcand[r] = e->cstart[first] + fill[first]++;
        ((B(Cand) *)e->bcand)[k] = (B(Cand)){mask[r], 1ULL << (e->rpiece[r] - nc), r};
    }
    PyMem_Free(fill);
    e->bstart = PyMem_Calloc(nc + 1, sizeof(int));
    e->blocks = PyMem_Malloc((nr + 1) * sizeof(struct Block));
    if (!e->bstart || !e->blocks) { PyErr_NoMemory(); return -1; }
    int nb = 0;
    for (int c = 0; c < nc; c++) {
        e->bstart[c] = nb;
        for (int k = e->cstart[c]; k < e->cstart[c + 1]; k++) {
            int p = e->rpiece[((B(Cand) *)e->bcand)[k].row];
            if (nb > e->bstart[c] && e->rpiece[((B(Cand) *)e->bcand)[e->blocks[nb - 1].from].row] == p)
                e->blocks[nb - 1].to = k + 1;
            else
                e->blocks[nb++] = (struct Block){1ULL << (p - nc), k, k + 1};
        }
    }
    e->bstart[nc] = nb;
    /* rules: a flat list (shift, n, cell_1 .. cell_n) ...: cell c has a neighbour at c + shift */
    if (o_rules && o_rules != Py_None) {
        Py_ssize_t n;
        int *flat = int_array(o_rules, &n, "rules");
        if (!flat) return -1;
        int count = 0;
        for (Py_ssize_t i = 0; i + 1 < n; i += 2 + flat[i + 1]) count++;
        e->rshift = PyMem_Malloc((count + 1) * sizeof(int));
        BITS *m = e->rmask = PyMem_Calloc(count + 1, sizeof(BITS));
        if (!e->rshift || !m) { PyMem_Free(flat); PyErr_NoMemory(); return -1; }
        for (Py_ssize_t i = 0; i + 1 < n; i += 2 + flat[i + 1]) {
            int d = flat[i];
            for (int j = 0; j < flat[i + 1]; j++) {
                int c = flat[i + 2 + j];
                if (i + 2 + j >= n || c < 0 || c >= nc || c + d < 0 || c + d >= nc || d == 0) {
                    PyMem_Free(flat); PyErr_SetString(PyExc_ValueError, "bad neighbour rule"); return -1;
                }
                m[e->nrules] |= (BITS)1 << c;
            }
            e->rshift[e->nrules++] = d;
        }
        PyMem_Free(flat);
        for (int c = 0; c < nc; c++)                 /* the rules must give the neighbours exactly */
            if ((B(grow)(e, (BITS)1 << c) & ~((BITS)1 << c)) != nbr[c]) {
                PyErr_SetString(PyExc_ValueError, "the neighbour rules differ from the neighbours");
                return -1;
            }
    }
    return 0;
}

#endif
