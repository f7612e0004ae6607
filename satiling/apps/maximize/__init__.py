"""The best edge-matching board in a time budget: maximise the number of matching joins.

The family builds the model (:meth:`EdgeMatchPuzzle.match_problem`): every square gets one piece and
every piece one square (hard), and each interior join has a variable that may be true only if the
join matches.  The engines maximise the sum of those variables (the backtracker without the model);
each is one module with a ``run(job: MaxJob)``, named in the engine table
(:mod:`satiling.engines.table`), which is all that picks among them:

* :mod:`.scoring` -- the compiled scoring search (:mod:`satiling.engines.edgescore`): a row-scan
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
* :mod:`.cpsat` -- OR-Tools CP-SAT with the sum as objective over the whole board; anytime: every
  better board it finds is reported, and it starts from a greedy board given as a hint;
* :mod:`.lns` -- large-neighbourhood search for boards too big for that (Eternity II's whole-board
  model is one): from the greedy board, repeatedly free the pieces of a window
  of squares (or of squares scattered around mismatched joins), let CP-SAT re-place them to
  maximise the joins touching them (hinted with their current places, so never worse), keep the
  result;
* :mod:`.rc2` -- PySAT's RC2 MaxSAT solver, each join a soft unit clause of weight 1; it reports only the
  optimum (core-guided search has no intermediate boards), so it suits small boards.  It runs in a
  child process so the time limit can stop it.

Every reported board is re-scored from the pieces (the model's own count is never trusted).
Ctrl-C or SIGTERM (raised as ``KeyboardInterrupt``) ends any engine with the best board so far:
the result's ``stopped_by`` holds the exception.  The whole-board CP-SAT call runs in a thread
that either signal stops at once (:func:`satiling.signals.in_thread`); an LNS window (seconds at
most) ends first.
"""
from __future__ import annotations

import signal
import threading
from typing import Any, Callable

from ...engines.table import cannot_continue, check, function, names, not_on_dask, row
from ...errors import SatilingError
from ...limits import Deadline, check_dask_address, clock
from ...search.router import maximise_engine
from .scoring import (DEFAULT, EXACT_LIMIT, LAYOUT_STRIDE, LONGEST_RESTART, RESTART_NODES, Tuning,
                        _backtrack_many, _backtrack_one, _work, default_tuning, default_workers)
from .board import Improvement, MaxResult, checked_score, score_of
from .cpsat import greedy_board
from .job import MaxJob

__all__ = ["DEFAULT", "ENGINES", "EXACT_LIMIT", "Improvement", "LAYOUT_STRIDE", "LONGEST_RESTART",
           "MaxJob", "MaxResult", "RESTART_NODES", "Tuning", "checked_score", "default_tuning",
           "default_workers", "greedy_board", "maximize_matches", "score_of", "_backtrack_many",
           "_backtrack_one", "_work"]

ENGINES = names("maximise")


def maximize_matches(puzzle: Any, time_limit: float | None = None,
                     on_improve: Callable[[Improvement], None] | None = None, engine: str = "auto",
                     hints: bool = False, workers: int | None = None, greedy_start: bool = True,
                     seed: int = 0, cpu_time: bool = False, tuning: Tuning | None = None,
                     start_board: list[Any] | None = None,
                     on_partial: Callable[[list[Any]], None] | None = None, dask: str | None = None,
                     on_note: Callable[[str], None] | None = None) -> MaxResult:
    """The best board found for ``puzzle`` within ``time_limit`` seconds (wall clock; CPU
    seconds of each search process with ``cpu_time``, the scoring search only, for benchmarks on a
    shared machine).  ``workers``: CP-SAT's threads (default 1), or the backtracker's search
    processes (default one per core).  ``tuning``: the backtracker's settings (:class:`Tuning`).
    An interrupt ends the search early with the best board so far (``stopped_by``).
    ``start_board``: a board to continue from (an engine whose row ``continues``: the scoring
    search): it is the best board so far, and
    the search hunts only boards better than it.  ``on_partial``: shown the board the search
    stands on (tiles, joins broken or not), a few times a second (the scoring search; the first
    process's search when there are several; not on a Dask cluster).  ``dask``: the address of a
    Dask scheduler (``tcp://host:8786``): one search per thread of its workers, sharing the best
    board's cap through the cluster, every better board checked here (:mod:`.cluster`);
    ``on_note``: lines for the user about the run (the searches started, one lost)."""
    check("maximise", engine)
    puzzle.check_hints(hints)                 # as the model and 'score' ask it
    engine = maximise_engine(puzzle, engine, dask is not None)
    run = function("maximise", engine, dask=dask is not None)
    if dask is not None:
        _check_dask(dask, engine, run, workers, cpu_time)
    start = clock()
    best = _Best(on_improve, len(puzzle.joins()), puzzle, hints)
    job = MaxJob(puzzle, time_limit, best.improve, hints, workers, greedy_start, start, seed,
                 cpu_time, tuning, on_partial=on_partial, dask=dask, note=on_note,
                 deadline=Deadline.after(time_limit, start))
    if start_board is not None:
        # refused before the start board is reported: only an engine whose row says it continues
        # a search may take one
        if not row(engine).continues:
            raise SatilingError(cannot_continue(engine))
        score = checked_score(puzzle, start_board, hints, whose="the start board")
        best.improve(Improvement(score, best.joins, 0.0, list(start_board)))
        job.known = (list(start_board), best.joins - score)
    try:
        result = run(job)
    except KeyboardInterrupt as stop:
        result = best.result("FEASIBLE" if best.solution else "UNKNOWN")
        result.stopped_by = stop
    if result.solution:
        _rescored(puzzle, hints, result.solution, result.score)
    result.seconds = clock() - start
    return result


def _check_dask(address: Any, engine: str, run: Any, workers: int | None, cpu_time: bool) -> None:
    """SatilingError unless the run can go to a Dask cluster: an engine whose row names what runs
    it there (``run``), its searches the cluster's worker threads, timed by the wall clock."""
    check_dask_address(address)
    if run is None:
        raise SatilingError(not_on_dask(engine))
    if workers is not None:
        raise SatilingError("on a Dask cluster each worker thread runs a search: drop the number "
                            "of searches")
    if cpu_time:
        raise SatilingError("a search on a Dask cluster is timed by the wall clock, not CPU time")


def _rescored(puzzle: Any, hints: bool, solution: list[Any], claimed: int) -> int:
    """The board's score by the scorer ``satiling score`` uses, after checking it is a board
    (:func:`checked_score`); an engine that claimed another score is an internal error."""
    score = checked_score(puzzle, solution, hints)
    if score != claimed:
        raise SatilingError(f"internal error: a board reported with {claimed} matching joins has "
                            f"{score}")
    return score


class _Best:
    """The best board reported so far, passed on to the caller's ``on_improve``."""

    def __init__(self, on_improve: Callable[[Improvement], None] | None, joins: int, puzzle: Any,
                 hints: bool) -> None:
        self.on_improve, self.joins = on_improve, joins
        self.puzzle, self.hints = puzzle, hints
        self.score, self.solution = -1, []

    def improve(self, imp: Improvement) -> None:
        """Check the board (whatever engine found it), keep it and tell the caller, with Ctrl-C
        and SIGTERM held back in between: an interrupt between the two would print a board better
        than the last score reported."""
        _rescored(self.puzzle, self.hints, imp.solution, imp.score)
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


