"""Exact cover with multiplicities, searched in compiled code (dancing links or bitboards) with a
pocket cut.

The model is a :class:`Matrix`: rows (placements) made of items (cells, pieces), each item with
bounds ``lo..hi`` on how many chosen rows meet it -- exactly one for a cell, exactly ``k`` for a
piece with ``k`` copies, at most one for a cell that may stay empty.  A solution is a set of rows
meeting every bound.  Two searches in ``_exactcover.c`` find them:

* **dancing links** (Knuth's Algorithm X): branch on the item with the fewest live rows beyond its
  need, over its rows (``hi == 1``) or on its first row in or out (``hi > 1``); any matrix;
* **bitboards** (de Bruijn): on a board of at most 128 cells that must all be covered, fill the
  first empty cell, trying the rows whose first cell it is; boards and rows are bit sets.

What exact cover cannot see is added when a :class:`Board` is given (the cell items and their
neighbours, the pieces' areas): a row that would enclose a pocket of open cells whose size no set
of the remaining pieces can fill is not tried.

Why both: bitboards are the faster search on every bundled board that fits in 128 bits, the first
split placing the piece with the fewest places (as de Bruijn did); dancing links take everything
else: drafter boards of hundreds of cells (Tortoise, Pram), secondary items, multiplicities on
large boards.  ``strategy`` picks one by hand.  Measurements, against Knuth's DLX1 and SSXCC:
docs/decisions/2026-11-27-exact-cover-engine.md.

:class:`ExactCover` is the Python face: rows in, solutions (tuples of row numbers), counts,
Knuth's random-path estimates of the tree size, and cubes (the first branchings) out, under
assumptions (rows forced in or out), with a node budget per call so that Ctrl-C and time limits
act between two calls.  The readable reference of the same search is
:class:`satiling.engines.exactcover_ref.Walk`; the tests hold the two to the same answers.

    >>> m = Matrix(rows=[(0, 1), (0,), (1,)], lo=[1, 1], hi=[1, 1])
    >>> sorted(sorted(s) for s in ExactCover(m).solutions())
    [[0], [1, 2]]
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Any, Callable, Iterator, Sequence

from ..errors import SatilingError
from ..problem import Problem
from . import PARTIAL_SECONDS
from ._exactcover import MAX_BOARD, Engine

#: seconds of one call into the compiled search: solutions come back in batches, and progress is
#: heard, between two calls.  Inside a call the engine looks at the clock and at signals every few
#: milliseconds (``_handback.h``), whatever a node costs (a thousandfold apart between 6x10 and
#: Pram), so Ctrl-C and time limits act at once.
CALL_SECONDS = 0.02

Cube = tuple[int, ...]

#: cubes estimated below this many nodes (milliseconds of search) are not split further
MIN_CUBE_NODES = 10_000

#: links and candidates the planning of cubes may touch (well above what the bundled polyform
#: boards need; docs/decisions/2026-11-27-exact-cover-engine.md)
PLAN_WORK = 200_000_000


@dataclass
class Board:
    """What the pocket cut needs: the cell items (in the order the board should fill: ties in the
    branching rule go to the first), each one's neighbouring cells (positions in ``cells``), and
    how many pieces there are of each area.  Valid only when every cell must be covered."""

    cells: list[int]                        # item numbers of the cells
    neighbours: list[list[int]]             # for each cell, positions of its neighbours in cells
    areas: dict[int, int]                   # piece area -> number of pieces (copies) of it


@dataclass
class Matrix:
    """Rows as tuples of item numbers; item bounds ``lo[i] <= taken <= hi[i]``; a board for the
    pocket cut (optional)."""

    rows: list[tuple[int, ...]]
    lo: list[int]
    hi: list[int]
    board: Board | None = None
    fixed: tuple[int, ...] = ()             # assumptions of every search (``r`` in, ``-(r + 1)`` out)
    pocket_limit: int = 1 << 30             # largest pocket the flood fill follows
    strategy: str = "auto"                  # "links", "bitboard" or "auto" (see bitboard_fits)

    def bitboard_fits(self) -> bool:
        """Whether the bitboard search applies: a board of at most ``MAX_BOARD`` cells (128; 64
        where the compiler has no 128-bit integer), each covered once, and every row on some cell
        with at most one other item (its piece)."""
        b = self.board
        if b is None or not 0 < len(b.cells) <= MAX_BOARD:
            return False
        cells = set(b.cells)
        if any(self.lo[c] != 1 or self.hi[c] != 1 for c in cells):
            return False
        return all(0 < sum(i in cells for i in row) and sum(i not in cells for i in row) <= 1
                   for row in self.rows)

    def search_board(self) -> int:
        """0: dancing links; 64 or 128: the bitboard search on a board of that many bits."""
        if self.strategy == "links" or (self.strategy == "auto" and not self.bitboard_fits()):
            return 0
        if not self.bitboard_fits():
            raise MatrixError(f"the bitboard search needs a board of at most {MAX_BOARD} cells, each "
                              "covered once, and rows on those cells")
        return 64 if len(self.board.cells) <= 64 else 128

    def arrays(self) -> tuple:
        """The engine's arguments: items renumbered so that the cells come first."""
        n = len(self.lo)
        cells = self.board.cells if self.board else []
        placed = set(cells)
        order = cells + [i for i in range(n) if i not in placed]
        new = {old: k for k, old in enumerate(order)}
        items: list[int] = []
        start = [0]
        for row in self.rows:
            items.extend(sorted(new[i] for i in row))
            start.append(len(items))
        lo = [self.lo[i] for i in order]
        hi = [self.hi[i] for i in order]
        nstart, nbr, areas, counts, row_area = [0], [], [], [], [-1] * len(self.rows)
        if self.board:
            for nb in self.board.neighbours:
                nbr.extend(nb)
                nstart.append(len(nbr))
            areas = sorted(self.board.areas)
            counts = [self.board.areas[a] for a in areas]
            cls = {a: k for k, a in enumerate(areas)}
            ncells = len(cells)
            for r, row in enumerate(self.rows):
                size = sum(1 for i in row if new[i] < ncells)
                row_area[r] = cls.get(size, -1)
        board = self.search_board()
        return (items, start, lo, hi, nstart, nbr, areas, counts, row_area, self.pocket_limit,
                board, _shift_rules(self.board.neighbours) if board else None)


class MatrixError(SatilingError, ValueError):
    """A matrix (or assumption) the engine cannot take: a SatilingError, and a ValueError as it
    always was, so callers that caught that still do."""


STRATEGIES = ("auto", "links", "bitboard")
#: the engine keeps counts and bounds in C ints
C_INT = 1 << 31


def check_matrix(m: Any) -> None:
    """MatrixError for anything the compiled engine would misread or refuse with a bare
    ValueError or IndexError: checked here, in Python, before any of it reaches C."""
    if not isinstance(m, Matrix):
        raise MatrixError(f"ExactCover takes a Matrix, not {type(m).__name__}")
    items = _check_bounds(m.lo, m.hi)
    _check_rows(m.rows, items)
    check_assumptions(m.fixed, len(m.rows), "Matrix.fixed")
    if m.board is not None:
        _check_board(m.board, items)
    if m.strategy not in STRATEGIES:
        raise MatrixError(f"strategy is one of {', '.join(STRATEGIES)}, not {m.strategy!r}")
    if not _whole(m.pocket_limit) or not 0 <= m.pocket_limit < C_INT:
        raise MatrixError(f"pocket_limit is a whole number from 0 to {C_INT - 1}, not {m.pocket_limit!r}")


def _whole(x: Any) -> bool:
    return type(x) is int                   # not a bool, not 2.0


def _whole_list(values: Any, what: str) -> list[int]:
    if not isinstance(values, (list, tuple)) or not all(map(_whole, values)):
        raise MatrixError(f"{what} is a list of whole numbers")
    return list(values)


def _check_bounds(lo: Any, hi: Any) -> int:
    """The number of items, once every item has bounds 0 <= lo <= hi, 1 <= hi."""
    lo, hi = _whole_list(lo, "Matrix.lo"), _whole_list(hi, "Matrix.hi")
    if len(lo) != len(hi):
        raise MatrixError(f"Matrix.lo has {len(lo)} items and Matrix.hi {len(hi)}: one bound of each per item")
    for item, (a, b) in enumerate(zip(lo, hi)):
        if not 0 <= a <= b < C_INT or b < 1:
            raise MatrixError(f"item {item} has bounds {a}..{b}: each item needs 0 <= lo <= hi and hi >= 1")
    return len(lo)


def _check_rows(rows: Any, items: int) -> None:
    """Every row a non-empty tuple of distinct item numbers from 0 to ``items - 1``; checked as
    a whole first (builtins mapped over one flat list: the cheap way for Eternity's rows,
    docs/decisions/2026-11-29-figures-from-the-code.md), row by row only to name the first bad
    one."""
    if not isinstance(rows, (list, tuple)) or not all(issubclass(t, (list, tuple)) for t in set(map(type, rows))):
        raise MatrixError("Matrix.rows is a list of rows, each a tuple of item numbers")
    flat = list(chain.from_iterable(rows))
    if (all(rows) and set(map(type, flat)) <= {int} and (not flat or 0 <= min(flat) and max(flat) < items)
            and sum(map(len, map(set, rows))) == len(flat)):
        return
    for r, row in enumerate(rows):
        if not row:
            raise MatrixError(f"row {r} has no items")
        bad = [i for i in row if not (_whole(i) and 0 <= i < items)]
        if bad:
            raise MatrixError(f"row {r} names {_shown(bad[0])}, not an item number from 0 to {items - 1}")
        if len(set(row)) != len(row):
            raise MatrixError(f"row {r} names an item twice: {_shown(row)}")


def _check_board(board: Any, items: int) -> None:
    if not isinstance(board, Board):
        raise MatrixError(f"Matrix.board is a Board or None, not {type(board).__name__}")
    cells = _whole_list(board.cells, "Board.cells")
    if len(set(cells)) != len(cells) or not all(0 <= c < items for c in cells):
        raise MatrixError(f"Board.cells are distinct item numbers from 0 to {items - 1}")
    if not isinstance(board.neighbours, (list, tuple)) or len(board.neighbours) != len(cells):
        raise MatrixError(f"Board.neighbours has one list per cell ({len(cells)})")
    for nb in board.neighbours:
        if not all(0 <= k < len(cells) for k in _whole_list(nb, "a cell's neighbours")):
            raise MatrixError(f"Board.neighbours are positions in Board.cells, 0 to {len(cells) - 1}")
    areas = board.areas
    if not isinstance(areas, dict) or not all(_whole(a) and _whole(k) and 0 < a < C_INT and 0 <= k < C_INT
                                              for a, k in areas.items()):
        raise MatrixError("Board.areas maps piece areas to how many pieces have them (whole numbers)")


def check_assumptions(lits: Any, rows: int, what: str = "assumptions") -> None:
    """Literals over rows: ``r`` (row ``r`` in) or ``-(r + 1)`` (out), for ``0 <= r < rows``."""
    if not isinstance(lits, (list, tuple)) or not all(_whole(x) and -rows <= x < rows for x in lits):
        raise MatrixError(f"{what} are row literals from {-rows} to {rows - 1} (r in, -(r + 1) out), "
                          f"not {_shown(lits)}")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


#: the bitboard search floods pockets by shifts when the neighbours take at most this many offsets
MAX_SHIFTS = 8


def _shift_rules(neighbours: list[list[int]]) -> list[int] | None:
    """Neighbours as shifts: for each offset d, the cells c with a neighbour c + d, flattened as
    (d, n, c_1 .. c_n) ...; None when there are too many offsets (an irregular numbering)."""
    by_shift: dict[int, list[int]] = {}
    for c, nb in enumerate(neighbours):
        for d in nb:
            by_shift.setdefault(d - c, []).append(c)
    if len(by_shift) > MAX_SHIFTS:
        return None
    return [x for d, cells in sorted(by_shift.items()) for x in (d, len(cells), *cells)]


def matrix_of(problem: Problem, board: Board | None = None) -> Matrix | None:
    """The exact-cover matrix of a problem: row ``v - 1`` for placement variable ``v``, one item
    per group, the problem's units as fixed assumptions.  None when the problem is not an exact
    cover with multiplicities (an auxiliary variable, a negative literal in a group, a variable in
    no group); clauses, linear constraints and lazy checks are left to the caller."""
    n = problem.num_vars
    if not all(problem.primary[1:]) or any(lit <= 0 for g in problem.groups for lit in g.lits):
        return None
    rows: list[list[int]] = [[] for _ in range(n)]
    lo, hi, fixed = [], [], [u - 1 if u > 0 else u for u in problem.units]
    for item, g in enumerate(problem.groups):          # item number = group number
        lits = sorted(set(g.lits))
        if g.hi <= 0 or g.lo > g.hi:
            fixed.extend(-v for v in lits)              # none of these may be chosen,
            lo.append(1 if g.lo > 0 else 0)             # and if some must be, nothing can
            hi.append(1)
            continue
        lo.append(g.lo)
        hi.append(g.hi)
        for v in lits:
            rows[v - 1].append(item)
    if any(not r for r in rows):
        return None
    return Matrix([tuple(r) for r in rows], lo, hi, board, tuple(fixed))


@dataclass
class Stats:
    """Nodes tried, rows cut by the pocket rule, solutions seen, since the last start."""

    nodes: int = 0
    cuts: int = 0
    solutions: int = 0
    finished: bool = False                  # the search went to its end (not stopped early)


class ExactCover:
    """The compiled search over one matrix; rows are numbered from 0.

    Assumptions (cubes) are literals over rows: ``r`` forces row ``r`` in, ``-(r + 1)`` out.
    """

    def __init__(self, matrix: Matrix) -> None:
        check_matrix(matrix)
        self.matrix = matrix
        self._engine = Engine(*matrix.arrays())
        self._finished = False
        self._fixed = list(matrix.fixed)

    def watch(self, show: Callable[[tuple[int, ...]], None] | None,
              seconds: float = PARTIAL_SECONDS) -> None:
        """While the search runs, ``show(rows)`` with the rows it has taken so far (the assumed
        ones first: a partial solution), at most once every ``seconds``, at the looks at the clock
        it makes anyway (``_handback.h``); None: no one watches (the default, at no cost)."""
        self._engine.watch(show, seconds)

    def start(self, assume: Sequence[int] = ()) -> bool:
        """Reset the search under the assumptions; False if they contradict the matrix."""
        check_assumptions(assume, len(self.matrix.rows))
        return self._engine.start([*self._fixed, *assume])

    def solutions(self, assume: Sequence[int] = (),
                  progress: Callable[[float], None] | None = None,
                  max_nodes: int | None = None) -> Iterator[tuple[int, ...]]:
        """Every solution under the assumptions (the assumed rows included), in search order;
        ``progress`` hears the part of the tree done after every call into the search (about
        ``CALL_SECONDS`` each).  With ``max_nodes`` the search gives up after that many nodes
        (``stats().finished`` says whether it went to the end)."""
        self._finished = False
        if not self.start(assume):
            self._finished = True
            return
        while True:
            found, status = self._engine.run(_left(max_nodes, self._engine), 0, True, CALL_SECONDS)
            if progress is not None:
                progress(self._engine.progress())
            yield from found
            if status == "done":
                break
            if status == "nodes":
                return
        self._finished = True

    def count(self, assume: Sequence[int] = (), max_nodes: int | None = None) -> int:
        """The number of solutions (none is built as a Python object); with ``max_nodes``, those
        found in that many nodes."""
        self._finished = False
        if not self.start(assume):
            self._finished = True
            return 0
        while True:
            status = self._engine.run(_left(max_nodes, self._engine), 0, False, CALL_SECONDS)[1]
            if status == "done":
                break
            if status == "nodes":
                return self._engine.stats()["solutions"]
        self._finished = True
        return self._engine.stats()["solutions"]

    def first(self, assume: Sequence[int] = (), max_nodes: int | None = None) -> tuple[int, ...] | None:
        """One solution, or None (none exists, or none in about ``max_nodes`` nodes: see
        ``stats().finished``)."""
        for rows in self.solutions(assume, max_nodes=max_nodes):
            return rows
        return None

    def estimate(self, assume: Sequence[int] = (), probes: int = 100, seed: int = 1) -> float:
        """Knuth's estimate of the number of nodes the search tries under the assumptions: the
        mean over ``probes`` random paths of the sums of the running products of the degrees."""
        if not self.start(assume):
            return 0.0
        return self._engine.estimate(probes, seed)

    def children(self, assume: Sequence[int] = ()) -> list[Cube]:
        """The search's first branching under the assumptions, as one extension per child:
        ``(r,)`` or ``(-(r + 1),)``.  Children the pocket cut rules out are left out; a leaf
        or a dead end has none."""
        if not self.start(assume):
            return []
        _, lits = self._engine.children()
        return [(lit,) for lit in lits]

    def cubes(self, assume: Sequence[int] = (), fraction: float = 1 / 50, probes: int | None = None,
              limit: int = 4096, least: float = MIN_CUBE_NODES,
              work: int = PLAN_WORK) -> list[tuple[Cube, float]]:
        """Subtrees of the search tree (assumption lists, in the order the search meets them) that
        together hold every solution, each estimated at most ``fraction`` of the whole; each with
        its estimated number of nodes.

        The biggest estimate is split first, into the search's own children, until every cube is
        small enough (or under ``least`` nodes: a tree of a few thousand nodes is not worth
        splitting), there are ``limit`` cubes, or the planning has touched ``work`` links and
        candidates (a cost in the search's own steps, the same on every machine, so the cubes are
        too: a random path on Pram's 10^5 placements costs milliseconds, and there the cubes stay
        larger than the fraction asked for).  A cube the search would prune at once (the
        pocket cut, a contradiction) is dropped: it holds no solution.  ``probes`` random paths
        estimate each cube (default: 300 on a bitboard, where a path costs microseconds, and 100
        under dancing links); the estimates are heavy-tailed, so the shares are approximate.
        """
        if probes is None:
            probes = 300 if self.matrix.search_board() else 100
        base, stop = tuple(assume), self._engine.work() + work
        leaves: dict[Cube, float] = {(): self.estimate(base, probes)}
        order: dict[Cube, tuple[int, ...]] = {(): ()}      # position among siblings, per level
        total = leaves[()]                  # the estimates of the leaves, summed
        while len(leaves) < limit and self._engine.work() < stop:
            path = max(leaves, key=leaves.__getitem__)
            if leaves[path] <= max(fraction * total, least):
                break
            kids = self.children(base + path)
            total -= leaves[path]
            if not kids:                   # a solution or a dead end: nothing to split
                leaves[path] = 0.0
                continue
            del leaves[path]
            for k, kid in enumerate(kids):
                sub = path + kid
                if self.start(base + sub):
                    leaves[sub] = self._engine.estimate(probes, len(sub) + 1)
                    order[sub] = order[path] + (k,)
                    total += leaves[sub]
        return [(path, leaves[path]) for path in sorted(leaves, key=order.__getitem__)]

    def progress(self) -> float:
        """The part of the present search tree already done (Knuth's measure)."""
        return self._engine.progress()

    def remaining(self) -> list[Cube]:
        """Where a paused search stands, as cubes (row literals beyond the assumptions of
        :meth:`start`) that partition the solutions it has not yet reached: a count stopped
        here goes on with them alone (``[()]`` before the search starts, ``[]`` once done)."""
        return [tuple(cube) for cube in self._engine.remaining()]

    def stats(self) -> Stats:
        return Stats(**self._engine.stats(), finished=self._finished)


def _left(max_nodes: int | None, engine: Engine) -> int:
    """The node budget of the next call: what is left of ``max_nodes`` (0: no budget)."""
    if max_nodes is None:
        return 0
    return max(1, max_nodes - engine.stats()["nodes"])
