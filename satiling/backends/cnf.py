"""CNF from a :class:`~satiling.problem.Problem`, through PySAT's encodings.

Each group ``lo <= sum(lits) <= hi`` becomes clauses.  For the exact-cover groups (``hi == 1``) the
at-most-one part is selectable; the pairwise encoding with one at-least-one clause per group
enumerates faster than every auxiliary-variable encoding, so it is the default up to
``pairwise_limit`` (500) literals.  Larger groups fall back to the ladder (regular) encoding, whose
size is linear where pairwise is quadratic.  The ladder rather than Sinz's sequential counter
because it enumerated faster and PySAT builds it faster (measurements:
docs/decisions/2026-11-27-models-and-encodings.md).  Other
cardinalities and linear constraints use PySAT's ``CardEnc`` / ``PBEnc``.

Clauses are produced by a generator, so a writer can stream formulas far larger than memory, and
:meth:`CnfEncoder.size` counts them without producing them (a DIMACS header needs the count first).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Iterator, TextIO

from pysat.card import CardEnc, EncType

from ..errors import SatilingError
from ..problem import Group, Linear, ModelShape, Problem

#: at-most-one encodings a user may choose (PySAT names, plus our own pairwise)
AMO_ENCODINGS: dict[str, int | None] = {
    "pairwise": None,
    "seqcounter": EncType.seqcounter,
    "ladder": EncType.ladder,
    "bitwise": EncType.bitwise,
    "totalizer": EncType.totalizer,
    "cardnetwrk": EncType.cardnetwrk,
    "mtotalizer": EncType.mtotalizer,
    "kmtotalizer": EncType.kmtotalizer,
}
DEFAULT_AMO = "pairwise"
#: clause text is written to a file about this many characters at a time
WRITE_CHUNK = 1 << 20
PAIRWISE_LIMIT = 500
#: what a pairwise at-most-one falls back to above ``pairwise_limit`` literals
LARGE_AMO = EncType.ladder
#: clauses given one by one (``Problem.clauses``) are written this many to a chunk of text
TEXT_CHUNK = 20000


#: pairwise clauses a formula may hold before its largest groups go to the ladder instead (a
#: 12x12 edge-matching board's groups of ~400 literals would be millions of pairs;
#: measurements: docs/decisions/2026-11-27-models-and-encodings.md)
PAIRWISE_BUDGET = 2_000_000


def budget_limit(problem: Problem, limit: int = PAIRWISE_LIMIT, budget: int = PAIRWISE_BUDGET) -> int:
    """The largest group size up to ``limit`` whose pairwise at-most-ones, smallest groups first,
    stay within ``budget`` clauses (the pentomino boards keep 500; large boards get less)."""
    return _budget_limit((len(g.lits) for g in problem.groups if g.hi == 1), limit, budget)


def _budget_limit(sizes: Iterable[int], limit: int, budget: int) -> int:
    total = 0
    for n in sorted(sizes):
        if n > limit:
            break
        total += n * (n - 1) // 2
        if total > budget:
            return n - 1
    return limit


class CnfEncoder:
    """Turns a problem into clauses; ``top`` is the highest variable used so far.

    >>> from satiling.problem import Problem
    >>> p = Problem(); a, b, c = (p.new_var(primary=True) for _ in range(3))
    >>> p.exactly_one([a, b, c])
    >>> sorted(CnfEncoder(p).clauses())
    [[-2, -3], [-1, -3], [-1, -2], [1, 2, 3]]
    """

    def __init__(self, problem: Problem, amo: str = DEFAULT_AMO,
                 pairwise_limit: int | None = None) -> None:
        if amo not in AMO_ENCODINGS:
            raise SatilingError(f"unknown at-most-one encoding {amo!r} (choose from {', '.join(AMO_ENCODINGS)})")
        if pairwise_limit is None:
            pairwise_limit = budget_limit(problem)
        self.problem, self.amo, self.pairwise_limit = problem, amo, pairwise_limit
        self.top = problem.num_vars

    def clauses(self) -> Iterator[list[int]]:
        """Every clause of the formula, group by group (auxiliary variables numbered above
        ``problem.num_vars``)."""
        for part in self._parts():
            yield from _clauses_of(part)

    def dimacs_text(self) -> Iterator[str]:
        """The clauses of :meth:`clauses`, in the same order, as DIMACS lines, a chunk of text
        at a time: a pairwise at-most-one is written pair by pair without a list for each (most
        of an exact cover's clauses)."""
        for part in self._parts():
            yield _pair_lines(part.lits) if isinstance(part, _Pairs) else _lines(part)

    def _parts(self) -> Iterator["Iterable[list[int]] | _Pairs"]:
        """The formula in parts, each a run of clauses or the pairs of a pairwise at-most-one;
        each part is read to its end before the next is made (the encoders number their
        auxiliary variables as they go)."""
        p = self.problem
        yield ([u] for u in p.units)
        for g in p.groups:
            yield from self._group_parts(g)
        for i in range(0, len(p.clauses), TEXT_CHUNK):
            yield (list(c) for c in p.clauses[i:i + TEXT_CHUNK])
        for lin in p.linears:
            yield self._linear(lin)

    def size(self) -> tuple[int, int]:
        """(variables, clauses) of the whole formula, without producing it.

        Groups of the same shape (length and bounds) encode to the same number of clauses and
        auxiliary variables whatever their literals, so each shape is encoded once, on stand-in
        literals.  Linear constraints are few and encoded for real.
        """
        p = self.problem
        top, n_clauses = self._groups_size(p.num_vars, len(p.units) + len(p.clauses),
                                           ((len(g.lits), g.lo, g.hi) for g in p.groups))
        linears = CnfEncoder(Problem(), self.amo, self.pairwise_limit)
        linears.top = top
        for lin in p.linears:
            n_clauses += sum(1 for _ in linears._linear(lin))
        return linears.top, n_clauses

    @classmethod
    def shape_size(cls, shape: ModelShape, amo: str = DEFAULT_AMO) -> tuple[int, int]:
        """(variables, clauses) of the formula of a model known by its shape alone (no linear
        constraints): what :meth:`size` says of the model itself, without building it."""
        limit = _budget_limit((n for n, _, hi in shape.groups if hi == 1), PAIRWISE_LIMIT, PAIRWISE_BUDGET)
        encoder = cls(Problem(), amo, limit)
        return encoder._groups_size(shape.variables, shape.units + shape.clauses, shape.groups)

    def _groups_size(self, top: int, n_clauses: int,
                     groups: Iterable[tuple[int, int, int]]) -> tuple[int, int]:
        """Groups of the same shape (length and bounds) encode alike: each shape once."""
        shapes: dict[tuple[int, int, int], tuple[int, int]] = {}
        for key in groups:
            if key not in shapes:
                shapes[key] = self._shape_size(*key)
            clauses, aux = shapes[key]
            n_clauses, top = n_clauses + clauses, top + aux
        return top, n_clauses

    def _shape_size(self, n: int, lo: int, hi: int) -> tuple[int, int]:
        """(clauses, auxiliary variables) of a group of ``n`` literals with these bounds."""
        if hi == 1 and lo <= min(1, n) and self.amo == "pairwise" and n <= self.pairwise_limit:
            return int(lo == 1) + n * (n - 1) // 2, 0           # no need to list the pairs
        if hi == 1 and lo <= min(1, n) and self.amo == "pairwise" and _ladder_is_linear():
            # the ladder beyond the pairwise limit: 4 clauses and one variable per literal, so
            # Eternity's thousands of large groups are not encoded one by one to be counted
            return int(lo == 1) + 4 * n, n + 1
        stand_in = CnfEncoder(Problem(), self.amo, self.pairwise_limit)
        stand_in.top = n
        clauses = sum(1 for _ in stand_in._group(Group(tuple(range(1, n + 1)), lo, hi)))
        return clauses, stand_in.top - n

    def _group(self, g: Group) -> Iterator[list[int]]:
        for part in self._group_parts(g):
            yield from _clauses_of(part)

    def _group_parts(self, g: Group) -> Iterator["Iterable[list[int]] | _Pairs"]:
        lits, n = list(g.lits), len(g.lits)
        if g.lo > n or g.lo > g.hi:
            yield [[]]                   # cannot be satisfied: the empty clause says so
            return
        if g.hi == 1:
            if g.lo == 1:
                yield [lits]
            if n > 1:
                yield self._at_most_one(lits)
            return
        if g.hi < n:
            yield self._card(CardEnc.atmost, lits, g.hi)
        if g.lo == n:
            yield ([lit] for lit in lits)
        elif g.lo > 0:
            yield self._card(CardEnc.atleast, lits, g.lo)

    def _at_most_one(self, lits: list[int]) -> "Iterable[list[int]] | _Pairs":
        if self.amo == "pairwise" and len(lits) <= self.pairwise_limit:
            return _Pairs(lits)
        enc = AMO_ENCODINGS[self.amo] if self.amo != "pairwise" else LARGE_AMO
        return self._card(CardEnc.atmost, lits, 1, enc)

    def _card(self, fn, lits: list[int], bound: int, enc: int = EncType.seqcounter) -> Iterator[list[int]]:
        cnf = fn(lits=lits, bound=bound, top_id=self.top, encoding=enc)
        self.top = max(self.top, cnf.nv)
        yield from cnf.clauses

    def _linear(self, lin: Linear) -> Iterator[list[int]]:
        from pysat.pb import PBEnc          # needs pindakaas (python-sat[pb])
        if not lin.terms or (lin.lo is not None and lin.hi is not None and lin.lo > lin.hi):
            if (lin.lo is not None and lin.lo > 0) or (lin.hi is not None and lin.hi < 0) or lin.terms:
                yield []                    # no assignment reaches the bounds
            return
        lits = [v if a > 0 else -v for a, v in lin.terms]
        weights = [abs(a) for a, _ in lin.terms]
        shift = sum(a for a, _ in lin.terms if a < 0)     # a*v = |a|*(-v) + a for negative a
        parts = []
        if lin.lo is not None:
            parts.append((PBEnc.atleast, lin.lo - shift))
        if lin.hi is not None:
            parts.append((PBEnc.atmost, lin.hi - shift))
        for fn, bound in parts:
            cnf = fn(lits=lits, weights=weights, bound=bound, top_id=self.top)
            self.top = max(self.top, cnf.nv)
            yield from cnf.clauses


@dataclass(frozen=True)
class _Pairs:
    """At most one of ``lits``: the clause [-a, -b] of every pair, in ``combinations`` order."""

    lits: list[int]


def _clauses_of(part: "Iterable[list[int]] | _Pairs") -> Iterable[list[int]]:
    """The clauses of one part of :meth:`CnfEncoder._parts`."""
    return ([-a, -b] for a, b in combinations(part.lits, 2)) if isinstance(part, _Pairs) else part


def _pair_lines(lits: list[int]) -> str:
    """The DIMACS lines of :class:`_Pairs`: each negated literal turned to text once."""
    neg = [str(-x) for x in lits]
    return "".join([head + " " + tail + " 0\n" for i, head in enumerate(neg) for tail in neg[i + 1:]])


def _lines(clauses: Iterable[list[int]]) -> str:
    """DIMACS lines of ``clauses`` (two literals, the most common, without a join)."""
    return "".join([f"{c[0]} {c[1]} 0\n" if len(c) == 2 else " ".join(map(str, c)) + " 0\n"
                    for c in clauses])


def to_cnf(problem: Problem, amo: str = DEFAULT_AMO):
    """The problem as a ``pysat.formula.CNF`` (in memory; use the DIMACS writer for huge ones)."""
    from pysat.formula import CNF
    from ..problem import check_problem
    check_problem(problem, "to_cnf")
    enc = CnfEncoder(problem, amo)
    cnf = CNF(from_clauses=list(enc.clauses()))
    cnf.nv = max(enc.top, cnf.nv)
    return cnf


@functools.lru_cache(maxsize=1)
def _ladder_is_linear() -> bool:
    """Whether PySAT's ladder at-most-one has ``4n`` clauses and ``n + 1`` new variables on ``n``
    literals (checked once on two sizes, so a PySAT that encodes it otherwise is counted for real)."""
    for n in (PAIRWISE_LIMIT + 1, 2 * PAIRWISE_LIMIT + 7):
        cnf = CardEnc.atmost(lits=list(range(1, n + 1)), bound=1, top_id=n, encoding=LARGE_AMO)
        if (len(cnf.clauses), cnf.nv - n) != (4 * n, n + 1):
            return False
    return True


def write_text(out: TextIO, texts: Iterable[str]) -> None:
    """Write the pieces of text (:meth:`CnfEncoder.dimacs_text`'s) about a megabyte at a time:
    one write a piece would be slow, one string of the whole formula too large."""
    buf: list[str] = []
    size = 0
    for text in texts:
        buf.append(text)
        size += len(text)
        if size >= WRITE_CHUNK:
            out.write("".join(buf))
            buf.clear()
            size = 0
    out.write("".join(buf))
