"""The closing repair of an edge-matching board: re-place pieces by optimal assignment.

Take squares of one kind (inner, edge or corner) no two of which touch, lift their pieces, and put
them back where they match most: with no two of the squares adjacent, a piece's matches on a square
depend only on the pieces that stay, so the best re-placement is an assignment problem (pieces x
squares, each cell the best rotation's matching joins) and :func:`assign` solves it exactly.  The
move never lowers the score; an equal score lets the board drift across plateaus, so that a later
move finds a gain.  This is the "very large neighbourhood" move of the Eternity II local searches
(Schaus and Deville, 2008; the ALNS that took a 454 board to 462).

Squares are chosen around broken joins first, in sets of a size drawn afresh each move; a pinned
square never moves.  Every board this module returns was re-scored by the caller's scorer.
"""
from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

Board = dict[tuple[int, int], tuple[int, int]]
STEP = ((-1, 0), (0, 1), (1, 0), (0, -1))


def assign(cost: np.ndarray) -> np.ndarray:
    """The column of each row in an assignment of least total ``cost`` (rows <= columns): the
    Hungarian algorithm with potentials (Kuhn-Munkres as in Jonker and Volgenant's shortest
    augmenting paths), O(n^2 m), each inner step vectorised over the columns."""
    a = np.asarray(cost, dtype=np.float64)
    n, m = a.shape
    if n > m:
        raise ValueError("assign: more rows than columns")
    u, v = np.zeros(n + 1), np.zeros(m + 1)
    p = np.zeros(m + 1, dtype=np.int64)          # p[j]: the row (from 1) on column j, 0 none
    way = np.zeros(m + 1, dtype=np.int64)
    for i in range(1, n + 1):
        p[0], j0 = i, 0
        minv = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = p[j0]
            cur = a[i0 - 1] - u[i0] - v[1:]
            free = ~used[1:]
            better = free & (cur < minv[1:])
            minv[1:][better] = cur[better]
            way[1:][better] = j0
            masked = np.where(free, minv[1:], np.inf)
            j1 = int(np.argmin(masked)) + 1
            delta = masked[j1 - 1]
            u[p[used]] += delta
            v[used] -= delta
            minv[~used] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    out = np.empty(n, dtype=np.int64)
    for j in range(1, m + 1):
        if p[j]:
            out[p[j] - 1] = j - 1
    return out


class Repair:
    """A full board of ``puzzle`` (square -> (piece id, rotation)) under repair; ``pinned`` squares
    never move."""

    def __init__(self, puzzle: Any, board: Board, pinned: set, seed: int = 0) -> None:
        self.rows, self.cols = rows, cols = puzzle.rows, puzzle.cols
        npieces = len(puzzle.pieces)
        self.edges = np.zeros((npieces + 1, 4, 4), dtype=np.int16)     # piece id, rotation, side
        for p in range(1, npieces + 1):
            for r in range(4):
                self.edges[p, r] = puzzle.edges(p, r)
        self.rim = np.array([[[puzzle.on_rim((r, c), d) for d in range(4)] for c in range(cols)]
                             for r in range(rows)], dtype=bool)
        self.kind = self.rim.sum(axis=2)                                 # 0 inner, 1 edge, 2 corner
        grey = self.edges == 0
        # legal[p, r, pattern]: piece p turned r shows grey exactly on the rim sides of the pattern
        self.patterns = {tuple(x) for x in self.rim.reshape(-1, 4).tolist()}
        self.pattern_of = {pat: k for k, pat in enumerate(sorted(self.patterns))}
        self.legal = np.stack([np.all(grey == np.array(pat, dtype=bool), axis=2)
                               for pat in sorted(self.patterns)], axis=2)
        self.pat = np.array([[self.pattern_of[tuple(self.rim[r, c])] for c in range(cols)]
                             for r in range(rows)])
        self.piece = np.zeros((rows, cols), dtype=np.int64)
        self.rot = np.zeros((rows, cols), dtype=np.int64)
        for (r, c), (p, q) in board.items():
            self.piece[r, c], self.rot[r, c] = p, q
        self.free = [[(r, c) for r in range(rows) for c in range(cols)
                      if self.kind[r, c] == k and (r, c) not in pinned] for k in range(3)]
        self.rng = np.random.default_rng(seed)
        self.moves = 0

    # -- the board ----------------------------------------------------------------------------
    def colours(self) -> np.ndarray:
        """The colour each square shows on each side (rows, cols, 4)."""
        return self.edges[self.piece, self.rot]

    def broken(self) -> np.ndarray:
        """Per square, its broken joins (rows, cols): a join counts at both its squares."""
        col = self.colours()
        out = np.zeros((self.rows, self.cols), dtype=np.int64)
        h = col[:, :-1, 1] != col[:, 1:, 3]          # east of (r, c) against west of (r, c + 1)
        v = col[:-1, :, 2] != col[1:, :, 0]          # south of (r, c) against north of (r + 1, c)
        out[:, :-1] += h
        out[:, 1:] += h
        out[:-1, :] += v
        out[1:, :] += v
        return out

    def score(self) -> int:
        col = self.colours()
        return int((col[:, :-1, 1] == col[:, 1:, 3]).sum() + (col[:-1, :, 2] == col[1:, :, 0]).sum())

    def board(self) -> Board:
        return {(r, c): (int(self.piece[r, c]), int(self.rot[r, c]))
                for r in range(self.rows) for c in range(self.cols)}

    # -- the move -----------------------------------------------------------------------------
    def pick(self, kind: int, size: int, broken: np.ndarray) -> list[tuple[int, int]]:
        """Up to ``size`` free squares of ``kind``, pairwise not adjacent, those at a broken join
        first (in random order), then the others."""
        pool = self.free[kind]
        if not pool:
            return []
        order = self.rng.permutation(len(pool))
        weight = np.array([broken[pool[i]] for i in order])
        order = order[np.argsort(-weight, kind="stable")]
        chosen: set = set()
        for i in order:
            if len(chosen) >= size:
                break
            r, c = pool[i]
            if all((r + dr, c + dc) not in chosen for dr, dc in STEP):
                chosen.add((r, c))
        return list(chosen)

    def move(self, squares: list[tuple[int, int]]) -> int:
        """Re-place the pieces of ``squares`` (pairwise not adjacent) optimally; the gain in
        matching joins (never negative)."""
        if len(squares) < 2:
            return 0
        self.moves += 1
        rs = np.array([s[0] for s in squares])
        cs = np.array([s[1] for s in squares])
        col = self.colours()
        need = np.full((len(squares), 4), -1, dtype=np.int16)   # the colour each side must meet
        for d, (dr, dc) in enumerate(STEP):
            nr, nc = rs + dr, cs + dc
            inside = (nr >= 0) & (nr < self.rows) & (nc >= 0) & (nc < self.cols)
            need[inside, d] = col[nr[inside], nc[inside], (d + 2) % 4]
        pieces = self.piece[rs, cs]
        pe = self.edges[pieces]                                  # piece i, rotation, side
        matches = (pe[:, None, :, :] == need[None, :, None, :]).sum(axis=3)    # i, square j, rot
        legal = self.legal[pieces][:, :, self.pat[rs, cs]].transpose(0, 2, 1)  # i, j, rot
        value = np.where(legal, matches, -1000)
        best_rot = value.argmax(axis=2)
        best = value.max(axis=2)
        ar = np.arange(len(squares))
        before = int(matches[ar, ar, self.rot[rs, cs]].sum())
        to = assign(-best)                                       # piece i -> square to[i]
        after = int(best[ar, to].sum())
        if after < before:                                       # cannot happen; stay safe
            return 0
        rot = best_rot[ar, to]
        self.piece[rs[to], cs[to]] = pieces
        self.rot[rs[to], cs[to]] = rot
        return after - before


def repair(puzzle: Any, board: Board, pinned: set, seconds: float, seed: int = 0,
           on_better: Callable[[Board, int], None] | None = None, clock: Callable[[], float] = time.perf_counter,
           sizes: tuple[int, int] = (8, 64)) -> tuple[Board, int]:
    """Repair moves on ``board`` for ``seconds`` (of ``clock``); ``on_better(board, score)`` with
    each better board.  Returns the best board and its score (the count of this module; the caller
    re-scores)."""
    rep = Repair(puzzle, board, pinned, seed)
    best = rep.score()
    end = clock() + seconds
    joins = (puzzle.rows - 1) * puzzle.cols + puzzle.rows * (puzzle.cols - 1)
    while clock() < end and best < joins:
        broken = rep.broken()
        u = rep.rng.random()
        kind = 0 if u < 0.8 or not rep.free[1] else (1 if u < 0.97 or not rep.free[2] else 2)
        size = int(rep.rng.integers(sizes[0], sizes[1] + 1))
        rep.move(rep.pick(kind, size, broken))
        s = rep.score()
        if s > best:
            best = s
            if on_better:
                on_better(rep.board(), s)
    return rep.board(), best
