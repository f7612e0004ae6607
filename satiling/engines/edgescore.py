"""The scoring search for edge-matching boards: the board with the fewest broken joins it can find.

A depth-first backtracker in the style of the Eternity II record searches (Verhaard's eii,
Blackwood): the squares are filled in a fixed order -- row by row from the bottom-left corner, so
each square has its south and west neighbours placed -- from candidate tables of pre-rotated
pieces indexed by those two colours; frame pieces sit only on frame squares (a table per kind of
square); pinned pieces (the starter, optionally the hints) are placed when the scan reaches them and
checked by the squares that touch them.  Some joins may break: a square first tries the pieces
that match both placed neighbours, then, if the schedule allows one more break, those that match
only one, and with two more allowed any piece (so a loose schedule always reaches a full board);
the layout may keep a square to one break (``double=False``, as Blackwood's solver) or keep the
joins between frame squares whole (``rim_breaks=False``).
The schedule (:func:`reserve`) allows no break before a depth ``start`` and a growing number after
it, up to the cap -- one below the best board found so far -- at depth ``full``: the shape of the
schedules behind the 460+ Eternity II boards (Blackwood's breaks at depths 201-239).

This module builds the tables (:func:`layout`) and runs the compiled search (:func:`search`,
``_edgescore.c``); :mod:`edgescore_ref` is the same search in Python, for the tests.
"""
from __future__ import annotations

import itertools
import math
import random
import struct
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..errors import SatilingError

#: (piece index, rotation, N, E, S, W): one pre-rotated candidate
Cand = tuple[int, int, int, int, int, int]
#: callback(breaks, nodes, board) for every full board within the cap; a true result stops
OnBoard = Callable[[int, int, list[tuple[int, int]]], Any]

CELL_FIELDS = ("south", "west", "exact", "wonly", "sonly", "need_n", "need_e", "pinned", "pinned_breaks",
               "north", "east", "phases")
#: fill orders: "rows" scans rows from the bottom-left corner; "comb" scans the bottom rows, then
#: fills the top ``teeth`` rows by columns (after a block of ``teeth`` columns by rows), as
#: Blackwood's solver does on Eternity II (rows 1-11, then 5-high columns)
ORDERS = ("rows", "comb")
#: the schedule's first break and its full allowance, as fractions of the squares, when no tuning
#: gives them (Eternity II: depths 200 and 250 of 256; measurements:
#: docs/decisions/2026-11-27-eternity2-scoring-search.md)
START, FULL = 200 / 256, 250 / 256
#: the sides of Blackwood's priority colours on Eternity II (his need curve is for these)
BLACKWOOD_SIDES = 122


@dataclass
class Layout:
    """Everything the search reads: ``cands`` in runs ``spans`` (first, end); ``cells`` per depth
    (the :data:`CELL_FIELDS`); ``order`` the square at each depth; ``joins`` interior joins."""

    order: list[tuple[int, int]]
    colours: int
    npieces: int
    joins: int
    cands: list[Cand]
    spans: list[tuple[int, int]]
    cells: list[tuple[int, ...]]
    packed: tuple[bytes, bytes, bytes] = field(default=(b"", b"", b""), repr=False)
    #: per candidate, its sides of the priority colours (see :func:`layout`)
    prio: list[int] = field(default_factory=list, repr=False)

    def board(self, raw: list[tuple[int, int]]) -> dict[tuple[int, int], tuple[int, int]]:
        """The search's board (piece index, rotation per depth) as square -> (piece id, rotation)."""
        return {sq: (p + 1, r) for sq, (p, r) in zip(self.order, raw)}


@dataclass
class Outcome:
    """``status``, as every compiled engine names it (``_handback.h``): done (the whole tree
    searched), limit (stopped by the callback), time or nodes (the node limit or the patience)."""

    status: str
    nodes: int
    cap: int


def fill_order(rows: int, cols: int, order: str = "rows", teeth: int | None = None) -> list[tuple[int, int]]:
    """The squares in the order the search fills them; each comes after its south and west
    neighbours.  "comb": the top ``teeth`` rows (default 5/16 of the rows) are filled last, a
    ``teeth``-wide block at the left by rows, then the other columns one by one from the bottom."""
    if order not in ORDERS:
        raise SatilingError(f"unknown fill order {order!r} (choose from {', '.join(ORDERS)})")
    if order == "rows":
        return [(r, c) for r in range(rows - 1, -1, -1) for c in range(cols)]
    t = max(1, min(rows - 1, round(rows * 5 / 16) if teeth is None else teeth))
    out = [(r, c) for r in range(rows - 1, t - 1, -1) for c in range(cols)]
    out += [(r, c) for r in range(t - 1, -1, -1) for c in range(min(t, cols))]
    out += [(r, c) for c in range(min(t, cols), cols) for r in range(t - 1, -1, -1)]
    return out


def layout(puzzle: Any, hints: bool = False, seed: int | None = None, order: str = "rows",
           teeth: int | None = None, priority: tuple[int, ...] = (), double: bool = True,
           rim_breaks: bool = True, prio_order: str = "count") -> Layout:
    """The search tables of an edge-matching ``puzzle`` (its pinned pieces, and the hints if
    asked, in place); ``seed`` shuffles the candidate order, None keeps the piece order;
    ``order`` and ``teeth``: see :func:`fill_order`; ``priority``: colours whose pieces come
    first in every run (most such sides first), for the ``need`` of :func:`search`.
    ``double``: a square may break both its placed joins at once; ``rim_breaks``: a join between
    two frame squares may break (Blackwood's solver allows neither).  ``prio_order``: "count" puts
    the candidates with most priority sides first, "any" those with any before the others (in
    the shuffled order within each group, as Blackwood's solver)."""
    rows, cols = puzzle.rows, puzzle.cols
    order = fill_order(rows, cols, order, teeth)
    pinned = {(t.row, t.col): (t.piece, t.rotation) for t in puzzle.fixed + (puzzle.hints if hints else [])}
    colours = 1 + max(max(e) for e in puzzle.pieces)
    if colours > 256 or len(puzzle.pieces) > 65535:
        raise SatilingError("the scoring search takes at most 255 colours and 65535 pieces")
    tables = _Tables()
    tables.priority = frozenset(priority)
    tables.any_first = prio_order == "any"
    runs = _class_runs(puzzle, order, pinned, colours, tables, random.Random(seed) if seed is not None else None)
    cells = _cells(puzzle, order, pinned, runs, tables, double, rim_breaks)
    cands, spans = tables.cands, tables.spans
    lay = Layout(order, colours, len(puzzle.pieces), len(puzzle.joins()), cands, spans, cells)
    lay.prio = [tables.prio(c) for c in cands]
    lay.packed = (b"".join(struct.pack("<HBBBBBB", *cand, p) for cand, p in zip(cands, lay.prio)),
                  struct.pack(f"<{2 * len(spans)}i", *(x for sp in spans for x in sp)),
                  struct.pack(f"<{len(CELL_FIELDS) * len(cells)}i", *(x for cell in cells for x in cell)))
    return lay


@dataclass
class _Tables:
    """Candidates in runs, as they are being laid out."""

    cands: list[Cand] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    priority: frozenset = frozenset()
    any_first: bool = False

    def prio(self, c: Cand) -> int:
        return sum(x in self.priority for x in c[2:])

    def add_run(self, entries: list[Cand]) -> None:
        self.spans.append((len(self.cands), len(self.cands) + len(entries)))
        self.cands.extend(entries)


def _class_runs(puzzle: Any, order: list, pinned: dict, colours: int, tables: _Tables,
                rng: random.Random | None) -> dict[tuple[bool, ...], tuple[int, int, int]]:
    """Per kind of square (which sides lie on the rim): the free pieces in their legal rotations,
    in runs by (south, west) colours, by west colour, by south colour, then all of them.
    Returns the first exact, west-only and south-only run of each kind."""
    taken = {p for p, _ in pinned.values()}
    runs: dict[tuple[bool, ...], tuple[int, int, int]] = {}
    for sq in order:
        rim = tuple(puzzle.on_rim(sq, d) for d in range(4))
        if rim in runs or sq in pinned:
            continue
        entries = [(p - 1, r, *puzzle.edges(p, r)) for p in range(1, len(puzzle.pieces) + 1)
                   if p not in taken for r in puzzle.legal_rotations(p, sq)]
        if rng is not None:
            rng.shuffle(entries)
        if tables.priority:
            entries.sort(key=lambda e: -min(tables.prio(e), 1) if tables.any_first else -tables.prio(e))
        first = len(tables.spans)
        for s in range(colours):
            for w in range(colours):
                tables.add_run([e for e in entries if e[4] == s and e[5] == w])
        for w in range(colours):
            tables.add_run([e for e in entries if e[5] == w])
        for s in range(colours):
            tables.add_run([e for e in entries if e[4] == s])
        tables.add_run(entries)
        runs[rim] = (first, first + colours * colours, first + colours * colours + colours)
    return runs


def _cells(puzzle: Any, order: list, pinned: dict, runs: dict, tables: _Tables, double: bool = True,
           rim_breaks: bool = True) -> list[tuple[int, ...]]:
    """The :data:`CELL_FIELDS` of each square in search order (a pinned square adds its run)."""
    depth = {sq: d for d, sq in enumerate(order)}
    frame = lambda sq: any(puzzle.on_rim(sq, k) for k in range(4))     # noqa: E731
    cells = []
    for d, (r, c) in enumerate(order):
        # the phases after the exact one: bit 1 breaks the south join, 2 the west one, 3 both
        south_ok = rim_breaks or not (frame((r, c)) and r + 1 < puzzle.rows and frame((r + 1, c)))
        west_ok = rim_breaks or not (frame((r, c)) and c > 0 and frame((r, c - 1)))
        phases = 2 * south_ok + 4 * west_ok + 8 * (double and south_ok and west_ok)
        south = depth[r + 1, c] if r + 1 < puzzle.rows else -1
        west = depth[r, c - 1] if c > 0 else -1
        north = depth[r - 1, c] if r > 0 else -1
        east = depth[r, c + 1] if c + 1 < puzzle.cols else -1
        if south > d or west > d:
            raise SatilingError("internal error: a square comes before its south or west neighbour")
        if (r, c) in pinned:
            p, rot = pinned[r, c]
            e = puzzle.edges(p, rot)
            cells.append((south, west, -1, -1, -1, -1, -1, len(tables.spans),
                          _pinned_breaks(puzzle, pinned, (r, c), e), north, east, phases))
            tables.add_run([(p - 1, rot, *e)])
            continue
        if (0 <= north < d and (r - 1, c) not in pinned) or (0 <= east < d and (r, c + 1) not in pinned):
            raise SatilingError("internal error: a free square comes after its north or east neighbour")
        up, right = pinned.get((r - 1, c)), pinned.get((r, c + 1))
        need_n = puzzle.edges(*up)[2] if up else -1         # a pinned north neighbour's S colour
        need_e = puzzle.edges(*right)[3] if right else -1   # a pinned east neighbour's W colour
        rim = tuple(puzzle.on_rim((r, c), k) for k in range(4))
        cells.append((south, west, *runs[rim], need_n, need_e, -1, 0, north, east, phases))
    return cells


def reserve(n: int, cap: int, start: float = START, full: float = FULL, bend: float = 1.0) -> list[int]:
    """Breaks held back at each depth of ``n`` for a cap of ``cap``: all of them before depth
    ``start * n``, none from ``full * n`` on; in between, the breaks allowed grow as the fraction
    of the way to the power ``bend`` (1: evenly; above 1, fewer early and more at the end)."""
    if bend <= 0:
        raise ValueError(f"the schedule's bend must be positive, not {bend}")
    d0, d1 = start * n, max(start * n + 1, full * n)
    return [cap - min(cap, max(0, math.floor(cap * max(0.0, (d - d0) / (d1 - d0)) ** bend)))
            for d in range(n)]


def slips(n: int, cap: int, depths: list[int]) -> list[int]:
    """Breaks held back at each depth for a schedule that unlocks one more break at each of
    ``depths`` (Blackwood's: 201, 206, ..., 239 on Eternity II) and the rest of the cap at the end;
    in :func:`reserve`'s form, so that a better board tightens the whole schedule."""
    free = 0
    out = []
    for d in range(n):
        free += depths.count(d)
        out.append(max(0, cap - free) if d < n - 1 else 0)
    return out


def blackwood_need(n: int, sides: int = BLACKWOOD_SIDES) -> list[int]:
    """The fewest priority sides placed by each depth in Blackwood's Eternity II solver (his
    ``heuristic_array``: nothing asked up to depth 16, then a piecewise linear rise to about 119 at
    depth 160, nothing after), stretched to ``n`` squares and scaled to a board with ``sides``
    sides of the priority colours: by the smaller of ``n / 256`` and ``sides / 122`` (Eternity
    II's 122), so that it never asks for more sides than the board has."""
    scale = min(n / 256, sides / BLACKWOOD_SIDES)
    out = []
    for d in range(n):
        i = d * 256 / n
        v = (0 if i <= 16 else (i - 16) * 2.8 if i <= 26 else (i - 26) * 1.43333 + 28 if i <= 56
             else (i - 56) * 0.9 + 71 if i <= 76 else (i - 76) * 0.6538 + 89 if i <= 102
             else (i - 102) / 4.4615 + 106 if i <= 160 else 0)
        out.append(int(v * scale))
    return out


def priority_colours(pieces: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The colours whose pieces the scoring search uses up early (Blackwood's heuristic), by the
    rule of Eternity2Puzzles.jl: the frame colour on fewest corner sides (every corner is needed
    at the end), then the two inner colours that, with it, are on the fewest pieces (ties to the
    lowest colours).  On Eternity II it picks 5, 7 and 20, Blackwood's own three.  () when no
    colour is carried by frame pieces only, or fewer than two colours by the others."""
    rim = [p for p in pieces if 0 in p]
    inside = {c for p in pieces if 0 not in p for c in p}
    frame = sorted({c for p in rim for c in p if c} - inside)
    if not frame or len(inside) < 2:
        return ()
    corners = [p for p in rim if list(p).count(0) == 2]
    first = min(frame, key=lambda c: sum(list(p).count(c) for p in corners))
    pair = min(itertools.combinations(sorted(inside), 2),
               key=lambda ab: sum(1 for p in pieces if first in p or ab[0] in p or ab[1] in p))
    return (first, *pair)


def priority_sides(pieces: Sequence[Sequence[int]], colours: Sequence[int]) -> int:
    """How many sides of the pieces have one of ``colours``."""
    return sum(c in colours for p in pieces for c in p)


def _pinned_breaks(puzzle: Any, pinned: dict, sq: tuple[int, int], edges: tuple) -> int:
    """Broken joins between a pinned square and the pinned squares south and west of it (the
    joins with free squares are counted when those squares are filled)."""
    out = 0
    for side, nb in ((2, (sq[0] + 1, sq[1])), (3, (sq[0], sq[1] - 1))):
        if nb in pinned and puzzle.edges(*pinned[nb])[(side + 2) % 4] != edges[side]:
            out += 1
    return out


#: the rows of ``search``'s ``hist`` buffer, each ``len(lay.order) + 1`` long
HIST_ROWS = ("placed", "broken", "entered", "room")


def search(lay: Layout, held: list[int], cap: int, on_board: OnBoard, node_limit: int = 0,
           seconds: float = 0.0, cpu: bool = False, patience: int = 0, tile: bool = False,
           need: list[int] | None = None, hist: Any = None, sub_depth: int = 0,
           sub_limit: int = 0, bound: Any = None,
           watch: Callable[[list[tuple[int, int]]], None] | None = None) -> Outcome:
    """Run the compiled search until the tree is exhausted, ``node_limit`` nodes in all or
    ``patience`` nodes without a better board (0: no limit), ``seconds`` (0: no limit; wall
    clock, or this process's CPU time if ``cpu``) or ``on_board`` returns true.  At depth d the breaks so far stay within ``max(0, cap - held[d])`` (see
    :func:`reserve`); boards with at most ``cap`` breaks are reported, each lowering the cap
    below itself.  ``tile`` cuts a branch whose breaks plus the tileability bound (the colours
    left open against the pieces left, ``_edgescore.c``) pass the cap.  Ctrl-C raises
    KeyboardInterrupt within a few milliseconds (the boards reported so far are the caller's).
    ``hist``: a writable buffer of ``4 * (len(lay.order) + 1)`` int64, four rows (:data:`HIST_ROWS`)
    to which each depth's counts are added: the nodes placed, those that broke a join, the
    squares entered and those entered with room for a break (the rates of
    :class:`edgeschedule.Planner`).  ``sub_limit`` > 0: the subtree below each node at depth
    ``sub_depth`` gets at most that many nodes, then the search goes on with the node's next
    sibling (the tail of a board is searched a bounded time for each beginning).  ``bound``: a
    writable buffer of one int64 in memory shared with other searches (e.g. the ``get_obj()`` of
    a ``multiprocessing.Value("q")``): the fewest breaks any of them has found; the search reads
    it every few milliseconds and lowers its cap below it (status "limit" if it is 0).  ``watch``:
    called with the board the search stands on, (piece index, rotation) per depth filled so far
    (:meth:`Layout.board` reads it), at most once every :data:`~satiling.engines.PARTIAL_SECONDS`,
    at the looks at the clock the search makes anyway (None: no one watches, at no cost).  In a
    thread other than the main one the search gives up the GIL between those looks, so that
    searches in threads of one process (a Dask worker's) run side by side."""
    from . import PARTIAL_SECONDS, _edgescore
    packed = struct.pack(f"<{len(held)}i", *held)
    nogil = threading.current_thread() is not threading.main_thread()
    status, nodes, cap = _edgescore.search(*lay.packed, packed, len(lay.order), lay.npieces,
                                           lay.colours, cap, node_limit, patience, seconds, cpu,
                                           on_board, tile,
                                           None if need is None else struct.pack(f"<{len(need)}i", *need),
                                           hist, sub_depth, sub_limit, bound, watch, PARTIAL_SECONDS,
                                           nogil)
    return Outcome(status, nodes, cap)
