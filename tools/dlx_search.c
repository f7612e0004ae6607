/* Knuth's Algorithm X with dancing links, for one exact cover of a large polyform board.

   Built and driven by tools/dlx_search.py, which writes the matrix, runs this program and checks
   what it prints with satiling's verifier.  Input (stdin, whitespace separated):

       ncols nelements area nrows
       nrows lines:      k  col_1 .. col_k
       nelements lines:  d  nbr_1 .. nbr_d          (edge neighbours of element columns)

   Columns 0..nelements-1 are the board's cells, the rest the pieces; all are primary.  The search
   branches on the column with the fewest rows left (ties: lowest index, so the board fills in
   the order the driver numbered it).  Before each placement it looks at the cells next to the
   new piece: an enclosed pocket of open cells whose size is not a multiple of ``area`` can never
   be filled, so the branch is cut (a bounded flood fill: pockets above ``--pocket`` cells are not
   followed).  Output (stdout): "s SOLUTION" and a "v" line of the chosen row numbers, or
   "s UNSATISFIABLE" after an exhaustive search, or "s UNKNOWN" at the time limit.  Progress, with
   Knuth's estimate of the fraction of the tree done, goes to stderr.

   usage: dlx_search [--seed N] [--time-limit SECONDS] [--pocket CELLS] [--count]
                     [--estimate PROBES] [--reverse-root] [--path I,J,..] < matrix

   --seed N (N > 0) tries each column's rows from a random place instead of the first;
   --count visits every solution and prints "s COUNT n" (a check that the cut loses nothing);
   --estimate prints Knuth's random-path estimate of the tree size instead of searching;
   --reverse-root tries the first branching's rows last to first: a second process so started
   meets the first in the middle of the same tree (progress is then counted from the end);
   --path 5,0,3 searches only the subtree under the 6th row of the first branching, the 1st of
   the second, the 4th of the third (0-based, in the order of an unseeded forward run): a long
   exhaust split into jobs for many machines.  A path into a pruned branch has an empty subtree.

   Memory: a row's nodes are contiguous and a node's links sit together (16 bytes); on Pram
   (10^5 rows, far beyond the caches) that searched 1.3x faster than separate link arrays.  */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { int up, down, col, row; } Node;   /* nodes 0..ncols-1 are column headers */

static Node *N;
static int *hl, *hr, *len;          /* the header ring (root = ncols) and column sizes */
static char *open_;                 /* open_[c]: column c is still in the header ring */
static int *rowstart;               /* row r's nodes: rowstart[r] .. rowstart[r + 1] - 1 */
static int ncols, nelem, area, nrows, root;
static int **nbr, *nnbr;
static long long *mark, stamp = 0;
static int *queue;
static int pocket_limit = 200, count_all = 0, randomize = 0, reverse_root = 0;
static long long nodes = 0, cuts = 0, solutions = 0;
static double time_limit = 0, t0;
static int *chosen, *deg, *idx, depth_max = 0;
static int path[64], path_len = 0;   /* --path: the subtree to search */

static double cpu(void) { return (double)clock() / CLOCKS_PER_SEC; }

static unsigned long long rng = 88172645463325252ULL;
static unsigned long long next_rand(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng;
}

/* Take column c out of the ring, and every row that meets c out of its other columns. */
static void cover(int c) {
    hl[hr[c]] = hl[c]; hr[hl[c]] = hr[c]; open_[c] = 0;
    for (int i = N[c].down; i != c; i = N[i].down) {
        int r = N[i].row;
        for (int j = rowstart[r]; j < rowstart[r + 1]; j++) {
            if (j == i) continue;
            N[N[j].down].up = N[j].up; N[N[j].up].down = N[j].down; len[N[j].col]--;
        }
    }
}

static void uncover(int c) {
    for (int i = N[c].up; i != c; i = N[i].up) {
        int r = N[i].row;
        for (int j = rowstart[r + 1] - 1; j >= rowstart[r]; j--) {
            if (j == i) continue;
            len[N[j].col]++; N[N[j].down].up = j; N[N[j].up].down = j;
        }
    }
    hl[hr[c]] = c; hr[hl[c]] = c; open_[c] = 1;
}

/* Cover (or uncover) the columns of node x's row other than x's own. */
static void cover_row(int x) {
    int r = N[x].row;
    for (int j = rowstart[r]; j < rowstart[r + 1]; j++) if (j != x) cover(N[j].col);
}

static void uncover_row(int x) {
    int r = N[x].row;
    for (int j = rowstart[r + 1] - 1; j >= rowstart[r]; j--) if (j != x) uncover(N[j].col);
}

/* 1 if placing row node x (its column already covered) would enclose a pocket of open cells
   whose size is not a multiple of area.  Each flood fill gets its own stamp; meeting a cell an
   earlier fill gave up on means this pocket is that large region, so it is left alone too. */
static int bad_pocket(int x) {
    int r = N[x].row, bad = 0;
    for (int j = rowstart[r]; j < rowstart[r + 1]; j++) open_[N[j].col] = 0;
    long long base = stamp + 1;
    for (int k = rowstart[r]; k < rowstart[r + 1] && !bad; k++) {
        int e = N[k].col;
        if (e >= nelem) continue;
        for (int a = 0; a < nnbr[e] && !bad; a++) {
            int s = nbr[e][a];
            if (!open_[s] || mark[s] >= base) continue;
            int head = 0, tail = 0, gave_up = 0;
            mark[s] = ++stamp; queue[tail++] = s;
            while (head < tail && !gave_up) {
                int y0 = queue[head++];
                for (int b = 0; b < nnbr[y0]; b++) {
                    int y = nbr[y0][b];
                    if (!open_[y] || mark[y] == stamp) continue;
                    if (mark[y] >= base) { gave_up = 1; break; }
                    mark[y] = stamp; queue[tail++] = y;
                }
                if (tail > pocket_limit) gave_up = 1;
            }
            if (!gave_up && tail % area != 0) bad = 1;
        }
    }
    for (int j = rowstart[r]; j < rowstart[r + 1]; j++) open_[N[j].col] = 1;
    open_[N[x].col] = 0;   /* the column being branched on is covered already */
    return bad;
}

static int choose_column(void) {
    int best = -1, bl = 1 << 30;
    for (int c = hr[root]; c != root; c = hr[c])
        if (len[c] < bl) { bl = len[c]; best = c; if (bl <= 1) break; }
    return best;
}

/* Knuth's progress measure: the part of the tree left of the current path. */
static double progress(int depth) {
    double done = 0, scale = 1;
    for (int d = 0; d <= depth; d++) { scale /= deg[d]; done += idx[d] * scale; }
    return done;
}

static void report(int depth) {
    fprintf(stderr, "c %lld nodes, %lld pockets cut, depth %d (max %d), ~%.3g of the tree done "
            "(rows", nodes, cuts, depth, depth_max, progress(depth));
    for (int d = 0; d < 4 && d <= depth; d++) fprintf(stderr, " %d/%d", idx[d] + 1, deg[d]);
    fprintf(stderr, "), %.0f CPU-s\n", cpu() - t0);
}

/* 1: solution (the links stay as they are), 0: subtree exhausted, -1: time limit. */
static int search(int depth) {
    if (hr[root] == root) { solutions++; return !count_all; }
    int best = choose_column(), bl = len[best];
    if (bl == 0) return 0;
    if (depth > depth_max) depth_max = depth;
    cover(best);
    int x = N[best].down, res = 0, back = depth == 0 && reverse_root;
    if (back) x = N[best].up;
    for (int skip = randomize ? (int)(next_rand() % bl) : 0; skip > 0; skip--) x = N[x].down;
    deg[depth] = bl;
    if (depth == 0 || depth == path_len)   /* the degrees that --path jobs are cut from */
        fprintf(stderr, "c branching at depth %d: column %d, %d rows\n", depth, best, bl);
    for (int tried = 0; tried < bl; tried++, x = back ? N[x].up : N[x].down) {
        if (x == best) x = back ? N[x].up : N[x].down;   /* a random start wraps around */
        idx[depth] = tried;
        if (depth < path_len && tried != path[depth]) continue;   /* not the subtree asked for */
        if ((++nodes & 0xFFFF) == 0) {
            if ((nodes & 0xFFFFF) == 0) report(depth);
            if (time_limit > 0 && cpu() - t0 > time_limit) { res = -1; break; }
        }
        chosen[depth] = N[x].row;
        if (bad_pocket(x)) { cuts++; continue; }
        cover_row(x);
        res = search(depth + 1);
        if (res == 1) return 1;
        uncover_row(x);
        if (res < 0) break;
    }
    uncover(best);
    return res;
}

/* Knuth's estimate of the size of the search tree: follow one random path, multiplying the
   branching degrees; the sum of the running products is an unbiased estimate of the node count. */
static double probe(void) {
    double product = 1, total = 0;
    int depth = 0;
    while (hr[root] != root) {
        int best = choose_column(), bl = len[best];
        if (bl == 0) break;
        product *= bl; total += product;
        int x = N[best].down;
        for (int pick = (int)(next_rand() % bl); pick > 0; pick--) x = N[x].down;
        cover(best);
        if (bad_pocket(x)) { uncover(best); break; }
        cover_row(x);
        chosen[depth++] = x;
    }
    while (depth--) {
        uncover_row(chosen[depth]);
        uncover(N[chosen[depth]].col);
    }
    return total;
}

static int read_int(int *v) { return scanf("%d", v) == 1; }

static void fail(const char *what) { fprintf(stderr, "dlx_search: bad input: %s\n", what); exit(2); }

static void read_matrix(void) {
    if (!read_int(&ncols) || !read_int(&nelem) || !read_int(&area) || !read_int(&nrows)
        || ncols < nelem || nelem < 0 || area <= 0 || nrows < 0)
        fail("header");
    rowstart = malloc((nrows + 1) * sizeof(int));
    int cap = ncols + nrows * 40 + 16, n = ncols;
    N = malloc(cap * sizeof(Node));
    len = calloc(ncols + 1, sizeof(int));
    for (int c = 0; c < ncols; c++) N[c] = (Node){c, c, c, -1};
    for (int r = 0; r < nrows; r++) {
        int k;
        if (!read_int(&k) || k <= 0) fail("row length");
        rowstart[r] = n;
        for (int i = 0; i < k; i++, n++) {
            int c;
            if (!read_int(&c) || c < 0 || c >= ncols) fail("column number");
            if (n == cap) { cap *= 2; N = realloc(N, cap * sizeof(Node)); }
            N[n] = (Node){N[c].up, c, c, r};
            N[N[c].up].down = n; N[c].up = n; len[c]++;
        }
    }
    rowstart[nrows] = n;
    nbr = malloc((nelem + 1) * sizeof(int *)); nnbr = malloc((nelem + 1) * sizeof(int));
    for (int e = 0; e < nelem; e++) {
        if (!read_int(&nnbr[e]) || nnbr[e] < 0) fail("neighbour count");
        nbr[e] = malloc((nnbr[e] + 1) * sizeof(int));
        for (int i = 0; i < nnbr[e]; i++)
            if (!read_int(&nbr[e][i]) || nbr[e][i] < 0 || nbr[e][i] >= nelem) fail("neighbour");
    }
}

int main(int argc, char **argv) {
    unsigned long long seed = 0;
    int probes = 0;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--seed") && a + 1 < argc) seed = strtoull(argv[++a], 0, 10);
        else if (!strcmp(argv[a], "--time-limit") && a + 1 < argc) time_limit = atof(argv[++a]);
        else if (!strcmp(argv[a], "--pocket") && a + 1 < argc) pocket_limit = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--count")) count_all = 1;
        else if (!strcmp(argv[a], "--reverse-root")) reverse_root = 1;
        else if (!strcmp(argv[a], "--path") && a + 1 < argc) {
            for (char *p = argv[++a]; *p && path_len < 64; p = *p ? p + 1 : p) {
                path[path_len++] = (int)strtol(p, &p, 10);
                if (*p && *p != ',') { fprintf(stderr, "dlx_search: --path wants numbers like 5,0,3\n"); return 2; }
            }
        }
        else if (!strcmp(argv[a], "--estimate") && a + 1 < argc) probes = atoi(argv[++a]);
        else {
            fprintf(stderr, "usage: %s [--seed N] [--time-limit S] [--pocket CELLS] [--count] "
                    "[--estimate PROBES] [--reverse-root] [--path I,J,..] < matrix\n", argv[0]);
            return 2;
        }
    }
    read_matrix();
    root = ncols;
    hl = malloc((ncols + 1) * sizeof(int)); hr = malloc((ncols + 1) * sizeof(int));
    for (int c = 0; c <= ncols; c++) { hl[c] = c == 0 ? root : c - 1; hr[c] = c + 1; }
    hl[root] = ncols > 0 ? ncols - 1 : root; hr[root] = ncols > 0 ? 0 : root;
    if (ncols > 0) hr[ncols - 1] = root;
    open_ = malloc(ncols + 1); memset(open_, 1, ncols + 1);
    mark = calloc(nelem + 1, sizeof(long long)); queue = malloc((nelem + 1) * sizeof(int));
    chosen = calloc(ncols + 1, sizeof(int)); deg = calloc(ncols + 1, sizeof(int));
    idx = calloc(ncols + 1, sizeof(int));
    rng ^= seed * 0x9E3779B97F4A7C15ULL;
    t0 = cpu();

    if (probes > 0) {
        double sum = 0, sumsq = 0;
        for (int p = 1; p <= probes; p++) {
            double e = probe(); sum += e; sumsq += e * e;
            if ((p & (p - 1)) == 0 || p == probes)
                fprintf(stderr, "c %d probes: mean %.3g nodes, %.1f CPU-s\n", p, sum / p, cpu() - t0);
        }
        double mean = sum / probes;
        double sd = probes > 1 ? sqrt(fmax(0, sumsq / probes - mean * mean) / (probes - 1)) : 0;
        printf("s ESTIMATE %.4g nodes (%d probes, sd of the mean %.3g)\n", mean, probes, sd);
        return 0;
    }

    randomize = seed != 0;
    int res = search(0);
    double t = cpu() - t0;
    fprintf(stderr, "c %lld nodes, %lld pockets cut, %.1f CPU-s\n", nodes, cuts, t);
    if (res == 1) {
        /* every placement covers exactly one piece column: there are ncols - nelem of them */
        printf("s SOLUTION\nc nodes %lld cpu %.1f\nv", nodes, t);
        for (int i = 0; i < ncols - nelem; i++) printf(" %d", chosen[i]);
        printf("\n");
        return 0;
    }
    if (count_all) printf("s COUNT %lld%s\n", solutions, res == 0 ? "" : " (incomplete)");
    else printf(res == 0 ? "s UNSATISFIABLE\n" : "s UNKNOWN\n");
    printf("c nodes %lld cpu %.1f\n", nodes, t);
    return res == 0 ? (count_all ? 0 : 1) : 3;
}
