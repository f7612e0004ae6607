"""Cubes: one enumeration split into independent pieces of work, run here or on other machines.

A *cube* is a list of placements assumed true or false (cube-and-conquer, Heule et al. 2011).  On
an exact cover the compiled search splits its own tree (:meth:`ExactCover.cubes`): Knuth's
random-path estimate sizes every subtree, and the biggest is split into the search's own children
until none is estimated above ``CUBE_FRACTION`` of the whole, so that no job holds more than a
fiftieth of the work (on a bitboard the first splits may branch on the piece with the fewest
places, as de Bruijn placed the X pentomino first: 9x fewer nodes on 6x10).  Other
problems are split by the most constrained exactly-one group (the open cell or piece with the
fewest live placements), biggest cube first, until there are ``TARGET_CUBES``.  Either way a
solution lies in exactly one cube: the cubes partition the solutions and their counts add up.

Symmetry needs one more rule.  Two equivalent solutions (one class) can lie in different cubes, or
twice in one, so a process that only deduplicates what it has seen itself would count some classes
twice.  Instead every class has an **owner**: of its members that pass the symmetry restriction,
take those in the first cube, and of these the smallest.  A cube emits a solution only if it is its
own class's owner.  The rule is a pure function of the solution -- no cube needs to know what
another one found, no process keeps a set of what it has seen, and a resumed run decides the same.

The cube list depends on the problem alone (not on the engine or the number of workers), so a run
split over many machines writes what one process would, in the same cube order.  On an exact cover
the workers receive the built matrix (a :class:`Plan`: rows, symmetries, cubes), never a puzzle to
rebuild; they return the owners they found and the driver verifies them.  Other problems travel
as a :class:`Job` naming the puzzle and options: each worker builds the problem and the cubes once
and checks their fingerprint against the driver's before it counts anything.
"""
from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import hashlib
import heapq
import os
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..engines.exactcover import Board, ExactCover, Matrix, matrix_of
from ..errors import SatilingError
from ..families.base import Puzzle
from ..problem import Problem
from .symmetry import SymmetryGroup, break_symmetry, problem_symmetries
from .exact import engine_solutions
from .router import model_engine
from ..engines.exactcover_ref import Walk, supports

#: this many cubes (when the problem splits that far): enough to balance many workers and to keep
#: what a resumed run repeats small (at most one cube's work); measured cheap to plan and to run
TARGET_CUBES = 256

#: on an exact cover, no cube is estimated above this part of the whole tree
CUBE_FRACTION = 1 / 50

Cube = tuple[int, ...]


# -- the split ------------------------------------------------------------------------------------
@dataclass
class _Node:
    """A node of the split: the placements chosen so far and what is still possible (numpy
    arrays: ``alive[v]`` placement v still possible, ``open[g]`` exactly-one group g not covered,
    ``live[g]`` its placements still possible)."""

    lits: Cube
    alive: Any
    open: Any
    live: Any


class _Splitter:
    """Most-constrained-group splitting over the exactly-one groups of positive placements.

    A node keeps each group's number of live placements; choosing a placement kills the ones it
    excludes and subtracts them from their groups' counts (numpy, so splitting stays cheap on
    problems with 10^5 placements).
    """

    def __init__(self, problem: Problem) -> None:
        import numpy as np               # only here: the count of an exact cover never needs it
        self.np = np
        self.problem = problem
        n = problem.num_vars
        primary = np.array(problem.primary, dtype=bool)
        positive = [(g, np.array(sorted(set(g.lits)), dtype=np.int64)) for g in problem.groups
                    if g.hi == 1 and g.lits and min(g.lits) > 0]
        # placements sharing an at-most-one group exclude each other (the pairwise clauses)
        self.amo = [lits for _, lits in positive]
        self.amo_ptr, self.amo_ids = _incidence(self.amo, n)
        self.exact = [lits for g, lits in positive if g.lo == 1 and primary[lits].all()]
        self.exact_ptr, self.exact_ids = _incidence(self.exact, n)

    def root(self) -> _Node | None:
        """The node of the problem's own units (None if they contradict each other)."""
        np = self.np
        alive = np.ones(self.problem.num_vars + 1, dtype=bool)
        alive[0] = False
        for u in self.problem.units:
            if u < 0:
                alive[-u] = False
        live = np.array([alive[lits].sum() for lits in self.exact], dtype=np.int64)
        node = _Node((), alive, np.ones(len(self.exact), dtype=bool), live)
        for u in self.problem.units:
            if u > 0:
                if not node.alive[u]:
                    return None
                node = self.choose(node, u)
        return dataclasses.replace(node, lits=())

    def choose(self, node: _Node, v: int) -> _Node:
        """The child where placement ``v`` is taken."""
        np = self.np
        alive, open_ = node.alive.copy(), node.open.copy()
        alive[v] = False
        for g in self.amo_ids[self.amo_ptr[v]:self.amo_ptr[v + 1]]:
            alive[self.amo[g]] = False
        killed = np.flatnonzero(node.alive & ~alive)
        open_[self.exact_ids[self.exact_ptr[v]:self.exact_ptr[v + 1]]] = False
        hit = self.exact_ids[_ranges(self.exact_ptr[killed], self.exact_ptr[killed + 1])]
        live = node.live - np.bincount(hit, minlength=len(self.exact))
        return _Node(node.lits + (v,), alive, open_, live)

    def branch_group(self, node: _Node) -> tuple[int, int] | None:
        """(group, live placements) of the open group with the fewest (None: nothing to split)."""
        if not node.open.any():
            return None
        np = self.np
        counts = np.where(node.open, node.live, np.iinfo(np.int64).max)
        g = int(counts.argmin())
        return g, int(counts[g])

    def size(self, node: _Node) -> float:
        """log of the product of the open groups' live counts: how much is left to search."""
        return float(self.np.log(self.np.maximum(node.live[node.open], 1)).sum())

    def children(self, node: _Node) -> list[_Node] | None:
        """One child per live placement of the most constrained group, smallest first; None for a
        leaf."""
        best = self.branch_group(node)
        if best is None:
            return None
        lits = self.exact[best[0]]
        return [self.choose(node, int(v)) for v in lits[node.alive[lits]]]

    def dead(self, node: _Node) -> bool:
        """Whether some open group has no live placement left (the node holds no solution)."""
        best = self.branch_group(node)
        return best is not None and best[1] == 0


def split(problem: Problem, target: int = TARGET_CUBES) -> list[Cube]:
    """Cubes that partition the solutions of ``problem`` (``[()]``: not split; ``[]``: no solution).

    Splits the biggest cube first -- the one whose open groups leave the most combinations (the
    product of their live counts), a look-ahead estimate of its work -- so that no single cube
    holds most of it; the cubes come out in the order a depth-first walk would meet them.
    """
    s = _Splitter(problem)
    root = s.root()
    if root is None or s.dead(root):
        return []
    leaves: dict[tuple[int, ...], _Node] = {(): root}      # path of child indices -> node
    heap = [(-s.size(root), ())]
    while len(leaves) < target and heap:
        _, path = heapq.heappop(heap)
        kids = s.children(leaves[path])
        if kids is None:                                     # nothing left to split
            continue
        del leaves[path]
        for i, kid in enumerate(kids):
            if not s.dead(kid):
                leaves[path + (i,)] = kid
                heapq.heappush(heap, (-s.size(kid), path + (i,)))
    return [leaves[path].lits for path in sorted(leaves)]


def _trie(cubes: Sequence[Cube]) -> Any:
    """A nested dict literal -> ... -> cube index, to find the cube of a solution (the children of
    a node are the cubes of one split: exactly one of their literals holds in a solution)."""
    if cubes == [()]:
        return 0
    root: dict[int, Any] = {}
    for i, lits in enumerate(cubes):
        node = root
        for v in lits[:-1]:
            node = node.setdefault(v, {})
        node[lits[-1]] = i
    return root


# -- the space of cubes with symmetry ---------------------------------------------------------------
class CubeSet:
    """Cubes with the owner rule (module doc), without the puzzle: what a worker needs besides the
    matrix.  ``must`` / ``must_not``: the primary placements the restricted problem fixes."""

    def __init__(self, group: SymmetryGroup, must: frozenset[int], must_not: frozenset[int],
                 cubes: list[Cube]) -> None:
        self.group, self._must, self._must_not = group, must, must_not
        self.cubes = cubes
        self._trie = _trie(cubes)

    def cube_of(self, solution: Iterable[int]) -> int | None:
        """The cube holding a solution of the restricted problem (None: it is in none)."""
        node = self._trie
        sol = solution if isinstance(solution, (set, frozenset)) else frozenset(solution)
        while isinstance(node, dict):
            node = next((child for lit, child in node.items()
                         if (lit in sol if lit > 0 else -lit not in sol)), None)
        return node

    def owner(self, solution: Iterable[int]) -> tuple[int, tuple[int, ...]] | None:
        """(cube, member) that owns the class of ``solution``; None if no member of the class is a
        solution of the restricted problem (then ``solution`` solves nothing)."""
        best = None
        for image in self.group.images(solution):
            if not self._must <= image or self._must_not & image:
                continue
            cube = self.cube_of(image)
            if cube is not None:
                key = (cube, tuple(sorted(image)))
                if best is None or key < best:
                    best = key
        return best

    def owns(self, cube: int, solution: frozenset[int]) -> bool:
        """Whether ``solution``, found in ``cube``, is the owner of its class."""
        if self.group.order == 1:
            return True
        return self.owner(solution) == (cube, tuple(sorted(solution)))

    def expand(self, rep: frozenset[int], raw: bool) -> list[frozenset[int]]:
        """The solutions a class stands for: its owner alone, or (``raw``) all its members."""
        return sorted(self.group.images(rep), key=sorted) if raw else [rep]

    def restricted_members(self, solutions: Iterable[Iterable[int]]) -> set[frozenset[int]]:
        """Every solution of the restricted problem equivalent to one of ``solutions``."""
        out: set[frozenset[int]] = set()
        for sol in solutions:
            out.update(t for t in self.group.images(sol) if self._must <= t and not self._must_not & t)
        return out


class CubeSpace(CubeSet):
    """A puzzle's problem restricted by symmetry, split into cubes, with the owner rule (module doc).

    On an exact cover, ``matrix`` is its matrix (with the board, for the pocket cut), ``estimates``
    Knuth's estimate of each cube's search tree, in nodes.

    >>> from satiling import catalog
    >>> space = CubeSpace(catalog.load("tetromino-4x5"))
    >>> space.cubes
    []
    """

    def __init__(self, puzzle: Puzzle, problem: Problem | None = None, break_symmetry_: bool = True,
                 target: int = TARGET_CUBES, symmetry: str = "full") -> None:
        problem = problem if problem is not None else puzzle.problem()
        self.puzzle = puzzle
        #: the group solutions are counted up to (``symmetry.SYMMETRIES``); its restriction below
        #: and the owner rule use that group, so the classes are its orbits
        self.symmetry = symmetry
        group = symmetries_keeping_units(puzzle, problem, symmetry)
        restriction = break_symmetry(problem, group) if break_symmetry_ else []
        self.restricted = len(restriction)
        #: the restricted problem (the caller's problem is left untouched)
        self.problem = dataclasses.replace(problem, units=[*problem.units, *restriction])
        self.matrix = matrix_of(self.problem, board_of(puzzle, self.problem))
        self._engine: ExactCover | None = None
        self._members_checked = False
        self.estimates: list[float] = []
        if any(len(c) == 0 for c in problem.clauses):
            cubes: list[Cube] = []                 # no solution, before any search
        elif self.matrix is not None:
            planned = self.exact_cover().cubes(fraction=CUBE_FRACTION)
            cubes = [tuple(_var_lit(lit) for lit in cube) for cube, _ in planned]
            self.estimates = [size for _, size in planned]
        else:
            cubes = split(self.problem, target)
        primary = self.problem.primary
        super().__init__(group, frozenset(u for u in self.problem.units if u > 0 and primary[u]),
                         frozenset(-u for u in self.problem.units if u < 0 and primary[-u]), cubes)

    def verify_class(self, rep: frozenset[int], raw: bool) -> None:
        """Verify a class's owner with the puzzle's own verifier (47 us on 6x10).  Its members are
        its images under the board's motions: every member of the first class verified checks the
        motions, and the other members are counted without a verifier's call each."""
        self.puzzle.verify(self.problem.decode(rep))
        if raw and not self._members_checked:
            for sol in self.expand(rep, raw):
                self.puzzle.verify(self.problem.decode(sol))
            self._members_checked = True

    def exact_cover(self) -> ExactCover | None:
        """The compiled search over the restricted problem (None: not an exact cover)."""
        if self._engine is None and self.matrix is not None:
            self._engine = ExactCover(self.matrix)
        return self._engine

    def plan(self, engine: str = "walk") -> "Plan | None":
        """What workers of ``engine`` need to run the cubes without the puzzle (None: they must
        rebuild it, as a SAT solver's workers do)."""
        if engine != "walk" or self.matrix is None or self.problem.lazy:
            return None
        p = self.problem
        owners = CubeSet(self.group, self._must, self._must_not, self.cubes)
        return Plan(self.fingerprint(), self.matrix, owners,
                    tuple(p.clauses), tuple(p.linears))

    def fingerprint(self) -> str:
        """A digest of the restricted problem's structure and its cubes: the same on every machine
        that builds the same model (the placements' meanings are checked by verification)."""
        p, h = self.problem, hashlib.sha256()
        h.update(repr((p.name, p.num_vars, p.primary, p.units, p.clauses, p.linears, self.cubes,
                       self.group.order)).encode())
        for g in p.groups:
            h.update(repr((g.lo, g.hi, g.lits)).encode())
        return h.hexdigest()[:16]


def board_of(puzzle: Puzzle, problem: Problem) -> Board | None:
    """The cells of a polyform board as items of the problem, with their neighbours and the pieces'
    areas, for the pocket cut (None: not a board whose every cell must be covered).

    Cells are numbered along the board's longer side first, so that the search fills the short
    side: 6x10 column by column (de Bruijn's order; row by row visits 6.5x more nodes)."""
    lattice, region = getattr(puzzle, "lattice", None), getattr(puzzle, "region", None)
    if lattice is None or region is None or getattr(puzzle, "cells_rule", "") != "exact":
        return None
    lits_of: dict[Any, list[int]] = {c: [] for c in region}
    for v in problem.primary_vars():
        for c in getattr(problem.meanings[v], "cells", ()):
            if c in lits_of:
                lits_of[c].append(v)
    items_of: dict[frozenset[int], list[int]] = {}     # two cells may have the same placements
    for i, g in enumerate(problem.groups):
        if g.lo == g.hi == 1:
            items_of.setdefault(frozenset(g.lits), []).append(i)
    centre = {c: _centroid(lattice.polygon(c)) for c in region}
    xs, ys = [x for x, _ in centre.values()], [y for _, y in centre.values()]
    long_x = max(xs) - min(xs) >= max(ys) - min(ys)
    cells = sorted(region, key=lambda c: centre[c] if long_x else centre[c][::-1])
    items = [(items_of.get(frozenset(lits_of[c])) or [None]).pop() for c in cells]
    if any(i is None for i in items) or len(set(items)) != len(items):
        return None
    pos = {c: k for k, c in enumerate(cells)}
    areas: dict[int, int] = {}
    for piece in puzzle.pieces:
        areas[len(piece.shape)] = areas.get(len(piece.shape), 0) + piece.count
    glued = getattr(puzzle, "wrap", None)          # a cylinder or torus: neighbours across the seam
    neighbours = glued.neighbors if glued is not None else lattice.neighbors
    # (a wrapped side of length 1 makes a cell its own neighbour, or the same neighbour twice)
    near = [sorted({pos[n] for n in neighbours(c) if n in pos} - {pos[c]}) for c in cells]
    return Board(items, near, areas)


def _centroid(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return (round(sum(p[0] for p in points) / len(points), 6),
            round(sum(p[1] for p in points) / len(points), 6))


def _var_lit(row_lit: int) -> int:
    """The engine's row literal (r in, -(r + 1) out) as a problem literal (var r + 1)."""
    return row_lit + 1 if row_lit >= 0 else row_lit


def symmetries_keeping_units(puzzle: Puzzle, problem: Problem, symmetry: str = "full") -> SymmetryGroup:
    """The puzzle's symmetries that also map the problem's fixed placements onto themselves."""
    group = problem_symmetries(puzzle, problem, symmetry)
    units = set(problem.units) - set(problem.restriction)
    if not units:
        return group
    if any(not problem.primary[abs(u)] for u in units):
        return SymmetryGroup(group.perms[:1])
    return SymmetryGroup([p for p in group.perms
                          if {p[u] if u > 0 else -p[-u] for u in units} == units])


@dataclass
class Plan:
    """An exact cover's cubes for workers: the matrix, the owner rule, the side constraints checked
    at the leaves (picklable: plain data)."""

    fingerprint: str
    matrix: Matrix
    cubes: CubeSet
    clauses: tuple = ()
    linears: tuple = ()

    def run_cube(self, cube: int, raw: bool, keep: bool = True) -> "CubeResult":
        """One cube in a worker: what it counts and every owner it found, which the driver
        verifies (the worker has the matrix, not the puzzle)."""
        start = time.process_time()
        engine, cs = _plan_engine(self), self.cubes
        result = CubeResult(cube)
        for sol in engine_solutions(engine, cs.cubes[cube], self.clauses, self.linears):
            if cs.owns(cube, sol):
                result.owners.append(tuple(sorted(sol)))
                result.count += len(cs.expand(sol, raw))
                result.classes += 1
        result.cpu, result.worker = time.process_time() - start, os.getpid()
        return result


# -- running cubes ------------------------------------------------------------------------------
class CubeRunner:
    """The owners found in each cube, by the compiled exact-cover search (the Python walk where
    the problem is no exact cover the engine takes), or by an incremental SAT solver kept across
    cubes (its blocking clauses stay valid from one cube to the next)."""

    def __init__(self, space: CubeSpace, engine: str = "auto", solver: str = "cadical") -> None:
        self.space = space
        self.engine = model_engine(space.problem, engine)
        if self.engine == "walk" and not supports(space.problem):
            raise SatilingError(f"the walk engine cannot take this model of {space.problem.name}: "
                                "it has variables that are not placements (use --engine sat)")
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
        within = [tuple(sub) for sub in within]
        for k, sub in enumerate(within):
            engine = self.space.exact_cover() if self.engine == "walk" else None
            if engine is not None:     # (a part done leaves the position its last batch gave)
                self.position = Position(cube, self._count, within[k:], done + (1 - done) * k / len(within))
                hear = self._tracker(cube, engine, sub, within[k + 1:], done, k, len(within))
            else:
                hear = self.on_progress
            for sol in self._solutions(self.space.cubes[cube] + sub, hear):
                if self.space.owns(cube, sol):
                    yield sol

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
        if self.engine == "walk":
            engine = self.space.exact_cover()
            if engine is not None:
                p = self.space.problem
                return engine_solutions(engine, cube, p.clauses, p.linears, p.lazy, hear or self.on_progress)
            if self._walk is None:
                self._walk = Walk(self.space.problem)
            return self._walk.solutions(cube)
        from .solve import solver_name
        name = solver_name(self.solver)
        if self.engine == "cpsat" or name == "cpsat" or name.startswith("kissat"):
            # one model per cube (CP-SAT with assumptions measured 10x slower; PySAT's Kissat is
            # not incremental)
            from .enumerate import solutions
            return solutions(self.space.problem, self.engine, self.solver, cube)
        return self._incremental(name, cube)

    def _incremental(self, name: str, cube: Cube) -> Iterator[frozenset[int]]:
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
        if self._sat is not None:
            self._sat.delete()
            self._sat = None


@dataclass
class Position:
    """Where a count stands in cube ``cube``: ``counted`` solutions found in it, the rest in the
    parts ``left`` (cubes of problem literals below the cube's own; ``[]``: none left), about
    ``done`` of its tree searched."""

    cube: int
    counted: int
    left: list[Cube]
    done: float


@dataclass
class CubeResult:
    """What one cube gave: solutions counted (verified), symmetry classes, the owners if asked
    for, CPU seconds."""

    cube: int
    count: int = 0
    classes: int = 0
    owners: list[tuple[int, ...]] = field(default_factory=list)
    cpu: float = 0.0
    worker: int = 0                         # process id of whoever ran it (load balance)


@dataclass(frozen=True)
class Job:
    """What a worker needs to rebuild the same cubes: names and options, never the formula."""

    puzzle: str                                   # bundled name or instance file (absolute path)
    options: tuple[tuple[str, Any], ...] = ()
    break_symmetry: bool = True
    engine: str = "auto"
    solver: str = "cadical"
    fingerprint: str = ""
    symmetry: str = "full"                        # the group of CubeSpace (raw runs: "full")


def run_cube(job: Job, cube: int, raw: bool, keep: bool, verify: bool) -> CubeResult:
    """One cube in a worker process (a module-level function, so it pickles by name)."""
    return _runner(job).run(cube, raw, keep, verify)


#: a worker's models, one per thread (a Dask worker may run several tasks at once in threads, and
#: an incremental solver must not be shared between them)
_WORKER = threading.local()


def _runner(job: Job) -> CubeRunner:
    """The worker's model, built once per thread and job, checked against the driver's."""
    cache = _WORKER.__dict__.setdefault("runners", {})
    if job not in cache:
        cache.clear()                           # one job at a time: free the previous model
        cache[job] = _build_runner(job)
    return cache[job]


def _build_runner(job: Job) -> CubeRunner:
    from ..catalog import load
    puzzle = load(job.puzzle)
    space = CubeSpace(puzzle, puzzle.problem(**dict(job.options)), job.break_symmetry,
                      symmetry=job.symmetry)
    if space.fingerprint() != job.fingerprint:
        raise SatilingError(f"a worker built a different model of {job.puzzle} than this process "
                            f"(fingerprint {space.fingerprint()} != {job.fingerprint}); "
                            "do the workers run the same satiling and data?")
    return CubeRunner(space, job.engine, job.solver)


#: cubes per task when workers get a plan: the plan travels with every task (85 kB for 6x10),
#: so it goes with a few cubes at a time; at most this many tasks per run, or one cube per task
PLAN_TASKS = 64


def run_plan_cubes(plan: Any, cubes: Sequence[int], raw: bool, keep: bool = True) -> list[CubeResult]:
    """Consecutive cubes in a worker, by a plan's own engine (an exact cover's :class:`Plan`, or
    the edge-matching backtracker's :class:`~.edgespace.EdgePlan`); ``keep``: every owner back."""
    return [plan.run_cube(cube, raw, keep) for cube in cubes]


def _plan_engine(plan: Plan) -> ExactCover:
    """The worker's compiled search for a plan, built once per thread."""
    cache = _WORKER.__dict__.setdefault("engines", {})
    if plan.fingerprint not in cache:
        cache.clear()
        cache[plan.fingerprint] = ExactCover(plan.matrix)
    return cache[plan.fingerprint]


def results(executor: cf.Executor, job: Job, cubes: Iterable[int], raw: bool, keep: bool,
            verify: bool, plan: Any = None) -> Iterator[CubeResult]:
    """Run cubes on an executor; results as they complete (the queue is dynamic: cubes differ a
    lot in size, so a worker that finishes early takes the next one).  With a ``plan`` the workers
    search its matrix and return every owner, unverified: the caller verifies them."""
    cubes = list(cubes)
    if plan is not None:
        size = max(1, -(-len(cubes) // PLAN_TASKS))
        batches = [cubes[k:k + size] for k in range(0, len(cubes), size)]
        futures = [executor.submit(run_plan_cubes, plan, batch, raw, keep) for batch in batches]
    else:
        futures = [executor.submit(run_cube, job, i, raw, keep, verify) for i in cubes]
    try:
        for f in cf.as_completed(futures):
            yield from (f.result() if plan is not None else [f.result()])
    finally:
        for f in futures:
            f.cancel()


def in_order(done: Iterable[CubeResult], first: int, last: int) -> Iterator[CubeResult]:
    """Results of cubes ``first..last-1`` in cube order (later ones wait for the earlier)."""
    waiting: dict[int, CubeResult] = {}
    nxt = first
    for r in done:
        waiting[r.cube] = r
        while nxt in waiting:
            yield waiting.pop(nxt)
            nxt += 1
    if nxt < last:
        raise RuntimeError(f"cube {nxt} never came back")


@contextmanager
def executor(workers: int | None = None, dask: str | None = None) -> Iterator[cf.Executor | None]:
    """Local worker processes, a Dask cluster's executor, or None (run here, in this process).

    On any exit other than success (Ctrl-C, time limit, error) the cubes still queued are
    cancelled and local workers are stopped at once rather than finishing their cube.
    """
    if dask:
        with _dask_executor(dask) as ex:
            yield ex
        return
    if not workers or workers <= 1:
        yield None
        return
    import multiprocessing
    # spawn: workers start clean (no copied threads or locks), as on a Dask cluster
    ex = cf.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                initializer=_follow_parent, initargs=(os.getpid(),))
    try:
        yield ex
    except BaseException:
        _terminate(ex)
        raise
    ex.shutdown(wait=True)


def stop(ex: cf.Executor) -> None:
    """The answer is in: drop the queued tasks and stop the running ones at once."""
    if isinstance(ex, cf.ProcessPoolExecutor):
        _terminate(ex)
    else:
        ex.shutdown(wait=False, cancel_futures=True)


def _follow_parent(parent: int) -> None:
    """In a worker: exit as soon as the driver is gone (killed with -9, it cannot stop us)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)
    threading.Thread(target=watch, daemon=True).start()


def _terminate(ex: cf.ProcessPoolExecutor) -> None:
    """Cancel queued cubes and kill the running ones (Python 3.14 calls this terminate_workers)."""
    processes = list(getattr(ex, "_processes", {}).values())
    ex.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        p.terminate()
    for p in processes:
        p.join(5)


#: seconds to reach a Dask scheduler, handshake included
DASK_TIMEOUT = 10.0


def _connect(client_class: Any, address: str, timeout: float) -> Any:
    """A Dask client within ``timeout`` seconds, or SatilingError.  The client is built in another
    thread: a listener that accepts and never answers stalls the handshake past the client's own
    ``timeout``, and a malformed address raises ValueError deep inside."""
    box: dict[str, Any] = {}

    def build() -> None:
        try:
            box["client"] = client_class(address, timeout=f"{max(1.0, timeout - 1):g}s")
        except BaseException as e:        # handed to the caller below
            box["error"] = e

    builder = threading.Thread(target=build, daemon=True)
    builder.start()
    builder.join(timeout)
    if builder.is_alive():
        raise SatilingError(f"the Dask scheduler at {address} did not answer within {timeout:g} s")
    error = box.get("error")
    if isinstance(error, (OSError, TimeoutError, ValueError, TypeError)):
        raise SatilingError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    if error is not None:
        raise error
    return box["client"]


@contextmanager
def _dask_executor(address: str) -> Iterator[cf.Executor]:
    try:
        from distributed import Client
    except ImportError:
        raise SatilingError("--dask needs the 'distributed' package: pip install 'satiling[dask]'") from None
    client = _connect(Client, address, DASK_TIMEOUT)
    try:
        ex = client.get_executor(pure=False)
        try:
            yield ex
        except BaseException:
            ex.shutdown(wait=False)       # cancels what has not finished
            raise
        ex.shutdown(wait=True)
    finally:
        client.close()


# -- helpers ------------------------------------------------------------------------------------
def _ranges(starts, ends):
    """The concatenation of ``range(s, e)`` for each pair, vectorised."""
    import numpy as np
    lengths = ends - starts
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    shift = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return shift + np.arange(total)


def _incidence(groups: list, n: int) -> tuple:
    """For each placement v, the groups it is in: ``ids[ptr[v]:ptr[v + 1]]`` (numpy arrays)."""
    import numpy as np
    if not groups:
        return np.zeros(n + 2, dtype=np.int64), np.zeros(0, dtype=np.int64)
    flat = np.concatenate(groups)
    ids = np.repeat(np.arange(len(groups)), [len(g) for g in groups])
    order = np.argsort(flat, kind="stable")
    return np.searchsorted(flat[order], np.arange(n + 2)), ids[order]
