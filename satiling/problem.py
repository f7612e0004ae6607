"""The backend-neutral model: Boolean variables with a meaning, and constraints over them.

A family (polyforms, edge matching, IQ-Link) turns a puzzle into a :class:`Problem`; a backend
(CNF, CP-SAT, LP) turns the problem into something a solver reads.  Nothing here knows geometry
and nothing here knows a solver.

Variables are positive integers ``1..num_vars`` (the DIMACS convention), literals are signed ints.
*Primary* variables are the placements: a solution *is* the set of true primary variables, and
blocking clauses, solution identity and decoding use them alone.  Auxiliary variables (colour
variables, encoding helpers) never appear in a solution.

Example -- one cell, two ways to cover it::

    >>> p = Problem("toy")
    >>> a = p.new_var("a", primary=True); b = p.new_var("b", primary=True)
    >>> p.exactly_one([a, b], name="cell 0")
    >>> p.num_vars, len(p.groups)
    (2, 1)
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from .errors import SatilingError


@dataclass(frozen=True)
class Group:
    """``lo <= (number of true literals) <= hi`` over ``lits``: exactly-one, at-most-one, exactly-k."""

    lits: tuple[int, ...]
    lo: int
    hi: int
    name: str = ""

    @property
    def is_exactly_one(self) -> bool:
        return self.lo == 1 and self.hi == 1


@dataclass(frozen=True)
class Linear:
    """``lo <= sum(coef * var) <= hi`` with integer coefficients over variables (not literals)."""

    terms: tuple[tuple[int, int], ...]   # (coefficient, variable)
    lo: int | None
    hi: int | None
    name: str = ""


@dataclass(frozen=True)
class ModelShape:
    """A model's sizes without its literals: what ``info`` prints and what the CNF size needs.
    A family can give it without building the model (on Eternity the model takes seconds and a
    gigabyte to build, the group lengths alone are a count; measurements:
    docs/decisions/2026-11-27-models-and-encodings.md)."""

    variables: int
    primary: int
    #: (literals, lo, hi) of each group
    groups: tuple[tuple[int, int, int], ...]
    units: int = 0
    clauses: int = 0

    def stats(self) -> dict[str, int]:
        return {"variables": self.variables, "primary": self.primary, "groups": len(self.groups),
                "clauses": self.clauses, "linear": 0, "lazy": 0}


#: A lazy constraint: given the set of true primary variables of a candidate solution, return the
#: clauses it violates (an empty list accepts the candidate).  Clauses must hold for every real
#: solution, so adding them never removes one.
LazyCheck = Callable[[frozenset[int]], list[list[int]]]


@dataclass
class Problem:
    """Named Boolean variables plus groups, clauses, linear constraints and lazy checks."""

    name: str = ""
    meanings: list[Any] = field(default_factory=lambda: [None])   # index 0 unused
    primary: list[bool] = field(default_factory=lambda: [False])
    groups: list[Group] = field(default_factory=list)
    clauses: list[tuple[int, ...]] = field(default_factory=list)
    linears: list[Linear] = field(default_factory=list)
    lazy: list[LazyCheck] = field(default_factory=list)
    #: literals that must hold (fixed pieces, symmetry restrictions); solvers take them as units
    units: list[int] = field(default_factory=list)
    #: the units that only break the board's symmetry (one member of every class is kept): the
    #: symmetry group ignores them, so counts up to symmetry and raw counts expand them back
    restriction: list[int] = field(default_factory=list)
    #: the arguments the model takes as given beyond the puzzle's rules (its redundant
    #: constraints, in words): a proof that the model has no solution rests on them
    assumed: list[str] = field(default_factory=list)

    # -- variables ---------------------------------------------------------------------------
    def new_var(self, meaning: Any = None, primary: bool = False) -> int:
        """A fresh variable; ``meaning`` is what it stands for (a placement, a colour, ...)."""
        self.meanings.append(meaning)
        self.primary.append(primary)
        return len(self.meanings) - 1

    @property
    def num_vars(self) -> int:
        return len(self.meanings) - 1

    def primary_vars(self) -> list[int]:
        return [v for v in range(1, len(self.primary)) if self.primary[v]]

    def meaning(self, var: int) -> Any:
        return self.meanings[abs(var)]

    def decode(self, true_vars: Iterable[int]) -> list[Any]:
        """The meanings of the true primary variables, in variable order."""
        try:
            chosen = sorted(set(true_vars))
        except TypeError:
            raise SatilingError("true_vars is a collection of variable numbers") from None
        # the true variables, numbered from 1: a negative literal or 0 is not one of them
        wrong = next((v for v in chosen if type(v) is not int or not 1 <= v <= self.num_vars), None)
        if wrong is not None:
            raise SatilingError(f"variable {wrong!r} is not one of the {self.num_vars} of {self.name} "
                                "(decode takes the numbers of the true variables, from 1)")
        return [self.meanings[v] for v in chosen if self.primary[v]]

    # -- constraints -------------------------------------------------------------------------
    def literals(self, lits: Any, what: str = "a constraint") -> tuple[int, ...]:
        """``lits`` as a tuple of this model's literals, each ``v`` or ``-v`` for a variable
        ``1 <= v <= num_vars`` (a whole number: not a bool, a float or 0), else SatilingError.
        Every constraint checks its literals here as it is added: a bad one found by a solver
        was a RuntimeError from inside it, or a model quietly about another variable."""
        if isinstance(lits, (str, bytes)):
            raise SatilingError(f"{what} takes a list of literals, not {type(lits).__name__}")
        try:
            out = tuple(lits)
        except TypeError:
            raise SatilingError(f"{what} takes a list of literals, not {type(lits).__name__}") from None
        n = len(self.meanings) - 1
        # Eternity II's model adds 600,000 clauses of two or three literals: a loop over a short
        # one costs less than building a set; a long group is checked by passes in C
        if len(out) <= _SHORT:
            for lit in out:
                if type(lit) is not int or not 0 < abs(lit) <= n:
                    return self._bad_literals(out, what)
            return out
        if set(map(type, out)) != _INT or max(out) > n:
            return self._bad_literals(out, what)
        low = min(out)
        if low < 1 and (low < -n or 0 in out):     # a group of placements is all positive
            return self._bad_literals(out, what)
        return out

    def _bad_literals(self, lits: tuple, what: str) -> tuple[int, ...]:
        """The slow path of :meth:`literals`: numpy integers read as ints, else SatilingError
        naming the first literal that is wrong."""
        out = tuple(_whole(lit, what) for lit in lits)
        n = self.num_vars
        wrong = next((lit for lit in out if not 0 < abs(lit) <= n), None)
        if wrong is not None:
            have = f"its variables are 1 to {n}" if n else "it has no variables yet"
            raise SatilingError(f"{what}: literal {wrong} names no variable of "
                                f"{self.name or 'the model'} ({have})")
        return out

    def exactly_one(self, lits: Sequence[int], name: str = "") -> None:
        self.groups.append(Group(self.literals(lits, "a group"), 1, 1, name))

    def at_most_one(self, lits: Sequence[int], name: str = "") -> None:
        self.groups.append(Group(self.literals(lits, "a group"), 0, 1, name))

    def cardinality(self, lits: Sequence[int], lo: int, hi: int, name: str = "") -> None:
        """Between ``lo`` and ``hi`` of ``lits`` are true (exactly k: ``lo == hi == k``)."""
        if not all(isinstance(k, int) and not isinstance(k, bool) for k in (lo, hi)) or not 0 <= lo <= hi:
            raise SatilingError(f"a cardinality group takes whole numbers 0 <= lo <= hi, not "
                                f"lo={lo!r}, hi={hi!r}")
        self.groups.append(Group(self.literals(lits, "a group"), lo, hi, name))

    def add_clause(self, lits: Sequence[int]) -> None:
        self.clauses.append(self.literals(lits, "a clause"))

    def add_linear(self, terms: Sequence[tuple[int, int]], lo: int | None = None,
                   hi: int | None = None, name: str = "") -> None:
        """``lo <= sum(coef * var) <= hi`` over ``(coef, var)`` terms, each variable positive."""
        try:
            pairs = list(terms)
            coefs, variables = zip(*pairs) if pairs else ((), ())
        except (TypeError, ValueError):
            raise SatilingError("a linear constraint takes (coefficient, variable) pairs") from None
        variables = self.literals(variables, "a linear constraint")
        coefs = tuple(_whole(c, "a linear constraint") for c in coefs)
        if any(v < 0 for v in variables):
            raise SatilingError("a linear constraint takes variables, not negated literals")
        for bound in (lo, hi):
            if bound is not None:
                _whole(bound, "a linear constraint's bound")
        self.linears.append(Linear(tuple(zip(coefs, variables)), lo, hi, name))

    def add_lazy(self, check: LazyCheck) -> None:
        self.lazy.append(check)

    def fix(self, lit: int) -> None:
        """Force a literal (a pre-placed piece, a symmetry restriction)."""
        self.units.extend(self.literals((lit,), "a fixed literal"))

    def assume(self, argument: str) -> None:
        """Note that the constraints just added follow from an argument of satiling's (a parity or
        counting argument), not from the puzzle's rules: proofs say what they rest on."""
        if argument not in self.assumed:
            self.assumed.append(argument)

    def restrict(self, lit: int) -> None:
        """Force a literal that only breaks symmetry (see ``restriction``)."""
        (lit,) = self.literals((lit,), "a restriction")
        self.units.append(lit)
        self.restriction.append(lit)

    # -- checks on a complete assignment ------------------------------------------------------
    def violations(self, true_vars: frozenset[int]) -> list[str]:
        """Names of the constraints a set of true variables breaks (lazy checks excluded).

        Used by search engines that treat some constraints at the leaves, and by tests; the
        puzzle's verifier, not this, is what certifies a solution.
        """
        bad = []
        for u in self.units:
            if (u > 0) != (abs(u) in true_vars):
                bad.append(f"unit {u}")
        for g in self.groups:
            n = sum(1 for lit in g.lits if (lit > 0) == (abs(lit) in true_vars))
            if not g.lo <= n <= g.hi:
                bad.append(g.name or f"group of {len(g.lits)}")
        for c in self.clauses:
            if not any((lit > 0) == (abs(lit) in true_vars) for lit in c):
                bad.append(f"clause {c}")
        for lin in self.linears:
            s = sum(a for a, v in lin.terms if v in true_vars)
            if (lin.lo is not None and s < lin.lo) or (lin.hi is not None and s > lin.hi):
                bad.append(lin.name or "linear")
        return bad

    def stats(self) -> dict[str, int]:
        return {
            "variables": self.num_vars,
            "primary": sum(self.primary),
            "groups": len(self.groups),
            "clauses": len(self.clauses),
            "linear": len(self.linears),
            "lazy": len(self.lazy),
        }


#: literals up to this many are checked one by one (:meth:`Problem.literals`)
_SHORT = 16
_INT = {int}


def _whole(value: Any, what: str) -> int:
    """``value`` as a whole number (a numpy integer too), never a bool, a float or a string."""
    try:
        if isinstance(value, bool):
            raise TypeError
        return operator.index(value)
    except TypeError:
        raise SatilingError(f"{what}: {str(value)[:40]!r} is not a whole number") from None


def check_problem(problem: Any, what: str) -> None:
    """SatilingError unless ``problem`` is a model (a library call given something else)."""
    if not isinstance(problem, Problem):
        raise SatilingError(f"{what} takes a Problem (puzzle.problem()), not {type(problem).__name__}")
