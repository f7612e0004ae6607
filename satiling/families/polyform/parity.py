"""Parity constraints for polyforms: colour the cells, and the placements' imbalances must add up.

Under a colouring (:mod:`satiling.geometry.colourings`) every placement has an *imbalance*, the sum
of its cells' charges.  An exact cover covers each cell of the region once, so in every solution

    sum over chosen placements of imbalance(placement) == imbalance(region)

one linear constraint per coordinate of the colouring.  It never removes a solution, and it is what
resolution alone cannot see: refuting 9 sets of tetrominoes in a 4x45 box by search alone means
counting T pieces across a huge tree, while the linear constraint refutes it at once.

Two rewritings make the constraint small and strong, both exact when every piece is used its exact
number of times (``rules.pieces = "exact"``):

* **shift per piece**: subtracting a constant ``s`` from the imbalance of every placement of a piece
  used ``n`` times subtracts ``n * s`` from the sum, so we subtract each piece's most common value;
  most placements then drop out (for tetrominoes only the T placements of one colour remain);
* **divide by the gcd** of what is left, rounding the bounds inwards.  When the region's value is
  not a multiple, the bounds cross (``lo > hi``): that is the classical parity argument, and the
  solver's proof is immediate.

:func:`parity_argument` states that argument in words before any search: a small subset-sum over the
pieces' possible imbalances, reported by ``satiling info``.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from math import gcd
from typing import Any, Iterable, Protocol, Sequence

from ...errors import Option, SatilingError
from ...geometry.colourings import Charge, Colouring, colourings
from ...geometry.lattice import Cell, Lattice
from ...problem import Problem


class PolyformPuzzle(Protocol):
    """What the parity argument reads of a polyform puzzle (``families.polyform`` imports this
    module, never the other way round)."""

    name: str
    lattice: Lattice
    region: frozenset[Cell]
    pieces: list[Any]              # each with a name, a shape and a count
    cells_rule: str
    pieces_rule: str

    def placements(self) -> list[Any]: ...

#: the joint (all coordinates at once) subset-sum gives up when one step would try more sums
DP_LIMIT = 100_000


@dataclass(frozen=True, slots=True)
class Row:
    """One placement as parity sees it: its variable, its piece, its imbalance vector."""

    var: int
    piece: str
    imbalance: Charge


@dataclass(frozen=True)
class ParityConstraint:
    """``lo <= sum(coef * var) <= hi``; ``lo > hi`` means parity alone rules the puzzle out."""

    name: str
    terms: tuple[tuple[int, int], ...]
    lo: int
    hi: int

    @property
    def infeasible(self) -> bool:
        return self.lo > self.hi


# -- imbalances --------------------------------------------------------------------------------
_FIELD = 32          # bits per coordinate when a charge vector is packed into one integer


def _pack(vector: Sequence[int]) -> int:
    return sum(x << (_FIELD * d) for d, x in enumerate(vector))


def _unpack(packed: int, dims: int) -> Charge:
    out, half, mask = [], 1 << (_FIELD - 1), (1 << _FIELD) - 1
    for _ in range(dims):
        x = packed & mask
        if x >= half:
            x -= 1 << _FIELD
        out.append(x)
        packed = (packed - x) >> _FIELD
    return tuple(out)


def imbalances(cols: Sequence[Colouring], region: Iterable[Cell],
               cell_sets: Iterable[Sequence[Cell]]) -> tuple[Charge, list[Charge]]:
    """The region's imbalance and each cell set's, all colourings' coordinates side by side.

    Each cell's charges are packed into one Python integer (32-bit fields, signed), so a placement
    costs one addition per cell however many coordinates there are -- the Eternity board has 1.4
    million placements of 36 cells.
    """
    dims = sum(c.dims for c in cols)
    packed = {cell: _pack([x for c in cols for x in c.charge(cell)]) for cell in region}
    unpacked: dict[int, Charge] = {}        # few distinct sums: unpack each once
    out = []
    charge = packed.__getitem__             # map() over it: a third faster than a generator
    for cells in cell_sets:
        total = sum(map(charge, cells))
        vector = unpacked.get(total)
        if vector is None:
            vector = unpacked[total] = _unpack(total, dims)
        out.append(vector)
    return _unpack(sum(packed.values()), dims), out


def labels(cols: Sequence[Colouring]) -> list[tuple[Colouring, str]]:
    """(colouring, coordinate label) for every coordinate, in the order of :func:`imbalances`."""
    return [(c, label) for c in cols for label in c.labels]


# -- the constraints ------------------------------------------------------------------------------
def parity_constraints(cols: Sequence[Colouring], region_imbalance: Charge, rows: Sequence[Row],
                       counts: dict[str, int] | None) -> list[ParityConstraint]:
    """One constraint per coordinate (trivial ones left out).

    ``counts`` maps each piece to the exact number of times it is used; ``None`` when pieces may be
    left out (then no shift is possible: an unused piece contributes nothing, not ``n * s``).
    """
    out = []
    for d, (colouring, label) in enumerate(labels(cols)):
        shift = _shifts(rows, d) if counts is not None else {}
        rhs = region_imbalance[d] - sum(n * shift.get(p, 0) for p, n in (counts or {}).items())
        terms = [(r.imbalance[d] - shift.get(r.piece, 0), r.var) for r in rows
                 if r.imbalance[d] != shift.get(r.piece, 0)]
        g = 0
        for a, _ in terms:
            g = gcd(g, a)
        if not terms:
            if rhs == 0:
                continue                 # every placement balances exactly as the region does
            lo, hi = 1, 0
        else:
            terms = [(a // g, v) for a, v in terms]
            lo, hi = -(-rhs // g), rhs // g          # ceil and floor: integers only
        out.append(ParityConstraint(f"parity {colouring.name} ({label})", tuple(terms), lo, hi))
    return out


def _shifts(rows: Sequence[Row], d: int) -> dict[str, int]:
    """Each piece's most common imbalance in coordinate ``d`` (ties: the smallest)."""
    seen: dict[str, Counter[int]] = defaultdict(Counter)
    for r in rows:
        seen[r.piece][r.imbalance[d]] += 1
    return {p: min(c, key=lambda x: (-c[x], x)) for p, c in seen.items()}


def add_constraints(problem: Problem, constraints: Sequence[ParityConstraint]) -> None:
    """Put the constraints into the model.

    A constraint whose bounds cross is false under every assignment, so it also goes in as the
    empty clause: a CNF solver would otherwise have to refute "at least 5" against "at most 4" over
    the same literals by search (3387 conflicts for the 4x45 box).
    """
    for c in constraints:
        if c.terms:
            problem.add_linear(c.terms, c.lo, c.hi, name=c.name)
        if c.infeasible:
            problem.add_clause([])


# -- polyform puzzles --------------------------------------------------------------------------------
def _exact_counts(puzzle: PolyformPuzzle) -> dict[str, int] | None:
    if puzzle.pieces_rule != "exact":
        return None
    return {p.name: p.count for p in puzzle.pieces}


def add_parity(problem: Problem, puzzle: PolyformPuzzle) -> list[ParityConstraint]:
    """Add the parity constraints of every colouring of the puzzle's lattice (``--parity``)."""
    if puzzle.cells_rule != "exact":
        raise SatilingError('{name}: {parity} needs every cell covered (rules.cells = "exact")',
                            name=puzzle.name, parity=Option("parity"))
    cols = colourings(puzzle.lattice.name)
    variables = problem.primary_vars()
    placements = [problem.meaning(v) for v in variables]
    region, values = imbalances(cols, puzzle.region, (pl.cells for pl in placements))
    rows = [Row(v, pl.piece, imb) for v, pl, imb in zip(variables, placements, values)]
    constraints = parity_constraints(cols, region, rows, _exact_counts(puzzle))
    add_constraints(problem, constraints)
    problem.assume("the parity constraints (--parity)")
    return constraints


def parity_argument(puzzle: PolyformPuzzle) -> str:
    """One line for ``satiling info``: the parity argument when it alone rules the puzzle out."""
    if puzzle.cells_rule != "exact":
        return "not applicable (cells may stay empty)"
    return parity_obstruction(puzzle) or _no_obstruction(puzzle)


def _no_obstruction(puzzle: PolyformPuzzle) -> str:
    from .coverage import named
    unplaced = puzzle.coverage().unplaced
    if puzzle.pieces_rule == "exact" and unplaced:
        verb = "fits" if len(unplaced) == 1 else "fit"
        return f"no obstruction ({named(unplaced)} {verb} nowhere, which is not a parity matter)"
    return f"no obstruction ({', '.join(c.name for c in colourings(puzzle.lattice.name))})"


def parity_obstruction(puzzle: PolyformPuzzle) -> str | None:
    """The parity argument in one line when it rules out every tiling, else None: cheap enough
    (a subset-sum over the pieces' imbalances; measurements:
    docs/decisions/2026-11-27-models-and-encodings.md) to run before any search."""
    if puzzle.cells_rule != "exact":
        return None
    cols = colourings(puzzle.lattice.name)
    placements = puzzle.placements()
    region, values = imbalances(cols, puzzle.region, (pl.cells for pl in placements))
    options: dict[str, set[Charge]] = {p.name: set() for p in puzzle.pieces}
    for pl, imb in zip(placements, values):
        options[pl.piece].add(imb)
    counts = {p.name: p.count for p in puzzle.pieces}
    exact = puzzle.pieces_rule == "exact"
    if exact and any(not v for v in options.values()):
        return None                       # a piece fits nowhere, which is not a parity matter
    for d, (colouring, label) in enumerate(labels(cols)):
        per_piece = {p: {v[d] for v in vs} for p, vs in options.items()}
        reach = _reachable(per_piece, counts, exact, None)
        if region[d] not in reach:
            return _explain(colouring, label, region[d], per_piece, counts, reach, exact)
    start = 0
    for colouring in cols:
        if colouring.dims > 1:
            part = slice(start, start + colouring.dims)
            per_piece = {p: {v[part] for v in vs} for p, vs in options.items()}
            reach = _reachable(per_piece, counts, exact, DP_LIMIT)
            if reach is not None and region[part] not in reach:
                return (f"{colouring.name}: no choice of placements reaches the region's "
                        f"({', '.join(colouring.labels)}) = {region[part]}: no tiling")
        start += colouring.dims
    return None


def _reachable(options: dict, counts: dict[str, int], exact: bool, limit: int | None):
    """Every total of one option per piece copy (zero allowed for unused copies when not exact);
    None when a step would try more than ``limit`` sums."""
    reach = {_zero(options)}
    for piece, values in options.items():
        values = set(values) | (set() if exact else {_zero(options)})
        for _ in range(counts[piece]):
            if limit is not None and len(reach) * len(values) > limit:
                return None
            reach = {_add(r, v) for r in reach for v in values}
    return reach


def _zero(options: dict):
    for values in options.values():
        for v in values:
            return (0,) * len(v) if isinstance(v, tuple) else 0
    return 0


def _add(a, b):
    return tuple(x + y for x, y in zip(a, b)) if isinstance(a, tuple) else a + b


def _explain(colouring: Colouring, label: str, target: int, per_piece: dict[str, set[int]],
             counts: dict[str, int], reach: set[int], exact: bool) -> str:
    """'checkerboard: the region has black - white = 0; T +-2, I O L S 0; ...: no tiling'."""
    same = len(set(counts.values())) == 1
    groups: dict[tuple[int, ...], list[str]] = defaultdict(list)
    for piece, values in per_piece.items():
        name = piece if same or counts[piece] == 1 else f"{piece} x{counts[piece]}"
        groups[tuple(sorted(values))].append(name)
    pieces = "; ".join(f"{', '.join(names)}: {_values(vals)}" for vals, names in sorted(groups.items()))
    if same and counts and next(iter(counts.values())) > 1:
        pieces += f" ({next(iter(counts.values()))} copies of each)"
    n = sum(counts.values())
    modulus = _modulus(per_piece, exact)
    some = sorted(reach)
    if modulus > 1 and len({x % modulus for x in reach}) == 1 and target % modulus != some[0] % modulus:
        why = f"any {n} of them sum to {some[0] % modulus} (mod {modulus}), never {target}"
    elif len(some) <= 8:
        why = f"any {n} of them sum to one of {', '.join(map(str, some))}, never {target}"
    else:
        why = f"any {n} of them sum to a value in {some[0]}..{some[-1]} other than {target}"
    return (f"{colouring.name}: the region has {label} = {target}; pieces {pieces}; "
            f"{why}: no tiling")


def _modulus(per_piece: dict[str, set[int]], exact: bool) -> int:
    """The gcd of the differences between a piece's possible values (what the shift leaves)."""
    g = 0
    for values in per_piece.values():
        vals = sorted(values | (set() if exact else {0}))
        for v in vals[1:]:
            g = gcd(g, v - vals[0])
    return g


def _values(values: tuple[int, ...]) -> str:
    if len(values) == 2 and values[0] == -values[1]:
        return f"+-{values[1]}"
    return "/".join(map(str, values))
