/* Experiment (issue 24): does a one-row lookahead pay in the row-scan search for one solution of
 * an edge-matching board?  Built and run by edgematch_lookahead.py; never shipped.
 *
 * The search fills the board row by row from the top-left corner (the first corner piece fixed
 * there, as the package's corner_starter), candidates in table order.  With a lookahead, each
 * piece placed at (r, c) is kept only if the squares (r+1, 0..c) below the row so far can still be
 * filled: mode 1 looks for a chain of distinct free pieces matching the colours above and each
 * other (a small search; the chain found one column to the left is tried first), mode 2 keeps per
 * column the east colours such a chain could end in, pieces not kept distinct (a superset, carried
 * down from the parent: a cheap relaxation).
 *
 * Input on stdin: "rows cols", then one piece per line as "N E S W" colours, 0 the grey rim.
 * Output: one line "nodes N checks C cuts X cpu S" (nodes: pieces placed, cut ones included;
 * checks: pieces tried by the lookahead's own search). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXP 256
#define MAXK 32
#define NKEYS (MAXK * MAXK * 4)

static int R, C, P, NT, NE, MODE;
static int tcol[MAXP][4], mult[MAXP];
static int ecol[4 * MAXP][4], etype[4 * MAXP];
static int *tab[NKEYS], tabn[NKEYS];
static int board[16][16];            /* the entry on each square */
static int wit[MAXP][16];            /* mode 1: per depth, the chain found below the row */
static unsigned reach[MAXP][16];     /* mode 2: per depth, the east colours per column */
static long long nodes, checks, cuts;

/* square with north colour n, west colour w, east side on the rim er, south side on the rim sr */
static int key(int n, int w, int er, int sr) { return ((n * MAXK + w) * 2 + er) * 2 + sr; }

static int chain(int q, int j, int upto, int *out) {
    if (j > upto)
        return 1;
    int k = key(ecol[board[q - 1][j]][2], j ? ecol[out[j - 1]][1] : 0, j == C - 1, q == R - 1);
    for (int i = 0; i < tabn[k]; i++) {
        int e = tab[k][i], t = etype[e];
        if (mult[t] == 0)
            continue;
        checks++;
        mult[t]--, out[j] = e;
        int ok = chain(q, j + 1, upto, out);
        mult[t]++;
        if (ok)
            return 1;
    }
    return 0;
}

/* mode 1: the parent's chain, one column longer, if its pieces are still free; else a search */
static int chain_below(int d, int r, int c) {
    int *w = wit[d], ok = 0;
    if (c > 0) {
        memcpy(w, wit[d - 1], sizeof(int) * c);
        int free = 1;
        for (int j = 0; j < c; j++)
            free &= mult[etype[w[j]]]-- > 0;
        if (free)
            ok = chain(r + 1, c, c, w);
        for (int j = 0; j < c; j++)
            mult[etype[w[j]]]++;
    }
    return ok || chain(r + 1, 0, c, w);
}

/* mode 2: the east colours a chain of free pieces could end in at column c */
static unsigned reach_col(int n, unsigned from, int er, int sr) {
    unsigned out = 0;
    for (unsigned m = from; m; m &= m - 1) {
        int k = key(n, __builtin_ctz(m), er, sr);
        for (int i = 0; i < tabn[k]; i++)
            if (mult[etype[tab[k][i]]] > 0)
                out |= 1u << ecol[tab[k][i]][1];
    }
    return out;
}

static int below_ok(int d, int r, int c, int e) {
    if (r + 1 >= R)
        return 1;
    if (MODE == 1)
        return chain_below(d, r, c);
    unsigned from = c ? reach[d - 1][c - 1] : 1u;
    if (c)
        memcpy(reach[d], reach[d - 1], sizeof(unsigned) * c);
    reach[d][c] = from ? reach_col(ecol[e][2], from, c == C - 1, r + 1 == R - 1) : 0;
    return reach[d][c] != 0;
}

static int search(int d) {
    if (d == P)
        return 1;
    int r = d / C, c = d % C;
    int k = key(r ? ecol[board[r - 1][c]][2] : 0, c ? ecol[board[r][c - 1]][1] : 0, c == C - 1,
                r == R - 1);
    for (int i = 0; i < tabn[k]; i++) {
        int e = tab[k][i], t = etype[e];
        if (mult[t] == 0)
            continue;
        nodes++;
        mult[t]--, board[r][c] = e;
        if (MODE && !below_ok(d, r, c, e))
            cuts++;
        else if (search(d + 1))
            return 1;
        mult[t]++;
    }
    return 0;
}

static void read_board(void) {
    if (scanf("%d %d", &R, &C) != 2 || R < 2 || C < 2 || R > 16 || C > 16)
        exit(2);
    P = R * C;
    for (int p = 0; p < P; p++) {
        int c[4], t;
        if (scanf("%d %d %d %d", &c[0], &c[1], &c[2], &c[3]) != 4)
            exit(2);
        for (t = 0; t < NT; t++) {       /* equal pieces (under rotation): one type */
            int same = 0;
            for (int q = 0; q < 4 && !same; q++)
                same = tcol[t][0] == c[q] && tcol[t][1] == c[(q + 1) % 4] &&
                       tcol[t][2] == c[(q + 2) % 4] && tcol[t][3] == c[(q + 3) % 4];
            if (same)
                break;
        }
        if (t == NT)
            memcpy(tcol[NT++], c, sizeof c);
        mult[t]++;
    }
    for (int t = 0; t < NT; t++)
        for (int q = 0; q < 4; q++) {    /* each distinct rotation one entry */
            int c[4], dup = 0;
            for (int x = 0; x < 4; x++)
                c[x] = tcol[t][(x - q + 4) % 4];
            for (int e = 0; e < NE; e++)
                dup |= etype[e] == t && !memcmp(ecol[e], c, sizeof c);
            if (!dup)
                memcpy(ecol[NE], c, sizeof c), etype[NE++] = t;
        }
    for (int k = 0; k < NKEYS; k++)
        tab[k] = malloc(sizeof(int) * NE);
    for (int e = 0; e < NE; e++) {
        int k = key(ecol[e][0], ecol[e][3], ecol[e][1] == 0, ecol[e][2] == 0);
        tab[k][tabn[k]++] = e;
    }
}

int main(int argc, char **argv) {
    MODE = argc > 1 ? atoi(argv[1]) : 0;
    read_board();
    int k0 = key(0, 0, 0, 0);
    if (tabn[k0] == 0)
        return 2;
    int e0 = tab[k0][0];                 /* the first corner piece on the first square */
    mult[etype[e0]]--, board[0][0] = e0;
    reach[0][0] = reach_col(ecol[e0][2], 1u, 0, R == 2);
    wit[0][0] = -1;
    if (MODE == 1 && !chain(1, 0, 0, wit[0]))
        return 1;
    clock_t t0 = clock();
    int found = search(1);
    printf("found %d nodes %lld checks %lld cuts %lld cpu %.2f\n", found, nodes, checks, cuts,
           (double)(clock() - t0) / CLOCKS_PER_SEC);
    return 0;
}
