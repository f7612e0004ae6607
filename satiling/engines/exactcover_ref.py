"""A DPLL search over exactly-one groups: the readable reference of the compiled exact-cover search.

``satiling.engines.exactcover`` runs the same search (most constrained group first, exactly-k
groups branching in or out) in C, with a pocket cut; the tests hold the two to the same solutions
on every small bundled board.  This remains the search for exact covers the engine does not
take (a variable in no group).

Blocking clauses make a CDCL solver restart its search once per solution (about 1300 conflicts per
6x10 pentomino tiling); this search instead visits the search tree once, as DPLL does:

* **decide** on the *most constrained group* (the open cell or piece with the fewest live
  placements -- Knuth's "minimum remaining values"), trying each live placement in turn;
* **propagate**: a chosen placement falsifies every placement sharing one of its at-most-one groups
  (the pairwise clauses of the CNF), and a group left with one live placement is a unit clause, taken
  next because it is the most constrained; a group left with none is a conflict.

Sets of placements are Python integers used as bit sets, so propagation is a handful of ``&`` and
``~`` on machine words.  It handles what an exact cover needs (exactly-one, at-most-one and
exactly-k groups, units); clauses and linear constraints over placements are checked at the leaves,
and lazy checks too.  :func:`supports` says whether a problem is in that fragment (auxiliary
variables, as in edge matching, are not); anything else goes to a SAT solver with blocking clauses.
"""
from __future__ import annotations

from typing import Iterator, Sequence

from ..problem import Problem


#: boards with up to this many placements get every conflict set up front (20000^2 bits = 50 MB)
EAGER_ROWS = 20000
#: bit sets over up to this many placements are built by shifts, without numpy
SMALL_BOARD = 4096


def supports(problem: Problem) -> bool:
    """Whether every variable is a placement and every group is over positive literals with
    room for one at least (a group of at most none forbids its rows, which the search, killing
    rows only as groups fill, would not do)."""
    if not all(problem.primary[1:]):
        return False
    return all(g.hi >= 1 and all(lit > 0 for lit in g.lits) for g in problem.groups)


class Walk:
    """Enumerate the solutions of ``problem`` (each a frozenset of true variables).

    >>> from satiling.problem import Problem
    >>> p = Problem(); a, b, c = (p.new_var(primary=True) for _ in range(3))
    >>> p.exactly_one([a, b]); p.exactly_one([b, c]); p.at_most_one([a, c])
    >>> sorted(map(sorted, Walk(p).solutions()))
    [[2]]
    """

    def __init__(self, problem: Problem) -> None:
        if not supports(problem):
            raise ValueError("the reference search needs a problem whose variables are all placements")
        self.problem = problem
        self.n = problem.num_vars
        self.masks = [_bit_set(g.lits, self.n) for g in problem.groups]
        self.lo = [g.lo for g in problem.groups]
        self.hi = [g.hi for g in problem.groups]
        row_groups: list[list[int]] = [[] for _ in range(self.n)]
        for gi, g in enumerate(problem.groups):
            for v in set(g.lits):
                row_groups[v - 1].append(gi)
        # choosing row i kills every row sharing an at-most-one group with it (and i itself); on a
        # large board worked out on first use (a search for one solution visits few rows, and all
        # of them would take n^2 bits), on a small one up front (a list is the faster lookup)
        self.conflicts = _Conflicts(self.masks, self.hi, row_groups)
        if self.n <= EAGER_ROWS:
            self.conflicts = [self.conflicts[i] for i in range(self.n)]
        self.row_groups = [frozenset(gs) for gs in row_groups]
        self.k_groups = [tuple(g for g in gs if self.hi[g] > 1) for gs in row_groups]
        self.simple = all(h == 1 for h in self.hi)
        self.leaf_checks = bool(problem.clauses or problem.linears or problem.lazy)
        self.nodes = 0

    # -- public ----------------------------------------------------------------------------
    def solutions(self, assume: Sequence[int] = ()) -> Iterator[frozenset[int]]:
        """Every solution, optionally under assumptions (a cube: placements forced in or out)."""
        if any(len(c) == 0 for c in self.problem.clauses):
            return                                    # an empty clause: nothing can satisfy it
        alive = (1 << self.n) - 1
        chosen: list[int] = []
        counts = [0] * len(self.masks)
        for lit in list(self.problem.units) + list(assume):
            if lit < 0:
                alive &= ~(1 << (-lit - 1))
        for lit in list(self.problem.units) + list(assume):
            if lit > 0:
                i = lit - 1
                if not alive >> i & 1:
                    return
                alive = self._choose(i, alive, chosen, counts)
        if self.simple:
            open_groups = frozenset(g for g in range(len(self.masks))
                                    if self.lo[g] == 1 and not counts[g])
            yield from self._fast(alive, open_groups, chosen)
        else:
            yield from self._general(alive, chosen, counts)

    # -- the common case: every group is exactly-one or at-most-one ---------------------------
    def _fast(self, alive: int, open_groups: frozenset[int], chosen: list[int]) -> Iterator[frozenset[int]]:
        self.nodes += 1
        if not open_groups:
            yield from self._optional(alive, chosen)
            return
        masks, best, fewest = self.masks, -1, 1 << 30
        for g in open_groups:                        # decide: most constrained open group
            c = (alive & masks[g]).bit_count()
            if c < fewest:
                best, fewest = g, c
                if c <= 1:
                    break
        if fewest == 0:                               # conflict: an open group has no live row
            return
        rows = alive & masks[best]
        while rows:
            low = rows & -rows
            rows ^= low
            i = low.bit_length() - 1
            chosen.append(i)
            yield from self._fast(alive & ~self.conflicts[i], open_groups - self.row_groups[i], chosen)
            chosen.pop()

    # -- exactly-k groups (pieces with several copies) --------------------------------------------
    def _general(self, alive: int, chosen: list[int], counts: list[int]) -> Iterator[frozenset[int]]:
        self.nodes += 1
        best, fewest = -1, 1 << 30
        for g, m in enumerate(self.masks):
            need = self.lo[g] - counts[g]
            if need <= 0:
                continue
            c = (alive & m).bit_count()
            if c < need:
                return                                # conflict
            if c - need < fewest:
                best, fewest = g, c - need
        if best < 0:
            yield from self._optional(alive, chosen)
            return
        rows = alive & self.masks[best]
        if self.hi[best] == 1:                        # n-ary: one of the live rows
            while rows:
                low = rows & -rows
                rows ^= low
                yield from self._branch(low.bit_length() - 1, alive, chosen, counts)
            return
        low = rows & -rows                            # binary: first live row in, or out
        yield from self._branch(low.bit_length() - 1, alive, chosen, counts)
        yield from self._general(alive & ~low, chosen, counts)

    def _branch(self, i: int, alive: int, chosen: list[int], counts: list[int]) -> Iterator[frozenset[int]]:
        counts = counts[:]
        alive = self._choose(i, alive, chosen, counts)
        yield from self._general(alive, chosen, counts)
        chosen.pop()

    def _choose(self, i: int, alive: int, chosen: list[int], counts: list[int]) -> int:
        chosen.append(i)
        alive &= ~self.conflicts[i]
        for g in self.row_groups[i]:
            counts[g] += 1
        for g in self.k_groups[i]:
            if counts[g] >= self.hi[g]:
                alive &= ~self.masks[g]
        return alive

    # -- leaves --------------------------------------------------------------------------------
    def _optional(self, alive: int, chosen: list[int]) -> Iterator[frozenset[int]]:
        """All groups are satisfied; rows still alive may be added or left out."""
        if not alive:
            yield from self._leaf(chosen)
            return
        if self.simple:
            low = alive & -alive
            i = low.bit_length() - 1
            chosen.append(i)
            yield from self._optional(alive & ~self.conflicts[i], chosen)
            chosen.pop()
            yield from self._optional(alive & ~low, chosen)
        else:
            low = alive & -alive
            counts = [0] * len(self.masks)
            for j in chosen:
                for g in self.row_groups[j]:
                    counts[g] += 1
            yield from self._branch(low.bit_length() - 1, alive, chosen, counts)
            yield from self._optional(alive & ~low, chosen)

    def _leaf(self, chosen: list[int]) -> Iterator[frozenset[int]]:
        sol = frozenset(i + 1 for i in chosen)
        if self.leaf_checks:
            p = self.problem
            if (p.clauses or p.linears) and breaks_side_constraints(p.clauses, p.linears, sol):
                return
            if any(check(sol) for check in p.lazy):
                return
        yield sol


def breaks_side_constraints(clauses: Sequence, linears: Sequence, sol: frozenset[int]) -> bool:
    """Whether a candidate (its true variables) falsifies a clause or a linear constraint."""
    for c in clauses:
        if not any((lit > 0) == (abs(lit) in sol) for lit in c):
            return True
    for lin in linears:
        s = sum(a for a, v in lin.terms if v in sol)
        if (lin.lo is not None and s < lin.lo) or (lin.hi is not None and s > lin.hi):
            return True
    return False


class _Conflicts(dict):
    """Row -> the rows it kills, computed when first asked for (a lazily filled list)."""

    def __init__(self, masks: list[int], hi: list[int], row_groups: list[list[int]]) -> None:
        super().__init__()
        self.masks, self.hi, self.row_groups = masks, hi, row_groups

    def __missing__(self, i: int) -> int:
        out = 1 << i
        for g in self.row_groups[i]:
            if self.hi[g] == 1:
                out |= self.masks[g]
        self[i] = out
        return out


def _bit_set(lits: Sequence[int], n: int) -> int:
    """The integer with bit v-1 set for every literal v (on large boards numpy packs the bits:
    building it by shifts costs a big-integer operation per literal, quadratic there; on small
    ones the shifts are cheap and numpy's import is not)."""
    if n <= SMALL_BOARD:
        out = 0
        for v in lits:
            out |= 1 << (v - 1)
        return out
    import numpy as np
    bits = np.zeros(n, dtype=np.uint8)
    bits[np.fromiter(lits, dtype=np.int64, count=len(lits)) - 1] = 1
    return int.from_bytes(np.packbits(bits, bitorder="little").tobytes(), "little")
