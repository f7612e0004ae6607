"""Long enumerations and counts that can be stopped and resumed without losing or repeating anything.

**The solutions file.**  ``enumerate`` writes each solution, verified, as one JSON line, with one
unbuffered ``write`` the moment it is found.  Solutions come cube by cube, in the fixed cube order of
:mod:`satiling.search.cubes` (also with many workers: a cube finished early waits for the ones
before it), and the members of one symmetry class follow each other.  So after any stop -- Ctrl-C,
the time limit, ``kill -9``, a power cut -- the file is a prefix of the one stream, possibly with a
torn last line.  ``--resume FILE`` drops the torn line, finds the cube of the last solution (its
class's owner cube), takes every earlier cube as done, runs that cube again skipping the solutions
already in the file, and goes on.  Cubes finished without a solution are not lost either: a cube
that ends a second or more after the last record, and a stop after a cube done since the last
record, writes a mark of the cubes done (a record that
readers of solutions skip, as they skip the header), and a resume starts after the last mark when
it is later.  Nothing is lost (a cube is only skipped once a later one has begun or a mark names
it), nothing is repeated (the cube in progress is compared solution by solution), and at most one
cube is computed twice.  The file is checked while it is read: every line must be a solution of
this puzzle in the stream's order, or the resume is refused.

**Stopping.**  Ctrl-C, SIGTERM and ``--time-limit`` end the run between two steps of the search
(the compiled exact-cover search looks at signals and the clock every few milliseconds,
``engines/_handback.h``; a SAT or CP-SAT solver runs in a child process, killed: see
:mod:`satiling.children`), local workers
are killed, queued cubes cancelled; a ``kill -9`` of the driver makes its workers exit within a
second.

**The count checkpoint.**  ``count --resume FILE`` records one line per finished cube (in any
order, workers finish when they finish) after a header naming the run; a resumed count runs the
cubes not yet in the file.  Both files, their headers, checksums and locks: :mod:`.runfiles`.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from ..errors import Option, SatilingError
from ..engines.table import DEFAULT_SAT_ALIAS
from ..limits import Deadline, check_one_place, check_seconds, check_workers
from ..signals import stop_on
from ..share import is_share
from .cubes import CubeResult, CubeSpace, Position
from .runner import CubeRunner
from .searchers import Show
from .workers import Job, executor, in_order, results
from .runfiles import Checkpoint, PartCube, ResumePoint, SolutionFile, read_resume
from .runfiles import keep_stopped as keep_stopped_count


#: a solutions file gets a mark of the cubes done at most this often, when no solution came since
MARK_SECONDS = 1.0


@dataclass(frozen=True)
class Settings:
    """How to run: which solutions, which engine, where, for how long."""

    raw: bool = False
    engine: str = "auto"
    solver: str = DEFAULT_SAT_ALIAS
    break_symmetry: bool = True
    workers: int | None = None
    dask: str | None = None
    time_limit: float | None = None
    #: the run's end (None: ``time_limit`` from now)
    deadline: Deadline | None = None
    symmetry: str = "full"     # the group classes are taken under (symmetry.SYMMETRIES; raw: full)

    def __post_init__(self) -> None:
        check_workers(self.workers)
        check_one_place(self.workers, self.dask)
        check_seconds(self.time_limit)
        if self.deadline is None:
            object.__setattr__(self, "deadline", Deadline.after(self.time_limit))


def symmetry_choice(raw: bool, symmetry: str | None) -> tuple[bool, str]:
    """(raw, group) from ``--raw`` and ``--symmetry`` (None: not given).  ``none`` is raw; a raw
    run still restricts by the full group and lists each class's members (its images), the
    fastest way to all solutions; ``--raw`` with a group is a contradiction, refused."""
    from .symmetry import SYMMETRIES
    if symmetry is not None and symmetry not in SYMMETRIES:
        raise SatilingError(f"unknown symmetry {symmetry!r} (choose from {', '.join(SYMMETRIES)})")
    if raw and symmetry not in (None, "none"):
        raise SatilingError("{raw} means every solution, {symmetry} one per class: choose one",
                            raw=Option("raw"), symmetry=Option("symmetry", symmetry))
    raw = raw or symmetry == "none"
    return raw, "full" if raw else (symmetry or "full")


@dataclass
class Outcome:
    """How a run ended: ``found`` this time, ``total`` with what an earlier run had; ``stopped`` is
    "" (finished), "limit", "time limit", "interrupted" (SIGINT) or "terminated" (SIGTERM)."""

    found: int = 0
    total: int = 0
    classes: int = 0                       # symmetry classes counted (count only, this run)
    stopped: str = ""
    solutions: list[frozenset[int]] = field(default_factory=list)   # kept only when asked for
    #: count: the cubes finished in this run, and where a stop found the cube in progress
    finished: dict[int, int] = field(default_factory=dict)
    position: Position | None = None
    checkpoint: str | None = None          # where a stopped count without --resume kept its work
    #: count: solutions in ``total`` that the checkpoint does not keep (the cube in progress counted
    #: past the last place the search recorded): a resumed count counts them again
    recounted: int = 0
    cubes_done: int = 0                    # enumerate: the cubes this run searched to the end

    @property
    def complete(self) -> bool:
        return self.stopped == ""


class Run:
    """One count or enumeration of a puzzle: its cubes, the workers' recipe, the settings."""

    def __init__(self, name: str, puzzle: Any, problem: Any, options: dict[str, Any],
                 settings: Settings) -> None:
        from .searchers import searcher
        #: how the engine searches (:mod:`.searchers`)
        self.searcher = searcher(settings.engine, problem)
        self.space = self.searcher.space(puzzle, problem, options, settings)
        self.settings = settings
        path = Path(name)          # workers find an instance file by its absolute path
        local = not is_share(name) and path.is_file()     # (a share text is no file name: too long)
        self.job = Job(str(path.resolve()) if local else name, tuple(sorted(options.items())),
                       settings.break_symmetry, settings.engine, settings.solver, self.space.fingerprint(),
                       settings.symmetry)

    def enumerate(self, write: Callable[[list[Any]], None], resume: "ResumePoint | None" = None,
                  limit: int | None = None, keep: bool = False,
                  work: Callable[[float, float], None] | None = None,
                  mark: Callable[[int], None] | None = None,
                  partial: Show | None = None) -> "Outcome":
        return enumerate_solutions(self.space, self.job, self.settings, write, resume, limit, keep, work,
                                   mark, partial)

    def resume_point(self, file: SolutionFile) -> ResumePoint:
        return read_resume(self.space, file, self.settings.raw)

    def solution_file(self, path: str, resume: bool = False) -> SolutionFile:
        """The solutions file, locked and checked (see :mod:`.runfiles`); unchanged until ``start()``."""
        return SolutionFile(path, self, resume)

    def count(self, checkpoint: str | None = None, progress: Callable[[int], None] = lambda n: None,
              keep: bool = False, work: Callable[[float, float], None] | None = None,
              keep_stopped: bool = False, partial: Show | None = None) -> "Outcome":
        """Count; with ``checkpoint`` finished cubes go to that file as they finish (and where a
        stop found the cube in progress); without one, ``keep_stopped`` writes a stopped count's
        work to a checkpoint of its own (``Outcome.checkpoint``: see :func:`.runfiles.keep_stopped`);
        ``partial``: see :func:`count_solutions`."""
        record = Checkpoint(checkpoint, self) if checkpoint else None
        try:
            out = count_solutions(self.space, self.job, self.settings, record, progress, keep, work,
                                  partial)
        finally:
            if record:
                record.close()
        if keep_stopped and record is None and not out.complete and (out.finished or out.position):
            at = out.position
            part = (at.cube, PartCube(at.counted, at.left, at.done)) if at is not None else None
            out.checkpoint = keep_stopped_count(self, out.finished, part)
        return out

    def members(self, solutions: list[frozenset[int]]) -> set[frozenset[int]]:
        """The solutions of the restricted problem that a set of found solutions stands for."""
        return self.space.restricted_members(solutions)


def cube_space(puzzle: Any, problem: Any, options: dict[str, Any], settings: Settings) -> Any:
    """The run's cubes, as the engine's searcher splits them (:mod:`.searchers`): the
    edge-matching backtracker's prefix jobs (:mod:`.edgespace`), or the model's
    (:class:`.cubes.CubeSpace`)."""
    from .searchers import searcher
    return searcher(settings.engine, problem).space(puzzle, problem, options, settings)


def make_runner(space: Any, s: Settings) -> Any:
    """What runs the cubes in this process, as the engine's searcher runs them."""
    from .searchers import searcher
    return searcher(s.engine, space.problem).runner(space, s.solver)


def space_solutions(space: Any, s: Settings) -> Iterator[frozenset[int]]:
    """Every solution of a run's cubes (one per class of its group, or with ``s.raw`` every
    member), cube by cube in the order ``enumerate`` writes them, in this process: a generator
    that runs only as far as it is read (the library's ``puzzle.solutions()``)."""
    run = make_runner(space, s)
    try:
        for cube in range(len(space.cubes)):
            for rep in run.owners(cube):
                yield from space.expand(rep, s.raw)
    finally:
        run.close()


# -- enumerate ------------------------------------------------------------------------------------
def enumerate_solutions(space: CubeSpace, job: Job, s: Settings, write: Callable[[list[Any]], None],
                        resume: "ResumePoint | None" = None, limit: int | None = None,
                        keep: bool = False, work: Callable[[float, float], None] | None = None,
                        mark: Callable[[int], None] | None = None, partial: Show | None = None) -> Outcome:
    """Stream verified solutions to ``write`` (decoded placements), cube by cube; stops cleanly on
    the limit, the time limit or Ctrl-C.  ``keep`` also returns every solution found (as variables);
    ``work`` hears the part of the estimated search done (and the part in finished cubes); ``mark``
    hears how many cubes are done, at most every :data:`MARK_SECONDS` when no solution came since
    (so a resume starts after cubes that ran long without one); ``partial``: see
    :func:`count_solutions`."""
    resume = resume or ResumePoint()
    out = Outcome(total=resume.lines)
    run = make_runner(space, s)
    _watch_here(run, s, partial)
    problem, puzzle = space.problem, space.puzzle
    meter = Meter(space, range(resume.cube), work)
    last = [time.monotonic()]          # the last record written
    unmarked: list[int | None] = [None]   # the last cube done since the last record, if any

    def cube_done(cube: int) -> None:
        unmarked[0] = cube
        out.cubes_done += 1
        if mark is not None and time.monotonic() - last[0] >= MARK_SECONDS:
            with stop.critical():
                mark(cube + 1)
                last[0], unmarked[0] = time.monotonic(), None
    with stop_on(s.deadline.left()) as stop:
        stop.arm()
        try:
            with executor(s.workers, s.dask) as ex:
                for rep in _owners_in_order(run, ex, job, resume.cube, meter, cube_done):
                    for sol in space.expand(rep, s.raw):
                        if sol in resume.skip:
                            continue
                        if limit is not None and out.found >= limit:
                            raise _LimitReached
                        solution = problem.decode(sol)
                        puzzle.verify(solution)
                        with stop.critical():       # (a stop waiting here rises at its end)
                            write(solution)
                            out.found += 1
                            out.total += 1
                            last[0], unmarked[0] = time.monotonic(), None
                        if keep:
                            out.solutions.append(sol)
        except _LimitReached:
            out.stopped = "limit"
    run.close()
    out.stopped = out.stopped or stop.reason
    if out.stopped and mark is not None and unmarked[0] is not None:
        # the cubes done since the last record, however short the run: a resume after a short
        # time limit starts after them, not at the last solution's cube again
        mark(unmarked[0] + 1)
    return out


class _LimitReached(Exception):
    """Enough solutions: leave the loop as on any stop (queued cubes cancelled, workers stopped)."""


def _owners_in_order(runner: CubeRunner, ex, job: Job, first: int, meter: "Meter",
                     cube_done: Callable[[int], None]) -> Iterator[frozenset[int]]:
    """The owners of cubes ``first..``, cube by cube; ``cube_done`` hears each cube once every
    solution of it has been handed on."""
    space = runner.space
    n = len(space.cubes)
    if ex is None:
        for cube in range(first, n):
            runner.on_progress = meter.within(cube)
            yield from runner.owners(cube)
            meter.finish(cube)
            cube_done(cube)
        return
    plan = space.plan() if runner.searcher.plans else None
    done = results(ex, job, range(first, n), raw=False, keep=True, verify=False, plan=plan)
    for r in in_order(done, first, n):
        yield from map(frozenset, r.owners)
        meter.finish(r.cube)
        cube_done(r.cube)


# -- count ----------------------------------------------------------------------------------------
def count_solutions(space: CubeSpace, job: Job, s: Settings, record: Checkpoint | None = None,
                    progress: Callable[[int], None] = lambda n: None, keep: bool = False,
                    work: Callable[[float, float], None] | None = None,
                    partial: Show | None = None) -> Outcome:
    """Count (and verify: one solution per class) every solution, cube by cube, here or on
    workers; with a ``checkpoint`` file, finished cubes are recorded there and skipped when the
    count is resumed.  ``work`` hears the part of the estimated search done (and the part in
    finished cubes); ``partial`` the partial solution the search stands on (placements), a few
    times a second, where the cubes run in this process and the engine can tell
    (:func:`_watch_here`)."""
    done = record.done if record else {}
    parts = dict(record.partial) if record else {}      # cubes a stopped count searched in part
    out = Outcome(total=sum(done.values()) + sum(p.count for p in parts.values()))
    todo = [i for i in range(len(space.cubes)) if i not in done]
    run = make_runner(space, s)
    _watch_here(run, s, partial)
    here = not (s.dask or (s.workers or 1) > 1)
    plan = space.plan() if not here and run.searcher.plans else None
    if not here or not (run.searcher.knows_position or run.searcher.by_parts):
        todo = [i for i in todo if i not in parts]   # workers and SAT run whole cubes:
        todo += sorted(parts)                        # the parts' counts are dropped below
        out.total -= sum(p.count for p in parts.values())
        parts = {}
    meter = Meter(space, done, work, {i: p.done for i, p in parts.items()})
    if out.total:
        progress(out.total)           # a resumed count's bar counts the whole count's solutions
    with stop_on(s.deadline.left()) as stop:
        stop.arm()
        with executor(s.workers, s.dask) as ex:
            if here:
                finished = (_run_here(run, i, s.raw, keep, progress, meter, parts.get(i)) for i in todo)
            else:
                finished = results(ex, job, todo, s.raw, keep, verify=True, plan=plan)
            for r in finished:
                if plan is not None:             # the workers had the matrix: verify here
                    for rep in r.owners:
                        space.verify_class(frozenset(rep), s.raw)
                with stop.critical():
                    new = r.count - (parts.pop(r.cube).count if r.cube in parts else 0)
                    out.found += new
                    out.total += new
                    out.classes += r.classes
                    out.finished[r.cube] = r.count
                    if record:
                        record.add(r.cube, r.count)
                if keep:
                    out.solutions.extend(map(frozenset, r.owners))
                if not here:
                    progress(r.count)
                    meter.finish(r.cube)
    run.close()
    out.stopped = stop.reason
    if stop.reason and here:
        at = run.position
        at = at if at is not None and at.cube not in out.finished else None
        before = parts[at.cube].count if at is not None and at.cube in parts else 0
        if at is not None and not at.left:         # finished, stopped before it was recorded
            out.total += at.counted - before
            out.found += at.counted - before
            out.finished[at.cube] = at.counted
            if record:
                record.add(at.cube, at.counted)
            at = None
        else:
            out.total += run.partial - before   # the cube in progress, counted so far
            out.found += run.partial - before
            out.recounted = run.partial - before
        if at is not None and at.left == (parts[at.cube].left if at.cube in parts else [()]):
            at = None                              # stopped before its first step: nothing new
        out.position = at
        if record and at is not None:              # what a resumed count still has to search
            record.add_part(at.cube, PartCube(at.counted, at.left, at.done))
            out.recounted = run.partial - at.counted
    return out


def _watch_here(runner: CubeRunner, s: Settings, partial: Show | None) -> None:
    """Show ``partial`` the search of the cubes run in this process (the compiled searches can
    tell where they stand, at their looks at the clock).  Cubes on workers show nothing: their
    results come back whole, when a cube ends, and the partial board of one process at a time
    would need a channel of its own."""
    if partial is not None and not (s.dask or (s.workers or 1) > 1):
        runner.watch(partial)


def _run_here(runner: CubeRunner, cube: int, raw: bool, keep: bool, progress: Callable[[int], None],
              meter: "Meter", part: PartCube | None = None) -> CubeResult:
    runner.on_progress = meter.within(cube)
    if part is None:
        result = runner.run(cube, raw, keep, progress=progress)
    else:
        result = runner.run(cube, raw, keep, progress=progress, within=part.left, counted=part.count,
                            done=part.done)
    meter.finish(cube)
    return result


class Meter:
    """The part of the work done, from Knuth's estimates of the cubes' trees: the finished cubes'
    estimates, plus the cube in progress's estimate times the part of its own tree done (his
    measure of the position of the search); the progress bar's fraction and time left
    (:mod:`.timeleft`)."""

    def __init__(self, space: CubeSpace, finished: Iterable[int],
                 report: Callable[[float], None] | None, parts: dict[int, float] | None = None) -> None:
        self.sizes = space.estimates or [1.0] * len(space.cubes)
        self.total = sum(self.sizes) or 1.0
        self.parts = dict(parts or {})       # cubes searched in part by an earlier run: how much
        self.done = sum(self.sizes[i] for i in finished) + sum(self.sizes[i] * p for i, p in self.parts.items())
        self.report = report or (lambda fraction, finished: None)
        if self.done:
            self._tell(self.done)                        # where a resumed run starts

    def within(self, cube: int) -> Callable[[float], None]:
        """The callback for the cube now searched: it hears the part of that cube done (all of
        it, with what an earlier run did)."""
        size = self.sizes[cube]
        base = self.done - size * self.parts.get(cube, 0.0)
        return lambda part: self._tell(base + size * part)

    def finish(self, cube: int) -> None:
        self.done += self.sizes[cube] * (1.0 - self.parts.pop(cube, 0.0))
        self._tell(self.done)

    def _tell(self, done: float) -> None:
        """``report(part done, part in finished cubes)``: the second leaves out the position
        inside the cube in progress (see :mod:`.timeleft`)."""
        self.report(min(1.0, done / self.total), min(1.0, self.done / self.total))
