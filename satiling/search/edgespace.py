"""The edge-matching backtracker's search as cubes, so that it runs through the same pipeline as
every other engine (:mod:`.stream`: symmetry, job splitting, workers, progress, run files, resume,
interrupts).

A cube here is a *prefix job* of the compiled backtracker (:func:`satiling.engines.edgematch.split`):
one of the engine's boards and the pieces it places first, sized by Knuth's estimate so that no
cube holds more than a fiftieth of the tree.  The prefixes of one board partition its solutions,
and the boards partition the puzzle's: a solution lies in exactly one cube, as with the exact
cover's cubes.

Solutions travel as sets of the SAT model's placement variables (the puzzle's ``problem()``), so
that decoding, the solutions file, resuming and the owner rule of :mod:`.cubes` are the ones every
other engine uses.  Symmetry: with ``break_symmetry`` the boards pin the lowest-numbered corner
piece (:func:`.edgeboards.edge_boards`), which leaves exactly one member of every class (all pieces
are different: the router sends boards with equal pieces to the SAT model); without it the whole
board is searched and the owner rule keeps one member per class.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from ..engines.edgematch import EdgeBoard, Engine, Placed, rotate, split
from ..engines.table import BACKTRACK
from ..errors import SatilingError
from ..families.edgematch import EdgeMatchPuzzle, Tile
from ..problem import Problem
from .cubes import Cube, CubeResult, CubeSet, Position, symmetries_keeping_units
from .edgeboards import edge_boards, tiles
from .runner import CubeRunner

#: (row, col, piece from 0, its colours N E S W as placed) -> the SAT model's variable
Key = tuple[int, int, int, tuple[int, ...]]
#: boards the compiled search hands over at a time
BATCH = 1024


class EdgeCubes(CubeSet):
    """The backtracker's cubes with the owner rule, without the puzzle: what a worker needs.

    ``boards`` are the engine's boards with their search order chosen; cube ``i`` is
    ``cubes[i] = (board, *prefix)``, the prefix in table positions of that board's engine."""

    def __init__(self, group: Any, boards: list[EdgeBoard], cubes: list[Cube], var_of: dict[Key, int],
                 pinned: bool) -> None:
        super().__init__(group, frozenset(), frozenset(), [])
        self.cubes, self.boards, self.var_of, self.pinned = cubes, boards, var_of, pinned
        self._engines: dict[int, Engine] = {}
        self._entry_cubes: dict[tuple[int, tuple[int, ...]], int] | None = None
        self._meaning: dict[int, Key] | None = None
        self._entries: dict[int, dict[tuple[int, tuple[int, ...]], int]] = {}
        self._show: Callable[[list[Placed]], None] | None = None

    def engine(self, b: int) -> Engine:
        if b not in self._engines:
            self._engines[b] = Engine(self.boards[b])
            if self._show is not None:
                self._engines[b].watch(self._show)
        return self._engines[b]

    def watch(self, show: Callable[[list[Tile]], None] | None) -> None:
        """``show(tiles)`` a few times a second with the board the search stands on (its engines'
        :meth:`~satiling.engines.edgematch.Engine.watch`); None: no one watches."""
        self._show = None if show is None else lambda placed: show(tiles(placed))
        for engine in self._engines.values():
            engine.watch(self._show)

    def __getstate__(self) -> dict[str, Any]:
        # the compiled engines stay behind: a worker builds its own from the boards
        return {**self.__dict__, "_engines": {}, "_entry_cubes": None, "_meaning": None, "_entries": {},
                "_show": None}

    # -- solutions as variables ------------------------------------------------------------------
    def variables(self, placed: list[Placed]) -> frozenset[int]:
        """A board of the engine as the SAT model's placement variables."""
        pieces = self.boards[0].pieces
        return frozenset(self.var_of[r, c, p, rotate(pieces[p], rot)] for r, c, p, rot in placed)

    def solutions(self, cube: int, part: Sequence[int] = ()) -> Iterator[frozenset[int]]:
        """The solutions of one cube (of its ``part``: more table positions below its prefix), in
        search order.  The compiled search hands them over in batches that grow from one board to
        :data:`BATCH` (the first solution of a hard board comes at once; a cube of a clue puzzle
        may hold billions) and goes on where it stopped.  Ctrl-C and the time limit stop the
        search within milliseconds."""
        b, *prefix = self.cubes[cube]
        prefix += part
        found: list[list[Placed]] = []
        engine = self.engine(b)
        engine.search.reset()
        batch = 1
        status = engine.solutions(prefix, limit=batch, on_solution=found.append)
        while True:
            for placed in found:
                yield self.variables(placed)
            found.clear()
            if status != "limit":
                return
            batch = min(2 * batch, BATCH)
            status = engine.solutions(prefix, limit=batch, on_solution=found.append, resume=True)

    # -- parts of a cube: where a stopped count stood -----------------------------------------------
    def parts(self, cube: int, left: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
        """What to search of cube ``cube``, as parts (table positions below its prefix): ``left``
        (the parts a stopped count left, as written in its checkpoint: :func:`part_records`) with
        the first of them, where the stop came, split into its children -- so a count resumed
        again and again goes deeper into the part it keeps being stopped in, and never searches
        again what it finished.  A fresh cube (``left`` ``[()]``) is split into its children."""
        b, *prefix = self.cubes[cube]
        engine = self.engine(b)
        parts = [tuple(x - 1 for x in part) for part in left]
        for part in parts:
            self._check_part(engine, prefix, part)
        if not parts:
            return []
        first, rest = parts[0], parts[1:]
        children = engine.children(prefix + list(first)) if len(prefix) + len(first) < len(engine.plan.steps) else []
        return [first + (c,) for c in children] + rest if children else parts

    @staticmethod
    def _check_part(engine: Engine, prefix: list[int], part: tuple[int, ...]) -> None:
        """A part read from a checkpoint must be a path of the search below the cube's prefix."""
        path = list(prefix)
        for x in part:
            if x not in engine.children(path):
                raise SatilingError("a cube searched in part names a placement its search never "
                                    "meets there (a checkpoint of another run?); left unchanged")
            path.append(x)

    # -- the owner rule ----------------------------------------------------------------------------
    def owns(self, cube: int, solution: frozenset[int]) -> bool:
        if self.pinned:                 # exactly one member of each class is on the boards
            return True
        return super().owns(cube, solution)

    def cube_of(self, solution: Any) -> int | None:
        """The cube whose prefix the solution starts with (None: on none of the boards)."""
        at: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        if self._meaning is None:
            self._meaning = {v: k for k, v in self.var_of.items()}
        meaning = self._meaning
        for v in solution:
            r, c, p, colours = meaning[v]
            at[r, c] = (p, colours)
        index = self._index()
        for b, board in enumerate(self.boards):
            if any(at.get((r, c), (None,))[0] != p or at[r, c][1] != rotate(board.pieces[p], rot)
                   for r, c, p, rot in board.fixed):
                continue
            entry = self._entry_table(b)
            entries: list[int] = []
            for r, c in self.engine(b).plan.steps:
                entries.append(entry[at[r, c]])
                hit = index.get((b, tuple(entries)))
                if hit is not None:
                    return hit
            return index.get((b, ()))
        return None

    def _index(self) -> dict[tuple[int, tuple[int, ...]], int]:
        """Each cube as (board, its prefix as the engine's entries): a search path meets each
        entry at most once among a node's children, so the entries name the path."""
        if self._entry_cubes is None:
            self._entry_cubes = {}
            for i, (b, *prefix) in enumerate(self.cubes):
                entry_of = self.engine(b).entry_of
                self._entry_cubes[b, tuple(int(entry_of[x]) for x in prefix)] = i
        return self._entry_cubes

    def _entry_table(self, b: int) -> dict[tuple[int, tuple[int, ...]], int]:
        """(piece, its colours as placed) -> the engine's entry, on board ``b``.  The colours are
        the file's, as in :attr:`var_of`: the plan's entries carry the engine's renumbered colours
        (:func:`~satiling.engines.edgematch.dense_colours`), so each entry is turned back into a
        placement of each piece of its type, as :meth:`Plan.board_of` deals them."""
        if b not in self._entries:
            plan, pieces = self.engine(b).plan, self.boards[b].pieces
            self._entries[b] = {(p, rotate(pieces[p], (rot + q) % 4)): e
                                for e, (t, rot, _) in enumerate(plan.entries)
                                for p, q in plan.types[t]}
        return self._entries[b]


class EdgeSpace(EdgeCubes):
    """An edge-matching puzzle's backtracker search as cubes, with the SAT model's placements
    naming its solutions (module doc).  The interface of :class:`.cubes.CubeSpace`."""

    def __init__(self, puzzle: EdgeMatchPuzzle, problem: Problem, hints: bool,
                 break_symmetry_: bool = True, symmetry: str = "full") -> None:
        self.puzzle, self.problem, self.symmetry = puzzle, problem, symmetry
        group = symmetries_keeping_units(puzzle, problem, symmetry)
        pinned = break_symmetry_ and group.order > 1
        self.restricted = int(pinned)
        var_of: dict[Key, int] = {}
        for v in problem.primary_vars():
            t: Tile = problem.meanings[v]
            var_of[t.row, t.col, t.piece - 1, tuple(puzzle.edges(t.piece, t.rotation))] = v
        boards, cubes = [], []
        self.estimates: list[float] = []
        for b, board in enumerate(edge_boards(puzzle, hints, distinct=pinned)):
            engine = Engine(board)
            boards.append(engine.board)              # with its search order chosen
            for prefix, size in split(engine) if engine.possible else []:
                cubes.append((b, *prefix))
                self.estimates.append(size)
        super().__init__(group, boards, cubes, var_of, pinned)

    def verify_class(self, rep: frozenset[int], raw: bool) -> None:
        """The owner verified by the puzzle's own verifier; with ``raw``, every member of the
        first class too (the members are its images under the board's turns)."""
        self.puzzle.verify(self.problem.decode(rep))
        if raw and not getattr(self, "_members_checked", False):
            for sol in self.expand(rep, raw):
                self.puzzle.verify(self.problem.decode(sol))
            self._members_checked = True

    def plan(self) -> "EdgePlan":
        """What workers need: the boards, the cubes, the placements' variables (no puzzle)."""
        cubes = EdgeCubes(self.group, self.boards, self.cubes, self.var_of, self.pinned)
        return EdgePlan(self.fingerprint(), cubes)

    def fingerprint(self) -> str:
        h = hashlib.sha256()
        h.update(repr((self.problem.name, self.problem.num_vars, self.boards, self.cubes,
                       self.group.order, self.pinned)).encode())
        return h.hexdigest()[:16]


@dataclass
class EdgePlan:
    """The backtracker's cubes for workers (picklable: plain data and boards)."""

    fingerprint: str
    cubes: EdgeCubes

    def run_cube(self, cube: int, raw: bool, keep: bool = True) -> CubeResult:
        """One cube in a worker: the count and the owners found (a counting cube: its first
        solution), which the driver verifies."""
        return EdgeRunner(_worker_cubes(self)).run(cube, raw, keep, verify=False)


def part_records(parts: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """Parts as a checkpoint writes them: each table position plus one (a checkpoint's parts are
    read as non-zero numbers, the literals of a model's cubes)."""
    return [tuple(x + 1 for x in part) for part in parts]


#: a worker's cubes (with their compiled engines), one per thread, kept across tasks
_WORKER = threading.local()


def _worker_cubes(plan: EdgePlan) -> EdgeCubes:
    cache = _WORKER.__dict__.setdefault("cubes", {})
    if plan.fingerprint not in cache:
        cache.clear()
        cache[plan.fingerprint] = plan.cubes
    return cache[plan.fingerprint]


class EdgeRunner(CubeRunner):
    """Runs the cubes of an :class:`EdgeSpace` (or a worker's :class:`EdgeCubes`) in this
    process, as :class:`.runner.CubeRunner` runs a model's.  A cube is searched part by part (its
    children, :meth:`EdgeCubes.parts`): a stopped count keeps the parts left (:attr:`position`),
    and a resumed one searches only those.

    Counting where every solution found is its class's owner (the corner pinned, or no symmetry)
    runs in the compiled search alone, which counts boards an order of magnitude faster than
    decoding and verifying each in Python could (measurements:
    docs/decisions/2026-11-27-models-and-encodings.md):
    the first solution of every cube is verified, and every class has exactly as many members as
    the group has turns (all pieces are different, so no turn keeps a board)."""

    def __init__(self, space: EdgeCubes, searcher: Any = None) -> None:   # (no model engine or SAT solver)
        #: the searcher that made it (:mod:`.searchers`; None in a worker, which runs cubes only)
        self.space, self.searcher, self.solver = space, searcher, ""
        self.engine = BACKTRACK
        self._sat = None
        self._count = self._partial = 0
        # (engine, members per class, solutions counted before its part)
        self._counting: tuple[Engine, int, int] | None = None
        self.on_progress: Callable[[float], None] = lambda part: None
        self.position: Position | None = None

    @property
    def partial(self) -> int:
        """Solutions counted in the cube in progress."""
        if self._counting is not None:
            engine, members, before = self._counting
            return before + engine.search.solutions * members
        return self._partial

    @partial.setter
    def partial(self, n: int) -> None:
        self._partial = n

    def owners(self, cube: int, within: Sequence[Cube] = ((),), done: float = 0.0) -> Iterator[frozenset[int]]:
        """The owners of cube ``cube``, part by part (:meth:`EdgeCubes.parts`), keeping
        :attr:`position` before each part (the solutions counted then are those of the parts
        before it)."""
        parts = self.space.parts(cube, within)
        for k, part in enumerate(parts):
            self.position = Position(cube, self._count, part_records(parts[k:]),
                                     done + (1 - done) * k / len(parts))
            for sol in self.space.solutions(cube, part):
                if self.space.owns(cube, sol):
                    yield sol
            self._part_done(cube, self._count, parts, k, done)

    def _part_done(self, cube: int, counted: int, parts: list[tuple[int, ...]], k: int, done: float) -> None:
        """Part ``k`` searched, ``counted`` solutions so far: the position after it, then the
        progress heard (a stop there keeps that position)."""
        share = done + (1 - done) * (k + 1) / len(parts)
        self.position = Position(cube, counted, part_records(parts[k + 1:]), share)
        self.on_progress(share)

    def run(self, cube: int, raw: bool, keep: bool = False, verify: bool = True,
            progress: Callable[[int], None] | None = None, within: Sequence[Cube] = ((),),
            counted: int = 0, done: float = 0.0) -> CubeResult:
        """Count one cube, verifying one solution per class (:meth:`.runner.CubeRunner.run`;
        without a verifier here, in a worker, the owners go back to be verified), or in the
        compiled search alone (the class doc)."""
        if keep or not (self.space.pinned or self.space.group.order == 1):
            return super().run(cube, raw, keep or not verify, verify, progress, within, counted, done)
        start = time.process_time()
        self.position = None
        result = self._run_compiled(cube, raw, verify, within, counted, done)
        if progress is not None:
            progress(result.count - counted)
        self.position = Position(cube, result.count, [], 1.0)
        result.cpu, result.worker = time.process_time() - start, os.getpid()
        return result

    def _run_compiled(self, cube: int, raw: bool, verify: bool, within: Sequence[Cube], counted: int,
                      done: float) -> CubeResult:
        """The cube's parts in turn (:meth:`owners`' :attr:`position` too), the first solution met
        verified; the count includes ``counted``, the classes are this run's."""
        space = self.space
        b, *prefix = space.cubes[cube]
        engine = space.engine(b)
        members = space.group.order if raw else 1
        parts = space.parts(cube, within)
        total, sample = counted, []
        for k, part in enumerate(parts):
            self.position = Position(cube, total, part_records(parts[k:]), done + (1 - done) * k / len(parts))
            engine.search.reset()
            self._counting = (engine, members, total)
            first: list[list[Placed]] = []
            try:
                at = prefix + list(part)
                # the first solution met comes back to be verified; the rest are counted in C
                status = engine.solutions(at, limit=0 if sample else 1,
                                          on_solution=None if sample else first.append)
                if first and not sample:
                    sample = [tuple(sorted(space.variables(first[0])))]
                    if verify:
                        space.verify_class(frozenset(sample[0]), raw)   # type: ignore[attr-defined]
                if status == "limit":
                    engine.solutions(at, resume=True)
                total += engine.search.solutions * members
            finally:
                self._partial, self._counting = self.partial, None
            self._part_done(cube, total, parts, k, done)
        self._partial = 0
        # the sample goes back with the count, for a driver of workers to verify
        return CubeResult(cube, count=total, classes=(total - counted) // members, owners=sample)
