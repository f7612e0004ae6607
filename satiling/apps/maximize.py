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
  without a schedule to the end, which proves the best score (branch and bound).  Eternity II, one
  search process, 120 CPU-s, seeds 1-12 (``python tools/bench/e2_score.py --seconds 120 --seeds
  1-12``, every board re-scored by ``satiling score``): 463, 463, 463, 463, 462, 463, 462, 462,
  462, 463, 463, 465, mean 462.83, worst 462 (the schedule of the cap itself: 462.33, worst 461;
  restarts of 2^25 nodes throughout: 461.92); both cores of this machine, 10 wall minutes
  (``python tools/bench/e2_score.py --seconds 600 --wall --skip-lns --seed S``): seed 1 **465**
  after 192.8 s (463 after 76 s); seed 0, an hour: 464 after 978.5 s, 465 after 3178 s.  With the
  schedule of the cap itself, seed 1 465 after 159 s and seed 0, an hour, 464 after 92.5 s, no
  better by the end.  Before the growing restarts, 463 after 111 s and no better in 10 minutes, nor
  in an hour -- Verhaard's eii logged a 463 every 2 s on a 2009 core, a 464 every 34 s and a 465
  every 10 minutes.  Those figures were measured with the patience doubling at every restart; with
  it doubling only at restarts since the last better board (the default now), 120 CPU-s, seeds
  1-12: mean 462.58, worst 462, and on generated 18x18 and 20x20 boards 4 to 6 joins more in 60
  CPU-s (:data:`DEFAULT`); both cores, 10 wall minutes, seed 1: 464 after 337 s, **465** after
  520 s; seed 2: 464 after 84 s; seed 3: 464 after 208 s (465 after 2382 s in an hour); seed 0:
  463 after 45 s, no better.  With the search 11-17% faster since (the same nodes sooner: run
  copies for four levels of the depth, ``_edgescore.c``): 120 CPU-s, seeds 1-12, mean 462.67,
  worst 462; both cores, 10 wall minutes, seed 0: 464 after 551 s; seed 4: 464 after 393 s,
  **465** after 541 s; seed 5: 463 after 34 s, no better.  With the workers sharing the best
  board's count (the default now), both cores, 10 wall minutes, seeds 0-5: 464 after 126, 422,
  78, 231 and 447 s (seed 1 **465** after 596 s), seed 5 463 after 31 s and no better: five of
  six reach 464 as before, the median time to it 231 s against 337 s -- too few runs to tell the
  two apart, but no worker now spends its time hunting boards the other has already beaten.

  Where the nodes go (Eternity II, 15 CPU-s, seed 1, restarts of 2^25 nodes throughout,
  ``tools/experiments/e2_schedule.py hist=1``):
  about 57 M nodes per CPU second; a restart every 0.6 s, always from the first square with a
  new random candidate order; 60% of the nodes in rows 2-5, where the priority colours' need cuts
  most branches; about 100 boards a run reach depth 207 (the schedule's first break) without a
  break, and the breaks below them take only 8% of the nodes.  Without the priority colours the
  nodes pile up in rows 9-10 and depth 205 is reached a few times a run (441 in 15 s).

  Measured on Eternity II (30 CPU-s, seeds 1-6, mean and worst at the end; one break per square
  unless said): one break per square 461.0/460 against two 459.7; frame joins kept whole 457 on
  seed 1 against 462; the schedule from depth 200: 459.2/458, from 210: 455.0/449, to depth 250:
  460.0/459; the comb order 460.8/460; the need curve scaled by 0.9: 457.8/456; candidates with
  any priority side first (Blackwood's order) instead of most sides first: 459.7/459; restarts
  after 1.6e7 nodes: 459.3/458, after 6.6e7: 460.0/457; a budget of 1e7 nodes for each subtree
  below depth 48 (a restart of the later squares): 459.2/458; the tileability cut, its counts
  made cheap (``tools/experiments/e2_rate.py tile=1``: restarts at the cap of a 462 board, each
  ending at its first such board or after 2^28 nodes; 120 CPU-s, seeds 1-3): 2 + 1 + 2 boards
  against 3 + 2 + 4 without it -- it halves the node rate (28 M against 57 M per CPU second)
  and finds as much per node, no more.  Older measurements, with two breaks per square (seeds
  1-3):
  the comb order (453, 453, 454 against the row scan's 455, 454, 453; with the priority colours
  457, 458 against 459, 457), an earlier schedule (from depth 190: 451, 451, 450), a later one (from
  210: no board in 30 s), restarts after 1e8 nodes (453, 452), the tileability cut (half the node
  rate, 453 on seed 1), and the closing repair by assignment (no better board from a 457 board in
  30 s: 4237 moves, none changed a piece; CP-SAT windows of up to 20 squares: none in 40 s);
* ``cpsat`` -- OR-Tools CP-SAT with the sum as objective over the whole board; anytime: every
  better board it finds is reported, and it starts from a greedy board given as a hint;
* ``lns`` -- large-neighbourhood search for boards too big for that (Eternity II: CP-SAT finds no
  board of the whole model in 90 s): from the greedy board, repeatedly free the pieces of a window
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
#: the backtracker restarts after this many nodes without a better board (about 0.6 CPU-s on
#: Eternity II; 1.6e7 and 6.6e7 measured worse, see the module doc) ...
RESTART_NODES = 1 << 25
#: ... doubled at each restart without a better board, up to this many (about 19 CPU-s; see DEFAULT)
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
                     seed: int = 0, cpu_time: bool = False, tuning: Tuning | None = None) -> MaxResult:
    """The best board found for ``puzzle`` within ``time_limit`` seconds (wall clock; CPU
    seconds of each search process with ``cpu_time``, backtrack engine only, for benchmarks on a
    shared machine).  ``workers``: CP-SAT's threads (default 1), or the backtracker's search
    processes (default one per core).  ``tuning``: the backtracker's settings (:class:`Tuning`).
    An interrupt ends the search early with the best board so far (``stopped_by``)."""
    if engine not in ENGINES:
        raise SatilingError(f"unknown engine {engine!r} for --maximize-matches (choose from {', '.join(ENGINES)})")
    engine = maximise_engine(puzzle, engine)
    start = time.perf_counter()
    best = _Best(on_improve, len(puzzle.joins()))
    try:
        result = _run(engine, puzzle, time_limit, best.improve, hints, workers, greedy_start, start,
                      seed, cpu_time, tuning)
    except KeyboardInterrupt as stop:
        result = best.result("FEASIBLE" if best.solution else "UNKNOWN")
        result.stopped_by = stop
    result.seconds = time.perf_counter() - start
    return result


def _run(engine, puzzle, time_limit, on_improve, hints, workers, greedy_start, start, seed,
         cpu_time, tuning=None) -> MaxResult:
    if engine in ("lns", "backtrack"):
        # the backtracker runs until Ctrl-C (the best board so far is printed) when no limit is
        # given; LNS needs a limit to share out among its windows
        if time_limit is None and engine == "lns":
            raise SatilingError("--maximize-matches --engine lns needs --time-limit")
        if engine == "lns":
            return _lns(puzzle, time_limit, on_improve, hints, start, seed)
        return _backtrack(puzzle, time_limit, on_improve, hints, start, seed, cpu_time, tuning, workers)
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
    """How the scoring search runs (the defaults are measured: tools/bench/e2_score.py).

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
        ``pins`` (the hint pieces: without that slack the search met no board of Eternity II with
        its hints in 40 s; with it, 437 in 6 CPU-s)."""
        from ..engines import edgescore
        loose = cap + self.slack
        if self.slips is not None:
            held = edgescore.slips(n, loose, list(self.slips))
        else:
            held = edgescore.reserve(n, loose, edgescore.START if self.start is None else self.start,
                                     edgescore.FULL if self.full is None else self.full, self.bend)
        return [max(0, h - self.slack - sum(p <= d + 1 for p in pins)) for d, h in enumerate(held)]


#: the tuning before issue 24 (one search, row scan, no repair): the benchmark's "old" engine
OLD = Tuning()
#: the default (see :class:`Tuning`; measured in tools/bench/e2_score.py; the priority colours are
#: picked per board by :func:`default_tuning`):
#:
#: * one break per square at a time, as Blackwood's solver (Eternity II, 30 CPU-s, seeds 1-6, with
#:   the priority colours: mean 461.0, worst 460, against 459.7 with double breaks);
#: * the schedule from depth 200 / 256 to the last square, bent.  Measured with
#:   tools/experiments/e2_schedule.py (Eternity II, one search, 30 CPU-s per run, seeds 1-6,
#:   mean final score): no priority, schedule 200-250: 454.0 (seeds 1-3); priority, 200-250:
#:   458.2; 200-255: 459.0; 205-250: 459.2; 205-255: 459.7 (never below 459); 203-255: 458.8 and
#:   208-255: 459.8 (seeds 1-4); 210-250: 451.2; 195-250: 456.0 and 200-245: 448.5 (seeds 4-5);
#:   the comb order with the priority, 200-250: 457.7 (seeds 1-3).  Bent (``bend`` 1.2: fewer
#:   breaks early, more near the end; tools/bench/e2_score.py --seconds 120 --seeds 1-12 --jobs 2
#:   --set bend=B): 120 CPU-s, seeds 1-12, mean 461.33 and 6 of 12 at 462 or more (one 463)
#:   against 461.08 and 3 of 12 evenly (bend 1); bend 1.3: 461.33, 7 of 12; bend 1.5: 459.67 on
#:   seeds 1-6 (461.17 with 1.3, 460.83 evenly).  Bent, the schedule may start earlier: from depth
#:   200, seeds 1-12: 462 x 6, 461, 463, 462, 461, 462, 462, mean 461.92, 10 of 12 at 462 or more.
#: * restarts growing from 2^25 nodes to 2^30 (:meth:`Tuning.patience`).  The rate of good boards at a fixed
#:   cap (tools/experiments/e2_rate.py, 120 CPU-s a run, seeds 1-3 unless said): 462 or more, 0
#:   boards with restarts of 2^25 nodes, 9 with 2^28 (five of them 463) and 11 with 2^30 (six
#:   463); 461 or more (seeds 1-2): 10 with 2^25, 15 with 2^28; 463 or more: 2 with 2^30 (one of
#:   them 464), 1 with 2^32.  A short restart abandons a beginning that the later squares fit well
#:   before the search below it has found its best boards.  tools/bench/e2_score.py --seconds 120
#:   --seeds 1-12 --jobs 2: growing, 463, 462, 463, 461, 463, 463, 461, 462, 462, 461, 462, 465
#:   (mean 462.33, 9 of 12 at 462 or more); 2^30 from the start: mean 461.58, 6 of 12 (the first
#:   restarts too long while better boards still come easily); 2^25 throughout: 461.92, 10 of 12,
#:   one 463.
#: * the schedule of a cap two breaks looser (``slack``), clipped at the cap: the full allowance
#:   comes earlier in the depth.  First seen at a fixed cap (tools/experiments/e2_rate.py, 463 or
#:   more, 120 CPU-s, seeds 1-3): 9 boards with a slack of one against 2.  tools/bench/e2_score.py
#:   --seconds 120 --seeds 1-12 (--jobs 1, two runs side by side): slack 0: mean 462.33, worst
#:   461, 9 of 12 at 462 or more, one 465; slack 1: 462.58, worst 462, 12 of 12; slack 2: 463,
#:   463, 463, 463, 462, 463, 462, 462, 462, 463, 463, 465, mean 462.83, worst 462, 12 of 12;
#:   slack 3: 462.42, worst 461, one 464.
#:   Generated boards, 60 CPU-s (tools/experiments/priority_rule.py slack=S): 16x16, seeds 1-3,
#:   slack 0 / 1 / 2: mean 460.33 / 461.0 / 461.67; 18x18, seeds 1-6: 581.33 / 580.17 / 581.0.
#: * the patience grown by stalled restarts only (``stall``): a restart that improved the best
#:   board starts the doubling again, so restarts stay short while better boards come easily, on
#:   larger boards for longer.  Generated boards, 60 CPU-s (tools/experiments/priority_rule.py
#:   stall=1), growing with every restart / with stalled ones: 16x16 seeds 1-3, 462, 462, 461 /
#:   463, 462, 462; 18x18 seeds 1-6, 581, 584, 580, 578, 581, 582 / 585, 585, 585, 585, 584, 585;
#:   20x20 seeds 1-3, 706, 719, 717 / 720, 722, 719 (restarts of 2^25 throughout: 719, 719, 721).
#:   Eternity II, 120 CPU-s, seeds 1-12 (e2_score.py --set stall=1): 463, 462, 463, 462, 463,
#:   463, 462, 462, 463, 462, 463, 463, mean 462.58, worst 462, against 462.83, worst 462.
DEFAULT = Tuning(double=False, start=200 / 256, full=255 / 256, bend=1.2,
                 restart_max=LONGEST_RESTART, slack=2, stall=True)


def default_tuning(puzzle: Any) -> Tuning:
    """:data:`DEFAULT` with the priority colours :func:`edgescore.priority_colours` picks for the
    board (Blackwood's 5, 7 and 20 on Eternity II).  Generated boards, 5 frame + 17 inner colours
    (or the generator's default), one search, CPU seconds, seeds 1-3, restarts of 2^25 nodes
    throughout (``tools/experiments/priority_rule.py``): 16x16 in 60 s 455, 455, 455 without
    priority colours and this schedule (the default before), 457 x 3 with the schedule alone, 461
    x 3 with both; 18x18 in 60 s 558, 564, 551 against 583, 586, 587; 20x20 in 60 s no board at
    all, 690, 689 against 713, 721, 721 (of 760); 10x10, 12x12 and 14x14 in 30-40 s, seeds 1-2:
    even (within one join).  With restarts growing at every restart and ``slack`` 2, same runs:
    16x16 462, 462, 461; 18x18 581, 584, 580; 20x20 706, 719, 717 (with ``slack`` 0: 704, 714,
    718): growing at every restart cost the larger boards a few joins in 60 s.  The default now
    (growing only while the best board stalls): 16x16 463, 462, 462; 18x18 585, 585, 585; 20x20
    720, 722, 719."""
    from dataclasses import replace
    from ..engines import edgescore
    return replace(DEFAULT, priority=edgescore.priority_colours(puzzle.pieces))


def default_workers() -> int:
    """One search per core."""
    import os
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def _backtrack(puzzle, time_limit: float | None, on_improve, hints: bool, start: float, seed: int,
               cpu_time: bool = False, tuning: Tuning | None = None, workers: int | None = None
               ) -> MaxResult:
    """The scoring search: one per worker process (different seeds), each improving board
    re-checked here by the scorer before it is reported."""
    n = puzzle.rows * puzzle.cols
    tuning = tuning or default_tuning(puzzle)
    workers = default_workers() if workers is None else workers
    if n <= EXACT_LIMIT or workers <= 1:
        return _backtrack_one(puzzle, time_limit, on_improve, hints, start, seed, cpu_time, tuning)
    return _backtrack_many(puzzle, time_limit, on_improve, hints, start, seed, cpu_time, tuning, workers)


def _backtrack_one(puzzle, time_limit: float | None, on_improve, hints: bool, start: float, seed: int,
                   cpu_time: bool, tuning: Tuning, shared: Any = None) -> MaxResult:
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
    best = {"breaks": joins + 1, "solution": []}
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
        # share a candidate order (with s + k, seeds 1-4 ran one another's layouts and ended, on
        # Eternity II after 120 CPU-s, with one and the same board)
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
                    cpu_time: bool, tuning: Tuning, workers: int) -> MaxResult:
    """``workers`` processes, each :func:`_backtrack_one` with its own seed, all hunting boards
    better than the best any of them has found (a shared count of breaks); their better boards
    come back through pipes, are checked again here and reported in order of score."""
    import multiprocessing as mp
    from contextlib import closing
    from ..children import worker_messages
    joins = len(puzzle.joins())
    best: dict[str, Any] = {"score": -1, "solution": []}
    shared = mp.get_context("fork").Value("q", joins + 1)     # inherited by the forked workers
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
