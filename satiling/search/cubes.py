"""Cubes: one enumeration split into independent pieces of work, run here or on other machines.

A *cube* is a list of placements assumed true or false (cube-and-conquer, Heule et al. 2011).  On
an exact cover the compiled search splits its own tree (:meth:`ExactCover.cubes`): Knuth's
random-path estimate sizes every subtree, and the biggest is split into the search's own children
until none is estimated above ``CUBE_FRACTION`` of the whole, so that no job holds more than a
fiftieth of the work (on a bitboard the first splits may branch on the piece with the fewest
places, as de Bruijn placed the X pentomino first: docs/decisions/2026-11-27-exact-cover-engine.md).  Other
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

Running the cubes: :mod:`.runner` in this process, :mod:`.workers` on local processes or a Dask
cluster; the edge-matching backtracker's own cubes: :mod:`.edgespace`.
"""
from __future__ import annotations

import dataclasses
import hashlib
import heapq
import math
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from ..engines.exactcover import ExactCover, Matrix, matrix_of
from ..errors import SatilingError
from ..families.base import Puzzle
from ..problem import Problem
from .exact import engine_solutions
from .symmetry import SymmetryGroup, break_symmetry, problem_symmetries

#: this many cubes (when the problem splits that far): enough to balance many workers and to keep
#: what a resumed run repeats small (at most one cube's work); measured cheap to plan and to run
TARGET_CUBES = 256

#: on an exact cover, no cube is estimated above this part of the whole tree
CUBE_FRACTION = 1 / 50

#: a cube whose open groups leave fewer combinations than this is not split further: the count
#: is a loose bound (a 3x3 edge-matching board has some 10^14, and a solver settles it in
#: milliseconds; the puzzles worth splitting have 10^29 and far more), and each cube costs the
#: solver a call of its own
LEAST_COMBINATIONS = 10 ** 15

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
    holds most of it, and none below :data:`LEAST_COMBINATIONS`; the cubes come out in the order
    a depth-first search would meet them.
    """
    s = _Splitter(problem)
    root = s.root()
    if root is None or s.dead(root):
        return []
    leaves: dict[tuple[int, ...], _Node] = {(): root}      # path of child indices -> node
    heap = [(-s.size(root), ())]
    least = math.log(LEAST_COMBINATIONS)
    while len(leaves) < target and heap:
        size, path = heapq.heappop(heap)
        if -size < least:                                    # the biggest is small: done
            break
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
    >>> space.cubes          # a small problem is one cube: the empty prefix
    [()]
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
        self.problem = dataclasses.replace(problem, units=[*problem.units, *restriction],
                                           restriction=[*problem.restriction, *restriction])
        self.matrix = matrix_of(self.problem, puzzle.cover_board(self.problem))
        self._engine: ExactCover | None = None
        self._splitter: _Splitter | None = None
        self._root: _Node | None = None
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
        """Verify a class's owner with the puzzle's own verifier.  Its members are
        its images under the board's motions: every member of the first class verified checks the
        motions, and the other members are counted without a verifier's call each."""
        self.puzzle.verify(self.problem.decode(rep))
        if raw and not self._members_checked:
            for sol in self.expand(rep, raw):
                self.puzzle.verify(self.problem.decode(sol))
            self._members_checked = True

    def parts(self, cube: int, left: Sequence[Cube]) -> list[Cube]:
        """What to search of cube ``cube`` by a solver (SAT, CP-SAT), as parts (placements taken
        beyond the cube's own): ``left`` (the parts a stopped count left; ``[()]``: all of it)
        with the first, where the stop came, split by the splitter's most constrained group --
        so a count resumed again and again goes deeper into the part it keeps being stopped in
        and never searches again what it finished."""
        parts = [tuple(p) for p in left]
        if not parts:
            return []
        if self._splitter is None:                # built once: the root is every part's start
            self._splitter = _Splitter(self.problem)
            self._root = self._splitter.root()
        s, first = self._splitter, parts[0]
        node, taken = self._root, {u for u in self.problem.units if u > 0}
        for v in self.cubes[cube] + first:
            if not 0 < v <= self.problem.num_vars:
                raise SatilingError("a cube searched in part names a placement the model does not "
                                    "have (a checkpoint of another run?); left unchanged")
            if v in taken:
                continue
            if node is None or not node.alive[v]:
                return parts                      # (no solution there: the solver says so)
            node, taken = s.choose(node, v), taken | {v}
        kids = s.children(node)
        if kids is None:
            return parts
        # one part per live placement of an open exactly-one group: a partition of its solutions
        return [first + (kid.lits[-1],) for kid in kids] + parts[1:]

    def exact_cover(self) -> ExactCover | None:
        """The compiled search over the restricted problem (None: not an exact cover)."""
        if self._engine is None and self.matrix is not None:
            self._engine = ExactCover(self.matrix)
        return self._engine

    def plan(self) -> "Plan | None":
        """What workers of the compiled exact-cover search need to run the cubes without the
        puzzle (None: they must rebuild it)."""
        if self.matrix is None or self.problem.lazy:
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


#: a worker's compiled search for a plan, one per thread (a Dask worker may run several tasks at
#: once in threads)
_ENGINES = threading.local()


def _plan_engine(plan: Plan) -> ExactCover:
    """The worker's compiled search for a plan, built once per thread."""
    cache = _ENGINES.__dict__.setdefault("engines", {})
    if plan.fingerprint not in cache:
        cache.clear()
        cache[plan.fingerprint] = ExactCover(plan.matrix)
    return cache[plan.fingerprint]


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
