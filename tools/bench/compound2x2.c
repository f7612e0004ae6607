/* compound2x2: edge matching by 2x2 compound pieces (a benchmark prototype, not part of satiling).
 *
 * The method of the Eternity II seed's section "Backtracking search with 2x2 pieces": every valid
 * 2x2 block of four different pieces is made in advance, and a backtracker places blocks on the
 * (n/2) x (n/2) macro board, a quarter of the depth of the piece-by-piece search.
 *
 *   compound2x2 BOARD [--count] [--order ORDER] [--cap CPU_SECONDS] [--skip] [--estimate PROBES]
 *
 * BOARD: first the board size n (even, 2..8), then n*n lines "N E S W" (colours, 0 the grey
 * border), the pieces numbered from 0 in file order.  Rotation r turns a piece r clockwise quarter
 * turns: side d shows the listed side (d - r) mod 4, as in satiling.
 *
 * Blocks.  A macro square's class is which of its four sides lie on the board's rim (a 4-bit
 * mask: corner, edge and inner macro squares).  A block of that class has four different pieces,
 * each pre-rotated so that its grey sides are exactly its rim sides, and its four internal joins
 * matching.  Its outside is four colour pairs (top, right, bottom, left), a pair being
 * first * K + second for K colours, read left to right or top to bottom.
 *
 * Search.  The macro squares are filled in row order, so a square's top and left pairs are known
 * (grey on the rim).  Each step has its own table: the blocks of its class filed under (top
 * pair, left pair), in the candidate order chosen by --order:
 *   table    enumeration order (pieces in file order);
 *   support  the seed's heuristic: most continuations first, a block's score being the number of
 *            blocks that fit its right pair at the right neighbour's step times those that fit its
 *            bottom pair at the step below;
 *   fewest   the same score, fewest first (the static cousin of satiling's "tight" order);
 *   tight    at each node the candidates ordered by the size of the next step's table range once
 *            they are placed, smallest first (satiling's "tight" value order, one level up);
 *   tight-below  that size times the lower step's blocks fitting the candidate's bottom pair;
 *   tight-live   the next step's free blocks (pieces not in use) instead of its range size.
 * Pieces in use are one uint64_t, each block carries the mask of its four pieces: a block is free
 * iff (mask & used) == 0.  --skip: inside a key, blocks with the same top-left (and top-right)
 * piece are consecutive in table order, so a used top-left piece skips its whole run.
 * --estimate: Knuth's estimate of the search's node count (mean of PROBES random paths) instead
 * of the search.
 *
 * Equal pieces are not merged: on a board with two equal pieces every solution is counted twice
 * (satiling's engine counts it once); generated boards have none.
 *
 * Output on stdout, one "key value" per line: blocks, solutions, nodes (blocks placed),
 * scanned (table entries looked at), cpu (CPU seconds of the search, block making excluded),
 * build (CPU seconds making the tables), status (exhausted / limit / cap) and, for the first
 * solution, "solution" followed by piece and rotation of every square in row order.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 8
#define MAXP (MAXN * MAXN)
#define CHECK_MASK ((1ULL << 20) - 1)
#define USAGE "usage: compound2x2 BOARD [--count] [--order ORDER] [--cap S] [--skip] [--estimate N]"

typedef struct {
    uint64_t mask;              /* the four pieces */
    uint16_t pair[4];           /* outside colour pairs: top, right, bottom, left */
    uint8_t piece[4], rot[4];   /* top-left, top-right, bottom-left, bottom-right */
} Block;

typedef struct {                /* one pre-rotated piece */
    uint8_t piece, rot, col[4];
} Oriented;

typedef struct {
    int cls, rstep, bstep;     /* class; step of the right / lower neighbour or -1 */
    Block *cand;                /* this step's blocks, grouped by key */
    uint64_t *mask;             /* cand[i].mask, cand[i].pair[1] and pair[2] in arrays of their */
    uint16_t *right, *bottom;   /* own: the scan reads only the masks (8 bytes a candidate) */
    uint32_t *skip0, *skip01;   /* the first later candidate of the key with another top-left
                                 * piece / another top-left or top-right piece */
    uint8_t *p0, *p1;           /* cand[i].piece[0] and [1] */
    uint32_t *below;            /* blocks of the lower step's table fitting cand[i]'s bottom */
    uint32_t *start;            /* key (top pair * K*K + left pair): cand[start[k] .. start[k+1]) */
} Step;

static int n, m, K, npieces;
static uint8_t piece_col[MAXP][4];
static Block *blocks[16];       /* per class */
static size_t nblocks[16], capblocks[16];

static double cpu_now(void) {
    return (double)clock() / CLOCKS_PER_SEC;
}

static void die(const char *msg) {
    fprintf(stderr, "compound2x2: %s\n", msg);
    exit(2);
}

static void read_board(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot open the board file");
    if (fscanf(f, "%d", &n) != 1 || n < 2 || n > MAXN || n % 2)
        die("the board size must be even, 2 to 8");
    npieces = n * n;
    K = 1;
    for (int p = 0; p < npieces; p++)
        for (int d = 0; d < 4; d++) {
            int c;
            if (fscanf(f, "%d", &c) != 1 || c < 0 || c > 250)
                die("a piece line needs four colours 0..250");
            piece_col[p][d] = (uint8_t)c;
            if (c + 1 > K)
                K = c + 1;
        }
    fclose(f);
    m = n / 2;
    if ((size_t)K * K * K * K > (1u << 26))
        die("too many colours for the key tables");
}

/* Rim sides of cell q (0 TL, 1 TR, 2 BL, 3 BR) of a block of class cls (bits: 1 top, 2 right,
 * 4 bottom, 8 left), as the same kind of mask. */
static int cell_rim(int cls, int q) {
    int top = q < 2, left = q % 2 == 0;
    return (cls & (top ? 1 : 4)) | (cls & (left ? 8 : 2));
}

/* The pre-rotated pieces whose grey sides are exactly the rim sides ``rim``; rotations giving the
 * same colouring are listed once. */
static int oriented(int rim, Oriented *out) {
    int k = 0;
    for (int p = 0; p < npieces; p++) {
        uint8_t seen[4][4];
        int nseen = 0;
        for (int r = 0; r < 4; r++) {
            uint8_t c[4];
            int ok = 1, dup = 0;
            for (int d = 0; d < 4; d++) {
                c[d] = piece_col[p][(d - r + 4) % 4];
                ok &= (c[d] == 0) == ((rim >> d & 1) != 0);
            }
            for (int j = 0; j < nseen; j++)
                dup |= memcmp(seen[j], c, 4) == 0;
            if (!ok || dup)
                continue;
            memcpy(seen[nseen++], c, 4);
            out[k] = (Oriented){(uint8_t)p, (uint8_t)r, {c[0], c[1], c[2], c[3]}};
            k++;
        }
    }
    return k;
}

static void add_block(int cls, const Oriented *q[4]) {
    if (nblocks[cls] == capblocks[cls]) {
        capblocks[cls] = capblocks[cls] ? 2 * capblocks[cls] : 1024;
        blocks[cls] = realloc(blocks[cls], capblocks[cls] * sizeof(Block));
        if (!blocks[cls])
            die("out of memory");
    }
    Block *b = &blocks[cls][nblocks[cls]++];
    b->mask = 0;
    for (int i = 0; i < 4; i++) {
        b->mask |= 1ULL << q[i]->piece;
        b->piece[i] = q[i]->piece;
        b->rot[i] = q[i]->rot;
    }
    /* sides: 0 N, 1 E, 2 S, 3 W; cells 0 TL, 1 TR, 2 BL, 3 BR */
    b->pair[0] = (uint16_t)(q[0]->col[0] * K + q[1]->col[0]);
    b->pair[1] = (uint16_t)(q[1]->col[1] * K + q[3]->col[1]);
    b->pair[2] = (uint16_t)(q[2]->col[2] * K + q[3]->col[2]);
    b->pair[3] = (uint16_t)(q[0]->col[3] * K + q[2]->col[3]);
}

/* Every block of class cls: four different pieces, internal joins matching. */
static void make_blocks(int cls) {
    static Oriented o[4][4 * MAXP];
    int cnt[4];
    for (int q = 0; q < 4; q++)
        cnt[q] = oriented(cell_rim(cls, q), o[q]);
    for (int a = 0; a < cnt[0]; a++)
        for (int b = 0; b < cnt[1]; b++) {
            if (o[1][b].col[3] != o[0][a].col[1] || o[1][b].piece == o[0][a].piece)
                continue;
            for (int c = 0; c < cnt[2]; c++) {
                if (o[2][c].col[0] != o[0][a].col[2] || o[2][c].piece == o[0][a].piece ||
                    o[2][c].piece == o[1][b].piece)
                    continue;
                for (int d = 0; d < cnt[3]; d++) {
                    const Oriented *x = &o[3][d];
                    if (x->col[0] != o[1][b].col[2] || x->col[3] != o[2][c].col[1] ||
                        x->piece == o[0][a].piece || x->piece == o[1][b].piece ||
                        x->piece == o[2][c].piece)
                        continue;
                    const Oriented *q[4] = {&o[0][a], &o[1][b], &o[2][c], x};
                    add_block(cls, q);
                }
            }
        }
}

static int class_of(int R, int C) {
    return (R == 0) | (C == m - 1) << 1 | (R == m - 1) << 2 | (C == 0) << 3;
}

/* How many blocks of class cls have side ``side`` equal to each pair. */
static uint32_t *side_counts(int cls, int side) {
    uint32_t *cnt = calloc((size_t)K * K, sizeof *cnt);
    if (!cnt)
        die("out of memory");
    for (size_t i = 0; i < nblocks[cls]; i++)
        cnt[blocks[cls][i].pair[side]]++;
    return cnt;
}

/* Step s's table: its class's blocks grouped by (top, left) key, in the chosen static order. */
static void make_step(Step *st, const char *order, Step *steps) {
    size_t nb = nblocks[st->cls], nk = (size_t)K * K * K * K;
    st->cand = malloc((nb ? nb : 1) * sizeof(Block));
    st->start = calloc(nk + 1, sizeof(uint32_t));
    if (!st->cand || !st->start)
        die("out of memory");
    uint64_t *score = malloc((nb ? nb : 1) * sizeof *score);
    uint32_t *cr = st->rstep >= 0 ? side_counts(steps[st->rstep].cls, 3) : NULL;
    uint32_t *cb = st->bstep >= 0 ? side_counts(steps[st->bstep].cls, 0) : NULL;
    const Block *src = blocks[st->cls];
    for (size_t i = 0; i < nb; i++) {
        uint64_t s = (cr ? cr[src[i].pair[1]] : 1) * (uint64_t)(cb ? cb[src[i].pair[2]] : 1);
        if (strcmp(order, "support") == 0)
            s = UINT64_MAX - s;
        else if (strcmp(order, "fewest") != 0)
            s = 0;
        score[i] = s;
    }
    /* counting sort by key, then a stable insertion by score inside each key */
    for (size_t i = 0; i < nb; i++)
        st->start[src[i].pair[0] * (size_t)K * K + src[i].pair[3] + 1]++;
    for (size_t k = 0; k < nk; k++)
        st->start[k + 1] += st->start[k];
    uint32_t *fill = malloc((nk + 1) * sizeof(uint32_t));
    uint64_t *sorted_score = malloc((nb ? nb : 1) * sizeof *sorted_score);
    if (!fill || !sorted_score)
        die("out of memory");
    memcpy(fill, st->start, (nk + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < nb; i++) {
        size_t k = src[i].pair[0] * (size_t)K * K + src[i].pair[3];
        uint32_t j = fill[k]++;
        while (j > st->start[k] && sorted_score[j - 1] > score[i]) {
            st->cand[j] = st->cand[j - 1];
            sorted_score[j] = sorted_score[j - 1];
            j--;
        }
        st->cand[j] = src[i];
        sorted_score[j] = score[i];
    }
    st->mask = malloc((nb ? nb : 1) * sizeof *st->mask);
    st->right = malloc((nb ? nb : 1) * sizeof *st->right);
    st->bottom = malloc((nb ? nb : 1) * sizeof *st->bottom);
    if (!st->mask || !st->right || !st->bottom)
        die("out of memory");
    st->below = malloc((nb ? nb : 1) * sizeof *st->below);
    if (!st->below)
        die("out of memory");
    for (size_t i = 0; i < nb; i++)
        st->below[i] = cb ? cb[st->cand[i].pair[2]] : 1;
    st->skip0 = malloc((nb ? nb : 1) * sizeof *st->skip0);
    st->skip01 = malloc((nb ? nb : 1) * sizeof *st->skip01);
    st->p0 = malloc(nb ? nb : 1);
    st->p1 = malloc(nb ? nb : 1);
    if (!st->skip0 || !st->skip01 || !st->p0 || !st->p1)
        die("out of memory");
    for (size_t i = 0; i < nb; i++) {
        st->mask[i] = st->cand[i].mask;
        st->right[i] = st->cand[i].pair[1];
        st->bottom[i] = st->cand[i].pair[2];
        st->p0[i] = st->cand[i].piece[0];
        st->p1[i] = st->cand[i].piece[1];
    }
    /* runs of one top-left piece (and top-right piece) inside a key: a used piece skips its run */
    for (size_t k = 0; k < nk; k++)
        for (uint32_t i = st->start[k + 1]; i-- > st->start[k];) {
            int last = i + 1 == st->start[k + 1];
            st->skip0[i] = !last && st->p0[i + 1] == st->p0[i] ? st->skip0[i + 1] : i + 1;
            st->skip01[i] = !last && st->p0[i + 1] == st->p0[i] && st->p1[i + 1] == st->p1[i]
                                ? st->skip01[i + 1] : i + 1;
        }
    free(fill);
    free(sorted_score);
    free(score);
    free(cr);
    free(cb);
}

typedef struct {
    unsigned long long nodes, scanned, solutions;
    int status;                 /* 0 exhausted, 1 limit (first solution), 2 CPU cap */
    uint32_t first[MAXP / 4];   /* candidate index per step of the first solution */
    int have_first;
} Result;

static uint32_t key_at(const Step *steps, const uint32_t *choice, int d) {
    int R = d / m, C = d % m;
    uint32_t top = R ? steps[d - m].bottom[choice[d - m]] : 0;
    uint32_t left = C ? steps[d - 1].right[choice[d - 1]] : 0;
    return top * (uint32_t)(K * K) + left;
}

enum { TIGHT_NONE, TIGHT, TIGHT_BELOW, TIGHT_LIVE };

/* tight: step d's live candidates (indices into its table), by the next step's range size. */
static uint32_t order_tight(const Step *steps, uint32_t *choice, int d, uint64_t used,
                            uint32_t lo, uint32_t hi, uint32_t *out, uint64_t *sc, int last,
                            int tight) {
    uint32_t k = 0;
    for (uint32_t i = lo; i < hi; i++) {
        if (steps[d].mask[i] & used)
            continue;
        uint64_t s = 0;
        if (d < last) {
            choice[d] = i;             /* overwritten when a candidate is placed */
            uint32_t key = key_at(steps, choice, d + 1);
            uint32_t lo1 = steps[d + 1].start[key], hi1 = steps[d + 1].start[key + 1];
            s = hi1 - lo1;
            if (tight == TIGHT_BELOW)
                s *= steps[d].below[i];
            else if (tight == TIGHT_LIVE)
                for (s = 0; lo1 < hi1; lo1++)
                    s += !(steps[d + 1].mask[lo1] & (used | steps[d].mask[i]));
        }
        uint32_t j = k++;
        while (j > 0 && sc[j - 1] > s) {
            sc[j] = sc[j - 1];
            out[j] = out[j - 1];
            j--;
        }
        sc[j] = s;
        out[j] = i;
    }
    return k;
}

typedef struct {
    const Step *steps;
    int last, tight, skip;
    uint32_t pos[MAXP / 4], end[MAXP / 4], choice[MAXP / 4];
    uint64_t used;
    uint32_t *buf, maxc;        /* tight orders: per depth, its ordered candidates (maxc at most) */
    uint64_t *score;
    Result res;
} Search;

/* Depth d's candidates: a range of its table, or with a tight order of the depth's buffer. */
static void open_step(Search *s, int d) {
    uint32_t key = key_at(s->steps, s->choice, d);
    uint32_t lo = s->steps[d].start[key], hi = s->steps[d].start[key + 1];
    if (!s->tight) {
        s->pos[d] = lo;
        s->end[d] = hi;
        return;
    }
    s->res.scanned += hi - lo;
    s->pos[d] = 0;
    s->end[d] = order_tight(s->steps, s->choice, d, s->used, lo, hi, s->buf + (size_t)s->maxc * d,
                            s->score, s->last, s->tight);
}

/* Depth d's next free candidate (its table index), or UINT32_MAX. */
static uint32_t next_free(Search *s, int d) {
    uint32_t i = s->pos[d], e = s->end[d];
    if (s->tight)          /* the buffer holds only blocks free when it was made; all still are */
        return i < e ? s->buf[(size_t)s->maxc * d + s->pos[d]++] : UINT32_MAX;
    const Step *st = &s->steps[d];
    uint64_t used = s->used;
    if (s->skip) {
        while (i < e && (st->mask[i] & used)) {
            s->res.scanned++;
            if (used >> st->p0[i] & 1)
                i = st->skip0[i];
            else if (used >> st->p1[i] & 1)
                i = st->skip01[i];
            else
                i++;
        }
        s->res.scanned += i < e;
    } else {
        while (i < e && (st->mask[i] & used))   /* unrolled by four: no faster */
            i++;
        s->res.scanned += (i < e ? i + 1 : e) - s->pos[d];
    }
    s->pos[d] = i + 1;
    return i < e ? i : UINT32_MAX;
}

/* The row-scan backtracker over the macro board: the first solution, or all of them. */
static Result search(const Step *steps, int count_all, int tight, int skip, double cap) {
    static Search s;
    s = (Search){.steps = steps, .last = m * m - 1, .tight = tight, .skip = skip, .maxc = 1};
    if (tight) {
        for (int d = 0; d <= s.last; d++)
            for (size_t k = 0; k < (size_t)K * K * K * K; k++)
                if (steps[d].start[k + 1] - steps[d].start[k] > s.maxc)
                    s.maxc = steps[d].start[k + 1] - steps[d].start[k];
        s.buf = malloc((size_t)s.maxc * (s.last + 1) * sizeof *s.buf);
        s.score = malloc(s.maxc * sizeof *s.score);
        if (!s.buf || !s.score)
            die("out of memory");
    }
    double t0 = cpu_now();
    int d = 0;
    open_step(&s, 0);
    while (d >= 0) {
        uint32_t i = next_free(&s, d);
        if (i == UINT32_MAX) {
            if (--d >= 0)
                s.used ^= steps[d].mask[s.choice[d]];
            continue;
        }
        s.choice[d] = i;
        s.used |= steps[d].mask[i];
        if ((++s.res.nodes & CHECK_MASK) == 0 && cap > 0 && cpu_now() - t0 > cap) {
            s.res.status = 2;
            break;
        }
        if (d == s.last) {
            if (s.res.solutions++ == 0) {
                memcpy(s.res.first, s.choice, sizeof s.choice);
                s.res.have_first = 1;
            }
            s.used ^= steps[d].mask[i];
            if (!count_all) {
                s.res.status = 1;
                break;
            }
            continue;
        }
        open_step(&s, ++d);
    }
    free(s.buf);
    free(s.score);
    return s.res;
}

/* Knuth's estimate of the number of nodes (blocks placed) of the whole search: the mean over
 * ``probes`` random paths of c1 + c1 c2 + c1 c2 c3 + ..., c_d the free candidates at depth d. */
static double estimate(const Step *steps, int probes) {
    uint64_t rng = 88172645463325252ULL;
    uint32_t choice[MAXP / 4] = {0}, live[1 << 16];
    double total = 0;
    for (int p = 0; p < probes; p++) {
        uint64_t used = 0;
        double prod = 1;
        for (int d = 0; d < m * m; d++) {
            uint32_t key = key_at(steps, choice, d), c = 0;
            uint32_t hi = steps[d].start[key + 1];
            for (uint32_t i = steps[d].start[key]; i < hi && c < (1 << 16); i++)
                if (!(steps[d].mask[i] & used))
                    live[c++] = i;
            if (c == 0)
                break;
            prod *= c;
            total += prod;
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            choice[d] = live[rng % c];
            used |= steps[d].mask[choice[d]];
        }
    }
    return total / probes;
}

int main(int argc, char **argv) {
    const char *path = NULL, *order = "table";
    int count_all = 0, skip = 0, probes = 0;
    double cap = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--count") == 0)
            count_all = 1;
        else if (strcmp(argv[i], "--skip") == 0)
            skip = 1;
        else if (strcmp(argv[i], "--estimate") == 0 && i + 1 < argc)
            probes = atoi(argv[++i]);
        else if (strcmp(argv[i], "--order") == 0 && i + 1 < argc)
            order = argv[++i];
        else if (strcmp(argv[i], "--cap") == 0 && i + 1 < argc)
            cap = atof(argv[++i]);
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else
            die(USAGE);
    }
    if (!path)
        die(USAGE);
    static const char *orders[] = {"table", "support", "fewest", "tight", "tight-below",
                                   "tight-live"};
    int o = 0;
    while (o < 6 && strcmp(order, orders[o]))
        o++;
    if (o == 6)
        die("--order is one of table, support, fewest, tight, tight-below, tight-live");
    int tight = o < 3 ? TIGHT_NONE : o == 3 ? TIGHT : o == 4 ? TIGHT_BELOW : TIGHT_LIVE;
    read_board(path);
    double t0 = cpu_now();
    Step steps[MAXP / 4];
    int used_cls[16] = {0};
    for (int d = 0; d < m * m; d++) {
        int R = d / m, C = d % m;
        steps[d].cls = class_of(R, C);
        steps[d].rstep = C + 1 < m ? d + 1 : -1;
        steps[d].bstep = R + 1 < m ? d + m : -1;
        if (!used_cls[steps[d].cls]++)
            make_blocks(steps[d].cls);
    }
    for (int d = 0; d < m * m; d++)
        make_step(&steps[d], order, steps);
    double build = cpu_now() - t0;
    size_t total = 0;
    for (int c = 0; c < 16; c++)
        total += nblocks[c];
    if (probes > 0) {
        printf("blocks %zu\nestimate %.4g\n", total, estimate(steps, probes));
        return 0;
    }
    Result res = search(steps, count_all, tight, skip, cap);
    double cpu = cpu_now() - t0 - build;
    static const char *status[] = {"exhausted", "limit", "cap"};
    printf("blocks %zu\nsolutions %llu\nnodes %llu\nscanned %llu\n", total, res.solutions,
           res.nodes, res.scanned);
    printf("build %.3f\ncpu %.3f\nstatus %s\n", build, cpu, status[res.status]);
    if (res.have_first) {
        int pc[MAXP], rc[MAXP];
        for (int d = 0; d < m * m; d++) {
            const Block *b = &steps[d].cand[res.first[d]];
            int R = d / m, C = d % m;
            for (int q = 0; q < 4; q++) {
                int cell = (2 * R + q / 2) * n + 2 * C + q % 2;
                pc[cell] = b->piece[q];
                rc[cell] = b->rot[q];
            }
        }
        printf("solution");
        for (int c = 0; c < npieces; c++)
            printf(" %d %d", pc[c], rc[c]);
        printf("\n");
    }
    return 0;
}
