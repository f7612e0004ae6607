"""Symmetry of a problem: the puzzle's board symmetries as permutations of placement variables.

Two uses:

* **counting up to symmetry** -- every solution gets a canonical form (its smallest image), and
  solutions with the same canonical form are the same up to a motion of the board;
* **breaking symmetry** -- de Bruijn's trick, as in Knuth's DLX paper: pick an exactly-one group
  that the group maps onto itself (a piece used once, such as the X pentomino) and keep only the
  placements that are the smallest of their orbit.  Every solution has one placement of that piece,
  and some motion moves it to its orbit's smallest, so every class of equivalent solutions keeps at
  least one member: distinct counts are exact, and the full set is the union of the orbits.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..families.base import Puzzle
from ..problem import Problem


@dataclass
class SymmetryGroup:
    """Permutations of the primary variables (each a dict var -> var), identity first."""

    perms: list[dict[int, int]]

    @property
    def order(self) -> int:
        return len(self.perms)

    def images(self, solution: Iterable[int]) -> set[frozenset[int]]:
        """The orbit of a solution: its distinct images."""
        sol = list(solution)
        return {frozenset(p[v] for v in sol) for p in self.perms}

    def canonical(self, solution: Iterable[int]) -> tuple[int, ...]:
        sol = list(solution)
        return min(tuple(sorted(p[v] for v in sol)) for p in self.perms)


#: the groups solutions are counted up to (``--symmetry``): every symmetry of the board, its
#: rotations only (no mirror images: BurrTools' "keep mirror solutions"), or none (raw)
SYMMETRIES = ("full", "rotations", "none")


def puzzle_motions(puzzle: Puzzle, symmetry: str = "full") -> list:
    """The puzzle's symmetries of the kind asked for (``none``: the identity alone)."""
    if symmetry not in SYMMETRIES:
        from ..errors import SatilingError
        raise SatilingError(f"unknown symmetry {symmetry!r} (choose from {', '.join(SYMMETRIES)})")
    if symmetry == "none":
        return [lambda p: p]
    return puzzle.rotations() if symmetry == "rotations" else puzzle.symmetries()


def group_name(symmetry: str, order: int) -> str:
    """How output names the group a count is up to, with its order: "up to rotations (24)"."""
    if symmetry == "none":
        return "every solution (no symmetry)"
    what = "rotations" if symmetry == "rotations" else "the board's symmetries"
    return f"up to {what} ({order})"


def problem_symmetries(puzzle: Puzzle, problem: Problem, symmetry: str = "full") -> SymmetryGroup:
    """The puzzle's symmetries (of the kind ``symmetry``: see :data:`SYMMETRIES`) that map the
    problem's placements onto placements of the problem."""
    primary = problem.primary_vars()
    var_of = {problem.meanings[v]: v for v in primary}
    perms = []
    for g in puzzle_motions(puzzle, symmetry):
        perm = {}
        for v in primary:
            w = var_of.get(g(problem.meanings[v]))
            if w is None:
                break
            perm[v] = w
        else:
            perms.append(perm)
    # fixed placements: a symmetry must respect them (not the units that only break symmetry)
    units = set(problem.units) - set(problem.restriction)
    perms = [p for p in perms
             if {p.get(u, u) if u > 0 else -p.get(-u, -u) for u in units} == units]
    if not perms or any(perms[0][v] != v for v in primary):
        perms.insert(0, {v: v for v in primary})
    return SymmetryGroup(perms)


def break_symmetry(problem: Problem, group: SymmetryGroup) -> list[int]:
    """Units fixing to false every placement of one invariant exactly-one group that is not the
    smallest of its orbit (see the module doc); the group chosen is the one keeping the fewest.

    Fixed placements (units: pinned pieces) allow it when every motion of the group maps them onto
    themselves, as :func:`satiling.search.cubes.symmetries_keeping_units` makes it: a motion then
    maps solutions onto solutions.  A group holding a fixed placement, or whose every placement is
    the smallest of its orbit, removes nothing and is passed over."""
    if group.order <= 1 or problem.lazy or not _keeps_units(problem, group):
        return []
    fixed = {u for u in problem.units if u > 0}
    best: list[int] | None = None
    kept = 0
    for g in problem.groups:
        if not g.is_exactly_one or not all(problem.primary[abs(v)] and v > 0 for v in g.lits):
            continue
        lits = set(g.lits)
        if lits & fixed or any({p[v] for v in lits} != lits for p in group.perms):
            continue
        removed = [v for v in lits if min(p[v] for p in group.perms) != v]
        if not removed:
            continue
        if best is None or len(lits) - len(removed) < kept:
            best, kept = removed, len(lits) - len(removed)
    return [-v for v in sorted(best or [])]


def _keeps_units(problem: Problem, group: SymmetryGroup) -> bool:
    """Whether every motion of the group maps the problem's units (fixed placements, all primary)
    onto themselves."""
    units = set(problem.units)
    if not units:
        return True
    if any(not problem.primary[abs(u)] for u in units):
        return False
    return all({p[u] if u > 0 else -p[-u] for u in units} == units for p in group.perms)
