"""The best edge-matching board in a time budget: maximise the number of matching joins.

The family builds the model (:meth:`EdgeMatchPuzzle.match_problem`): every square gets one piece and
every piece one square (hard), and each interior join has a variable that may be true only if the
join matches.  The engines maximise the sum of those variables (the backtracker without the model):

* ``backtrack`` -- the compiled scoring search (:mod:`satiling.engines.edgescore`): a row-scan
  backtracker that may break joins by a schedule over the depth, restarted with a new candidate
  order when some 30 million nodes pass without a better board, twice as many at each restart
  since the best board last improved, up to a billion (:meth:`Tuning.patience`); one search per
  core by default (different seeds, all hunting boards better than the best any of them has found:
  a count of breaks shared by the processes, which each search reads every few milliseconds; each
  better board comes back to this process and is checked again); with priority colours, whose pieces must be used early, picked by a rule that gives
  Blackwood's own three on Eternity II (:func:`default_tuning`); a square breaks at most one join,
  and the schedule is that of a cap two breaks looser (:data:`DEFAULT`).  On small boards it runs
  without a schedule to the end, which proves the best score (branch and bound).  Why these
  settings, measured by seed: docs/decisions/2026-11-27-eternity2-scoring-search.md;
* ``cpsat`` -- OR-Tools CP-SAT with the sum as objective over the whole board; anytime: every
  better board it finds is reported, and it starts from a greedy board given as a hint;
* ``lns`` -- large-neighbourhood search for boards too big for that (Eternity II's whole-board
  model is one): from the greedy board, repeatedly free the pieces of a window
  of squares (or of squares scattered around mismatched joins), let CP-SAT re-place them to
  maximise the joins touching them (hinted with their current places, so never worse), keep the
  result;
* ``rc2`` -- PySAT's RC2 MaxSAT solver, each join a soft unit clause of weight 1; it reports only the
  optimum (core-guided search has no intermediate boards), so it suits small boards.  It runs in a
  child process so the time limit can stop it.

Every reported board is re-scored from the pieces (the model's own count is never trusted).
Ctrl-C or SIGTERM (raised as ``KeyboardInterrupt``) ends any engine with the best board so far:
the result's ``stopped_by`` holds the exception.  The whole-board CP-SAT call runs in a thread
that either signal stops at once (:func:`satiling.signals.in_thread`); an LNS window (seconds at
most) ends first.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import SatilingError
from ..search.router import maximise_engine

ENGINES = ("auto", "backtrack", "cpsat", "lns", "rc2")
#: the backtracker searches boards up to this many squares without a schedule (to the proof)
EXACT_LIMIT = 25
#: the backtracker restarts after this many nodes without a better board ...
RESTART_NODES = 1 << 25
#: ... doubled at each restart without a better board, up to this many (see :data:`DEFAULT`)
LONGEST_RESTART = 1 << 30
#: the layout seeds of one search seed: seed * LAYOUT_STRIDE + restart
LAYOUT_STRIDE = 1_000_003


@dataclass
class Improvement:
    """A board better than every one before: ``score`` of ``joins`` joins match."""

    score: int
    joins: int
    seconds: float
    solution: list[Any] = field(repr=False)


@dataclass
class MaxResult:
    """``status``: OPTIMAL (proved best), FEASIBLE (best found in the time), UNKNOWN (no board)."""

    status: str
    score: int
    joins: int
    solution: list[Any]
    seconds: float
    bound: int | None = None       # an upper bound on the score, when the engine proved one
    stopped_by: BaseException | None = None     # the interrupt that ended the search early


def maximize_matches(puzzle: Any, time_limit: float | None = None,
                     on_improve: Callable[[Improvement], None] | None = None, engine: str = "auto",
                     hints: bool = False, workers: int | None = None, greedy_start: bool = True,
                     seed: int = 0, cpu_time: bool = False, tuning: Tuning | None = None,
                     start_board: list[Any] | None = None) -> MaxResult:
    """The best board found for ``puzzle`` within ``time_limit`` seconds (wall clock; CPU
    seconds of each search process with ``cpu_time``, backtrack engine only, for benchmarks on a
    shared machine).  ``workers``: CP-SAT's threads (default 1), or the backtracker's search
    processes (default one per core).  ``tuning``: the backtracker's settings (:class:`Tuning`).
    An interrupt ends the search early with the best board so far (``stopped_by``).
    ``start_board``: a board to continue from (backtrack engine): it is the best board so far, and
    the search hunts only boards better than it."""
    if engine not in ENGINES:
        raise SatilingError(f"unknown engine {engine!r} for --maximize-matches (choose from {', '.join(ENGINES)})")
    engine = maximise_engine(puzzle, engine)
    start = time.perf_counter()
    best = _Best(on_improve, len(puzzle.joins()))
    known = None
    if start_board is not None:
        if engine != "backtrack":
            raise SatilingError(f"a start board continues the backtrack engine's search, not {engine}'s")
        score = checked_score(puzzle, start_board, hints)
        best.improve(Improvement(score, best.joins, 0.0, list(start_board)))
        known = (list(start_board), best.joins - score)
    try:
        result = _run(engine, puzzle, time_limit, best.improve, hints, workers, greedy_start, start,
                      seed, cpu_time, tuning, known)
    except KeyboardInterrupt as stop:
        result = best.result("FEASIBLE" if best.solution else "UNKNOWN")
        result.stopped_by = stop
    result.seconds = time.perf_counter() - start
    return result


def _run(engine, puzzle, time_limit, on_improve, hints, workers, greedy_start, start, seed,
         cpu_time, tuning=None, known=None) -> MaxResult:
    if engine in ("lns", "backtrack"):
        # the backtracker runs until Ctrl-C (the best board so far is printed) when no limit is
        # given; LNS needs a limit to share out among its windows
        if time_limit is None and engine == "lns":
            raise SatilingError("--maximize-matches --engine lns needs --time-limit")
        if engine == "lns":
            return _lns(puzzle, time_limit, on_improve, hints, start, seed)
        return _backtrack(puzzle, time_limit, on_improve, hints, start, seed, cpu_time, tuning, workers,
                          known)
    problem, matched = puzzle.match_problem(hints=hints)
    if engine == "cpsat":
        return _cpsat(puzzle, problem, matched, time_limit, on_improve, workers or 1, greedy_start,
                      start, hints)
    return _rc2(puzzle, problem, matched, time_limit, on_improve, start)


class _Best:
    """The best board reported so far, passed on to the caller's ``on_improve``."""

    def __init__(self, on_improve: Callable[[Improvement], None] | None, joins: int) -> None:
        self.on_improve, self.joins = on_improve, joins
        self.score, self.solution = -1, []

    def improve(self, imp: Improvement) -> None:
        """Keep the board and tell the caller, with Ctrl-C and SIGTERM held back in between: an
        interrupt between the two would print a board better than the last score reported."""
        import signal
        import threading
        held = {signal.SIGINT, signal.SIGTERM}
        hold = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
        if hold:
            old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
        try:
            if imp.score > self.score:
                self.score, self.solution = imp.score, imp.solution
            if self.on_improve:
                self.on_improve(imp)
        finally:
            if hold:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)

    def result(self, status: str) -> MaxResult:
        return MaxResult(status, max(self.score, 0), self.joins, self.solution, 0.0)


def _score(puzzle: Any, solution: list[Any]) -> int:
    from ..families.edgematch.score import score
    return score(puzzle, puzzle.board_from(solution, strict=False)).matched


# -- the compiled backtracker -----------------------------------------------------------------
@dataclass
class Tuning:
    """How the scoring search runs (measurements of the defaults:
    docs/decisions/2026-11-27-eternity2-scoring-search.md).

    ``order``: fill order (``edgescore.ORDERS``); ``start``/``full``: the schedule of breaks as
    fractions of the depth and ``bend`` its curve (:func:`edgescore.reserve`), or ``slips``: the
    depths that each unlock one more break (:func:`edgescore.slips`); ``tile``: cut by the
    tileability bound;
    ``restart_nodes``: a restart after that many nodes without a better board, the patience
    doubling at each restart up to ``restart_max`` (:meth:`Tuning.patience`); ``repair``: the
    share of the time given to the closing repair of the best board (:mod:`repair`);
    ``priority``: colours whose pieces must be used early, at least
    :func:`edgescore.blackwood_need` sides of them by each depth (Blackwood's heuristic);
    ``double``: a square may break both its placed joins at once; ``rim_breaks``: a join between
    two frame squares may break; ``sub_depth``/``sub_limit``: the subtree below each node at
    that fraction of the depth gets at most ``sub_limit`` nodes (0: no limit); ``slack``: the
    schedule of a cap this many breaks looser, only better boards still reported (see
    :data:`DEFAULT`); ``stall``: the patience doubles only with each restart since the best board
    last improved, not with every restart."""

    order: str = "rows"
    start: float | None = None
    full: float | None = None
    slips: tuple[int, ...] | None = None
    tile: bool = False
    restart_nodes: int = RESTART_NODES
    restart_max: int = RESTART_NODES
    repair: float = 0.0
    priority: tuple[int, ...] = ()
    double: bool = True
    rim_breaks: bool = True
    sub_depth: float = 0.0
    sub_limit: int = 0
    bend: float = 1.0
    slack: int = 0
    stall: bool = False

    def need(self, puzzle: Any) -> list[int] | None:
        from ..engines import edgescore
        if not self.priority:
            return None
        return edgescore.blackwood_need(puzzle.rows * puzzle.cols,
                                        edgescore.priority_sides(puzzle.pieces, self.priority))

    def patience(self, k: int) -> int:
        """Nodes restart ``k`` may spend without a better board: ``restart_nodes`` doubled ``k``
        times, at most ``restart_max`` (short restarts while better boards come easily, long ones
        to search below a good beginning for the rare best boards)."""
        return max(self.restart_nodes, min(self.restart_max, self.restart_nodes << min(k, 62)))

    def restart_patience(self, k: int, stalled: int) -> int:
        """The patience of restart ``k`` (from 0) when the last ``stalled`` restarts found no
        better board: with ``stall`` it grows with those alone, else with every restart."""
        return self.patience(stalled if self.stall else k)

    def held(self, n: int, cap: int, pins: list[int] = ()) -> list[int]:
        """Breaks held back at each depth; one fewer from the square before each depth in
        ``pins`` (the hint pieces: the squares that meet a pinned piece's fixed colours need room
        to break a join before the schedule gives it; measured in
        docs/decisions/2026-11-27-eternity2-scoring-search.md)."""
        from ..engines import edgescore
        loose = cap + self.slack
        if self.slips is not None:
            held = edgescore.slips(n, loose, list(self.slips))
        else:
            held = edgescore.reserve(n, loose, edgescore.START if self.start is None else self.start,
                                     edgescore.FULL if self.full is None else self.full, self.bend)
        return [max(0, h - self.slack - sum(p <= d + 1 for p in pins)) for d, h in enumerate(held)]


#: the default (see :class:`Tuning`; the priority colours are picked per board by
#: :func:`default_tuning`): one break per square at a time, as Blackwood's solver; the schedule
#: from depth 200 / 256 to the last square, bent (fewer breaks early, more near the end); restarts
#: growing from 2^25 nodes to 2^30 (:meth:`Tuning.patience`: a short restart abandons a beginning
#: that the later squares fit well before the search below it has found its best boards); the
#: schedule of a cap two breaks looser (``slack``), clipped at the cap, so the full allowance comes
#: earlier in the depth; the patience grown by stalled restarts only (``stall``), so restarts stay
#: short while better boards come easily.  Each setting measured against its alternatives:
#: docs/decisions/2026-11-27-eternity2-scoring-search.md.
DEFAULT = Tuning(double=False, start=200 / 256, full=255 / 256, bend=1.2,
                 restart_max=LONGEST_RESTART, slack=2, stall=True)


def default_tuning(puzzle: Any) -> Tuning:
    """:data:`DEFAULT` with the priority colours :func:`edgescore.priority_colours` picks for the
    board (Blackwood's 5, 7 and 20 on Eternity II).  On generated boards from 16x16 up the priority
    colours and the schedule together give more joins in the same time than either alone; on
    smaller boards they are even (measurements: docs/decisions/2026-11-27-eternity2-scoring-search.md)."""
    from dataclasses import replace
    from ..engines import edgescore
    return replace(DEFAULT, priority=edgescore.priority_colours(puzzle.pieces))


def default_workers() -> int:
    """One search per core."""
    import os
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def _backtrack(puzzle, time_limit: float | None, on_improve, hints: bool, start: float, seed: int,
               cpu_time: bool = False, tuning: Tuning | None = None, workers: int | None = None,
               known: tuple[list[Any], int] | None = None) -> MaxResult:
    """The scoring search: one per worker process (different seeds), each improving board
    re-checked here by the scorer before it is reported."""
    n = puzzle.rows * puzzle.cols
    tuning = tuning or default_tuning(puzzle)
    workers = default_workers() if workers is None else workers
    if n <= EXACT_LIMIT or workers <= 1:
        return _backtrack_one(puzzle, time_limit, on_improve, hints, start, seed, cpu_time, tuning,
                              known=known)
    return _backtrack_many(puzzle, time_limit, on_improve, hints, start, seed, cpu_time, tuning, workers,
                           known)


def _backtrack_one(puzzle, time_limit: float | None, on_improve, hints: bool, start: float, seed: int,
                   cpu_time: bool, tuning: Tuning, shared: Any = None,
                   known: tuple[list[Any], int] | None = None) -> MaxResult:
    """Restarts of the scoring search, each with the candidates in a new random order and the
    cap one below the best board so far, each ending after :meth:`Tuning.patience` nodes without
    a better board; then the closing repair of the best board.  Small boards get one run without
    a schedule: if it ends, its best board is optimal.  ``shared``: a ``multiprocessing.Value("q")``
    holding the fewest breaks any search in :func:`_backtrack_many` has found; the best board
    so far is the best of them all, and a running search lowers its cap when another finds one."""
    from ..engines import edgescore
    n, joins = puzzle.rows * puzzle.cols, len(puzzle.joins())
    exact = n <= EXACT_LIMIT
    need = None if exact else tuning.need(puzzle)     # the same for every restart
    # ``known``: the board a search continues from, and its breaks: only better boards are hunted
    best = {"breaks": joins + 1, "solution": []} if known is None else \
        {"breaks": known[1], "solution": known[0]}
    clock = time.process_time if cpu_time else time.perf_counter
    begin, exhausted = clock(), False
    share = 0.0 if exact or time_limit is None else tuning.repair
    search_limit = None if time_limit is None else time_limit * (1 - share)

    def report(solution: list, breaks: int) -> None:
        score = checked_score(puzzle, solution, hints)
        if score != joins - breaks:
            raise SatilingError(f"internal error: the search counts {joins - breaks} matching "
                                f"joins, the board has {score}")
        best.update(breaks=breaks, solution=solution)
        if shared is not None:
            with shared.get_lock():
                shared.value = min(shared.value, breaks)
        on_improve(Improvement(score, joins, time.perf_counter() - start, solution))

    stalled = 0                       # restarts since the best board last improved
    for k in itertools.count():
        left = None if search_limit is None else search_limit - (clock() - begin)
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

        cap = (best["breaks"] if shared is None else min(best["breaks"], shared.value)) - 1
        hinted = [lay.order.index((t.row, t.col)) for t in puzzle.hints] if hints else []
        held = [0] * n if exact else tuning.held(n, cap, hinted)
        patience = 0 if exact else tuning.restart_patience(k, stalled)
        out = edgescore.search(lay, held, cap, found, seconds=0.0 if left is None else max(left, 1e-3),
                               cpu=cpu_time, patience=patience,
                               tile=tuning.tile and not exact, need=need,
                               sub_depth=min(n - 1, int(tuning.sub_depth * n)),
                               sub_limit=0 if exact else tuning.sub_limit,
                               bound=None if shared is None else shared.get_obj())
        exhausted = exact and out.status == "done"
        stalled = stalled + 1 if best["breaks"] > cap else 0
        if exhausted:
            break
    if share > 0 and best["solution"] and best["breaks"] > 0:
        _close(puzzle, best, time_limit - (clock() - begin), clock, hints, seed, report)
    if not best["solution"]:
        return MaxResult("UNKNOWN", 0, joins, [], 0.0)
    score = joins - best["breaks"]
    proved = best["breaks"] == 0 or exhausted
    return MaxResult("OPTIMAL" if proved else "FEASIBLE", score, joins, best["solution"], 0.0,
                     score if proved else None)


def _close(puzzle, best: dict, seconds: float, clock, hints: bool, seed: int, report) -> None:
    """The closing repair of the best board for ``seconds`` (:mod:`repair`); better boards go
    to ``report(solution, breaks)``."""
    from .repair import repair
    if seconds <= 0:
        return
    joins = len(puzzle.joins())
    board = puzzle.board_from(best["solution"], strict=False)
    pinned = {(t.row, t.col) for t in puzzle.fixed + (puzzle.hints if hints else [])}
    repair(puzzle, dict(board), pinned, seconds, seed,
           on_better=lambda b, s: report(puzzle.tiles(b), joins - s), clock=clock)


def _backtrack_many(puzzle, time_limit: float | None, on_improve, hints: bool, start: float, seed: int,
                    cpu_time: bool, tuning: Tuning, workers: int,
                    known: tuple[list[Any], int] | None = None) -> MaxResult:
    """``workers`` processes, each :func:`_backtrack_one` with its own seed, all hunting boards
    better than the best any of them has found (a shared count of breaks); their better boards
    come back through pipes, are checked again here and reported in order of score."""
    import multiprocessing as mp
    from contextlib import closing
    from ..children import worker_messages
    joins = len(puzzle.joins())
    best: dict[str, Any] = {"score": -1, "solution": []} if known is None else \
        {"score": joins - known[1], "solution": known[0]}
    # inherited by the forked workers: the fewest breaks of any board so far
    shared = mp.get_context("fork").Value("q", joins + 1 if known is None else known[1])
    jobs = [(puzzle, time_limit, hints, start, seed + 100003 * w, cpu_time, tuning, shared)
            for w in range(workers)]
    with closing(worker_messages(_work, jobs, error=SatilingError)) as boards:
        for solution in boards:
            score = checked_score(puzzle, solution, hints)
            if score > best["score"]:
                best.update(score=score, solution=solution)
                on_improve(Improvement(score, joins, time.perf_counter() - start, solution))
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


def checked_score(puzzle: Any, solution: list[Any], hints: bool = False) -> int:
    """The matching joins of a full board, counted by the scorer ``satiling score`` uses, after
    checking it is a board: every square one piece, every piece once, grey exactly on the rim,
    the pinned pieces in place."""
    from ..families.edgematch.score import check_board, score
    board = puzzle.board_from(solution, strict=False)
    check_board(puzzle, board)
    s = score(puzzle, board)
    if s.placed != s.squares or s.misfits:
        raise SatilingError(f"internal error: not a full board ({s})")
    for t in puzzle.fixed + (puzzle.hints if hints else []):
        if board.get((t.row, t.col)) != (t.piece, t.rotation):
            raise SatilingError(f"internal error: pinned piece {t.piece} is not on {t.square}")
    return s.matched


# -- CP-SAT ------------------------------------------------------------------------------------
def _cpsat(puzzle, problem, matched, time_limit, on_improve, workers, greedy_start, start, hints) -> MaxResult:
    from ortools.sat.python import cp_model
    from ..backends.cpsat import to_cpsat
    from ..signals import Interrupt, in_thread
    model, x = to_cpsat(problem)
    model.maximize(sum(x[m] for m in matched))
    if greedy_start:
        _hint(model, x, problem, greedy_board(puzzle, hints), puzzle)
    primary = problem.primary_vars()
    joins = len(matched)
    best: dict[str, Any] = {"score": -1, "solution": []}

    class Report(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            solution = problem.decode(v for v in primary if self.boolean_value(x[v]))
            s = _score(puzzle, solution)
            if s > best["score"]:
                best.update(score=s, solution=solution)
                if on_improve:
                    on_improve(Improvement(s, joins, time.perf_counter() - start, solution))

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    limit = None if time_limit is None else max(0.01, time_limit - (time.perf_counter() - start))
    if limit is not None:
        solver.parameters.max_time_in_seconds = limit
    solver.parameters.catch_sigint_signal = False     # a signal calls stop_search instead
    status, signum = in_thread(lambda: solver.solve(model, Report()), solver.stop_search)
    if signum is not None:
        raise Interrupt(signum)       # the caller reports the best board so far
    if best["score"] < 0:
        return MaxResult("UNKNOWN", 0, joins, [], 0.0)
    bound = int(solver.best_objective_bound) if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None
    name = "OPTIMAL" if status == cp_model.OPTIMAL else "FEASIBLE"
    return MaxResult(name, best["score"], joins, best["solution"], 0.0, bound)


def _hint(model, x, problem, board: dict, puzzle: Any) -> None:
    """Hint CP-SAT with a board: every variable of the match model at its value on that board
    (placements, side colours, matched joins), so the hint is a complete solution."""
    from ..families.edgematch import STEP, Tile
    for v in range(1, problem.num_vars + 1):
        meaning = problem.meanings[v]
        if isinstance(meaning, Tile):
            value = board.get((meaning.row, meaning.col)) == (meaning.piece, meaning.rotation)
        elif meaning[0] == "side colour":
            _, sq, d, k = meaning
            value = sq in board and puzzle.edges(*board[sq])[d] == k
        elif meaning[0] == "match":
            _, a, side = meaning
            b = (a[0] + STEP[side][0], a[1] + STEP[side][1])
            value = (a in board and b in board and
                     puzzle.edges(*board[a])[side] == puzzle.edges(*board[b])[(side + 2) % 4])
        else:
            continue
        model.add_hint(x[v], value)


def greedy_board(puzzle: Any, hints: bool = False) -> dict:
    """A quick full board: squares row by row, each taking the unused legal placement that matches
    most of its already placed neighbours (the pinned pieces first)."""
    board: dict = {}
    used: set[int] = set()
    pinned = puzzle.fixed + (puzzle.hints if hints else [])
    for t in pinned:
        board[t.row, t.col] = (t.piece, t.rotation)
        used.add(t.piece)
    by_square: dict = {}
    for t in puzzle.placements(hints):
        by_square.setdefault((t.row, t.col), []).append(t)
    for sq in puzzle.squares():
        if sq in board:
            continue
        best, best_gain = None, -1
        for t in by_square.get(sq, []):
            if t.piece in used:
                continue
            gain = _gain(puzzle, board, sq, puzzle.edges(t.piece, t.rotation))
            if gain > best_gain:
                best, best_gain = t, gain
                if gain == 4:
                    break
        if best is not None:
            board[sq] = (best.piece, best.rotation)
            used.add(best.piece)
    return board


def _gain(puzzle: Any, board: dict, sq: tuple[int, int], edges: tuple) -> int:
    n = 0
    for d in range(4):
        nb = puzzle.neighbour(sq, d)
        if nb is not None and nb in board and puzzle.edges(*board[nb])[(d + 2) % 4] == edges[d]:
            n += 1
    return n


# -- large-neighbourhood search ---------------------------------------------------------------
def _lns(puzzle, time_limit: float, on_improve, hints: bool, start: float, seed: int,
         step_limit: float = 1.0, max_region: int = 20) -> MaxResult:
    import random
    from ortools.sat.python import cp_model
    from ..backends.cpsat import to_cpsat
    from ..families.edgematch.score import score
    rng = random.Random(seed)
    board = greedy_board(puzzle, hints)
    pinned = {(t.row, t.col) for t in puzzle.fixed + (puzzle.hints if hints else [])}
    best = score(puzzle, board).matched
    joins = len(puzzle.joins())
    if on_improve:
        on_improve(Improvement(best, joins, time.perf_counter() - start, puzzle.tiles(board)))
    steps = 0
    while best < joins:
        left = time_limit - (time.perf_counter() - start)
        if left <= 0.05:
            break
        region = _neighbourhood(puzzle, board, pinned, rng, max_region)
        problem, matched = puzzle.match_problem(region=region, board=board)
        model, x = to_cpsat(problem)
        model.maximize(sum(x[m] for m in matched))
        _hint(model, x, problem, board, puzzle)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.catch_sigint_signal = False  # an interrupt ends the run after this step
        solver.parameters.random_seed = rng.randrange(1 << 30)
        solver.parameters.max_time_in_seconds = min(step_limit, left)
        steps += 1
        if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            continue
        trial = dict(board)
        for v in problem.primary_vars():
            if solver.boolean_value(x[v]):
                t = problem.meanings[v]
                trial[t.row, t.col] = (t.piece, t.rotation)
        s = score(puzzle, trial).matched
        if s >= best:                  # equal moves let the board drift off plateaus
            board = trial
            if s > best:
                best = s
                if on_improve:
                    on_improve(Improvement(best, joins, time.perf_counter() - start, puzzle.tiles(board)))
    status = "OPTIMAL" if best == joins else "FEASIBLE"
    return MaxResult(status, best, joins, puzzle.tiles(board), 0.0, None)


def _neighbourhood(puzzle, board: dict, pinned: set, rng, max_region: int) -> list:
    """Squares whose pieces move next (never a pinned square): a window around a mismatched join
    (or anywhere), or many squares of one kind no two of which touch -- then each piece's gain on
    each square is independent of the others and CP-SAT solves an assignment problem."""
    bad = [j for j in puzzle.joins() if _mismatch(puzzle, board, j)]
    if rng.random() < 0.4:
        return _independent(puzzle, board, pinned, rng, 2 * max_region, bad)
    h = rng.randint(2, 5)
    w = max(2, min(5, max_region // h))
    if bad and rng.random() < 0.8:
        r0, c0 = rng.choice(bad).a
    else:
        r0, c0 = rng.randrange(puzzle.rows), rng.randrange(puzzle.cols)
    top = min(max(0, r0 - rng.randrange(h)), max(0, puzzle.rows - h))
    left = min(max(0, c0 - rng.randrange(w)), max(0, puzzle.cols - w))
    region = {(r, c) for r in range(top, min(puzzle.rows, top + h))
              for c in range(left, min(puzzle.cols, left + w))}
    return sorted(region - pinned)


def _independent(puzzle, board: dict, pinned: set, rng, size: int, bad: list) -> list:
    """Up to ``size`` squares of one kind (inner or edge), pairwise not adjacent, those next to a
    mismatched join first."""
    rim = lambda sq: sum(puzzle.on_rim(sq, d) for d in range(4))     # noqa: E731
    kind = 0 if rng.random() < 0.8 else 1
    near = {sq for j in bad for sq in (j.a, j.b)}
    pool = [sq for sq in puzzle.squares() if rim(sq) == kind and sq not in pinned]
    rng.shuffle(pool)
    pool.sort(key=lambda sq: sq not in near)
    chosen: set = set()
    for sq in pool:
        if len(chosen) >= size:
            break
        if all(puzzle.neighbour(sq, d) not in chosen for d in range(4)):
            chosen.add(sq)
    return sorted(chosen)


def _mismatch(puzzle, board: dict, j) -> bool:
    (a, da), (b, db) = j.ends()
    return puzzle.edges(*board[a])[da] != puzzle.edges(*board[b])[db]


# -- RC2 ---------------------------------------------------------------------------------------
def _rc2(puzzle, problem, matched, time_limit, on_improve, start) -> MaxResult:
    from ..children import run_in_child
    left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - start))
    try:                                  # RC2 inside C cannot be stopped: a child, killed at the limit
        model = run_in_child(_rc2_model, problem, matched, time_limit=left)
    except TimeoutError:
        return MaxResult("UNKNOWN", 0, len(matched), [], 0.0)
    if model is None:
        raise SatilingError(f"{puzzle.name}: the hard constraints have no solution")
    true = {v for v in model if v > 0}
    solution = problem.decode(v for v in problem.primary_vars() if v in true)
    s = _score(puzzle, solution)
    if on_improve:
        on_improve(Improvement(s, len(matched), time.perf_counter() - start, solution))
    return MaxResult("OPTIMAL", s, len(matched), solution, 0.0, s)


def _rc2_model(problem, matched) -> list[int] | None:
    """RC2's optimum: the true variables, or None when the hard clauses have no model."""
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF
    from ..backends.cnf import CnfEncoder
    enc = CnfEncoder(problem, "seqcounter")
    wcnf = WCNF()
    for clause in enc.clauses():
        wcnf.append(clause)
    for m in matched:
        wcnf.append([m], weight=1)
    with RC2(wcnf, solver="g4") as rc2:
        model = rc2.compute()
    return None if model is None else [v for v in model if v > 0]
