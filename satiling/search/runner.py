"""Running the cubes of a :class:`~.cubes.CubeSpace` in this process: by the compiled exact-cover
search (its Python reference where the problem is no exact cover the engine takes), or by an
incremental SAT solver kept across cubes, or, where the solver is not incremental, one model per cube.  It keeps
where a stopped count stands inside its cube (:class:`~.cubes.Position`), so that a resumed count
searches only what is left.
"""
from __future__ import annotations

import os
import time
from typing import Any, Callable, Iterator, Sequence

from ..engines.exactcover import ExactCover
from ..engines.exactcover_ref import Walk
from ..engines.table import DEFAULT_SAT_ALIAS
from .cubes import Cube, CubeResult, CubeSpace, Position, _var_lit


class CubeRunner:
    """The owners found in each cube, by the compiled exact-cover search (its Python reference where
    the problem is no exact cover the engine takes), or by an incremental SAT solver kept across
    cubes (its blocking clauses stay valid from one cube to the next)."""

    _watched = False                    # a watcher was set (:meth:`watch`): ``close`` ends it

    def __init__(self, space: CubeSpace, searcher: Any, solver: str = DEFAULT_SAT_ALIAS) -> None:
        self.space = space
        #: how the engine searches a cube (a :mod:`.searchers` searcher, which makes this runner),
        #: and its name
        self.searcher = searcher
        searcher.check(space.problem)
        self.engine = searcher.name
        self._block: Callable[[frozenset[int]], list[int]] | None = None
        self.solver = solver
        self._walk: Walk | None = None          # built on first use (not in a driver of workers)
        self._sat = None
        self.partial = 0
        #: hears the part of the cube in progress done (the compiled search reports it)
        self.on_progress: Callable[[float], None] = lambda part: None
        #: where the cube in progress stands, counted and left to search, always a pair that
        #: agrees (None: no position is known, as with a SAT solver)
        self.position: Position | None = None
        self._count = 0

    def owners(self, cube: int, within: Sequence[Cube] = ((),), done: float = 0.0) -> Iterator[frozenset[int]]:
        """The solutions of cube ``cube`` that own their class (see the module doc); ``within``:
        only those in these parts of it (what a stopped count left, ``done`` of the cube)."""
        if self.searcher.by_parts:
            yield from self._by_parts(cube, self.space.parts(cube, within), done)
            return
        within = [tuple(sub) for sub in within]
        for k, sub in enumerate(within):
            engine = self.space.exact_cover() if self.searcher.knows_position else None
            if engine is not None:     # (a part done leaves the position its last batch gave)
                self.position = Position(cube, self._count, within[k:], done + (1 - done) * k / len(within))
                hear = self._tracker(cube, engine, sub, within[k + 1:], done, k, len(within))
            else:
                hear = self.on_progress
            for sol in self._solutions(self.space.cubes[cube] + sub, hear):
                if self.space.owns(cube, sol):
                    yield sol

    def _by_parts(self, cube: int, parts: list[Cube], done: float) -> Iterator[frozenset[int]]:
        """A solver's owners of the cube, part by part, keeping :attr:`position` before and after
        each (the solutions counted then are those of the parts before it)."""
        for k, part in enumerate(parts):
            self.position = Position(cube, self._count, parts[k:], done + (1 - done) * k / len(parts))
            for sol in self._solutions(self.space.cubes[cube] + part, self.on_progress):
                if self.space.owns(cube, sol):
                    yield sol
            share = done + (1 - done) * (k + 1) / len(parts)
            self.position = Position(cube, self._count, parts[k + 1:], share)
            self.on_progress(share)

    def _tracker(self, cube: int, engine: ExactCover, sub: Cube, after: list[Cube], done: float,
                 k: int, n: int) -> Callable[[float], None]:
        """The compiled search's progress, also keeping :attr:`position`.  It is heard after each
        batch of the search, before that batch's solutions are handed on: the solutions counted
        then are those of the earlier batches, which end where the search stood when it was last
        heard -- that pair is the position."""
        left_before, share_before = [sub] + after, done + (1 - done) * k / n

        def hear(part: float) -> None:
            nonlocal left_before, share_before
            self.position = Position(cube, self._count, left_before, share_before)
            share = done + (1 - done) * (k + part) / n
            left_before = [sub + tuple(_var_lit(x) for x in rest) for rest in engine.remaining()] + after
            share_before = share
            self.on_progress(share)
        return hear

    def run(self, cube: int, raw: bool, keep: bool = False, verify: bool = True,
            progress: Callable[[int], None] | None = None, within: Sequence[Cube] = ((),),
            counted: int = 0, done: float = 0.0) -> "CubeResult":
        """Count one cube, verifying one solution per class (and every member of the first class:
        the members are the owner's images under the board's motions); ``keep`` returns its owners
        too.  ``partial`` counts the cube in progress, for a run stopped in the middle of one;
        ``within`` and ``counted``: a cube a stopped count left in part (the parts left, the
        solutions it had counted), whose count then includes ``counted``."""
        start = time.process_time()
        result = CubeResult(cube, count=counted)
        space = self.space
        self.partial = self._count = counted
        self.position = None
        for rep in self.owners(cube, within, done):
            members = space.expand(rep, raw)
            if verify:
                space.verify_class(rep, raw)
            result.count += len(members)
            result.classes += 1
            self.partial = self._count = result.count
            if keep:
                result.owners.append(tuple(sorted(rep)))
            if progress is not None:
                progress(len(members))
        self.partial = self._count = 0
        # finished: nothing left (a stop before the caller records the cube still keeps it)
        self.position = Position(cube, result.count, [], 1.0)
        result.cpu, result.worker = time.process_time() - start, os.getpid()
        return result

    def _solutions(self, cube: Cube, hear: Callable[[float], None] | None = None) -> Iterator[frozenset[int]]:
        return self.searcher.cube_solutions(self, cube, hear or self.on_progress)

    def watch(self, show: Callable[[list[Any]], None] | None) -> None:
        """``show(placements)`` a few times a second with the partial solution the search of the
        cube in progress stands on, where the engine can tell (the compiled searches); None: no
        one watches.  ``close`` ends it."""
        self.searcher.watch(self, show)
        self._watched = show is not None

    def reference(self) -> Walk:
        """The Python reference search over the model, built on first use (not in a driver of workers)."""
        if self._walk is None:
            self._walk = Walk(self.space.problem)
        return self._walk

    def incremental(self, name: str, cube: Cube) -> Iterator[frozenset[int]]:
        from .enumerate import blocker
        from .solve import lazy_cuts, open_pysat, primary_true
        problem = self.space.problem
        if self._sat is None:
            self._sat = open_pysat(problem, name)
            self._block = blocker(problem)
        s = self._sat
        # this cube's blocking clauses hang on a fresh selector, retired when the cube is done, so
        # running a cube twice (a retried task, a resumed run) finds its solutions again
        # (above the problem's own variables: a model with no clauses leaves nof_vars() at 0)
        selector = max(s.nof_vars(), problem.num_vars) + 1
        try:
            while s.solve(assumptions=[*cube, selector]):
                true = primary_true(problem, s.get_model())
                cuts = lazy_cuts(problem, true)          # valid for every cube: kept
                for c in cuts:
                    s.add_clause(c)
                if cuts:
                    continue
                yield true
                # the blocker names the false placements too where one solution may extend
                # another (optional pieces or cells): the true ones alone would block those too
                clause = self._block(true)
                if not clause:                       # no placements at all: one solution
                    return
                s.add_clause([-selector] + clause)
        finally:
            if self._sat is s:                   # (not after close())
                s.add_clause([-selector])

    def close(self) -> None:
        if self._watched:
            self.watch(None)
        if self._sat is not None:
            self._sat.delete()
            self._sat = None
