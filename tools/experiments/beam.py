"""Selby's method for boards too big to exhaust: beam search to favourable states, then exhaust.

Selby and Riordan solved the 209-piece Eternity puzzle in two phases (see the notes of Selby's 2001
talk).  The first grows partial tilings breadth first, *site* by *site* (the open cell with the
fewest live placements), and keeps only the ``width`` best states of each level by a score of how
*tilable* the state looks: the pieces left should be good ones (awkward pieces go in first) and the
open region should have a smooth boundary.  The second phase exhausts the favourable states once
few enough pieces are left, with the compiled exact-cover engine (:mod:`satiling.engines.exactcover`).

The scores here are simple stand-ins for Selby's fitted model:

* a piece's tilability ``l_i`` is the log of how often it is placed in random greedy fills of the
  board (most-constrained site, random live placement, until a dead end), against the mean --
  or, without sampling, of its number of placements;
* a state scores the sum of ``l_i`` over the pieces *left*, minus ``roughness`` times the open
  region's perimeter (in units of a piece's perimeter), minus ``tightness`` for every frontier
  cell left with a single live placement.

A child is dropped at once when an unused piece has no live placement, an open cell beside the new
piece has none, or the new piece encloses a pocket whose size is no sum of piece areas (a multiple
of the one area, on Eternity boards).  Placements, cells and pieces are plain indices; sets of live
placements are Python integers used as bit sets, as in :mod:`satiling.engines.exactcover_ref`.  Every tiling
returned has passed ``puzzle.verify``.

    >>> from satiling import load
    >>> board = Board(load("whale"))
    >>> result = beam_search(board, width=20, exhaust_at=4)
    >>> result.status, len(result.tiling)
    ('SAT', 8)
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from satiling.errors import SatilingError
from satiling.families.polyform import PolyformPuzzle


class Board:
    """A polyform board as indices and bit sets: what the beam and the exhaust share."""

    def __init__(self, puzzle: Any) -> None:
        if not isinstance(puzzle, PolyformPuzzle):
            raise SatilingError(f"{puzzle.name}: the beam search is for polyform boards")
        if puzzle.cells_rule != "exact" or puzzle.pieces_rule != "exact":
            raise SatilingError(f"{puzzle.name}: the beam search needs an exact cover of the board")
        self.puzzle = puzzle
        self.placements = puzzle.placements()
        self.cells = sorted(puzzle.region)
        cell_index = {c: k for k, c in enumerate(self.cells)}
        self.pieces = [p.name for p in puzzle.pieces]
        self.copies = [p.count for p in puzzle.pieces]
        piece_index = {name: k for k, name in enumerate(self.pieces)}
        self.areas = sorted({len(p.shape) for p in puzzle.pieces})
        self.rows = [tuple(cell_index[c] for c in pl.cells) for pl in self.placements]
        self.row_piece = [piece_index[pl.piece] for pl in self.placements]
        by_cell: list[list[int]] = [[] for _ in self.cells]
        by_piece: list[list[int]] = [[] for _ in self.pieces]
        for r, (cells, piece) in enumerate(zip(self.rows, self.row_piece)):
            by_piece[piece].append(r)
            for c in cells:
                by_cell[c].append(r)
        self.cell_rows = [_bits(rs) for rs in by_cell]
        self.piece_rows = [_bits(rs) for rs in by_piece]
        self.piece_count = [len(rs) for rs in by_piece]
        inside = set(range(len(self.cells)))
        # neighbours on the lattice; -1 stands for "outside the board"
        self.neighbours = [tuple(cell_index.get(n, -1) for n in puzzle.lattice.neighbors(c))
                           for c in self.cells]
        self.edge = frozenset(c for c in inside if -1 in self.neighbours[c])
        self.piece_perimeter = _mean_perimeter(self)
        self._kills: dict[int, int] = {}

    def kills(self, r: int) -> int:
        """The placements that placement ``r`` rules out: those sharing a cell, and other
        placements of its piece (bit sets worked out on first use: Pram has 108 955 rows)."""
        out = self._kills.get(r)
        if out is None:
            out = 1 << r
            for c in self.rows[r]:
                out |= self.cell_rows[c]
            if self.copies[self.row_piece[r]] == 1:
                out |= self.piece_rows[self.row_piece[r]]
            self._kills[r] = out
        return out

    def solution(self, rows: Sequence[int]) -> list[Any]:
        """The placements of ``rows``, verified as a complete tiling."""
        tiling = [self.placements[r] for r in rows]
        self.puzzle.verify(tiling)
        return tiling


@dataclass
class State:
    """A partial tiling: the rows chosen, the rows still live, the open cells and their frontier
    (open cells beside a filled cell or the board's edge), pieces left, perimeter, score."""

    rows: tuple[int, ...]
    alive: int = field(repr=False)
    open: frozenset[int] = field(repr=False)
    frontier: frozenset[int] = field(repr=False)
    left: tuple[int, ...] = field(repr=False)      # copies left per piece
    perimeter: int = 0
    score: float = 0.0


@dataclass
class Weights:
    """How a state is scored: piece tilabilities (by piece index) and the region's terms."""

    tilability: list[float]
    roughness: float = 1.0
    tightness: float = 0.5


@dataclass
class BeamResult:
    """``status``: SAT (a verified tiling), UNSAT (every kept state exhausted, none tiles: this
    proves nothing about the board, only about the states), UNKNOWN (budget or time ran out)."""

    status: str
    tiling: list[Any] = field(default_factory=list, repr=False)
    levels: list[int] = field(default_factory=list)      # states kept per level
    favourable: int = 0                                   # states reaching the exhaust
    exhausted: int = 0                                    # of those, searched to the end
    nodes: int = 0                                        # exhaust nodes
    seconds: float = 0.0
    deepest: State | None = field(default=None, repr=False)


# -- states ---------------------------------------------------------------------------------------
def root(board: Board, fixed: Sequence[Any] = ()) -> State:
    """The empty board, or the board with the placements ``fixed`` taken as given."""
    index = {pl: r for r, pl in enumerate(board.placements)}
    all_cells = frozenset(range(len(board.cells)))
    state = State((), (1 << len(board.rows)) - 1, all_cells, board.edge, tuple(board.copies),
                  sum(board.neighbours[c].count(-1) for c in board.edge))
    for pl in fixed:
        if pl not in index:
            raise SatilingError(f"fixed placement {pl} is not a placement of {board.puzzle.name}")
        child = place(board, state, index[pl])
        if child is None:
            raise SatilingError(f"fixed placement {pl} overlaps another or leaves no tiling")
        state = child
    return state


def place(board: Board, state: State, r: int) -> State | None:
    """The state after placing row ``r``, or None when an immediate check finds it dead."""
    if not state.alive >> r & 1:
        return None
    piece = board.row_piece[r]
    left = list(state.left)
    left[piece] -= 1
    alive = state.alive & ~board.kills(r)
    if left[piece] == 0:
        alive &= ~board.piece_rows[piece]
    new = board.rows[r]
    open_ = state.open.difference(new)
    touched, gained, lost = set(), 0, 0
    for c in new:
        for n in board.neighbours[c]:
            if n >= 0 and n in open_:
                touched.add(n)
                gained += 1
            elif n not in new:
                lost += 1                                     # a filled cell or the outside
    for c in touched:                                         # lookahead: every neighbour coverable
        if not alive & board.cell_rows[c]:
            return None
    for p, k in enumerate(left):                              # and every piece left placeable
        if k and not alive & board.piece_rows[p]:
            return None
    if _bad_pocket(board, open_, touched):
        return None
    frontier = (state.frontier - set(new)) | touched
    return State(state.rows + (r,), alive, open_, frontier, tuple(left),
                 state.perimeter + gained - lost)


def site(board: Board, state: State) -> tuple[int, int]:
    """Selby's site: the frontier cell with the fewest live placements, and that number."""
    best, fewest = -1, 1 << 60
    for c in sorted(state.frontier):
        n = (state.alive & board.cell_rows[c]).bit_count()
        if n < fewest:
            best, fewest = c, n
            if n <= 1:
                break
    return best, fewest


def children(board: Board, state: State) -> Iterator[State]:
    """Every live child of a state: each live placement covering its site."""
    c, _ = site(board, state)
    if c < 0:
        return
    rows = state.alive & board.cell_rows[c]
    while rows:
        low = rows & -rows
        rows ^= low
        child = place(board, state, low.bit_length() - 1)
        if child is not None:
            yield child


def score(board: Board, state: State, weights: Weights) -> float:
    """How favourable a state looks (higher is better); see the module docstring."""
    pieces = sum(k * weights.tilability[p] for p, k in enumerate(state.left))
    rough = state.perimeter / board.piece_perimeter
    tight = sum(1 for c in state.frontier if (state.alive & board.cell_rows[c]).bit_count() == 1)
    return pieces - weights.roughness * rough - weights.tightness * tight


# -- tilability -----------------------------------------------------------------------------------
def piece_tilability(board: Board, samples: int = 0, seed: int = 0) -> list[float]:
    """Each piece's tilability ``l_i`` (log, mean 0 over pieces): from ``samples`` random greedy
    fills of the board, or (``samples == 0``) from its number of placements."""
    if samples <= 0:
        counts = [max(1, n) for n in board.piece_count]
    else:
        rng = random.Random(seed)
        counts = [1] * len(board.pieces)
        start = root(board)
        for _ in range(samples):
            for r in random_fill(board, start, rng):
                counts[board.row_piece[r]] += 1
    logs = [math.log(n) for n in counts]
    mean = sum(logs) / len(logs)
    return [x - mean for x in logs]


def random_fill(board: Board, state: State, rng: random.Random) -> tuple[int, ...]:
    """Fill from ``state`` at the most constrained site with a random live placement, until no
    child is left; the rows placed."""
    while state.open:
        kids = list(children(board, state))
        if not kids:
            break
        state = rng.choice(kids)
    return state.rows


# -- the search -----------------------------------------------------------------------------------
#: an exhaust: (board, state, node budget) -> (rows of a tiling or None, finished, nodes)
Exhaust = Callable[[Board, State, int], tuple[tuple[int, ...] | None, bool, int]]


def dfs_exhaust(board: Board, state: State, budget: int) -> tuple[tuple[int, ...] | None, bool, int]:
    """Depth-first search below ``state`` with the same branching and checks as the beam (the
    readable reference of :func:`compiled_exhaust`)."""
    nodes = 0

    def dfs(s: State) -> tuple[int, ...] | None:
        nonlocal nodes
        nodes += 1
        if not s.open:
            return s.rows
        if nodes >= budget:
            return None
        for kid in children(board, s):
            found = dfs(kid)
            if found is not None or nodes >= budget:
                return found
        return None

    found = dfs(state)
    return found, found is not None or nodes < budget, nodes


def compiled_exhaust(board: Board) -> Exhaust:
    """An exhaust by the compiled exact-cover engine (dancing links with the pocket cut) over the
    board's matrix, built once; it stops a state after ``budget`` nodes."""
    from satiling.engines.exactcover import Board as Cut, ExactCover, Matrix
    n = len(board.cells)
    rows = [cells + (n + board.row_piece[r],) for r, cells in enumerate(board.rows)]
    areas: dict[int, int] = {}
    for piece, k in zip(board.puzzle.pieces, board.copies):
        areas[len(piece.shape)] = areas.get(len(piece.shape), 0) + k
    cut = Cut(list(range(n)), [[m for m in nb if m >= 0] for nb in board.neighbours], areas)
    engine = ExactCover(Matrix(rows, [1] * n + board.copies, [1] * n + board.copies, cut))

    def exhaust(board: Board, state: State, budget: int) -> tuple[tuple[int, ...] | None, bool, int]:
        for found in engine.solutions(list(state.rows), max_nodes=budget):
            return tuple(found), True, engine.stats().nodes
        stats = engine.stats()                  # not finished: the budget ran out first
        return None, stats.finished, stats.nodes
    return exhaust


def beam_search(board: Board, width: int = 100, exhaust_at: int = 30, weights: Weights | None = None,
                budget: int = 100_000, exhaust: Exhaust | None = None, fixed: Sequence[Any] = (),
                time_limit: float | None = None, on_level: Callable[[int, int, float], None] | None = None,
                on_exhaust: Callable[[int, bool, int], None] | None = None) -> BeamResult:
    """Selby's two phases on ``board``.

    Grow states level by level, keeping the ``width`` best (duplicates -- the same rows in another
    order -- merged), until ``exhaust_at`` pieces are left; then exhaust the kept states, best first,
    each with at most ``budget`` nodes, until one tiles (by default with the compiled engine;
    :func:`dfs_exhaust` is the readable one).  ``fixed`` placements start every state.
    ``on_level(pieces left, states kept, best score)`` and ``on_exhaust(state number, finished,
    nodes)`` report progress.
    """
    start = time.perf_counter()
    weights = weights or Weights(piece_tilability(board))
    exhaust = exhaust or compiled_exhaust(board)
    result = BeamResult("UNKNOWN")
    level = [root(board, fixed)]
    pieces_left = sum(level[0].left)

    def out_of_time() -> bool:
        return time_limit is not None and time.perf_counter() - start > time_limit

    while pieces_left > exhaust_at and level:
        seen: dict[frozenset[int], State] = {}
        for state in level:
            for kid in children(board, state):
                key = frozenset(kid.rows)
                if key not in seen:
                    kid.score = score(board, kid, weights)
                    seen[key] = kid
            if out_of_time():
                break
        level = sorted(seen.values(), key=lambda s: -s.score)[:width]
        pieces_left -= 1
        result.levels.append(len(level))
        if level:
            result.deepest = level[0]
        if on_level:
            on_level(pieces_left, len(level), level[0].score if level else float("nan"))
        if out_of_time():
            result.seconds = time.perf_counter() - start
            return result
    result.favourable = len(level)
    for k, state in enumerate(level):
        rows, finished, nodes = exhaust(board, state, budget)
        result.nodes += nodes
        result.exhausted += finished
        if on_exhaust:
            on_exhaust(k, finished, nodes)
        if rows is not None:
            result.status, result.tiling = "SAT", board.solution(rows)
            break
        if out_of_time():
            break
    else:
        if result.exhausted == len(level):
            result.status = "UNSAT"
    result.seconds = time.perf_counter() - start
    return result


# -- helpers --------------------------------------------------------------------------------------
def _bits(rows: Sequence[int]) -> int:
    out = 0
    for r in rows:
        out |= 1 << r
    return out


def _mean_perimeter(board: Board) -> float:
    """The mean number of outer edges of a piece (the unit of the roughness term)."""
    total = 0
    for piece in board.puzzle.pieces:
        cells = set(piece.shape)
        total += sum(1 for c in cells for n in board.puzzle.lattice.neighbors(c) if n not in cells)
    return total / len(board.puzzle.pieces)


def _bad_pocket(board: Board, open_: frozenset[int], touched: set[int]) -> bool:
    """Whether the new piece cut off a part of the open region that no pieces can fill.

    Flood from each open neighbour of the new piece; the walk stops as soon as it has met every
    other neighbour (the region did not split there), so it stays small in the common case."""
    if len(touched) < 2 or len(board.areas) != 1:
        return False
    area = board.areas[0]
    pending = set(touched)
    while len(pending) > 1:
        first = pending.pop()
        seen, stack = {first}, [first]
        while stack and pending - seen:
            c = stack.pop()
            for n in board.neighbours[c]:
                if n >= 0 and n in open_ and n not in seen:
                    seen.add(n)
                    stack.append(n)
        if pending - seen:                    # a closed part: ``seen`` is all of it
            if len(seen) % area:
                return True
            pending -= seen
        else:
            return False
    return False
