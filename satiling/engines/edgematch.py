"""Exact backtracking for edge-matching boards: find one, count or list every complete board.

The board arrives as plain data (:class:`EdgeBoard`: the pieces as ``(N, E, S, W)`` colours, colour
0 the grey border, and the pieces fixed in advance); this module knows nothing of puzzle files or
pictures.  :class:`Plan` turns it into the arrays the compiled search (``_edgematch.c``) walks:

* the free squares in a fixed order: a row or column scan from any side, a spiral, or the frame
  first and then a row scan (:data:`ORDERS`); by default the one whose search tree Knuth's
  estimate finds smallest for this board;
* equal pieces merged into one *type* with a multiplicity, so that no equal piece is tried twice
  on one square;
* every type's distinct rotations as *entries*, filed in a candidate table under each key they
  fit: per side, the colour already on the board there or a wildcard.  Rim sides are keyed grey
  and wildcard sides accept only non-grey colours, so the frame costs nothing during the search.

:mod:`satiling.engines.edgematch_ref` is the same search in plain Python (it scans the pieces
instead of the table), held to the same solutions and node counts by the tests.

To find one solution, the search is one depth-first search in the order of the smallest estimated
tree with the "tight" value order (:func:`race`), below one corner piece on square boards
(:func:`corner_starter`): on hard boards almost all the nodes go to wrong choices for the first
rows, which no cheap cut sees, and which order meets a solution soon is luck that the tree-size
estimate does not see.  Measurements, and the alternatives that lost:
docs/decisions/2026-11-27-edgematch-exact-search.md.
"""
from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

import numpy as np

from . import PARTIAL_SECONDS, _edgematch
from ..limits import NO_DEADLINE, Deadline

Edges = tuple[int, int, int, int]
#: (row, col, piece index from 0, clockwise quarter turns)
Placed = tuple[int, int, int, int]
STEP = ((-1, 0), (0, 1), (1, 0), (0, -1))
ORDERS = ("auto", "rows", "rows-up", "columns", "columns-left", "spiral", "frame")
VALUES = ("table", "tight")
#: above this many colours the table (one slot per key, (colours + 1) ** 4 keys) gets too large
MAX_COLOURS = 48
#: the compiled search's stop (by name, as every engine says it) in this module's words
STATUS = {"done": "exhausted", "limit": "limit", "time": "time limit", "nodes": "node limit"}
#: nodes an order searches in one turn of :func:`race` (a few milliseconds)
SLICE = 1 << 18
#: above this estimated tree size, finding a solution depends on how densely an order meets them,
#: not on the tree's size, so :func:`race` tries every order in turn (8x8 E2-like boards: 1e12,
#: one order; the clue puzzles: 1e24-1e33, and billions of solutions)
RACE_ABOVE = 1e14


@dataclass(frozen=True)
class EdgeBoard:
    """A rows x cols board, its pieces (one per square, ``(N, E, S, W)`` colours), and the pieces
    fixed in advance as ``(row, col, piece, rotation)`` (row 0 at the top, piece indices from 0,
    rotation in clockwise quarter turns)."""

    rows: int
    cols: int
    pieces: tuple[Edges, ...]
    fixed: tuple[Placed, ...] = ()
    order: str = "auto"
    #: the order of a square's candidates: "table" (pieces in order, rotations in order) or
    #: "tight" (the one leaving the next square the fewest table entries first; for solve)
    values: str = "table"


def rotate(edges: Sequence[int], r: int) -> Edges:
    """``edges`` turned ``r`` clockwise quarter turns (the old N side becomes E)."""
    return tuple(edges[(d - r) % 4] for d in range(4))  # type: ignore[return-value]


def distinct_rotations(edges: Sequence[int]) -> list[int]:
    """The rotations giving different colourings, each the smallest with its colouring."""
    seen: dict[Edges, int] = {}
    for r in range(4):
        seen.setdefault(rotate(edges, r), r)
    return sorted(seen.values())


def on_rim(rows: int, cols: int, r: int, c: int, d: int) -> bool:
    return not (0 <= r + STEP[d][0] < rows and 0 <= c + STEP[d][1] < cols)


def search_order(rows: int, cols: int, order: str) -> list[tuple[int, int]]:
    """Every square of the board in the order the search fills it (fixed squares included)."""
    if order not in ORDERS[1:]:
        raise ValueError(f"unknown search order {order!r} (choose from {', '.join(ORDERS)})")
    if order == "rows":
        return [(r, c) for r in range(rows) for c in range(cols)]
    if order == "rows-up":
        return [(r, c) for r in reversed(range(rows)) for c in range(cols)]
    if order == "columns":
        return [(r, c) for c in range(cols) for r in range(rows)]
    if order == "columns-left":
        return [(r, c) for c in reversed(range(cols)) for r in range(rows)]
    rings = _spiral(rows, cols)
    if order == "spiral":
        return rings
    frame = [sq for sq in rings if sq[0] in (0, rows - 1) or sq[1] in (0, cols - 1)]
    inner = [(r, c) for r in range(1, rows - 1) for c in range(1, cols - 1)]
    return frame + inner


def _spiral(rows: int, cols: int) -> list[tuple[int, int]]:
    """Clockwise from the top-left corner, ring by ring inwards."""
    out, top, left, bottom, right = [], 0, 0, rows - 1, cols - 1
    while top <= bottom and left <= right:
        out += [(top, c) for c in range(left, right + 1)]
        out += [(r, right) for r in range(top + 1, bottom + 1)]
        if top < bottom:
            out += [(bottom, c) for c in range(right - 1, left - 1, -1)]
        if left < right:
            out += [(r, left) for r in range(bottom - 1, top, -1)]
        top, left, bottom, right = top + 1, left + 1, bottom - 1, right - 1
    return out


def dense_colours(board: EdgeBoard) -> EdgeBoard:
    """The board with its colours renumbered 1, 2, ... in order (grey stays 0): the search only
    compares colours, and the candidate table grows with the largest one, not with how many there
    are (a file may number its colours up to 10000)."""
    if any(x < 0 for e in board.pieces for x in e):
        raise ValueError("colours must be non-negative")
    used = sorted({x for e in board.pieces for x in e} - {0})
    if used == list(range(1, len(used) + 1)):
        return board
    new = {0: 0, **{x: i for i, x in enumerate(used, 1)}}
    return replace(board, pieces=tuple(tuple(new[x] for x in e) for e in board.pieces))


def colours_needed(pieces: Sequence[Edges]) -> int:
    """The colour slots the search needs (grey and every other colour used): at most
    :data:`MAX_COLOURS`."""
    return 1 + len({x for e in pieces for x in e} - {0})


@dataclass
class Plan:
    """The arrays of one search (see the module doc); ``entries[e] = (type, rotation, edges)``."""

    board: EdgeBoard
    steps: list[tuple[int, int]] = field(default_factory=list)       # free squares, in order
    # per type, its free pieces as (index, q): rotation q of the piece shows the type's colours
    types: list[list[tuple[int, int]]] = field(default_factory=list)
    type_edges: list[Edges] = field(default_factory=list)
    entries: list[tuple[int, int, Edges]] = field(default_factory=list)
    colours: int = 0

    @classmethod
    def of(cls, board: EdgeBoard) -> "Plan":
        plan = cls(dense_colours(board))
        plan._types()
        plan.steps = [sq for sq in search_order(board.rows, board.cols, board.order)
                      if sq not in {(f[0], f[1]) for f in board.fixed}]
        plan.colours = 1 + max((x for e in plan.board.pieces for x in e), default=0)
        for t, edges in enumerate(plan.type_edges):
            plan.entries += [(t, r, rotate(edges, r)) for r in distinct_rotations(edges)]
        return plan

    def _types(self) -> None:
        b = self.board
        if len(b.pieces) != b.rows * b.cols:
            raise ValueError(f"{len(b.pieces)} pieces for {b.rows * b.cols} squares")
        if any(x < 0 for e in b.pieces for x in e):
            raise ValueError("colours must be non-negative")
        fixed_pieces = {f[2] for f in b.fixed}
        if len(fixed_pieces) != len(b.fixed) or len({(f[0], f[1]) for f in b.fixed}) != len(b.fixed):
            raise ValueError("two fixed pieces share a piece or a square")
        index: dict[Edges, int] = {}
        for p, edges in enumerate(b.pieces):
            if p in fixed_pieces:
                continue
            key = min(rotate(edges, r) for r in range(4))
            if key not in index:
                index[key] = len(self.types)
                self.types.append([])
                self.type_edges.append(tuple(edges))  # type: ignore[arg-type]
            t = index[key]
            q = next(q for q in range(4) if rotate(edges, q) == self.type_edges[t])
            self.types[t].append((p, q))

    def fixed_colours(self) -> dict[tuple[int, int], Edges]:
        return {(r, c): rotate(self.board.pieces[p], rot) for r, c, p, rot in self.board.fixed}

    def board_of(self, choice: Sequence[int]) -> list[Placed]:
        """The placements of a solution given as one entry per step (equal pieces dealt in order)."""
        taken = [0] * len(self.types)
        out = list(self.board.fixed)
        for (r, c), e in zip(self.steps, choice):
            t, rot, _ = self.entries[e]
            p, q = self.types[t][taken[t]]
            out.append((r, c, p, (rot + q) % 4))
            taken[t] += 1
        return sorted(out)


def key_weights(plan: Plan) -> list[int]:
    """A key is four digits base colours + 1, one per side (N first); digit ``colours`` is the
    wildcard."""
    return [(plan.colours + 1) ** d for d in range(4)]


def candidate_table(plan: Plan) -> tuple[np.ndarray, np.ndarray]:
    """(start, entries): the entries filed under key k are ``entries[start[k]:start[k + 1]]``, in
    entry order.  Each entry is filed under the 16 keys that know some of its sides, except where
    a side facing a later square (a wildcard) is grey."""
    C, weight = plan.colours, key_weights(plan)
    edges = np.array([e for _, _, e in plan.entries], dtype=np.int64).reshape(-1, 4)
    masks = (np.arange(16)[:, None] >> np.arange(4)) & 1              # mask -> known sides
    digits = np.where(masks[None, :, :] == 1, edges[:, None, :], C)   # entry, mask, side
    fits = ~((masks[None] == 0) & (edges[:, None, :] == 0)).any(axis=2)
    key = (digits * np.array(weight)).sum(axis=2)
    ent, _ = np.nonzero(fits)
    key = key[fits]
    start = np.zeros((C + 1) ** 4 + 1, dtype=np.uint32)
    start[1:] = np.cumsum(np.bincount(key, minlength=(C + 1) ** 4))
    return start, ent[np.argsort(key, kind="stable")]


def step_keys(plan: Plan, col: np.ndarray) -> tuple[list[int], list[list[int]], list[list[int]]]:
    """Per step: the key's constant part (rim sides grey, fixed neighbours' colours, wildcards for
    squares filled later) and four (colour slot, weight) pairs reading the neighbours filled
    earlier (the zero slot with weight 0 where there are fewer)."""
    b, C, weight = plan.board, plan.colours, key_weights(plan)
    zero = len(col) - 1
    fixed = {(f[0], f[1]) for f in b.fixed}
    seen = set(fixed)
    base, nbr, wts = [], [], []
    for r, c in plan.steps:
        k, slots, ws = 0, [], []
        for d in range(4):
            if on_rim(b.rows, b.cols, r, c, d):
                continue                                   # digit 0: grey
            n = (r + STEP[d][0], c + STEP[d][1])
            slot = 4 * (n[0] * b.cols + n[1]) + (d + 2) % 4
            if n in fixed:
                k += int(col[slot]) * weight[d]
            elif n in seen:
                slots.append(slot)
                ws.append(weight[d])
            else:
                k += C * weight[d]
        base.append(k)
        nbr.append(slots + [zero] * (4 - len(slots)))
        wts.append(ws + [0] * (4 - len(ws)))
        seen.add((r, c))
    return base, nbr, wts


#: random paths per order when choosing one: Knuth's estimate is heavy-tailed, and this many take
#: a few milliseconds (most die early); measurements:
#: docs/decisions/2026-11-27-edgematch-exact-search.md
ORDER_PROBES = 20000


def auto_order(board: EdgeBoard, probes: int = ORDER_PROBES) -> EdgeBoard:
    """The board with the search order of the smallest estimated tree (Knuth's estimate, mean of
    ``probes`` random paths, per order)."""
    if board.order != "auto":
        return board
    sizes = {}
    for order in ORDERS[1:]:
        candidate = replace(board, order=order)
        sizes[order] = Engine(candidate).estimate(probes=probes)
    return replace(board, order=min(sizes, key=sizes.__getitem__))


class Engine:
    """The compiled search over a planned board (order "auto": see :func:`auto_order`)."""

    def __init__(self, board: EdgeBoard) -> None:
        if board.values not in VALUES:
            raise ValueError(f"unknown value order {board.values!r} (choose from {', '.join(VALUES)})")
        board = auto_order(board)
        self.board = board
        self.plan = plan = Plan.of(board)
        if plan.colours > MAX_COLOURS:
            raise ValueError(f"{plan.colours} colours: the candidate table allows {MAX_COLOURS}")
        start, self.entry_of = candidate_table(plan)       # entry_of: table position -> entry
        fixed = plan.fixed_colours()
        self.possible = self._check_fixed(fixed)
        nslots = 4 * board.rows * board.cols             # slot 4 * cell + side; the last: zero
        col = np.zeros(nslots + 1, dtype=np.uint8)
        for (r, c), edges in fixed.items():
            col[4 * (r * board.cols + c):4 * (r * board.cols + c) + 4] = edges
        base, nbr, wts = step_keys(plan, col)
        entries = np.array([e for _, _, e in plan.entries], dtype=np.uint8).reshape(-1, 4)
        self.search = _edgematch.Search(
            nsteps=len(plan.steps), nkeys=len(start) - 1, nentries=len(self.entry_of),
            ntypes=len(plan.types), nslots=nslots, start=start.tobytes(),
            ent_type=np.array([plan.entries[e][0] for e in self.entry_of], np.int32).tobytes(),
            ent_col=entries[self.entry_of].reshape(-1).tobytes(),
            mult=np.array([len(t) for t in plan.types], np.int32).tobytes(),
            step_cell=np.array([r * board.cols + c for r, c in plan.steps], np.int32).tobytes(),
            step_base=np.array(base, np.uint32).tobytes(), step_nbr=np.array(nbr, np.int32).tobytes(),
            step_w=np.array(wts, np.uint32).tobytes(), col=col.tobytes(), tight=board.values == "tight")

    def _check_fixed(self, fixed: dict[tuple[int, int], Edges]) -> bool:
        """Whether the fixed pieces fit the frame and each other (the search never looks at
        them): if not, there is no solution."""
        b = self.plan.board
        for (r, c), edges in fixed.items():
            for d in range(4):
                if (edges[d] == 0) != on_rim(b.rows, b.cols, r, c, d):
                    return False
                n = (r + STEP[d][0], c + STEP[d][1])
                if n in fixed and fixed[n][(d + 2) % 4] != edges[d]:
                    return False
        return True

    @property
    def nodes(self) -> int:
        return self.search.nodes

    def watch(self, show: Callable[[list[Placed]], None] | None, seconds: float = PARTIAL_SECONDS) -> None:
        """While the search runs, ``show(board)`` with the board filled so far (the fixed pieces
        and those the search has placed, as :meth:`solutions` gives a board), at most once every
        ``seconds``, at the looks at the clock it makes anyway (``_handback.h``); None: no one
        watches (the default, at no cost)."""
        self.search.watch(None if show is None else lambda choice: show(self.board_of(choice)), seconds)

    def solutions(self, prefix: Sequence[int] = (), limit: int = 0, seconds: float | None = None,
                  on_solution: Callable[[list[Placed]], None] | None = None, max_nodes: int = 0,
                  resume: bool = False, seed: int = 0) -> str:
        """Search below ``prefix`` (table positions), calling ``on_solution`` with each board;
        returns how it ended: "exhausted", "limit" (``limit`` solutions), "time limit" or "node
        limit" (``max_nodes`` more nodes); ``resume`` goes on after any of the last three.
        ``seed`` (not 0) randomises the value orders from that seed (a restart; the same seed,
        the same search); the solutions met are the same, in another order.  Ctrl-C raises
        KeyboardInterrupt within a few milliseconds; ``self.search.solutions`` and ``nodes``
        keep the counts."""
        if not self.possible:
            return "exhausted"
        callback = None if on_solution is None else (lambda ch: on_solution(self.board_of(ch)))
        # None: no limit (0 in every compiled engine); a limit already spent still looks once
        status = self.search.run(list(prefix), limit, 0.0 if seconds is None else max(seconds, 1e-9), callback,
                                 max_nodes, resume, seed)
        return STATUS[status]

    def board_of(self, choice: Sequence[int]) -> list[Placed]:
        return self.plan.board_of([int(self.entry_of[i]) for i in choice])

    def children(self, prefix: Sequence[int] = ()) -> list[int]:
        """The table positions the search tries after ``prefix``, in its order."""
        return self.search.children(list(prefix)) if self.possible else []

    def estimate(self, prefix: Sequence[int] = (), probes: int = 100, seed: int = 1) -> float:
        """Knuth's estimate of the nodes below ``prefix`` (mean of ``probes`` random paths)."""
        return self.search.estimate(list(prefix), probes, seed) if self.possible else 0.0


def corner_starter(engine: Engine) -> tuple[int, ...]:
    """The fixed-starter partition for finding one solution: on a square board with no fixed
    pieces whose search starts on a corner, the first candidate there, as a prefix; else ().
    Every solution puts the four corner pieces on the four corners, and turning the board a
    quarter turn at a time brings each corner to the first square, so the subtree below any one
    corner piece holds a turn of every solution: searching it alone still proves that there is
    none (in a quarter of the nodes), and a depth-first search that finds one never leaves it."""
    b = engine.plan.board
    if b.fixed or b.rows != b.cols or b.rows < 2 or not engine.possible or not engine.plan.steps:
        return ()
    r, c = engine.plan.steps[0]
    if r not in (0, b.rows - 1) or c not in (0, b.cols - 1):
        return ()
    kids = engine.children(())
    return (kids[0],) if kids else ()


def race(board: EdgeBoard, deadline: Deadline = NO_DEADLINE, engines: list[Engine] | None = None,
         seed: int | None = None, node_limit: int | None = None
         ) -> tuple[list[Placed] | None, str, list[Engine]]:
    """One solution.  With order "auto": the order of the smallest estimated tree when that tree
    can be searched (below :data:`RACE_ABOVE` nodes); otherwise every order in turn for
    :data:`SLICE` nodes (smallest estimated tree first), each going on where it stopped, until one
    finds a solution or exhausts its tree (then there is none).
    The tree-size estimate picks the best order to count with, not to find one solution fast: on
    boards with billions of solutions another order may meet one far sooner.  A tree below
    :data:`RACE_ABOVE` (few solutions) is searched with the "tight" value order, which meets a first solution sooner where solutions are few; where they are many (the
    race) the table order is faster, so the race keeps it (measurements:
    docs/decisions/2026-11-27-edgematch-exact-search.md).
    ``engines``: those of :func:`solve_engines` when already made.  ``seed`` (not None): a
    single search (a tree below :data:`RACE_ABOVE`) runs as :func:`restarts` from that seed.
    ``node_limit``: the search stops after that many nodes in all (status "nodes").
    Returns (solution or None, "limit" / "exhausted" / "time limit" / "nodes", the engines)."""
    engines = engines or solve_engines(board)
    budget = _NodeBudget(engines, node_limit)
    if seed is not None and len(engines) == 1:
        found, status = restarts(engines[0], deadline, seed, budget=budget)
        return found, status, engines
    while True:
        for eng in engines:
            found: list[list[Placed]] = []
            status = eng.solutions(corner_starter(eng), limit=1, seconds=deadline.left(), on_solution=found.append,
                                   max_nodes=budget.slice(SLICE if len(engines) > 1 else 0), resume=True)
            if found:
                return found[0], "limit", engines
            if status in ("exhausted", "time limit"):
                return None, status, engines
            if budget.spent():
                return None, "nodes", engines


class _NodeBudget:
    """A limit on the nodes of several engines' searches together (None: no limit); each
    engine's node count only grows."""

    def __init__(self, engines: list[Engine], limit: int | None) -> None:
        self.engines, self.limit = engines, limit
        self.before = sum(e.nodes for e in engines)

    def used(self) -> int:
        return sum(e.nodes for e in self.engines) - self.before

    def spent(self) -> bool:
        return self.limit is not None and self.used() >= self.limit

    def slice(self, nodes: int) -> int:
        """The nodes of the next call: ``nodes`` (0: no limit), and no more than is left."""
        if self.limit is None:
            return nodes
        left = max(1, self.limit - self.used())
        return left if nodes == 0 else min(nodes, left)


def luby(i: int) -> int:
    """The ``i``-th term (from 1) of Luby, Sinclair and Zuckerman's restart sequence
    1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...: within a log factor of the best fixed
    restart length for any run-time distribution, without knowing it."""
    if i < 1:
        raise ValueError("luby: i counts from 1")
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


#: nodes of the unit run of :func:`restarts`
LUBY_UNIT = 1 << 20


def restarts(engine: Engine, deadline: Deadline = NO_DEADLINE, seed: int = 1, unit: int = LUBY_UNIT,
             budget: "_NodeBudget | None" = None) -> tuple[list[Placed] | None, str]:
    """One solution by restarts: run ``i`` searches the whole tree in a value order randomised
    from (``seed``, ``i``) for at most ``luby(i) * unit`` nodes.  The same seed gives the same
    runs.  A run that ends its tree proves there is no solution ("exhausted"); otherwise
    (solution or None, "limit" / "time limit" / "nodes": ``budget`` spent).  Restarts cut the heavy tail of backtracking: a
    search stuck under a bad early choice is abandoned, and the runs grow so that a needed long
    one comes."""
    budget = budget or _NodeBudget([engine], None)
    starter = corner_starter(engine)
    i = 0
    while True:
        i += 1
        found: list[list[Placed]] = []
        status = engine.solutions(starter, limit=1, seconds=deadline.left(), on_solution=found.append,
                                  max_nodes=budget.slice(luby(i) * unit), seed=_mix(seed, i))
        if found:
            return found[0], "limit"
        if status in ("exhausted", "time limit"):
            return None, status
        if budget.spent():
            return None, "nodes"


def _mix(seed: int, i: int) -> int:
    """A run's seed from the user's and the run's number (never 0, which means no randomness)."""
    x = (seed * 0x9E3779B97F4A7C15 + i * 0xBF58476D1CE4E5B9) & (2 ** 64 - 1)
    x ^= x >> 31
    return x or 1


def solve_engines(board: EdgeBoard) -> list[Engine]:
    """The engines :func:`race` takes turns with: every order (order "auto"), the smallest
    estimated tree first; or the one of the smallest tree with the "tight" value order when that
    tree is below :data:`RACE_ABOVE` nodes (few solutions: one long search)."""
    orders = ORDERS[1:] if board.order == "auto" else (board.order,)
    engines = [Engine(replace(board, order=o)) for o in orders]
    sizes = {id(e): e.estimate(probes=ORDER_PROBES) for e in engines}
    engines.sort(key=lambda e: sizes[id(e)])           # the smallest estimated tree first
    if sizes[id(engines[0])] < RACE_ABOVE:
        engines = [Engine(replace(engines[0].board, values="tight"))]
    return engines


# -- jobs: the search split by prefix, for worker processes ----------------------------------------
@dataclass
class JobResult:
    """One prefix searched to the end (or to the time limit): its solutions, nodes, CPU seconds."""

    prefix: tuple[int, ...]
    solutions: int
    nodes: int
    seconds: float
    status: str
    boards: list[list[Placed]] | None = None


def split(engine: Engine, share: float = 1 / 50, probes: int = 200,
          max_jobs: int = 4096) -> list[tuple[tuple[int, ...], float]]:
    """Jobs that partition the search: (prefix, Knuth's estimate of the nodes below it), a prefix
    being the table positions of the first placements; the largest estimate is split into its
    children until none is above ``share`` of the estimated total (or there are ``max_jobs``).
    Jobs come in search order, so their solutions concatenate to the unsplit search's."""

    def est(prefix: tuple[int, ...]) -> float:
        return 1.0 + engine.estimate(prefix, probes, seed=len(prefix) + 1)

    total = est(())
    jobs: dict[tuple[int, ...], float] = {(): total}
    rank: dict[tuple[int, ...], tuple[int, ...]] = {(): ()}    # places in the search's own order
    heap = [(-total, ())]
    while heap and len(jobs) < max_jobs:
        size, prefix = heapq.heappop(heap)
        if -size <= share * total or len(prefix) == len(engine.plan.steps):
            break
        del jobs[prefix]
        for i, child in enumerate(engine.children(prefix)):
            p = prefix + (child,)
            jobs[p], rank[p] = est(p), rank[prefix] + (i,)
            heapq.heappush(heap, (-jobs[p], p))
    # in the order the search meets them (the "tight" value order is not the table's)
    return sorted(jobs.items(), key=lambda job: rank[job[0]])


def run_jobs(board: EdgeBoard, prefixes: Sequence[Sequence[int]], seconds: float | None = None,
             keep: bool = False, limit: int = 0) -> list[JobResult]:
    """Search each prefix in turn (a worker's task); ``keep`` returns the solutions too; with
    ``limit``, stop at the job that meets that many solutions (``solve`` asks for one).
    ``seconds`` counts on this worker's clock (a Dask worker's is not the caller's)."""
    eng = Engine(board)
    out = []
    deadline = Deadline.after(seconds)
    for prefix in prefixes:
        left = deadline.left()
        boards: list[list[Placed]] | None = [] if keep else None
        eng.search.reset()
        t = time.process_time()           # CPU seconds: the machine may be shared
        status = eng.solutions(prefix, limit=limit, seconds=left,
                               on_solution=None if boards is None else boards.append)
        out.append(JobResult(tuple(prefix), eng.search.solutions, eng.nodes, time.process_time() - t,
                             status, boards))
        if status in ("time limit", "limit"):
            break
    return out
