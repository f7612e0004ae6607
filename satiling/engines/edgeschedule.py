"""The scoring search's schedule of breaks chosen from a model of the board, as Verhaard chose
eii's: a Markov chain over (depth, breaks used).

Each step of the chain is a square in the fill order.  From a partial board with ``k`` breaks it
leads to ``a0[d]`` boards with ``k`` breaks (the square filled whole) and ``a1[d]`` with ``k + 1``
(one of its placed joins broken): Owen's probability model, in which a join matches with the
chance that two random sides of its kind (along the frame, or inside) share a colour, and the
candidates are the pieces of the square's kind not yet placed, in each rotation the square takes.
A schedule allows ``allow[d]`` breaks by depth ``d``; the chain then gives the expected partial
boards at each depth (the nodes) and the full boards with at most ``cap`` breaks; the schedule
kept is the one with the most full boards per node, found by moving the depth at which each
break is first allowed (:func:`best_slips`).  :class:`Planner` keeps one board's rates and a
schedule per cap, each found from the one of the cap above it.

As Verhaard fed eii's chain, the rates are then measured: the search counts, at each depth, the
squares entered and filled whole, and those with room for a break and filled with one
(:func:`measured_rates`); where a depth was entered often enough the counts replace the model's
rates, and the schedules are found again.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Sequence

import numpy as np

from .edgescore import HIST_ROWS

#: caps above this many breaks keep the curve of :func:`edgescore.reserve` (the first, loose
#: boards of a run, found in moments)
MODEL_CAP = 40
#: a depth's measured rate replaces the model's once the search entered it this many times
MEASURED = 2000


def join_rates(puzzle: Any, order: Sequence[tuple[int, int]],
               pinned: Iterable[tuple[int, int]] = (), ahead: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(a0, a1) at each depth of ``order``: the expected ways to fill its square whole and with
    exactly one of its placed joins broken (``pinned`` squares hold one piece in one rotation).
    ``ahead``: a pinned piece counts as placed from the start, as the search checks it: its joins
    with free squares are tried where those squares are filled (a pinned north or east neighbour
    is a third side to match), and the pinned square itself always fills, whole (else its joins
    are counted at its own depth, as if the scan met it like any other square)."""
    rows, cols = puzzle.rows, puzzle.cols

    def kind(r: int, c: int) -> int:              # 0 inside, 1 frame edge, 2 corner
        return (r in (0, rows - 1)) + (c in (0, cols - 1))

    frame, inside = side_colours(puzzle.pieces)
    match = {True: _same_colour(frame), False: _same_colour(inside)}
    pinned = set(pinned)
    left = Counter(kind(r, c) for r in range(rows) for c in range(cols))
    for sq in pinned:
        left[kind(*sq)] -= 1
    placed: set[tuple[int, int]] = set(pinned) if ahead else set()
    a0, a1 = np.zeros(len(order)), np.zeros(len(order))
    for d, (r, c) in enumerate(order):
        if ahead and (r, c) in pinned:
            a0[d], a1[d] = 1.0, 0.0
            continue
        joins = [match[_along_frame((r, c), nb, rows, cols)] for nb in
                 ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)) if nb in placed]
        if (r, c) in pinned:
            cands = 1.0
        else:
            cands = float(left[kind(r, c)] * (4 if kind(r, c) == 0 else 1))
            left[kind(r, c)] -= 1
        placed.add((r, c))
        whole = float(np.prod(joins)) if joins else 1.0
        one = sum((1 - p) * float(np.prod(joins[:i] + joins[i + 1:])) for i, p in enumerate(joins))
        a0[d], a1[d] = cands * whole, cands * one
    return a0, a1


def measured_rates(a0: np.ndarray, a1: np.ndarray, hist: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """The rates (a0, a1) with the search's counts (``hist``: the rows of
    ``edgescore.HIST_ROWS``) where a depth was entered at least :data:`MEASURED` times: squares
    filled whole per square entered, with one break per square entered with room for one.  A
    depth without enough room keeps the model's a1 scaled as its a0 was; no rate falls below
    half a fill per count (a depth never filled whole still leaves the chain a way through)."""
    n = len(a0)
    placed, broken, entered, room = np.asarray(hist, dtype=np.float64).reshape(len(HIST_ROWS), -1)[:, :n]
    seen = entered >= MEASURED
    m0 = np.where(seen, np.maximum(placed - broken, 0.5) / np.maximum(entered, 1), a0)
    scaled = a1 * np.divide(m0, a0, out=np.ones(n), where=a0 > 0)
    m1 = np.where(room >= MEASURED, np.maximum(broken, 0.5) / np.maximum(room, 1), scaled)
    return m0, m1


def side_colours(pieces: Iterable[Sequence[int]]) -> tuple[Counter, Counter]:
    """The colours of the sides that run along the frame (beside a grey side) and of the sides
    that meet inside, counted."""
    frame, inside = Counter(), Counter()
    for piece in pieces:
        greys = [i for i, x in enumerate(piece) if x == 0]
        for i, x in enumerate(piece):
            if x:
                (frame if any((i - g) % 2 for g in greys) else inside)[x] += 1
    return frame, inside


def _same_colour(counts: Counter) -> float:
    """The chance that two random sides of these colour counts share a colour."""
    total = sum(counts.values())
    return sum(v * v for v in counts.values()) / total ** 2 if total else 1.0


def _along_frame(a: tuple[int, int], b: tuple[int, int], rows: int, cols: int) -> bool:
    """Whether the join between squares ``a`` and ``b`` runs along the frame (both on one side)."""
    return (a[0] == b[0] and a[0] in (0, rows - 1)) or (a[1] == b[1] and a[1] in (0, cols - 1))


def allowance(slips: Sequence[int], n: int) -> np.ndarray:
    """Breaks allowed by each depth when one more is allowed at each depth of ``slips``."""
    return np.searchsorted(np.sort(np.asarray(slips, dtype=np.int64)), np.arange(n), side="right")


def merit(a0: np.ndarray, a1: np.ndarray, allows: np.ndarray, cap: int) -> np.ndarray:
    """log(full boards with at most ``cap`` breaks / nodes) of each schedule (a row of
    ``allows``: the breaks allowed at each depth), by the chain."""
    allows = np.atleast_2d(allows)
    count = allows.shape[0]
    e = np.zeros((count, cap + 1))
    e[:, 0] = 1.0
    nodes = np.zeros(count)
    within = np.arange(cap + 1)[None, :]
    for d in range(len(a0)):
        nxt = e * a0[d]
        nxt[:, 1:] += e[:, :-1] * a1[d]
        nxt *= within <= allows[:, d:d + 1]
        scale = nxt.max()
        if scale > 0:                              # one scale for every row: the ratio keeps
            nxt /= scale
            nodes /= scale
        e = nxt
        nodes += e.sum(axis=1)
    with np.errstate(divide="ignore"):
        return np.log(e.sum(axis=1)) - np.log(nodes)


def best_slips(a0: np.ndarray, a1: np.ndarray, cap: int, start: Sequence[int]) -> list[int]:
    """From ``start`` (``cap`` depths), the depths at which each break is first allowed that
    give the most full boards per node: each round tries moving every depth by ``step`` either
    way (all at once, one array), takes the best move, and halves the step when none helps."""
    n = len(a0)
    slips = sorted(int(s) for s in start)
    best = float(merit(a0, a1, allowance(slips, n)[None, :], cap)[0])
    step = max(1, n // 32)
    while step:
        trials = []
        for i, s in enumerate(slips):
            lo = slips[i - 1] if i else 0
            hi = slips[i + 1] if i + 1 < cap else n - 1
            trials += [slips[:i] + [s + m] + slips[i + 1:] for m in (-step, step) if lo <= s + m <= hi]
        scores = merit(a0, a1, np.array([allowance(t, n) for t in trials]), cap) if trials else []
        j = int(np.argmax(scores)) if len(scores) else -1
        if j >= 0 and scores[j] > best + 1e-9:
            best, slips = float(scores[j]), trials[j]
        else:
            step //= 2
    return slips


class Planner:
    """One board's chain, and the schedule of each cap asked for (from the cap above it, or
    ``start_of(cap)`` -- the depths of the curve's breaks -- for the first)."""

    def __init__(self, puzzle: Any, order: Sequence[tuple[int, int]],
                 pinned: Iterable[tuple[int, int]] = (), ahead: bool = False) -> None:
        self.model = join_rates(puzzle, order, pinned, ahead)
        self.a0, self.a1 = self.model
        self.n = len(order)
        self._slips: dict[int, list[int]] = {}
        self._before: dict[int, list[int]] = {}    # the schedules found from the rates before

    def measure(self, hist: Sequence[int]) -> None:
        """Take the rates the search measured (:func:`measured_rates`); the schedules are found
        again, each from the one before."""
        self.a0, self.a1 = measured_rates(*self.model, hist)
        self._before.update(self._slips)
        self._slips = {}

    def allow(self, cap: int, start_of) -> np.ndarray:
        """Breaks allowed at each depth for ``cap`` breaks in all."""
        if cap not in self._slips:
            above = self._slips.get(cap + 1)
            start = self._before.get(cap) or (self._drop_one(above, cap) if above else start_of(cap))
            self._slips[cap] = best_slips(self.a0, self.a1, cap, start)
        return allowance(self._slips[cap], self.n)

    def _drop_one(self, slips: list[int], cap: int) -> list[int]:
        """``slips`` less the one depth whose loss costs least."""
        trials = [slips[:i] + slips[i + 1:] for i in range(len(slips))]
        scores = merit(self.a0, self.a1, np.array([allowance(t, self.n) for t in trials]), cap)
        return trials[int(np.argmax(scores))]
