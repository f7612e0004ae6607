"""How each engine counts and enumerates: the searchers the engine table names for those tasks
(:mod:`satiling.engines.table`).  The count pipeline (:mod:`.stream`) splits every search into
cubes, runs them here or on workers and keeps what a stop leaves; a searcher says how its engine
takes part:

* ``space``: the run's cubes (the model's, :class:`.cubes.CubeSpace`, or the edge-matching
  backtracker's prefix jobs, :class:`.edgespace.EdgeSpace`);
* ``runner``: what runs one cube in this process;
* ``cube_solutions``: a model engine's solutions of one cube, for :class:`.runner.CubeRunner`;
* ``stream``: every solution of a model, for :func:`solutions`;
* ``watch``: the partial solution the search stands on, a few times a second (the compiled
  searches only);
* ``knows_position``: a stopped cube resumes where it stood (the compiled exact-cover search says
  where that is; the backtracker searches a cube part by part);
* ``by_parts``: a solver's cube is searched part by part (:meth:`.cubes.CubeSpace.parts`), so a
  stopped one resumes with the parts left;
* ``plans``: workers may run the cubes from the space's plan alone (the matrix, or the
  backtracker's boards), without rebuilding the puzzle.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from ..engines import table
from ..engines.table import DEFAULT_SAT_ALIAS, function, solver as solver_row
from ..errors import SatilingError
from ..problem import Problem
from .router import settle

Hear = Callable[[float], None]
#: hears a partial solution: the placements the search has taken so far
Show = Callable[[list[Any]], None]


@dataclass(frozen=True)
class Searcher:
    name: str
    knows_position: bool = False
    by_parts: bool = False
    plans: bool = False

    def space(self, puzzle: Any, problem: Problem, options: dict[str, Any], settings: Any) -> Any:
        from .cubes import CubeSpace
        return CubeSpace(puzzle, problem, settings.break_symmetry, symmetry=settings.symmetry)

    def runner(self, space: Any, solver: str) -> Any:
        from .runner import CubeRunner
        return CubeRunner(space, self, solver)

    def check(self, problem: Problem) -> None:
        """Refuse a model this engine cannot take (before any search)."""

    def cube_solutions(self, runner: Any, cube: tuple[int, ...], hear: Hear) -> Iterator[frozenset[int]]:
        return self.stream(runner.space.problem, runner.solver, cube)

    def stream(self, problem: Problem, solver: str, assume: Sequence[int]) -> Iterator[frozenset[int]]:
        raise SatilingError(f"the {self.name} engine streams no model's solutions")

    def watch(self, runner: Any, show: Show | None) -> None:
        """Let ``show`` see the partial solution the search of ``runner``'s cubes stands on, a few
        times a second (None: no one).  A solver (SAT, CP-SAT) shows none: its search has no
        board to give between two answers."""


class _Walk(Searcher):
    def check(self, problem: Problem) -> None:
        from ..engines.exactcover_ref import supports
        if not supports(problem):
            raise SatilingError(f"the {self.name} engine cannot take this model of {problem.name}: it has "
                                "variables that are not placements (choose the sat or cpsat engine)")

    def cube_solutions(self, runner: Any, cube: tuple[int, ...], hear: Hear) -> Iterator[frozenset[int]]:
        engine = runner.space.exact_cover()
        if engine is None:
            return runner.reference().solutions(cube)
        from .exact import engine_solutions
        p = runner.space.problem
        return engine_solutions(engine, cube, p.clauses, p.linears, p.lazy, hear)

    def stream(self, problem: Problem, solver: str, assume: Sequence[int]) -> Iterator[frozenset[int]]:
        from .enumerate import exact_solutions
        return exact_solutions(problem, assume)

    def watch(self, runner: Any, show: Show | None) -> None:
        """The compiled search's rows taken, as placements (the Python reference search, where the model is
        no exact cover the engine takes, shows nothing)."""
        engine = runner.space.exact_cover()
        if engine is not None:
            problem = runner.space.problem
            engine.watch(None if show is None else lambda rows: show(problem.decode(r + 1 for r in rows)))


class _Sat(Searcher):
    def cube_solutions(self, runner: Any, cube: tuple[int, ...], hear: Hear) -> Iterator[frozenset[int]]:
        from .solve import solver_name
        name = solver_name(runner.solver)
        # one model per cube where the solver is not incremental, or slower so (CP-SAT with
        # assumptions: docs/decisions/2026-11-27-models-and-encodings.md): its row says which
        if not solver_row(name).incremental:
            return self.stream(runner.space.problem, runner.solver, cube)
        return runner.incremental(name, cube)

    def stream(self, problem: Problem, solver: str, assume: Sequence[int]) -> Iterator[frozenset[int]]:
        from .enumerate import sat_solutions
        return sat_solutions(problem, solver, assume)


class _Cpsat(Searcher):
    def stream(self, problem: Problem, solver: str, assume: Sequence[int]) -> Iterator[frozenset[int]]:
        from .enumerate import cpsat_solutions
        return cpsat_solutions(problem, assume)


class _Backtrack(Searcher):
    def space(self, puzzle: Any, problem: Problem, options: dict[str, Any], settings: Any) -> Any:
        from .edgespace import EdgeSpace
        return EdgeSpace(puzzle, problem, bool(options.get("hints")), settings.break_symmetry,
                         settings.symmetry)

    def runner(self, space: Any, solver: str) -> Any:
        from .edgespace import EdgeRunner
        return EdgeRunner(space, self)

    def watch(self, runner: Any, show: Show | None) -> None:
        """The backtracker's board filled so far, as tiles."""
        runner.space.watch(show)


WALK = _Walk(table.WALK, knows_position=True, plans=True)
SAT = _Sat("sat", by_parts=True)
CPSAT = _Cpsat("cpsat", by_parts=True)
BACKTRACK = _Backtrack(table.BACKTRACK, knows_position=True, plans=True)


def searcher(engine: str, problem: Problem, task: str = "count") -> Searcher:
    """The searcher of ``engine`` for ``task`` (``auto``, from a library call that names none:
    the router's engine for the model, :func:`.router.settle`)."""
    return function(task, settle(problem) if engine == "auto" else engine)


def solutions(problem: Problem, engine: str = "auto", solver: str = DEFAULT_SAT_ALIAS,
              assume: Sequence[int] = ()) -> Iterator[frozenset[int]]:
    """Every solution of ``problem`` (true primary variables), each exactly once, by the
    engine's stream (the backtracker runs as cubes of its own, :mod:`.edgespace`)."""
    yield from searcher(engine, problem, "enumerate").stream(problem, solver, assume)
