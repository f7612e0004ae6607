"""The four tasks, each assembled once: :func:`solve`, :func:`count`, :func:`enumerate_solutions`
and :func:`maximise` take a :class:`~.request.Request` and :class:`Events` (what the client wants
to hear as the run goes), and return an answer with its :class:`~.limits.Stop`.  Every solution in
an answer, or handed to ``Events.solution``, has passed the puzzle's verifier.

A stop by Ctrl-C or SIGTERM is an answer too (``Stop.INTERRUPTED`` / ``TERMINATED``) for count,
enumerate and maximise, with what was found; ``solve`` has nothing to keep and lets it rise.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, TypeVar

from ..errors import Option, SatilingError
from ..limits import Deadline, clock
from .engines import call, choose, row, settled, solver_of, unused_setting
from .limits import Stop
from .request import Request

T = TypeVar("T")

#: seconds past a solve's time limit at which a run still building its model is stopped (its
#: engine, once searching, stops itself at the limit)
GRACE = 0.5


def _ignore(*_: Any) -> None:
    pass


@dataclass
class Events:
    """The client's ears (each optional): ``found(n)`` n more solutions; ``work(done, finished)``
    the part of the estimated search done; ``solution(placements)`` each verified solution of an
    enumeration; ``improve(improvement)`` each better board of a maximisation; ``note(text)`` a
    line for the user (what was chosen, what settled the answer); ``engine(name)`` the engine the
    run chose, as soon as it has (before its search: what ``auto`` became; the answer names the
    engine that ran, which a solve's argument or race may make another).

    ``partial(placements)``: the partial solution the search in progress stands on, the puzzle's
    placements as ``solution`` gets them (pairwise disjoint, not verified: a board on its way,
    often to a dead end), at most once every :data:`~satiling.engines.PARTIAL_SECONDS`.  Only
    compiled searches can tell: count and enumerate by the exact-cover search or the
    edge-matching backtracker, without workers; maximise by the scoring search (the first
    process's, when there are several: joins may be broken there); never a SAT,
    CP-SAT, MIP or LNS solver, nor a solve.  None (the default) costs the search nothing."""

    found: Callable[[int], None] = _ignore
    work: Callable[[float, float], None] | None = None
    solution: Callable[[list[Any]], None] = _ignore
    improve: Callable[[Any], None] = _ignore
    note: Callable[[str], None] = _ignore
    partial: Callable[[list[Any]], None] | None = None
    engine: Callable[[str], None] = _ignore


def paced(show: Callable[[list[Any]], None] | None) -> Callable[[list[Any]], None] | None:
    """``show`` passed about once every :data:`~satiling.engines.PARTIAL_SECONDS` at most: each
    engine keeps that pace, but a run that makes a new engine for each board or restart would
    begin each one with a snapshot at once.  (A twentieth of slack: one engine's own pace, read
    here a moment after the engine read its clock, is never cut.)"""
    if show is None:
        return None
    from ..engines import PARTIAL_SECONDS
    least = 0.95 * PARTIAL_SECONDS
    last = [-PARTIAL_SECONDS]

    def pass_on(placements: list[Any]) -> None:
        now = clock()
        if now - last[0] >= least:
            last[0] = now
            show(placements)
    return pass_on


@dataclass
class SolveAnswer:
    stop: Stop
    solution: list[Any] | None          # verified placements; None: none (done) or none yet
    engine: str
    seconds: float
    how: str = ""                       # the solver, the orders searched, the argument that settled it
    proof: Any = None                   # the proof report of "no solution" (with Request.proof)


@dataclass
class CountAnswer:
    stop: Stop
    total: int                          # solutions (classes, or every one when raw), with a resumed run's
    found: int                          # found by this run
    classes: int
    engine: str
    group: str                          # what the solutions were counted up to (none: raw)
    group_order: int = 1
    seconds: float = 0.0
    checkpoint: str | None = None       # where a stopped count kept its work
    finished_any: bool = False          # whether anything was searched to keep
    recounted: int = 0                  # of ``total``, not kept by the checkpoint (counted again)
    torn: bool = False                  # enumerate --resume dropped a torn last line
    proof: Any = None
    ruled_out: str | None = None        # the argument that settled it before any search
    proof_stop: Stop | None = None      # the proof of completeness stopped before it was checked


@dataclass
class MaxAnswer:
    stop: Stop
    score: int
    joins: int
    solution: list[Any]
    engine: str
    seconds: float
    status: str = ""                    # OPTIMAL (proved), FEASIBLE, UNKNOWN (no board)
    bound: int | None = None
    stopped_by: BaseException | None = field(default=None, repr=False)


# -- settings only some engines use ------------------------------------------------------------------
def check_used(req: Request, engine: str) -> None:
    """SatilingError if a setting of ``req`` is one that ``engine`` leaves unused (the rows'
    ``uses`` in the engine table)."""
    why = unused_setting(req, engine)
    if why is not None:
        raise why


# -- solve ------------------------------------------------------------------------------------------
def solve(req: Request, events: Events | None = None) -> SolveAnswer:
    """One verified solution, or none (proved by the search, by an argument before it, or by a
    checked DRAT proof with ``req.proof``)."""
    events = events or Events()
    if req.task != "solve":
        raise SatilingError(f"solve takes a solve request, not {req.task}")
    began = clock()
    deadline = Deadline.after(req.time_limit, began)
    engine = settled(req)               # None: the model tells (built below, within the limit)
    if engine is not None:
        check_used(req, engine)
        solver_of(req, engine)          # a --solver the engine does not run: refused now
        events.engine(engine)
    # the engine stops its search at the deadline; the bound, a moment later, stops a model still
    # being built
    found = _bounded(deadline.later(GRACE), lambda: _solve_by(req, engine, deadline, began, events))
    if found is None:                   # the limit ran out while the model was being built
        return SolveAnswer(Stop.TIME, None, engine or req.engine, clock() - began,
                           f"{engine or 'the run'} (the time limit ran out while the model was built)")
    if found.solution is not None:
        req.puzzle.verify(found.solution)
    return SolveAnswer(Stop.of(found.stop), found.solution, found.engine, found.seconds, found.how,
                       found.proof)


def _solve_by(req: Request, engine: str | None, deadline: Deadline, began: float,
              events: Events) -> Any:
    """The solve's ``Found``: the puzzle's own argument first (it settles some puzzles before
    any search), then the model where the choice needs it, then the engine."""
    from ..search.solvejob import Found, SolveJob
    if not req.proof:
        reason = req.puzzle.obstruction()
        if reason is not None:
            return Found("done", None, "argument", clock() - began,
                         f"proved before any search: {reason}")
    problem = None
    if engine is None:
        problem = req.puzzle.problem(**req.options)
        engine = choose(req, problem)
        check_used(req, engine)
        events.engine(engine)
    job = SolveJob(req.puzzle, engine, dict(req.options), solver_of(req, engine), deadline=deadline,
                   node_limit=req.node_limit, workers=req.workers, threads=req.threads,
                   dask=req.dask, seed=req.seed, proof=req.proof, problem=problem)
    return call("solve", engine, job)


# -- count and enumerate ------------------------------------------------------------------------------
def _bounded(deadline: Deadline, work: Callable[[], T]) -> T | None:
    """``work()`` by the run's deadline: building the placements and the model counts, and a
    limit that runs out while they are built (Eternity's 1.4 million placements) ends the run
    there.  None when it did."""
    from ..signals import within
    done, value = within(deadline.left(), work)
    return value if done else None


def _run_of(req: Request, engine: str | None, deadline: Deadline) -> Any:
    """The count pipeline's run (:class:`satiling.search.stream.Run`) for ``req``, ending at
    ``deadline``; ``engine`` None: chosen here, with the model."""
    from ..search.stream import Run, Settings, symmetry_choice
    raw, group = symmetry_choice(req.raw, req.symmetry)
    if group == "rotations":
        req.puzzle.rotations()          # a family that cannot tell refuses before any work
    problem = req.puzzle.problem(**req.options)
    engine = engine or choose(req, problem)
    settings = Settings(raw, engine, req.sat_solver, req.symmetry_breaking, req.workers, req.dask,
                        req.time_limit, deadline, symmetry=group)
    run = Run(req.source or req.puzzle.name, req.puzzle, problem, dict(req.options), settings)
    if (req.workers or 1) > 1 and req.source is None:
        if not run.searcher.plans or run.space.plan() is None:
            raise SatilingError(f"{req.puzzle.name}: worker processes rebuild this model from an "
                                "instance file; count a puzzle built in code without workers")
    return run


def _group(req: Request) -> str:
    from ..search.stream import symmetry_choice
    raw, group = symmetry_choice(req.raw, req.symmetry)
    return "none" if raw else group


def _ruled_out(req: Request) -> str | None:
    if req.proof or req.resume:
        return None
    return req.puzzle.obstruction()


def count(req: Request, events: Events | None = None) -> CountAnswer:
    """The number of solutions (one per class of ``req.symmetry``, or every one when raw);
    a stopped count keeps its work (``req.resume``, or a checkpoint of its own)."""
    events = events or Events()
    if req.task != "count":
        raise SatilingError(f"count takes a count request, not {req.task}")
    begun = _begin(req, events)
    if isinstance(begun, CountAnswer):
        return begun
    run, engine, group, start, deadline = begun
    outcome = run.count(req.resume, events.found, keep=bool(req.proof), work=events.work,
                        keep_stopped=True, partial=paced(events.partial))
    answer = CountAnswer(Stop.of(outcome.stopped), outcome.total, outcome.found, outcome.classes,
                         engine, group, run.space.group.order, clock() - start,
                         outcome.checkpoint, bool(outcome.finished or outcome.position),
                         recounted=outcome.recounted)
    if req.proof and answer.stop is Stop.DONE:
        _prove(req, deadline, answer, run.members(outcome.solutions), run.space.problem)
    return answer


def _begin(req: Request, events: Events) -> CountAnswer | tuple[Any, str, str, float, Deadline]:
    """A count's or an enumeration's run built within the time limit, with the engine it runs
    (what "auto" became for the model), the symmetry group, when it started and its deadline; or
    the answer that ends it before any search (the limit ran out first, an argument settles it)."""
    start = clock()
    deadline = Deadline.after(req.time_limit, start)
    engine = settled(req)               # None: the model tells (chosen once it is built)
    if engine is not None:
        events.engine(engine)
    group = _group(req)
    prepared = _prepared(req, engine, deadline)
    if prepared is None:                # (the engine the request asked for, if the model did not come)
        return _out_of_time(engine or req.engine, group, clock() - start)
    run, reason = prepared
    if reason is not None:
        return CountAnswer(Stop.DONE, 0, 0, 0, "argument", group, ruled_out=reason)
    if run.searcher.name != engine:
        events.engine(run.searcher.name)
    return run, run.searcher.name, group, start, deadline


def _prove(req: Request, deadline: Deadline, answer: CountAnswer, members: Any, problem: Any) -> None:
    """The proof that no solution lies beyond the ones found, within what is left of the time limit;
    a stop (the limit, Ctrl-C, SIGTERM) leaves the complete count in the answer and the proof
    unchecked (``answer.proof_stop``)."""
    from ..search.proof import ProofReport, prove_complete
    from ..signals import stop_on
    left = deadline.left()
    with stop_on(left) as stop:
        stop.arm()
        answer.proof = prove_complete(problem, members, req.proof, req.sat_solver, time_limit=left)
    if stop.reason:
        answer.proof = ProofReport("UNKNOWN", proof=req.proof)
        answer.proof_stop = Stop.of(stop.reason)
    elif answer.proof.status == "UNKNOWN":          # the solver's own deadline
        answer.proof_stop = Stop.TIME


def _prepared(req: Request, engine: str | None, deadline: Deadline) -> tuple[Any, str | None] | None:
    """:func:`_prepare` within the time limit (None: it ran out first).  A resumed run is built
    whatever the limit: what it holds from before is read by the run, and its answer says so."""
    if req.resume:
        return _prepare(req, engine, deadline)
    return _bounded(deadline, lambda: _prepare(req, engine, deadline))


def _prepare(req: Request, engine: str | None, deadline: Deadline) -> tuple[Any, str | None]:
    """(the run, None), or (None, the argument that settles the puzzle before any search)."""
    reason = _ruled_out(req)
    if reason is not None:
        _group_checked(req)
        return None, reason
    return _run_of(req, engine, deadline), None


def _out_of_time(engine: str, group: str, seconds: float) -> CountAnswer:
    """A count or enumeration whose time limit ran out before its search began: nothing found."""
    return CountAnswer(Stop.TIME, 0, 0, 0, engine, group, seconds=seconds)


def _group_checked(req: Request) -> None:
    from ..search.stream import symmetry_choice
    if symmetry_choice(req.raw, req.symmetry)[1] == "rotations":
        req.puzzle.rotations()


def enumerate_solutions(req: Request, events: Events | None = None) -> CountAnswer:
    """Every solution (one per class, or every one when raw), each verified and handed to
    ``events.solution`` the moment it is found; with ``req.out`` also written to that file (locked,
    resumable: ``req.resume`` continues it without losing or repeating a solution)."""
    events = events or Events()
    if req.task != "enumerate":
        raise SatilingError(f"enumerate takes an enumerate request, not {req.task}")
    begun = _begin(req, events)
    if isinstance(begun, CountAnswer):
        return begun
    run, engine, group, start, deadline = begun
    path = req.resume or req.out
    out = run.solution_file(path, resume=bool(req.resume)) if path else None   # locked, checked
    torn, before = False, []

    def write(solution: list[Any]) -> None:
        if out is not None:
            from ..search.runfiles import solution_json
            out.write_line(solution_json(req.puzzle, solution))
        events.solution(solution)
        events.found(1)

    try:
        point = run.resume_point(out) if req.resume else None
        if point is not None:
            torn, before = point.torn, point.solutions
            events.found(point.lines)
        if out is not None:
            out.start()                   # the file changes only from here on
        outcome = run.enumerate(write, point, req.limit, keep=bool(req.proof), work=events.work,
                                mark=out.mark_done if out is not None else None,
                                partial=paced(events.partial))
    finally:
        if out is not None:
            out.close()
    answer = CountAnswer(Stop.of(outcome.stopped), outcome.total, outcome.found, outcome.classes,
                         engine, group, run.space.group.order, clock() - start,
                         finished_any=bool(outcome.found or outcome.cubes_done), torn=torn)
    if req.proof and answer.stop is Stop.DONE:
        _prove(req, deadline, answer, run.members(before + outcome.solutions), run.space.problem)
    return answer


# -- maximise -------------------------------------------------------------------------------------------
def check_maximise(req: Request) -> None:
    """SatilingError unless ``req`` is a maximisation this run can make (an edge-matching puzzle,
    one search): asked before anything is written for it."""
    if req.task != "maximise":
        raise SatilingError(f"maximise takes a maximise request, not {req.task}")
    if not hasattr(req.puzzle, "match_problem"):
        raise SatilingError("maximising matching joins applies to edge-matching puzzles only")
    workers, threads, dask = Option("workers"), Option("threads"), Option("dask")
    if (req.workers or 1) > 1:
        raise SatilingError("{workers} does not apply to maximising: its searches are {threads} on "
                            "this machine, or a Dask cluster's threads ({dask})",
                            workers=workers, threads=threads, dask=dask)
    if req.dask and req.threads is not None:
        raise SatilingError("{threads} and {dask}: on a Dask cluster each worker thread runs a "
                            "search; drop {threads}", threads=threads, dask=dask)
    if req.proof:
        raise SatilingError("a proof shows there is no solution; maximising writes no proof: drop {proof}",
                            proof=Option("proof"))
    if req.solver != "auto":
        raise SatilingError("maximising chooses by {engine}, not {solver}", engine=Option("engine"),
                            solver=Option("solver", req.solver))
    extra = sorted(set(req.options) - {"hints"})
    if extra:
        raise SatilingError("{option} is an option of the SAT model; maximising takes {hints} only",
                            option=Option(extra[0]), hints=Option("hints"))
    engine = choose(req)
    why = row(engine).can_run(req)
    if why is not None:
        raise why
    _check_fill_order(req)


def _check_fill_order(req: Request) -> None:
    """A small board is searched whole, row by row, to a proof of its best score: another fill
    order would not be used."""
    from ..apps.maximize.scoring import EXACT_LIMIT
    squares = req.puzzle.rows * req.puzzle.cols
    if req.extra.get("fill_order") not in (None, "rows") and squares <= EXACT_LIMIT:
        raise SatilingError("{fill_order} is for boards of more than {limit} squares: this one's "
                            "{squares} are searched whole, row by row, to the best score",
                            fill_order=Option("fill_order"), limit=EXACT_LIMIT, squares=squares)


def maximise(req: Request, events: Events | None = None) -> MaxAnswer:
    """The best edge-matching board within the limits: every better board goes to
    ``events.improve`` as it is found; a full score is a solution, verified."""
    from ..apps.maximize import default_tuning, maximize_matches
    from ..signals import exit_code
    events = events or Events()
    check_maximise(req)
    engine = choose(req)
    events.engine(engine)
    tuning = default_tuning(req.puzzle)
    if req.extra.get("fill_order"):
        tuning = replace(tuning, order=req.extra["fill_order"])
    result = maximize_matches(req.puzzle, req.time_limit, events.improve, engine=engine,
                              hints=bool(req.options.get("hints")), seed=req.seed or 0,
                              workers=req.threads, tuning=tuning,
                              start_board=req.extra.get("start_board"),
                              on_partial=paced(events.partial), dask=req.dask, on_note=events.note)
    stopped = result.stopped_by
    if result.solution and result.score == result.joins:
        req.puzzle.verify(result.solution)         # a full score claims a solution: check it
    if stopped is not None:
        stop = Stop.INTERRUPTED if exit_code(stopped) == 130 else Stop.TERMINATED
    else:
        stop = Stop.TIME if result.status in ("FEASIBLE", "UNKNOWN") and req.time_limit else Stop.DONE
    return MaxAnswer(stop, result.score, result.joins, result.solution, engine, result.seconds,
                     result.status, result.bound, stopped)


#: each task and the one function that runs it
RUNS: dict[str, Callable[[Request, Events | None], Any]] = {
    "solve": solve, "count": count, "enumerate": enumerate_solutions, "maximise": maximise,
}


def perform(req: Request, events: Events | None = None) -> Any:
    """Run ``req`` by its task's function: the answer (:class:`SolveAnswer`, :class:`CountAnswer`
    or :class:`MaxAnswer`)."""
    return RUNS[req.task](req, events)
