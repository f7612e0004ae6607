"""Long enumerations and counts that can be stopped and resumed without losing or repeating anything.

**The solutions file.**  ``enumerate`` writes each solution, verified, as one JSON line, with one
unbuffered ``write`` the moment it is found.  Solutions come cube by cube, in the fixed cube order of
:mod:`satiling.search.cubes` (also with many workers: a cube finished early waits for the ones
before it), and the members of one symmetry class follow each other.  So after any stop -- Ctrl-C,
the time limit, ``kill -9``, a power cut -- the file is a prefix of the one stream, possibly with a
torn last line.  ``--resume FILE`` drops the torn line, finds the cube of the last solution (its
class's owner cube), takes every earlier cube as done, runs that cube again skipping the solutions
already in the file, and goes on.  Nothing is lost (a cube is only skipped once a later one has
begun), nothing is repeated (the cube in progress is compared solution by solution), and at most one
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

from ..errors import SatilingError
from ..signals import stop_on
from .cubes import CubeResult, CubeRunner, CubeSpace, Job, executor, in_order, results
from .runfiles import Checkpoint, ResumePoint, SolutionFile, read_resume


@dataclass(frozen=True)
class Settings:
    """How to run: which solutions, which engine, where, for how long."""

    raw: bool = False
    engine: str = "auto"
    solver: str = "cadical"
    break_symmetry: bool = True
    workers: int | None = None
    dask: str | None = None
    time_limit: float | None = None
    started: float = field(default_factory=time.monotonic)     # the time limit counts from here
    symmetry: str = "full"     # the group classes are taken under (symmetry.SYMMETRIES; raw: full)

    def seconds_left(self) -> float | None:
        if self.time_limit is None:
            return None
        return max(0.0, self.time_limit - (time.monotonic() - self.started))

    def __post_init__(self) -> None:
        if self.workers is not None and self.workers < 1:
            raise SatilingError("--workers must be at least 1")
        if self.workers and self.dask:
            raise SatilingError("choose --workers or --dask, not both")
        if self.time_limit is not None and not self.time_limit > 0:
            raise SatilingError("--time-limit must be positive")


def symmetry_choice(raw: bool, symmetry: str | None) -> tuple[bool, str]:
    """(raw, group) from ``--raw`` and ``--symmetry`` (None: not given).  ``none`` is raw; a raw
    run still restricts by the full group and lists each class's members (its images), the
    fastest way to all solutions; ``--raw`` with a group is a contradiction, refused."""
    from .symmetry import SYMMETRIES
    if symmetry is not None and symmetry not in SYMMETRIES:
        raise SatilingError(f"unknown symmetry {symmetry!r} (choose from {', '.join(SYMMETRIES)})")
    if raw and symmetry not in (None, "none"):
        raise SatilingError(f"raw means every solution, symmetry {symmetry!r} one per class: choose one")
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

    @property
    def complete(self) -> bool:
        return self.stopped == ""


class Run:
    """One count or enumeration of a puzzle: its cubes, the workers' recipe, the settings."""

    def __init__(self, name: str, puzzle: Any, problem: Any, options: dict[str, Any],
                 settings: Settings) -> None:
        self.space = CubeSpace(puzzle, problem, settings.break_symmetry, symmetry=settings.symmetry)
        self.settings = settings
        path = Path(name)          # workers find an instance file by its absolute path
        self.job = Job(str(path.resolve()) if path.is_file() else name, tuple(sorted(options.items())),
                       settings.break_symmetry, settings.engine, settings.solver, self.space.fingerprint(),
                       settings.symmetry)

    def enumerate(self, write: Callable[[list[Any]], None], resume: "ResumePoint | None" = None,
                  limit: int | None = None, keep: bool = False,
                  work: Callable[[float], None] | None = None) -> "Outcome":
        return enumerate_solutions(self.space, self.job, self.settings, write, resume, limit, keep, work)

    def resume_point(self, file: SolutionFile) -> ResumePoint:
        return read_resume(self.space, file, self.settings.raw)

    def solution_file(self, path: str, resume: bool = False) -> SolutionFile:
        """The solutions file, locked and checked (see :mod:`.runfiles`); unchanged until ``start()``."""
        return SolutionFile(path, self, resume)

    def count(self, checkpoint: str | None = None, progress: Callable[[int], None] = lambda n: None,
              keep: bool = False, work: Callable[[float], None] | None = None) -> "Outcome":
        record = Checkpoint(checkpoint, self) if checkpoint else None
        try:
            return count_solutions(self.space, self.job, self.settings, record, progress, keep, work)
        finally:
            if record:
                record.close()

    def members(self, solutions: list[frozenset[int]]) -> set[frozenset[int]]:
        """The solutions of the restricted problem that a set of found solutions stands for."""
        return self.space.restricted_members(solutions)


# -- enumerate ------------------------------------------------------------------------------------
def enumerate_solutions(space: CubeSpace, job: Job, s: Settings, write: Callable[[list[Any]], None],
                        resume: "ResumePoint | None" = None, limit: int | None = None,
                        keep: bool = False, work: Callable[[float], None] | None = None) -> Outcome:
    """Stream verified solutions to ``write`` (decoded placements), cube by cube; stops cleanly on
    the limit, the time limit or Ctrl-C.  ``keep`` also returns every solution found (as variables);
    ``work`` hears the part of the estimated search done."""
    resume = resume or ResumePoint()
    out = Outcome(total=resume.lines)
    runner = CubeRunner(space, s.engine, s.solver)
    problem, puzzle = space.problem, space.puzzle
    meter = Meter(space, range(resume.cube), work)
    with stop_on(s.seconds_left()) as stop:
        stop.arm()
        try:
            with executor(s.workers, s.dask) as ex:
                for rep in _owners_in_order(runner, ex, job, resume.cube, meter):
                    for sol in space.expand(rep, s.raw):
                        if sol in resume.skip:
                            continue
                        if limit is not None and out.found >= limit:
                            raise _LimitReached
                        solution = problem.decode(sol)
                        puzzle.verify(solution)
                        with stop.critical():
                            write(solution)
                            out.found += 1
                            out.total += 1
                        if keep:
                            out.solutions.append(sol)
        except _LimitReached:
            out.stopped = "limit"
    runner.close()
    out.stopped = out.stopped or stop.reason
    return out


class _LimitReached(Exception):
    """Enough solutions: leave the loop as on any stop (queued cubes cancelled, workers stopped)."""


def _owners_in_order(runner: CubeRunner, ex, job: Job, first: int,
                     meter: "Meter") -> Iterator[frozenset[int]]:
    space = runner.space
    n = len(space.cubes)
    if ex is None:
        for cube in range(first, n):
            runner.on_progress = meter.within(cube)
            yield from runner.owners(cube)
            meter.finish(cube)
        return
    plan = space.plan() if runner.engine == "walk" else None
    done = results(ex, job, range(first, n), raw=False, keep=True, verify=False, plan=plan)
    for r in in_order(done, first, n):
        yield from map(frozenset, r.owners)
        meter.finish(r.cube)


# -- count ----------------------------------------------------------------------------------------
def count_solutions(space: CubeSpace, job: Job, s: Settings, record: Checkpoint | None = None,
                    progress: Callable[[int], None] = lambda n: None, keep: bool = False,
                    work: Callable[[float], None] | None = None) -> Outcome:
    """Count (and verify: one solution per class) every solution, cube by cube, here or on
    workers; with a ``checkpoint`` file, finished cubes are recorded there and skipped when the
    count is resumed.  ``work`` hears the part of the estimated search done."""
    done = record.done if record else {}
    out = Outcome(total=sum(done.values()))
    todo = [i for i in range(len(space.cubes)) if i not in done]
    runner = CubeRunner(space, s.engine, s.solver)
    here = not (s.dask or (s.workers or 1) > 1)
    plan = None if here or runner.engine != "walk" else space.plan()
    meter = Meter(space, done, work)
    with stop_on(s.seconds_left()) as stop:
        stop.arm()
        with executor(s.workers, s.dask) as ex:
            if here:
                finished = (_run_here(runner, i, s.raw, keep, progress, meter) for i in todo)
            else:
                finished = results(ex, job, todo, s.raw, keep, verify=True, plan=plan)
            for r in finished:
                if plan is not None:             # the workers had the matrix: verify here
                    for rep in r.owners:
                        space.verify_class(frozenset(rep), s.raw)
                with stop.critical():
                    out.found += r.count
                    out.total += r.count
                    out.classes += r.classes
                    if record:
                        record.add(r.cube, r.count)
                if keep:
                    out.solutions.extend(map(frozenset, r.owners))
                if not here:
                    progress(r.count)
                    meter.finish(r.cube)
    runner.close()
    out.stopped = stop.reason
    if stop.reason and here:
        out.total += runner.partial       # the cube in progress, counted so far
        out.found += runner.partial
    return out


def _run_here(runner: CubeRunner, cube: int, raw: bool, keep: bool, progress: Callable[[int], None],
              meter: "Meter") -> CubeResult:
    runner.on_progress = meter.within(cube)
    result = runner.run(cube, raw, keep, progress=progress)
    meter.finish(cube)
    return result


class Meter:
    """The part of the work done, from Knuth's estimates of the cubes' trees: the finished cubes'
    estimates, plus the cube in progress's estimate times the part of its own tree done (his
    measure of the position of the search); the progress bar's fraction and time left."""

    def __init__(self, space: CubeSpace, finished: Iterable[int],
                 report: Callable[[float], None] | None) -> None:
        self.sizes = space.estimates or [1.0] * len(space.cubes)
        self.total = sum(self.sizes) or 1.0
        self.done = sum(self.sizes[i] for i in finished)
        self.report = report or (lambda fraction: None)

    def within(self, cube: int) -> Callable[[float], None]:
        """The callback for the cube now searched: it hears the part of that cube done."""
        size = self.sizes[cube]
        return lambda part: self.report(min(1.0, (self.done + size * part) / self.total))

    def finish(self, cube: int) -> None:
        self.done += self.sizes[cube]
        self.report(min(1.0, self.done / self.total))
