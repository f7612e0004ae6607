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
(the walk is Python, so at once; a SAT or CP-SAT call in progress is finished first), local workers
are killed, queued cubes cancelled; a ``kill -9`` of the driver makes its workers exit within a
second.

**The count checkpoint.**  ``count --resume FILE`` records one line per finished cube (in any
order, workers finish when they finish) after a header naming the model's fingerprint; a resumed
count runs the cubes not yet in the file.
"""
from __future__ import annotations

import json
import os
import signal
import threading
import time
import _thread
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from ..errors import SatilingError
from .cubes import CubeRunner, CubeSpace, Job, executor, in_order, results


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

    def seconds_left(self) -> float | None:
        if self.time_limit is None:
            return None
        return max(0.0, self.time_limit - (time.monotonic() - self.started))

    @classmethod
    def from_namespace(cls, args: Any) -> "Settings":
        """From the CLI's parsed options (``count`` / ``enumerate``)."""
        workers = getattr(args, "workers", None)
        if workers is not None and workers < 1:
            raise SatilingError("--workers must be at least 1")
        if workers and getattr(args, "dask", None):
            raise SatilingError("choose --workers or --dask, not both")
        limit = getattr(args, "time_limit", None)
        if limit is not None and limit <= 0:
            raise SatilingError("--time-limit must be positive")
        return cls(args.raw, args.engine, args.solver, not args.no_symmetry_breaking, workers,
                   getattr(args, "dask", None), limit)


@dataclass
class Outcome:
    """How a run ended: ``found`` this time, ``total`` with what an earlier run had; ``stopped`` is
    "" (finished), "limit", "time limit" or "interrupted"."""

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
        self.space = CubeSpace(puzzle, problem, settings.break_symmetry)
        self.settings = settings
        path = Path(name)          # workers find an instance file by its absolute path
        self.job = Job(str(path.resolve()) if path.is_file() else name, tuple(sorted(options.items())),
                       settings.break_symmetry, settings.engine, settings.solver, self.space.fingerprint())

    def enumerate(self, write: Callable[[list[Any]], None], resume: "ResumePoint | None" = None,
                  limit: int | None = None, keep: bool = False) -> "Outcome":
        return enumerate_solutions(self.space, self.job, self.settings, write, resume, limit, keep)

    def resume_point(self, path: str) -> "ResumePoint":
        return read_resume(self.space, path, self.settings.raw)

    def count(self, checkpoint: str | None = None, progress: Callable[[int], None] = lambda n: None,
              keep: bool = False) -> "Outcome":
        return count_solutions(self.space, self.job, self.settings, checkpoint, progress, keep)

    def members(self, solutions: list[frozenset[int]]) -> set[frozenset[int]]:
        """The solutions of the restricted problem that a set of found solutions stands for."""
        return self.space.restricted_members(solutions)


# -- enumerate ------------------------------------------------------------------------------------
def enumerate_solutions(space: CubeSpace, job: Job, s: Settings, write: Callable[[list[Any]], None],
                        resume: "ResumePoint | None" = None, limit: int | None = None,
                        keep: bool = False) -> Outcome:
    """Stream verified solutions to ``write`` (decoded placements), cube by cube; stops cleanly on
    the limit, the time limit or Ctrl-C.  ``keep`` also returns every solution found (as variables)."""
    resume = resume or ResumePoint()
    out = Outcome(total=resume.lines)
    runner = CubeRunner(space, s.engine, s.solver)
    problem, puzzle = space.problem, space.puzzle
    with stop_on(s.seconds_left()) as stop:
        stop.arm()
        try:
            with executor(s.workers, s.dask) as ex:
                for rep in _owners_in_order(runner, ex, job, resume.cube):
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


def _owners_in_order(runner: CubeRunner, ex, job: Job, first: int) -> Iterator[frozenset[int]]:
    n = len(runner.space.cubes)
    if ex is None:
        for cube in range(first, n):
            yield from runner.owners(cube)
        return
    done = results(ex, job, range(first, n), raw=False, keep=True, verify=False)
    for r in in_order(done, first, n):
        yield from map(frozenset, r.owners)


class SolutionFile:
    """JSON lines appended to a file, each with one unbuffered write (a kill tears at most the
    last line, which a resume drops)."""

    def __init__(self, path: str) -> None:
        try:
            self.f = open(path, "ab", buffering=0)
        except OSError as e:
            raise SatilingError(f"{path}: cannot write: {e.strerror}") from None

    def write_line(self, line: str) -> None:
        data = (line + "\n").encode()
        while data:
            data = data[self.f.write(data):]

    def close(self) -> None:
        self.f.close()


@dataclass
class ResumePoint:
    """Where a stream left off: the cube to start from, the solutions of that cube already written."""

    cube: int = 0
    skip: set[frozenset[int]] = field(default_factory=set)
    lines: int = 0
    torn: bool = False
    solutions: list[frozenset[int]] = field(default_factory=list)   # every line, in order


def read_resume(space: CubeSpace, path: str, raw: bool) -> ResumePoint:
    """Read a solutions file written by :func:`enumerate_solutions` with the same settings, drop
    a torn last line, and check it is a prefix of the stream (see the module doc)."""
    lines, torn = _complete_lines(path)
    point = ResumePoint(torn=torn)
    var_of = {space.problem.meanings[v]: v for v in space.problem.primary_vars()}
    classes: list[tuple[tuple[int, ...], int, int]] = []      # (owner, members seen, line) in order
    seen: set[frozenset[int]] = set()
    for n, line in enumerate(lines, 1):
        sol = _solution_vars(space, var_of, line, f"{path}: line {n}")
        owner = space.owner(sol)
        if owner is None:
            raise SatilingError(f"{path}: line {n} is not a solution of {space.puzzle.name} with these options")
        cube, rep = owner
        if sol in seen:
            raise SatilingError(f"{path}: line {n} repeats an earlier solution")
        if cube < point.cube:
            raise _not_ours(path, n)
        if not raw and rep != tuple(sorted(sol)):
            raise _not_ours(path, n)
        if classes and classes[-1][0] == rep:
            classes[-1] = (rep, classes[-1][1] + 1, n)
        else:
            _check_class_complete(space, classes, raw, path)
            classes.append((rep, 1, n))
        if cube > point.cube:
            point.skip.clear()
        point.cube = cube
        point.skip.add(sol)
        seen.add(sol)
        point.solutions.append(sol)
    point.lines = len(point.solutions)
    return point


def _check_class_complete(space: CubeSpace, classes: list, raw: bool, path: str) -> None:
    """In a raw file every class but the last must be there whole."""
    if raw and classes:
        rep, members, line = classes[-1]
        if members != len(space.group.images(rep)):
            raise _not_ours(path, line)


def _not_ours(path: str, n: int) -> SatilingError:
    return SatilingError(f"{path}: line {n} is out of place: the file was not written by this "
                         "enumeration (same puzzle, --raw and symmetry options)")


def _complete_lines(path: str) -> tuple[list[str], bool]:
    """The complete lines of ``path`` (missing: none); a torn last line is cut off the file."""
    p = Path(path)
    if not p.exists():
        return [], False
    try:
        data = p.read_bytes()
        torn = bool(data) and not data.endswith(b"\n")
        if torn:
            keep = data.rfind(b"\n") + 1
            os.truncate(p, keep)
            data = data[:keep]
        return [ln for ln in data.decode().splitlines() if ln.strip()], torn
    except OSError as e:
        raise SatilingError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise SatilingError(f"{path}: not a text file") from None


def _solution_vars(space: CubeSpace, var_of: dict, line: str, where: str) -> frozenset[int]:
    try:
        data = json.loads(line)
        placements = [space.puzzle.placement_from_json(p) for p in data["placements"]]
    except (json.JSONDecodeError, KeyError, TypeError):
        raise SatilingError(f"{where} is not a solution in JSON") from None
    try:
        return frozenset(var_of[p] for p in placements)
    except KeyError:
        raise SatilingError(f"{where} is not a solution of {space.puzzle.name}") from None


# -- count ----------------------------------------------------------------------------------------
def count_solutions(space: CubeSpace, job: Job, s: Settings, checkpoint: str | None = None,
                    progress: Callable[[int], None] = lambda n: None, keep: bool = False) -> Outcome:
    """Count (and verify) every solution, cube by cube, here or on workers; with a ``checkpoint``
    file, finished cubes are recorded there and skipped when the count is resumed."""
    done = _read_checkpoint(space, job, s, checkpoint) if checkpoint else {}
    out = Outcome(total=sum(done.values()))
    todo = [i for i in range(len(space.cubes)) if i not in done]
    record = _Checkpoint(checkpoint, space, job, s) if checkpoint else None
    runner = CubeRunner(space, s.engine, s.solver)
    here = not (s.dask or (s.workers or 1) > 1)
    with stop_on(s.seconds_left()) as stop:
        stop.arm()
        with executor(s.workers, s.dask) as ex:
            if here:
                finished = (runner.run(i, s.raw, keep, progress=progress) for i in todo)
            else:
                finished = results(ex, job, todo, s.raw, keep, verify=True)
            for r in finished:
                with stop.critical():
                    out.found += r.count
                    out.total += r.count
                    out.classes += r.classes
                    if record:
                        record.add(r.cube, r.count)
                out.solutions.extend(map(frozenset, r.owners))
                if not here:
                    progress(r.count)
    runner.close()
    if record:
        record.file.close()
    out.stopped = stop.reason
    if stop.reason and here:
        out.total += runner.partial       # the cube in progress, counted so far
        out.found += runner.partial
    return out


class _Checkpoint:
    """The count's record of finished cubes: a header line, then one line per cube."""

    def __init__(self, path: str, space: CubeSpace, job: Job, s: Settings) -> None:
        new = not Path(path).exists() or Path(path).stat().st_size == 0
        self.file = SolutionFile(path)
        if new:
            self.file.write_line(json.dumps(_header(space, job, s)))

    def add(self, cube: int, count: int) -> None:
        self.file.write_line(json.dumps({"cube": cube, "count": count}))


def _header(space: CubeSpace, job: Job, s: Settings) -> dict[str, Any]:
    return {"satiling": "count", "puzzle": space.puzzle.name, "raw": s.raw,
            "fingerprint": job.fingerprint, "cubes": len(space.cubes)}


def _read_checkpoint(space: CubeSpace, job: Job, s: Settings, path: str) -> dict[int, int]:
    lines, _ = _complete_lines(path)
    if not lines:
        return {}
    try:
        header = json.loads(lines[0])
        records = [json.loads(ln) for ln in lines[1:]]
        done = {int(r["cube"]): int(r["count"]) for r in records}
    except (json.JSONDecodeError, KeyError, TypeError, ValueError):
        raise SatilingError(f"{path}: not a count checkpoint") from None
    if header != _header(space, job, s):
        raise SatilingError(f"{path}: a checkpoint of another count (puzzle, --raw, symmetry or "
                            "model options differ)")
    return done


# -- stopping cleanly ---------------------------------------------------------------------------
class stop_on:
    """Turn Ctrl-C, SIGTERM and the time limit into a clean stop: the block ends, ``reason`` says
    why ("" if it ran to the end).  Cleanup inside the block (closing workers) runs first.

    The block starts with ``stop.arm()``: the clock and the signal handlers start there, inside the
    block, so a limit already used up (by building the model) still ends the block cleanly.
    Inside ``with stop.critical():`` (writing a solution and counting it) a stop waits until the
    section is over, so what was written and what was counted always agree.
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds, self.reason = seconds, ""
        self._expired = self._done = False
        self._in_critical = self._pending = self._leaving = False
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._old: dict = {}

    def __enter__(self) -> "stop_on":
        return self

    def arm(self) -> None:
        main = threading.current_thread() is threading.main_thread()
        if main:
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._old[sig] = signal.signal(sig, self._on_signal)
        if self.seconds is None:
            return
        if not main:
            raise SatilingError("a time limit needs the main thread (it stops the run with a signal)")
        if self.seconds <= 0:
            self._expired = True
            raise KeyboardInterrupt
        self._timer = threading.Timer(self.seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def _expire(self) -> None:
        with self._lock:
            if not self._done:
                self._expired = True
                _thread.interrupt_main()          # runs _on_signal in the main thread

    def _on_signal(self, signum, frame) -> None:
        if self._in_critical or self._leaving:     # never raise inside the cleanup
            self._pending = True
        else:
            raise KeyboardInterrupt

    @contextmanager
    def critical(self) -> Iterator[None]:
        self._in_critical = True
        try:
            yield
        finally:
            self._in_critical = False
        if self._pending:
            raise KeyboardInterrupt

    def __exit__(self, exc_type, exc, tb) -> bool:
        self._leaving = True
        with self._lock:
            self._done = True
        if self._timer is not None:
            self._timer.cancel()
        for sig, handler in self._old.items():
            signal.signal(sig, handler)
        if exc_type is KeyboardInterrupt:
            self.reason = "time limit" if self._expired else "interrupted"
            return True
        return False
