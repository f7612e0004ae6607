"""The scoring search (the edge-matching backtracker's ``maximise`` in the engine table): the
compiled search (:mod:`satiling.engines.edgescore`) with
its restarts, its schedule of breaks (:class:`Tuning`) and one search per core sharing the best
board's breaks (measurements: docs/decisions/2026-11-27-eternity2-scoring-search.md)."""
from __future__ import annotations

import array
import itertools
import os
import time
from contextlib import closing
from dataclasses import dataclass, replace
from typing import Any, Callable

from ...errors import SatilingError
from ...limits import clock
from .board import Improvement, MaxResult, checked_score
from .job import MaxJob

#: hears the board a search stands on (tiles)
Show = Callable[[list[Any]], None]

#: the backtracker searches boards up to this many squares without a schedule (to the proof)
EXACT_LIMIT = 25
#: the backtracker restarts after this many nodes without a better board ...
RESTART_NODES = 1 << 25
#: ... doubled at each restart without a better board, up to this many (see :data:`DEFAULT`)
LONGEST_RESTART = 1 << 30
#: nodes the descent to the first board may take (one descent fills the board: each square takes
#: any piece of its kind, so this bounds only a board whose pinned pieces leave none)
FIRST_BOARD_NODES = 1 << 16
#: the layout seeds of one search seed: seed * LAYOUT_STRIDE + restart
LAYOUT_STRIDE = 1_000_003


# -- the compiled backtracker -----------------------------------------------------------------
@dataclass
class Tuning:
    """How the scoring search runs (measurements of the defaults:
    docs/decisions/2026-11-27-eternity2-scoring-search.md).

    ``order``: fill order (``edgescore.ORDERS``); ``start``/``full``: the schedule of breaks as
    fractions of the depth and ``bend`` its curve (:func:`edgescore.reserve`), or ``slips``: the
    depths that each unlock one more break (:func:`edgescore.slips`); ``markov``: for caps of at
    most :data:`edgeschedule.MODEL_CAP` breaks, the schedule a Markov chain of the board picks
    (:mod:`edgeschedule`: the most full boards per node), starting from the curve's; ``measure``:
    the chain's rates measured by the search itself, each time its nodes have doubled
    (:meth:`edgeschedule.Planner.measure`); ``tile``: cut
    by the tileability bound;
    ``restart_nodes``: a restart after that many nodes without a better board, the patience
    doubling at each restart up to ``restart_max`` (:meth:`Tuning.patience`);
    ``priority``: colours whose pieces must be used early, at least
    :func:`edgescore.blackwood_need` sides of them by each depth (Blackwood's heuristic);
    ``double``: a square may break both its placed joins at once; ``rim_breaks``: a join between
    two frame squares may break; ``sub_depth``/``sub_limit``: the subtree below each node at
    that fraction of the depth gets at most ``sub_limit`` nodes (0: no limit); ``slack``: the
    schedule of a cap this many breaks looser, only better boards still reported (see
    :data:`DEFAULT`); ``stall``: the patience doubles only with each restart since the best board
    last improved, not with every restart.  ``pin_ahead``: the chain counts a pinned piece's
    joins where the search checks them, at the free squares that meet it
    (:func:`edgeschedule.join_rates`'s ``ahead``); ``pin_room``: one break more from the square
    before each hint piece on top of the chain's schedule (the curve's always has it), for the
    hints at ``room_from`` of the depth or later."""

    order: str = "rows"
    start: float | None = None
    full: float | None = None
    slips: tuple[int, ...] | None = None
    markov: bool = False
    measure: bool = False
    tile: bool = False
    restart_nodes: int = RESTART_NODES
    restart_max: int = RESTART_NODES
    priority: tuple[int, ...] = ()
    double: bool = True
    rim_breaks: bool = True
    sub_depth: float = 0.0
    sub_limit: int = 0
    bend: float = 1.0
    slack: int = 0
    stall: bool = False
    pin_ahead: bool = False
    pin_room: bool = True
    room_from: float = 0.0

    def need(self, puzzle: Any, hints: bool = False) -> list[int] | None:
        """The priority sides asked for by each depth (:func:`edgescore.blackwood_need`), scaled
        to the sides the search can place early (:func:`free_priority_sides`)."""
        from ...engines import edgescore
        if not self.priority:
            return None
        return edgescore.blackwood_need(puzzle.rows * puzzle.cols,
                                        free_priority_sides(puzzle, self.priority, hints))

    def patience(self, k: int) -> int:
        """Nodes restart ``k`` may spend without a better board: ``restart_nodes`` doubled ``k``
        times, at most ``restart_max`` (short restarts while better boards come easily, long ones
        to search below a good beginning for the rare best boards)."""
        return max(self.restart_nodes, min(self.restart_max, self.restart_nodes << min(k, 62)))

    def restart_patience(self, k: int, stalled: int) -> int:
        """The patience of restart ``k`` (from 0) when the last ``stalled`` restarts found no
        better board: with ``stall`` it grows with those alone, else with every restart."""
        return self.patience(stalled if self.stall else k)

    def held(self, n: int, cap: int, pins: list[int] = (), planner: Any = None) -> list[int]:
        """Breaks held back at each depth; one fewer from the square before each depth in
        ``pins`` (the hint pieces: the squares that meet a pinned piece's fixed colours need room
        to break a join before the schedule gives it; measured in
        docs/decisions/2026-11-27-eternity2-scoring-search.md).  ``planner``: the board's
        :class:`edgeschedule.Planner`, for ``markov``."""
        from ...engines import edgescore, edgeschedule
        if self.markov and planner is not None and cap <= edgeschedule.MODEL_CAP:
            allow = planner.allow(cap, lambda k: self.curve_slips(n, k))
            room = [p for p in pins if p >= self.room_from * n] if self.pin_room else ()
            return [max(0, cap - int(a) - sum(p <= d + 1 for p in room)) for d, a in enumerate(allow)]
        loose = cap + self.slack
        if self.slips is not None:
            held = edgescore.slips(n, loose, list(self.slips))
        else:
            held = edgescore.reserve(n, loose, edgescore.START if self.start is None else self.start,
                                     edgescore.FULL if self.full is None else self.full, self.bend)
        return [max(0, h - self.slack - sum(p <= d + 1 for p in pins)) for d, h in enumerate(held)]

    def curve_slips(self, n: int, cap: int) -> list[int]:
        """The depths at which the curve (``markov`` off) first allows each of ``cap`` breaks."""
        allow = [cap - h for h in replace(self, markov=False).held(n, cap)]
        slips = [d for d in range(n) for _ in range(allow[d] - (allow[d - 1] if d else 0))]
        return (slips + [n - 1] * cap)[:cap]


def free_priority_sides(puzzle: Any, colours: tuple[int, ...], hints: bool = False) -> int:
    """The sides of ``colours`` on the pieces the search places, less one for each such side of a
    pinned piece (the starter; the hints if ``hints``) that meets a free square: that square's
    matching side is due where the pinned piece stands, which for a hint near the end of the
    scan is long after the need curve asks for nearly every side (Eternity II with its clues:
    122 sides, 118 of them free; asked for all 122 the search stalled in the middle of the
    board: docs/decisions/2026-11-28-eternity2-five-clues.md)."""
    from ...engines import edgescore
    pinned = {(t.row, t.col): (t.piece, t.rotation) for t in puzzle.fixed + (puzzle.hints if hints else [])}
    held = {p for p, _ in pinned.values()}
    free = [e for i, e in enumerate(puzzle.pieces, start=1) if i not in held]
    due = 0
    for (r, c), (p, rot) in pinned.items():
        for k, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            nb = (r + dr, c + dc)
            if 0 <= nb[0] < puzzle.rows and 0 <= nb[1] < puzzle.cols and nb not in pinned:
                due += puzzle.edges(p, rot)[k] in colours
    return max(0, edgescore.priority_sides(free, colours) - due)


#: the default (see :class:`Tuning`; the priority colours are picked per board by
#: :func:`default_tuning`): one break per square at a time, as Blackwood's solver; the schedule
#: from depth 200 / 256 to the last square, bent (fewer breaks early, more near the end); restarts
#: growing from 2^25 nodes to 2^30 (:meth:`Tuning.patience`: a short restart abandons a beginning
#: that the later squares fit well before the search below it has found its best boards); the
#: schedule of a cap two breaks looser (``slack``), clipped at the cap, so the full allowance comes
#: earlier in the depth; the patience grown by stalled restarts only (``stall``), so restarts stay
#: short while better boards come easily.  Each setting measured against its alternatives:
#: docs/decisions/2026-11-27-eternity2-scoring-search.md.  :func:`default_tuning` adds the
#: board's priority colours and, from 16x16, the Markov chain's schedule below 40 breaks, its
#: rates measured as the search goes.
DEFAULT = Tuning(double=False, start=200 / 256, full=255 / 256, bend=1.2,
                 restart_max=LONGEST_RESTART, slack=2, stall=True)


#: boards of at least this many squares take the Markov chain's schedule (``markov``) with its
#: rates measured (``measure``), measured on Eternity II: docs/decisions/2026-11-27-eternity2-pace.md
MARKOV_SQUARES = 256


def default_tuning(puzzle: Any) -> Tuning:
    """:data:`DEFAULT` with the priority colours :func:`edgescore.priority_colours` picks for the
    board (Blackwood's 5, 7 and 20 on Eternity II), and on boards of :data:`MARKOV_SQUARES` squares
    and more the Markov chain's schedule, its rates measured by the search (``measure``).  On generated boards from 16x16 up the priority
    colours and the schedule together give more joins in the same time than either alone; on
    smaller boards they are even (measurements: docs/decisions/2026-11-27-eternity2-scoring-search.md)."""
    from ...engines import edgescore
    markov = puzzle.rows * puzzle.cols >= MARKOV_SQUARES
    return replace(DEFAULT, priority=edgescore.priority_colours(puzzle.pieces), markov=markov,
                   measure=markov)


def default_workers() -> int:
    """One search per core."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def run(job: MaxJob) -> MaxResult:
    """The scoring search's entry in the engine table.  Without a time limit it runs until
    Ctrl-C (the caller reports the best board so far).  On a Dask cluster: :func:`.cluster.run`."""
    return _backtrack(job.puzzle, job.time_limit, job.on_improve, job.hints, job.start, job.seed,
                      job.cpu_time, job.tuning, job.workers, job.known, job.on_partial)



def _backtrack(puzzle, time_limit: float | None, on_improve, hints: bool, start: float, seed: int,
               cpu_time: bool = False, tuning: Tuning | None = None, workers: int | None = None,
               known: tuple[list[Any], int] | None = None, partial: Show | None = None) -> MaxResult:
    """The scoring search: one per worker process (different seeds), each improving board
    re-checked here by the scorer before it is reported; ``partial`` is shown the board the
    search (the first worker's) stands on, a few times a second."""
    n = puzzle.rows * puzzle.cols
    tuning = tuning or default_tuning(puzzle)
    workers = default_workers() if workers is None else workers
    if n <= EXACT_LIMIT or workers <= 1:
        return _backtrack_one(puzzle, time_limit, on_improve, hints, start, seed, cpu_time, tuning,
                              known=known, partial=partial)
    return _backtrack_many(puzzle, time_limit, on_improve, hints, start, seed, cpu_time, tuning, workers,
                           known, partial)


def _backtrack_one(puzzle, time_limit: float | None, on_improve, hints: bool, start: float, seed: int,
                   cpu_time: bool, tuning: Tuning, shared: Any = None,
                   known: tuple[list[Any], int] | None = None, partial: Show | None = None) -> MaxResult:
    """Restarts of the scoring search, each with the candidates in a new random order and the
    cap one below the best board so far, each ending after :meth:`Tuning.patience` nodes without
    a better board.  Small boards get one run without
    a schedule: if it ends, its best board is optimal.  ``shared``: a ``multiprocessing.Value("q")``
    holding the fewest breaks any search in :func:`_backtrack_many` has found; the best board
    so far is the best of them all, and a running search lowers its cap when another finds one.
    ``partial``: shown the board the search stands on (tiles), a few times a second."""
    from ...engines import edgescore
    n, joins = puzzle.rows * puzzle.cols, len(puzzle.joins())
    exact = n <= EXACT_LIMIT
    need = None if exact else tuning.need(puzzle, hints)     # the same for every restart
    # ``known``: the board a search continues from, and its breaks: only better boards are hunted
    best = {"breaks": joins + 1, "solution": []} if known is None else \
        {"breaks": known[1], "solution": known[0]}
    # the limit is this search's budget: CPU seconds with ``cpu_time`` (benchmarks on a shared
    # machine), else wall seconds counted from its own start (a Dask task's clock is its worker's)
    tick = time.process_time if cpu_time else clock
    begin, exhausted = tick(), False
    planner, hist, measured_at = None, None, tuning.restart_nodes
    if tuning.markov and not exact:       # one chain for every restart (the fill order is theirs)
        from ...engines import edgeschedule
        planner = edgeschedule.Planner(
            puzzle, edgescore.fill_order(puzzle.rows, puzzle.cols, tuning.order),
            [(t.row, t.col) for t in puzzle.fixed + (puzzle.hints if hints else [])],
            tuning.pin_ahead)
        if tuning.measure:                # the counts of every restart, for the chain's rates
            hist = array.array("q", [0] * len(edgescore.HIST_ROWS) * (n + 1))

    shown = dict(best)                # the best board reported so far, the first board's too

    def report(solution: list, breaks: int, hunted: bool = True) -> None:
        score = checked_score(puzzle, solution, hints)
        if score != joins - breaks:
            raise SatilingError(f"internal error: the search counts {joins - breaks} matching "
                                f"joins, the board has {score}")
        if hunted:                    # the search's own boards set its cap (and the others')
            best.update(breaks=breaks, solution=solution)
            if shared is not None:
                with shared.get_lock():
                    shared.value = min(shared.value, breaks)
        if breaks < shown["breaks"]:
            shown.update(breaks=breaks, solution=solution)
            on_improve(Improvement(score, joins, clock() - start, solution))

    if known is None and not exact:   # a board at once, so a stop at any moment has one to keep;
        first = _first_board(puzzle, hints, seed)     # the search's cap and schedule ignore it
        if first is not None and (shared is None or first[1] < shared.value):
            report(*first, hunted=False)    # (no better than another worker's: not reported)
    stalled = 0                       # restarts since the best board last improved
    nodes = 0                         # of every restart
    for k in itertools.count():
        left = None if time_limit is None else time_limit - (tick() - begin)
        if best["breaks"] == 0 or (shared is not None and shared.value == 0) or \
                (left is not None and left <= 0):
            break                     # a perfect board (here or in another worker), or no time
        # restart k of seed s shuffles with s * LAYOUT_STRIDE + k: the restarts of two seeds never
        # share a candidate order (with s + k, the workers of neighbouring seeds would run one
        # another's layouts and end on the same board)
        lay = edgescore.layout(puzzle, hints, seed=seed * LAYOUT_STRIDE + k,
                               order="rows" if exact else tuning.order, priority=() if exact else tuning.priority,
                               double=exact or tuning.double, rim_breaks=exact or tuning.rim_breaks)

        def found(breaks: int, nodes: int, raw: list, lay=lay) -> bool:
            report(puzzle.tiles(lay.board(raw)), breaks)
            return False

        def show(raw: list, lay=lay) -> None:
            partial(puzzle.tiles(lay.board(raw)))

        cap = (best["breaks"] if shared is None else min(best["breaks"], shared.value)) - 1
        hinted = [lay.order.index((t.row, t.col)) for t in puzzle.hints] if hints else []
        held = [0] * n if exact else tuning.held(n, cap, hinted, planner)
        patience = 0 if exact else tuning.restart_patience(k, stalled)
        out = edgescore.search(lay, held, cap, found, seconds=0.0 if left is None else max(left, 1e-3),
                               cpu=cpu_time, patience=patience,
                               tile=tuning.tile and not exact, need=need,
                               sub_depth=min(n - 1, int(tuning.sub_depth * n)),
                               sub_limit=0 if exact else tuning.sub_limit,
                               bound=None if shared is None else shared.get_obj(), hist=hist,
                               watch=None if partial is None else show)
        nodes += out.nodes
        counted = 0 if hist is None else sum(hist[:n + 1])      # the row of nodes placed
        if counted >= measured_at:
            planner.measure(hist)         # again each time the nodes counted have doubled
            measured_at = 2 * counted
        exhausted = exact and out.status == "done"
        stalled = stalled + 1 if best["breaks"] > cap else 0
        if exhausted:
            break
    if not shown["solution"]:
        return MaxResult("UNKNOWN", 0, joins, [], 0.0, nodes=nodes)
    score = joins - shown["breaks"]
    proved = shown["breaks"] == 0 or exhausted
    return MaxResult("OPTIMAL" if proved else "FEASIBLE", score, joins, shown["solution"], 0.0,
                     score if proved else None, nodes=nodes)


def _first_board(puzzle, hints: bool, seed: int) -> tuple[list, int] | None:
    """The first full board of one descent with every break allowed (its tiles and breaks), or
    None if that descent found none: milliseconds, where the scheduled search takes about a
    second to its first board on Eternity II."""
    from ...engines import edgescore
    n, joins = puzzle.rows * puzzle.cols, len(puzzle.joins())
    lay = edgescore.layout(puzzle, hints, seed=seed * LAYOUT_STRIDE)    # breaks anywhere
    first: list = []

    def found(breaks: int, nodes: int, raw: list) -> bool:
        first.append((puzzle.tiles(lay.board(raw)), breaks))
        return True                   # the first board is enough

    edgescore.search(lay, [0] * n, joins, found, node_limit=FIRST_BOARD_NODES)
    return first[0] if first else None


def _backtrack_many(puzzle, time_limit: float | None, on_improve, hints: bool, start: float, seed: int,
                    cpu_time: bool, tuning: Tuning, workers: int,
                    known: tuple[list[Any], int] | None = None, partial: Show | None = None) -> MaxResult:
    """``workers`` processes, each :func:`_backtrack_one` with its own seed, all hunting boards
    better than the best any of them has found (a shared count of breaks); their better boards
    come back through pipes, are checked again here and reported in order of score.  With
    ``partial``, the first worker also sends the board its search stands on (:class:`Partial`),
    a few times a second: one picture of the search is enough."""
    import multiprocessing as mp
    from ...children import worker_messages
    joins = len(puzzle.joins())
    best: dict[str, Any] = {"score": -1, "solution": []} if known is None else \
        {"score": joins - known[1], "solution": known[0]}
    # inherited by the forked workers: the fewest breaks of any board so far
    shared = mp.get_context("fork").Value("q", joins + 1 if known is None else known[1])
    jobs = [(puzzle, time_limit, hints, start, seed + 100003 * w, cpu_time, tuning, shared)
            for w in range(workers)]
    work: Callable[..., None] = _work
    if partial is not None:                   # the first worker shows its board
        jobs = [job + (w == 0,) for w, job in enumerate(jobs)]
        work = _work_watched
    with closing(worker_messages(work, jobs, error=SatilingError)) as boards:
        for solution in boards:
            if isinstance(solution, Partial):
                partial(solution.tiles)
                continue
            score = checked_score(puzzle, solution, hints)
            if score > best["score"]:
                best.update(score=score, solution=solution)
                on_improve(Improvement(score, joins, clock() - start, solution))
            if score == joins:
                break
    if best["score"] < 0:
        return MaxResult("UNKNOWN", 0, joins, [], 0.0)
    proved = best["score"] == joins
    return MaxResult("OPTIMAL" if proved else "FEASIBLE", best["score"], joins, best["solution"],
                     0.0, best["score"] if proved else None)


def _work(puzzle, time_limit, hints, start, seed, cpu_time, tuning, shared, send) -> None:
    """A worker process's search: its better boards go to ``send``."""
    _backtrack_one(puzzle, time_limit, lambda imp: send(imp.solution), hints, start, seed,
                   cpu_time, tuning, shared)


@dataclass
class Partial:
    """A worker's message: the board its search stands on (tiles), not a better board."""

    tiles: list[Any]


def _work_watched(puzzle, time_limit, hints, start, seed, cpu_time, tuning, shared, watch, send) -> None:
    """:func:`_work` that, with ``watch``, also sends the board its search stands on
    (:class:`Partial`), a few times a second."""
    _backtrack_one(puzzle, time_limit, lambda imp: send(imp.solution), hints, start, seed,
                   cpu_time, tuning, shared, partial=(lambda tiles: send(Partial(tiles))) if watch else None)
