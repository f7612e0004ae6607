/* The scoring search for edge-matching boards: a depth-first backtracker that fills the squares in
 * a fixed order and may break joins, as many as a schedule allows at each depth.
 *
 * The wrapper (edgescore.py) prepares everything this file needs, so the search stays small:
 *
 *   cands   the pieces pre-rotated, 8 bytes each (piece, rotation, N, E, S, W colours, sides of
 *           the priority colours), in runs:
 *           per kind of square (which sides are on the rim), the exact candidates per (south,
 *           west) colour pair, those with a given west colour, those with a given south colour,
 *           and all of them; a pinned piece has a run of its own;
 *   spans   (first, end) of every run;
 *   cells   per square in search order, 11 ints: south and west neighbour (depth, -1 on the rim);
 *           the first of its kind's exact runs (run + s * colours + w), west-colour runs
 *           (run + w) and south-colour runs (run + s, the run of all candidates after them); the
 *           colours a pinned north and east neighbour demand (-1 if none); the pinned piece's run
 *           (-1 if the square is free) and the breaks between a pinned square and the pinned
 *           squares before it; the north and east neighbour (depth, -1 on the rim); the phases
 *           after the exact one the square may try (bit 1: break the south join, 2: the west
 *           join, 3: both);
 *   reserve breaks held back at each depth for the squares after it.
 *
 * What the search builds from them for itself (run()): the runs as pairs of pointers into
 * ``cands`` with the mark of each run's first piece (``Run``), and their copies for the deep
 * squares (``Level``, below); one record per depth (``Square``) holding what a node reads of its
 * square -- the colours its south and west neighbours show (written there when they are placed),
 * the first run of each phase, the colours pinned neighbours demand, the priority sides
 * needed, the breaks allowed under the cap, the level it reads, the phase after each and the room
 * for breaks that phase needs -- and where the search stands there (the open run's candidates
 * still to try, the breaks and priority sides before it, the phase, where its piece is marked);
 * the board, a pointer to a candidate per depth; per piece, n less the depth it is placed at (0: not placed).  The search walks the
 * records with one pointer and no recursion; its options (``tile``, ``hist``, ``sub_limit``) are
 * compiled into separate copies of it, so a node of the plain search tests none of them.
 *
 * The order need not be a row scan: any order in which a square comes after its south and west
 * neighbours (a comb of rows and then columns, for one) reads the same two colours.
 *
 * A square is tried with its exact candidates first, then (if the schedule allows one more break)
 * those breaking the south join, then those breaking the west join, then (two more breaks) any;
 * the square's PHASES bits say which of those three later phases it may try.
 * At depth d the breaks so far may not exceed max(0, cap - reserve[d]); ``cap`` starts one below
 * the best board known and drops with every better board, so the whole schedule tightens (and its
 * first break moves deeper) as the search improves.
 *
 * Tileability (``tile``): per colour c, F[c] half-edges of placed squares face a square still
 * empty and H[c] sides of the pieces not yet placed face inside the board.  Every one of those
 * will meet another in a join still to come, so at least max(F - H, (F + H) mod 2) half-edges of
 * colour c end in broken joins, and the breaks to come are at least half the sum over the
 * colours.  A candidate after which the breaks so far plus that bound pass the cap is cut.
 * Only X = F - H and the parity of F + H count, so a join that matches as it closes changes
 * nothing (one open half-edge and one side of the pool fewer, of one colour), and a side left
 * open moves X by 2: a piece placed costs one update per open side and two per broken join.
 * (Cheaper than updating F and H side by side, yet on Eternity II the cut slows each node more
 * than it finds per node, so maximize leaves it off; measurements:
 * docs/decisions/2026-11-27-eternity2-scoring-search.md.)
 *
 * Priority colours (``need``, Blackwood's heuristic): each candidate counts its sides of some
 * chosen colours; a square's candidate is cut if the count placed by its depth stays below
 * ``need[depth]``, so the pieces of those colours are used up early.
 *
 * The search hands control back by time (_handback.h): Ctrl-C and the deadline act within a few
 * milliseconds whatever a node costs.  At each of those looks it also reads ``bound``, when given:
 * the fewest breaks of any board that searches in other processes have found; the cap drops
 * below it, so no search hunts boards that another has already beaten.  Called from a thread
 * other than the main one (``nogil``), it runs without the GIL between its looks, so that the
 * searches in threads of one process (a Dask worker's) run side by side; in the main thread its
 * code is the same as without that option.
 *
 * edgescore_ref.py is the same search in Python; a test holds the two to the same node sequence.
 */
#define _POSIX_C_SOURCE 200809L
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include "_handback.h"

typedef struct {
    uint16_t piece;
    uint8_t rot, n, e, s, w, prio;  /* prio: the piece's sides of the priority colours */
} Cand;

enum { SOUTH, WEST, EXACT, WONLY, SONLY, NEED_N, NEED_E, PINNED, PINNED_BREAKS, NORTH, EAST, PHASES,
       CELL_INTS };

/* Deep in the board most pieces are placed, and a square would scan runs full of them.  A level
 * serves the squares from its depth on with copies of the runs that keep only the pieces not
 * placed above that depth, made when a square first opens the run after the square just above
 * the level changed (so a copy serves a whole subtree).  The copies keep the runs' order, so the
 * search meets the same nodes in the same order; only runs of at least COMPACT_MIN candidates are
 * copied (a short run costs less to scan than to copy).  Four levels, each copy made from the one
 * above it: more nodes per second than two levels copied from the full runs, and as many as eight
 * levels or a finer deep end (measurements:
 * docs/decisions/2026-11-27-eternity2-scoring-search.md). */
#define LEVELS 4
#define COMPACT_MIN 8
static const int LEVEL_AT[LEVELS][2] = {{1, 4}, {1, 2}, {3, 4}, {7, 8}};   /* depths n * a / b */

typedef struct {
    int depth;                      /* the first depth it serves */
    Cand *cands;                    /* the copies, each at ``first[run]`` */
    int32_t *first, *stop;          /* per run: its copy (first -1: not copied), its end */
    long long *made;                /* per run: the node count when its copy was made */
} Level;

typedef struct {
    const Cand *first, *end;        /* a run's candidates */
    const uint16_t *mark;           /* its first piece's mark in ``placed`` (a word never 0 if the
                                     * run is empty): a square entered tests its first exact
                                     * candidate one load sooner */
    void *pad_;                     /* 32 bytes: a run found by a shift */
} Run;

typedef struct {
    const Cand *cands;
    const int32_t *spans;
    const int32_t *cells;
    const int32_t *reserve;
    const int32_t *need;            /* per depth, the priority sides placed by then; NULL: none */
    int n, npieces, colours;
    long long cap;                  /* most breaks a board may have to be reported */
    const long long *bound;         /* the fewest breaks any search sharing it has found (NULL:
                                     * none); read at each look, the cap drops below it */
    long long nodes, node_limit;
    long long patience, last;       /* stop after ``patience`` nodes without a better board */
    Handback hb;
    PyObject *callback;
    int tile;                       /* cut by the tileability bound */
    int *X, *P, D;                  /* per colour: open half-edges less the pieces' sides, and the
                                     * parity of their sum; the bound x 2 */
    long long *hist;                /* per depth, 4 rows of n + 1: nodes placed, of them with a
                                     * broken join, squares entered, of them with room for a break
                                     * (NULL: not counted) */
    int sub_depth;                  /* a subtree below this depth gets at most ``sub_limit`` nodes */
    long long sub_limit;            /* (0: no limit) */
    int prio_sorted;                /* every run lists its candidates by falling ``prio`` */
    int nruns;
    Level lv[LEVELS];               /* copies of the runs for the deep squares */
    int *level_of;                  /* per depth, the level it reads (-1: the full runs) */
    long long *placed_at;           /* per depth, the node count when its square was last placed */
    Run *runs;                      /* the runs of ``spans`` as pointers into ``cands`` */
    uint16_t *placed;               /* per piece, n less the depth it is placed at (0: not placed,
                                     * so that the scan tests it against no other value) */
    const Cand **board;             /* the search's board (run_with's own) */
    int shown;                      /* its depths filled at the look in progress: what a watcher
                                     * is shown (_handback.h) */
    PyThreadState *ts;              /* while the search runs without the GIL, the thread's state
                                     * (NULL: it holds the GIL) */
} Search;

/* Broken half-edges of one colour that no later join can avoid: max(F - H, (F + H) mod 2). */
static inline int tile_def(int x, int p) {
    return x > p ? x : p;
}

/* X of colour c moved by dx, its parity flipped by flip. */
static inline void tile_add(Search *S, int c, int dx, int flip) {
    if (c == 0) return;                                /* grey: never inside a legal board */
    S->D -= tile_def(S->X[c], S->P[c]);
    S->X[c] += dx;
    S->P[c] ^= flip;
    S->D += tile_def(S->X[c], S->P[c]);
}

/* Candidate ``c`` placed (sign 1) on, or taken back (sign -1) from, depth ``d``. */
static inline void tile_move(Search *S, const Cand **board, int d, const Cand *c, int sign) {
    const int32_t *cell = S->cells + (size_t)d * CELL_INTS;
    const int nb[4] = {cell[NORTH], cell[EAST], cell[SOUTH], cell[WEST]};
    const int col[4] = {c->n, c->e, c->s, c->w};
    for (int k = 0; k < 4; k++) {
        if (nb[k] < 0) continue;                       /* the rim: a grey side */
        if (nb[k] < d) {                               /* it closes the neighbour's open side */
            const Cand *o = board[nb[k]];
            const int oc = k == 0 ? o->s : k == 1 ? o->w : k == 2 ? o->n : o->e;
            if (oc == col[k]) continue;                /* a match: X and parity stay */
            tile_add(S, col[k], sign, 1);              /* the side leaves the pool, */
            tile_add(S, oc, -sign, 1);                 /* the neighbour's side is no longer open */
        } else {
            tile_add(S, col[k], 2 * sign, 0);          /* it leaves the pool and stays open */
        }
    }
}

/* The levels' buffers (run() frees them with levels_free): 0, or -1 when out of memory. */
static int levels_start(Search *S) {
    const int n = S->n;
    S->level_of = malloc(sizeof(int) * (size_t)(n + 1));
    S->placed_at = calloc((size_t)n + 1, sizeof(long long));
    S->placed = calloc((size_t)S->npieces + 1, sizeof(uint16_t));
    /* colours x colours spare entries past the runs: the records with no exact runs of their own
     * (a pinned square, the rim's spare) point their south colour's row from the first run, and
     * that row must lie within this block for the pointer to be a valid one (it is never read) */
    S->runs = malloc(sizeof(Run) * ((size_t)S->nruns + (size_t)S->colours * (size_t)S->colours + 1));
    if (!S->level_of || !S->placed_at || !S->placed || !S->runs) return -1;
    static const uint16_t busy = 1;
    for (int k = 0; k < S->nruns; k++) {
        S->runs[k].first = S->cands + S->spans[2 * k];
        S->runs[k].end = S->cands + S->spans[2 * k + 1];
        S->runs[k].mark = S->runs[k].first < S->runs[k].end ? S->placed + S->runs[k].first->piece : &busy;
    }
    for (int d = 0; d <= n; d++) S->level_of[d] = -1;
    Py_ssize_t total = 0;
    for (int k = 0; k < S->nruns; k++) {
        int32_t len = S->spans[2 * k + 1] - S->spans[2 * k];
        if (len >= COMPACT_MIN) total += len;
    }
    for (int j = 0; j < LEVELS; j++) {
        Level *L = &S->lv[j];
        L->depth = (int)((long long)n * LEVEL_AT[j][0] / LEVEL_AT[j][1]);
        if (L->depth < 1 || (j && L->depth <= S->lv[j - 1].depth)) continue;    /* a tiny board */
        L->cands = malloc(sizeof(Cand) * (size_t)(total + 1));
        L->first = malloc(sizeof(int32_t) * (size_t)(S->nruns + 1));
        L->stop = malloc(sizeof(int32_t) * (size_t)(S->nruns + 1));
        L->made = malloc(sizeof(long long) * (size_t)(S->nruns + 1));
        if (!L->cands || !L->first || !L->stop || !L->made) return -1;
        Py_ssize_t at = 0;
        for (int k = 0; k < S->nruns; k++) {
            int32_t len = S->spans[2 * k + 1] - S->spans[2 * k];
            L->first[k] = len >= COMPACT_MIN ? (int32_t)at : -1;
            L->made[k] = -1;
            if (len >= COMPACT_MIN) at += len;
        }
        for (int d = L->depth; d <= n; d++) S->level_of[d] = j;
    }
    return 0;
}

static void levels_free(Search *S) {
    for (int j = 0; j < LEVELS; j++) {
        free(S->lv[j].cands); free(S->lv[j].first); free(S->lv[j].stop); free(S->lv[j].made);
    }
    free(S->level_of); free(S->placed_at); free(S->placed); free(S->runs);
}

/* Level j's copy of run k, remade first if the square above the level was placed since the copy
 * was made; a copy is made from the copy of the level before it (itself brought up to date), so a
 * deep level filters a short list. */
static void level_run(Search *S, int j, int32_t k, const Cand **cur, const Cand **end) {
    Level *L = &S->lv[j];
    if (L->made[k] < S->placed_at[L->depth - 1]) {
        const Cand *src = S->runs[k].first, *stop = S->runs[k].end;
        if (j > 0 && S->lv[j - 1].cands) level_run(S, j - 1, k, &src, &stop);
        int32_t at = L->first[k];
        const int most = S->n - L->depth;   /* free, or placed at the level's depth or deeper */
        for (; src < stop; src++)
            if (S->placed[src->piece] <= most) L->cands[at++] = *src;
        L->stop[k] = at;
        L->made[k] = S->nodes;
    }
    *cur = L->cands + L->first[k];
    *end = L->cands + L->stop[k];
}

/* Run k for a square reading level ``level`` (-1: the full runs): the full run, or the level's
 * copy (a run shorter than COMPACT_MIN has none).  ``nodes``: the node count now. */
static inline void open_run(Search *S, int level, const Run *r, long long nodes, const Cand **cur,
                            const Cand **end) {
    if (level >= 0 && r->end - r->first >= COMPACT_MIN) {
        S->nodes = nodes;
        level_run(S, level, (int32_t)(r - S->runs), cur, end);
        return;
    }
    *cur = r->first;
    *end = r->end;
}

/* Hand a full board with ``breaks`` broken joins to Python: callback(breaks, nodes, board).
 * Returns -1 on a Python error, 1 if the callback asks to stop, else 0. */
static int report(Search *S, const Cand **board, long long breaks) {
    PyObject *list = PyList_New(S->n);
    if (!list) return -1;
    for (int d = 0; d < S->n; d++) {
        PyObject *t = Py_BuildValue("(ii)", (int)board[d]->piece, (int)board[d]->rot);
        if (!t) { Py_DECREF(list); return -1; }
        PyList_SET_ITEM(list, d, t);
    }
    PyObject *r = PyObject_CallFunction(S->callback, "LLO", breaks, S->nodes, list);
    Py_DECREF(list);
    if (!r) return -1;
    int stop = PyObject_IsTrue(r);
    Py_DECREF(r);
    return stop;
}

/* A watcher's snapshot: (piece, rotation) of each depth filled so far (the board at a look). */
static PyObject *show_board(void *search) {
    const Search *S = search;
    PyObject *list = PyList_New(S->shown);
    if (!list) return NULL;
    for (int d = 0; d < S->shown; d++) {
        PyObject *t = Py_BuildValue("(ii)", (int)S->board[d]->piece, (int)S->board[d]->rot);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, d, t);
    }
    return list;
}

/* The GIL given up (``nogil``) and taken back: to look at the clock, to report a board, to
 * return. */
static inline void gil_take(Search *S) {
    if (S->ts) { PyEval_RestoreThread(S->ts); S->ts = NULL; }
}

static inline void gil_drop(Search *S) {
    if (!S->ts) S->ts = PyEval_SaveThread();
}

/* The cap lowered below the shared bound, a board another search found (a relaxed load: a
 * stale value only delays the drop to the next look).  Returns 1 when no better board can
 * exist (the other found one with every join matching). */
static inline int shared_cap(Search *S) {
    long long b = __atomic_load_n(S->bound, __ATOMIC_RELAXED) - 1;
    if (b < S->cap) S->cap = b;
    return S->cap < 0;
}

/* One depth of the search: what it reads of the square there (gathered from ``cells``, ``need``,
 * ``reserve``, the levels and the phases before the search) and where the search stands there,
 * in one record, so that a node reads and writes one place (the search walks the records with a
 * pointer, one step per depth). */
typedef struct {
    /* what a node reads and writes first, in the record's first 64 bytes */
    const Cand *cur, *end;          /* the candidates of the open run still to try */
    const Run *srow;                /* exact + sc * colours: its exact runs for the south colour */
    long long base;                 /* the breaks of the board before this square */
    long long allowed;              /* max(0, cap - reserve): set again whenever the cap drops */
    int32_t wc, phase;              /* the colour its west neighbour shows; the phase */
    int32_t pinned;                 /* its pinned piece's run (-1: a free square) */
    int32_t psum;                   /* the priority sides placed before it */
    int32_t need;                   /* the priority sides needed by this depth (0: none) */
    int32_t pmin;                   /* the priority sides a candidate needs here */
    /* then what a placement and the later phases read */
    void *up, *right;               /* the squares whose south and west neighbour it is (a spare
                                     * record on the rim): its piece's colours are written there */
    uint16_t *slot;                 /* where its piece is marked placed (a spare word for a
                                     * pinned piece, which no run lists) */
    int32_t sc;                     /* the colour its south neighbour shows */
    int32_t pins;                   /* a pinned neighbour north or east (need_n or need_e set) */
    int32_t level;                  /* the level of run copies it reads (-1: the full runs) */
    int32_t next[4];                /* the phase the square tries after phase p (4: none) */
    int32_t gate[4];                /* the room for breaks that phase next[p] needs (none: more
                                     * than any cap) */
    const Run *exact, *wonly, *sonly;           /* the first run of each phase (see ``cells``) */
    int32_t need_n, need_e, pinned_breaks;
    int32_t reserve;                /* the breaks held back for the squares after it */
} __attribute__((aligned(64))) Square;

/* Records zeroed, aligned to their size (free with aligned_free). */
static Square *aligned_calloc(size_t count) {
    char *raw = calloc(count * sizeof(Square) + sizeof(Square) + sizeof(void *), 1);
    if (!raw) return NULL;
    uintptr_t at = ((uintptr_t)raw + sizeof(void *) + 63) & ~(uintptr_t)63;
    ((void **)at)[-1] = raw;
    return (Square *)at;
}

static void aligned_free(Square *q) {
    if (q) free(((void **)q)[-1]);
}

/* The squares' records, n + 2 of them: one per depth, one after the last (the next psum of the
 * last square) and a spare that takes the colours a square shows the rim (NULL when out of
 * memory); after levels_start.  A square on the rim's south or west starts and stays with the
 * grey colour 0 there. */
static Square *squares_of(const Search *S) {
    Square *q = aligned_calloc((size_t)S->n + 2);
    if (!q) return NULL;
    for (int d = 0; d <= S->n + 1; d++) q[d].up = q[d].right = q + S->n + 1;
    q[S->n + 1].exact = S->runs;
    for (int d = 0; d < S->n; d++) {
        const int32_t *cell = S->cells + (size_t)d * CELL_INTS;
        Square *x = q + d;
        if (cell[PINNED] < 0) {
            x->exact = S->runs + cell[EXACT]; x->wonly = S->runs + cell[WONLY];
            x->sonly = S->runs + cell[SONLY];
        } else
            x->exact = S->runs;
        x->srow = x->exact;          /* a grey neighbour (colour 0) until one is placed */
        if (cell[SOUTH] >= 0) q[cell[SOUTH]].up = x;
        if (cell[WEST] >= 0) q[cell[WEST]].right = x;
        x->need_n = cell[NEED_N]; x->need_e = cell[NEED_E];
        x->pinned = cell[PINNED]; x->pinned_breaks = cell[PINNED_BREAKS];
        x->pins = x->need_n >= 0 || x->need_e >= 0;
        x->need = S->need ? S->need[d] : 0;
        x->reserve = S->reserve[d];
        x->level = S->level_of[d];
        for (int p = 0; p < 4; p++) {
            int nx = p + 1;
            while (nx <= 3 && !(cell[PHASES] >> nx & 1)) nx++;
            x->next[p] = nx;
            x->gate[p] = nx > 3 ? INT32_MAX : nx == 3 ? 2 : 1;
        }
    }
    return q;
}

/* Every square's ``allowed`` for the cap ``cap``, at most ALLOWED_MAX: the search compares the
 * room it leaves with a few breaks only (a phase's gate, a candidate's), and a gate of INT32_MAX
 * must stay out of reach of any cap. */
#define ALLOWED_MAX (1LL << 30)
static void allow(Square *sq, int n, long long cap) {
    for (int d = 0; d < n; d++) {
        const long long a = cap - sq[d].reserve;
        sq[d].allowed = a < 0 ? 0 : a > ALLOWED_MAX ? ALLOWED_MAX : a;
    }
}

/* The first candidate from ``c`` on, before ``e``, whose piece is not placed, with at least
 * ``pmin`` priority sides (tested only if ``prio``; a run ``sorted`` by them ends at the first
 * without) and, if ``phased``, not matching the south colour ``xs`` nor the west colour ``xw``
 * (those were tried in an earlier phase); ``e`` if none.  Inlined with constant ``prio`` and
 * ``phased``, so that the scan of an exact run deep in the board (no priority sides asked) tests
 * one thing per candidate. */
static inline __attribute__((always_inline)) const Cand *first_free(
        const Cand *c, const Cand *e, const uint16_t *placed, const int prio, int pmin, int sorted,
        const int phased, int xs, int xw) {
    for (; c < e; c++) {
        if (placed[c->piece]) continue;
        if (prio && c->prio < pmin) {
            if (sorted) return e;
            continue;
        }
        if (phased && (c->s == xs || c->w == xw)) continue;
        return c;
    }
    return e;
}

/* The search proper: ENGINE_DONE when the tree is exhausted, ENGINE_NODES at the node limit or
 * patience, ENGINE_TIME at the deadline, ENGINE_LIMIT when the callback asked to stop,
 * ENGINE_ERROR on a Python error (a signal included).  The counters a node touches (nodes, the
 * cap, the next node count at which anything is due) are kept in locals, written back to ``S``
 * before anything that reads them there.  ``tile``, ``counting`` (``hist`` given) and
 * ``subtrees`` (``sub_limit`` > 0) are constants where run() calls it, so each use of the options
 * gets a search of its own without the tests of the others. */
static inline __attribute__((always_inline)) int run_with(Search *S, const int tile, const int counting,
                                                          const int subtrees, const int nogil) {
    const int n = S->n, C = S->colours;
    const Cand **board = calloc((size_t)n + 1, sizeof *board);
    Square *sq = NULL;
    long long nodes = S->nodes, cap = S->cap, breaks = 0;
    int status = 0;
    if (!board || levels_start(S) < 0 || !(sq = squares_of(S))) {
        PyErr_NoMemory();
        status = -1;
        goto out;
    }
    S->board = board;
    allow(sq, n, cap);
    if (nogil) gil_drop(S);
    uint16_t *const placed = S->placed;    /* the pieces placed (and where: the levels ask) */
    const int sorted = S->prio_sorted;
    long long *const hist = counting ? S->hist : NULL, *placed_at = S->placed_at;
    const long long sub_limit = subtrees ? S->sub_limit : 0;
    const int sub_depth = S->sub_depth;
    long long sub_start = 0;
    int abandon = 0;
    uint16_t spare = 0;
    /* the next node count at which a look at the clock, the node limit or the patience is due */
#define WATCH() do { \
        watch = (long long)S->hb.next; \
        if (S->node_limit > 0 && S->node_limit < watch) watch = S->node_limit; \
        if (S->patience > 0 && S->last + S->patience < watch) watch = S->last + S->patience; \
    } while (0)
    long long watch;
    WATCH();
    /* the colours of candidate x, placed at the square f, written where its neighbours north and
     * east read them */
#define SHOW(x) do { \
        Square *const u_ = f->up, *const r_ = f->right; \
        u_->sc = (x)->n; \
        u_->srow = u_->exact + (x)->n * C; \
        r_->wc = (x)->e; \
    } while (0)
    int d = 0;
    Square *f = sq;                 /* sq + d */
    const Cand *c, *e;
    long long pen, avail;

enter:                              /* square d gets its first candidate */
    if (subtrees && abandon) goto retreat;
    if (d == n) {
        if (breaks <= cap) {
            S->nodes = nodes;
            if (nogil) gil_take(S);
            int r = report(S, board, breaks);
            if (r) { status = r < 0 ? ENGINE_ERROR : ENGINE_LIMIT; goto out; }
            if (nogil) gil_drop(S);
            cap = breaks - 1;
            allow(sq, n, cap);
            S->last = nodes;
            WATCH();
            if (cap < 0) goto out;          /* every join matches: nothing better exists */
        }
        goto retreat;
    }
    f->base = breaks;
    avail = f->allowed - breaks;
    if (counting) {                 /* the square entered; with room for a break? */
        hist[2 * (n + 1) + d]++;
        if (avail >= 1) hist[3 * (n + 1) + d]++;
    }
    if (f->pinned >= 0) {           /* one candidate, its breaks fixed in advance */
        c = S->runs[f->pinned].first;
        if (f->pinned_breaks > avail) goto retreat;
        if (f->psum + c->prio < f->need) goto retreat;
        if (tile) {
            tile_move(S, board, d, c, 1);
            if (breaks + f->pinned_breaks + (S->D + 1) / 2 > cap) {
                tile_move(S, board, d, c, -1);
                goto retreat;
            }
        }
        board[d] = c;
        SHOW(c);
        f->slot = &spare;
        f->cur = f->end = c;
        f->phase = 3;
        f[1].psum = f->psum + c->prio;
        breaks += f->pinned_breaks;
        nodes++;                    /* a pinned square's node: no look, no limit (the limits
                                     * act on the free squares' nodes, as in the reference) */
        placed_at[d] = nodes;
        if (counting) {
            hist[d]++;
            if (f->pinned_breaks) hist[n + 1 + d]++;
        }
        goto counted;
    }
    if (avail < 0) goto retreat;
    f->pmin = f->need - f->psum;
    f->phase = 0;
    {   /* The common square (no pinned neighbour, no priority sides asked, an exact run not copied
         * by the levels): its first exact candidate tested through the run's ``mark``, without
         * loading the candidate first.  A square entered ends its chain of dependent loads -- the
         * colours, the run, the piece, its mark -- in a branch the predictor often misses; the
         * colours written into the record at the neighbours' placement and the run's mark make
         * that chain two loads shorter than reading the neighbours on the board and the piece of
         * the candidate. */
        const Run *const r = f->srow + f->wc;
        if (!tile && !f->pins && f->pmin <= 0 && (f->level < 0 || r->end - r->first < COMPACT_MIN)) {
            c = r->first;
            f->end = e = r->end;
            if (!*r->mark) {
                pen = 0;
                goto take;
            }
            if (c < e) c = first_free(c + 1, e, placed, 0, 0, 0, 0, -1, -1);
            if (c < e) {
                pen = 0;
                goto take;
            }
            f->cur = e;
            goto later;
        }
        open_run(S, f->level, r, nodes, &f->cur, &f->end);
    }
    goto exact;

next:                               /* square d tries its next candidate */
    if (subtrees && abandon) {      /* a subtree's budget ran out: back to where it began */
        if (d > sub_depth) goto retreat;
        abandon = 0;
    }
    avail = f->allowed - f->base;
    if (avail < 0) goto retreat;
    if (f->phase) goto phases;

exact:                              /* the candidates matching both placed neighbours */
    c = f->cur;
    e = f->end;
    if (!tile && !f->pins) {        /* none costs a break */
        c = f->pmin > 0 ? first_free(c, e, placed, 1, f->pmin, sorted, 0, -1, -1)
                        : first_free(c, e, placed, 0, 0, 0, 0, -1, -1);
        if (c < e) {
            pen = 0;
            goto take;
        }
        f->cur = e;
    } else
        goto general;
    /* on to the next phase */
later:
    for (;;) {
        if (avail < f->gate[f->phase]) goto retreat;  /* no next phase, or no room for it */
        const int nx = f->next[f->phase];
        f->phase = nx;
        open_run(S, f->level, nx == 1 ? f->wonly + f->wc : nx == 2 ? f->sonly + f->sc : f->sonly + C,
                 nodes, &f->cur, &f->end);
phases:                             /* the candidates breaking a join */
        c = f->cur;
        e = f->end;
        if (!tile && !f->pins) {    /* every one costs the phase's breaks */
            const int ph = f->phase;
            pen = ph == 3 ? 2 : 1;
            if (pen <= avail) {
                const int xs = ph & 1 ? f->sc : -1, xw = ph & 2 ? f->wc : -1;
                c = f->pmin > 0 ? first_free(c, e, placed, 1, f->pmin, sorted, 1, xs, xw)
                                : first_free(c, e, placed, 0, 0, 0, 1, xs, xw);
                if (c < e) goto take;
            }
            f->cur = e;
            continue;
        }
general:                            /* a pinned neighbour, or the tileability bound */
        {
            const int ph = f->phase;
            const int xs = ph & 1 ? f->sc : -1, xw = ph & 2 ? f->wc : -1;
            const int nn = f->need_n, ne = f->need_e;
            for (;; c++) {
                c = first_free(c, e, placed, 1, f->pmin, sorted, 1, xs, xw);
                if (c == e) break;
                pen = (ph == 0 ? 0 : ph == 3 ? 2 : 1) + ((nn >= 0) & (c->n != nn)) + ((ne >= 0) & (c->e != ne));
                if (pen > avail) continue;
                if (tile) {
                    tile_move(S, board, d, c, 1);
                    if (f->base + pen + (S->D + 1) / 2 > cap) {
                        tile_move(S, board, d, c, -1);
                        continue;
                    }
                }
                goto take;
            }
            f->cur = e;
        }
    }

take:                               /* square d takes candidate c at ``pen`` more breaks */
    f->cur = c + 1;
    board[d] = c;
    SHOW(c);
    f->slot = placed + c->piece;
    *f->slot = (uint16_t)(n - d);
    f[1].psum = f->psum + c->prio;
    breaks = f->base + pen;
    nodes++;
    placed_at[d] = nodes;
    if (counting) {
        hist[d]++;
        if (pen) hist[n + 1 + d]++;
    }
    if (nodes >= watch) {
        if (handback_due(&S->hb, (unsigned long long)nodes)) {
            S->shown = d + 1;       /* depths 0 .. d filled, for a watcher */
            if (nogil) gil_take(S);
            int h = handback_look(&S->hb, (unsigned long long)nodes);
            if (h) { status = h; goto out; }
            if (nogil) gil_drop(S);
            if (S->bound) {
                S->cap = cap;
                int all = shared_cap(S);
                if (S->cap != cap) {
                    cap = S->cap;
                    allow(sq, n, cap);
                }
                if (all) { status = ENGINE_LIMIT; goto out; }
            }
        }
        if (S->node_limit > 0 && nodes >= S->node_limit) { status = ENGINE_NODES; goto out; }
        if (S->patience > 0 && nodes - S->last >= S->patience) { status = ENGINE_NODES; goto out; }
        WATCH();
    }
counted:
    if (subtrees) {                 /* a subtree begins at ``sub_depth``; below it, its budget may run out */
        if (d == sub_depth) sub_start = nodes;
        else if (d > sub_depth && nodes - sub_start >= sub_limit) abandon = 1;
    }
    d++;
    f++;
    goto enter;

retreat:
    if (d == 0) goto out;
    d--;
    f--;
    if (tile) tile_move(S, board, d, board[d], -1);
    *f->slot = 0;
    breaks = f->base;
    goto next;

out:
#undef WATCH
#undef SHOW
    if (nogil) gil_take(S);
    S->nodes = nodes;
    S->cap = cap;
    free(board); aligned_free(sq);
    levels_free(S);
    return status;
}

/* The search compiled for each use of its options, so that a node of the plain search (no
 * tileability, no subtree budget) does not test them. */
static int run(Search *S) {
    const int counting = S->hist != NULL;
    if (S->tile || S->sub_limit > 0) return run_with(S, S->tile, counting, S->sub_limit > 0, 0);
    return counting ? run_with(S, 0, 1, 0, 0) : run_with(S, 0, 0, 0, 0);
}

/* run() without the GIL between looks (a function of its own: run()'s code stays as it is). */
static __attribute__((noinline)) int run_nogil(Search *S) {
    const int counting = S->hist != NULL;
    if (S->tile || S->sub_limit > 0) return run_with(S, S->tile, counting, S->sub_limit > 0, 1);
    return counting ? run_with(S, 0, 1, 0, 1) : run_with(S, 0, 0, 0, 1);
}

/* A read-only byte buffer of at least ``size`` bytes, or an exception. */
static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t size, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return -1;
    if (view->len < size) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected at least %zd", what, view->len, size);
        return -1;
    }
    return 0;
}

/* The wrapper builds the buffers; still, never let a bad one send the search out of bounds. */
static int check_layout(Search *S, Py_ssize_t ncands, Py_ssize_t nruns) {
    const int C = S->colours;
    for (Py_ssize_t i = 0; i < ncands; i++) {
        const Cand *c = S->cands + i;
        if (c->piece >= S->npieces || c->n >= C || c->e >= C || c->s >= C || c->w >= C || c->prio > 4)
            return -1;
    }
    S->prio_sorted = 1;
    for (Py_ssize_t k = 0; k < nruns; k++) {
        if (S->spans[2 * k] < 0 || S->spans[2 * k] > S->spans[2 * k + 1] || S->spans[2 * k + 1] > ncands)
            return -1;
        for (int32_t i = S->spans[2 * k] + 1; i < S->spans[2 * k + 1]; i++)
            if (S->cands[i].prio > S->cands[i - 1].prio) S->prio_sorted = 0;
    }
    for (int d = 0; d < S->n; d++) {
        const int32_t *cell = S->cells + (size_t)d * CELL_INTS;
        if (cell[SOUTH] >= d || cell[WEST] >= d || cell[SOUTH] < -1 || cell[WEST] < -1) return -1;
        if (cell[PHASES] < 0 || cell[PHASES] > 15) return -1;
        if (cell[NORTH] < -1 || cell[NORTH] >= S->n || cell[NORTH] == d ||
            cell[EAST] < -1 || cell[EAST] >= S->n || cell[EAST] == d) return -1;
        if (cell[PINNED] >= 0) {
            if (cell[PINNED] >= nruns || S->spans[2 * cell[PINNED]] >= S->spans[2 * cell[PINNED] + 1])
                return -1;
        } else if (cell[EXACT] < 0 || (Py_ssize_t)cell[EXACT] + (Py_ssize_t)C * C > nruns ||
                   cell[WONLY] < 0 || cell[WONLY] + C > nruns || cell[SONLY] < 0 || cell[SONLY] + C + 1 > nruns)
            return -1;
    }
    return 0;
}

/* The tileability counts before the first placement: nothing open, every piece's sides in the
 * pool (each piece counted once, from its first candidate; grey, colour 0, never counts). */
static int tile_start(Search *S, Py_ssize_t ncands) {
    S->X = PyMem_Calloc((size_t)S->colours, sizeof(int));
    S->P = PyMem_Calloc((size_t)S->colours, sizeof(int));
    uint8_t *seen = PyMem_Calloc((size_t)S->npieces, 1);
    if (!S->X || !S->P || !seen) {
        PyMem_Free(seen);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < ncands; i++) {
        const Cand *c = S->cands + i;
        if (seen[c->piece]) continue;
        seen[c->piece] = 1;
        const int col[4] = {c->n, c->e, c->s, c->w};
        for (int k = 0; k < 4; k++)
            if (col[k]) { S->X[col[k]]--; S->P[col[k]] ^= 1; }
    }
    PyMem_Free(seen);
    S->D = 0;
    for (int c = 1; c < S->colours; c++) S->D += tile_def(S->X[c], S->P[c]);
    return 0;
}

PyDoc_STRVAR(search_doc,
"search(cands, spans, cells, reserve, n, npieces, colours, cap, node_limit, patience, seconds,\n"
"       cpu, callback, tile=False, need=None, hist=None, sub_depth=0, sub_limit=0, bound=None,\n"
"       watch=None, every=0.0, nogil=False) -> (status, nodes, cap)\n\n"
"Run the scoring search (see edgescore.py for the layout of the buffers).  callback(breaks,\n"
"nodes, board) is called with every full board of at most ``cap`` broken joins, after which the\n"
"cap drops below it; a true return value stops the search.  status, named as by every compiled\n"
"engine (_handback.h): 'done' (the tree is exhausted), 'limit' (the callback stopped it), 'time'\n"
"or 'nodes'; 'nodes' after ``node_limit`` nodes in all or ``patience`` nodes without\n"
"a better board (0: no limit).  ``seconds`` are wall-clock seconds, or CPU seconds of the process if\n"
"``cpu`` is true.  ``tile`` cuts by the tileability bound (see the file's head).  ``need``: per\n"
"depth (int32), the fewest priority sides (each candidate's ``prio`` byte) placed by then.\n"
"``hist``: a writable buffer of 4 (n + 1) int64, four rows to which are added at each depth: the\n"
"nodes placed, those of them that broke a join, the squares entered (the nodes of the depth\n"
"before) and those of them with room for a break under the schedule.\n"
"``sub_limit`` > 0: a subtree below a node at depth ``sub_depth`` gets at most that many nodes,\n"
"then the search goes on with that node's next sibling.  ``bound``: a buffer of one int64 that\n"
"other processes may lower (the fewest breaks found by searches sharing it); it is read at\n"
"every look at the clock (a few milliseconds) and the cap drops below it, status 'limit' if it\n"
"is 0.  ``watch``: called at looks, at most every ``every`` seconds of wall time, with the\n"
"(piece, rotation) of each depth filled so far (the board the search stands on).  ``nogil``: the\n"
"search gives up the GIL between its looks (for a thread other than the main one).  A signal\n"
"raises its exception (KeyboardInterrupt) from inside the search within a few milliseconds.");

static PyObject *search(PyObject *self, PyObject *args) {
    PyObject *cands_o, *spans_o, *cells_o, *reserve_o, *callback, *need_o = Py_None, *hist_o = Py_None,
             *bound_o = Py_None, *watch_o = Py_None;
    double every = 0.0;
    int n, npieces, colours, sub_depth = 0;
    long long cap, node_limit, patience, sub_limit = 0;
    double seconds;
    int cpu, tile = 0, status = -1, nogil = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOiiiLLLdpO|pOOiLOOdp", &cands_o, &spans_o, &cells_o, &reserve_o, &n,
                          &npieces, &colours, &cap, &node_limit, &patience, &seconds, &cpu,
                          &callback, &tile, &need_o, &hist_o, &sub_depth, &sub_limit, &bound_o,
                          &watch_o, &every, &nogil))
        return NULL;
    HandbackWatch watch = {NULL, 0.0, 0.0};        /* (the arguments hold the callback's reference) */
    if (handback_set_watch(&watch, watch_o, every) < 0)
        return NULL;
    Py_XDECREF(watch.callback);
    if (!PyCallable_Check(callback)) {
        PyErr_SetString(PyExc_TypeError, "callback must be callable");
        return NULL;
    }
    if (n < 1 || n > 65535 || npieces < 1 || colours < 1 || npieces > 65535) {
        PyErr_SetString(PyExc_ValueError, "bad board size");
        return NULL;
    }
    if (sub_limit > 0 && (sub_depth < 0 || sub_depth >= n)) {
        PyErr_SetString(PyExc_ValueError, "sub_depth out of the board");
        return NULL;
    }
    Py_buffer cv = {0}, sv = {0}, ev = {0}, rv = {0}, nv = {0}, hv = {0}, bv = {0};
    Search S = {0};
    if (get_buffer(cands_o, &cv, 0, "cands") < 0 || get_buffer(spans_o, &sv, 0, "spans") < 0 ||
        get_buffer(cells_o, &ev, (Py_ssize_t)n * CELL_INTS * 4, "cells") < 0 ||
        get_buffer(reserve_o, &rv, (Py_ssize_t)n * 4, "reserve") < 0 ||
        (need_o != Py_None && get_buffer(need_o, &nv, (Py_ssize_t)n * 4, "need") < 0))
        goto done;
    if (hist_o != Py_None) {
        if (PyObject_GetBuffer(hist_o, &hv, PyBUF_WRITABLE) < 0) goto done;
        if (hv.len < (Py_ssize_t)(n + 1) * 32) {
            PyErr_Format(PyExc_ValueError, "hist: %zd bytes, expected at least %zd", hv.len,
                         (Py_ssize_t)(n + 1) * 32);
            goto done;
        }
    }
    if (bound_o != Py_None) {
        if (PyObject_GetBuffer(bound_o, &bv, PyBUF_SIMPLE) < 0) goto done;
        if (bv.len != 8 || (uintptr_t)bv.buf % 8) {
            PyErr_SetString(PyExc_ValueError, "bound: one aligned int64 expected");
            goto done;
        }
    }
    S.bound = bound_o != Py_None ? bv.buf : NULL;
    S.cands = cv.buf; S.spans = sv.buf; S.cells = ev.buf; S.reserve = rv.buf;
    S.need = need_o != Py_None ? nv.buf : NULL;
    S.hist = hist_o != Py_None ? hv.buf : NULL;
    S.n = n; S.npieces = npieces; S.colours = colours; S.cap = cap; S.node_limit = node_limit;
    S.patience = patience; S.callback = callback; S.tile = tile;
    S.sub_depth = sub_depth; S.sub_limit = sub_limit;
    Py_ssize_t ncands = cv.len / (Py_ssize_t)sizeof(Cand);
    S.nruns = (int)(sv.len / 8);
    if (check_layout(&S, ncands, sv.len / 8) < 0)
        PyErr_SetString(PyExc_ValueError, "inconsistent search layout");
    else if (!tile || tile_start(&S, ncands) == 0) {
        handback_start(&S.hb, seconds, cpu, 0);
        handback_watch(&S.hb, &watch, show_board, &S);
        status = nogil ? run_nogil(&S) : run(&S);
    }
done:
    PyMem_Free(S.X); PyMem_Free(S.P);
    PyBuffer_Release(&cv); PyBuffer_Release(&sv); PyBuffer_Release(&ev); PyBuffer_Release(&rv);
    PyBuffer_Release(&nv); PyBuffer_Release(&hv); PyBuffer_Release(&bv);
    if (status < 0) return NULL;
    return Py_BuildValue("(sLL)", handback_name(status), S.nodes, S.cap);
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS, search_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_edgescore",
    "The scoring search for edge-matching boards (compiled; see edgescore.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__edgescore(void) { return PyModule_Create(&module); }
