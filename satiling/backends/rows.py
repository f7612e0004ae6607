"""A :class:`~satiling.problem.Problem` as linear rows over its own variables, and what every
model writer shares: the objective, the header line and the placement map.

The linear formats (OPB, LP, MPS, MiniZinc, XCSP3) all say the same thing: each unit, group,
clause and linear constraint is one row ``lo <= sum(coef * x_v) <= hi`` over 0/1 variables, a
negated literal ``not x`` being ``1 - x`` (its 1 moved into the bounds).  The writers differ only
in spelling, so the arithmetic is done once, here.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence, TextIO

from ..problem import Problem


@dataclass(frozen=True)
class Row:
    """``lo <= sum(coef * x_var) <= hi`` (a bound of None is absent); ``kind`` says where it came
    from: ``u`` unit, ``g`` group, ``c`` clause, ``l`` linear."""

    kind: str
    index: int
    terms: tuple[tuple[int, int], ...]       # (coefficient, variable)
    lo: int | None
    hi: int | None

    @property
    def name(self) -> str:
        return f"{self.kind}{self.index}"


@dataclass
class Export:
    """What ``satiling encode`` writes: the model, the variables whose number of true ones is
    maximised (``soft``, each worth 1: the matching joins of ``--maximize-matches``, the placed
    pieces of a board with ``rules = at-most``), and the command that wrote it."""

    problem: Problem
    soft: Sequence[int] = ()
    command: str = ""
    #: what one soft variable stands for, said in the file's comments
    soft_meaning: str = ""
    describe: Callable[[Any], Any] = field(default=lambda m: m.to_json() if hasattr(m, "to_json") else str(m))
    #: the model options ``problem`` was built with (those of :func:`file_options`)
    options: dict[str, Any] = field(default_factory=dict)

    def placement_lines(self, prefix: str) -> Iterator[str]:
        """``PREFIX v VAR JSON`` per primary variable: the map DIMACS files carry."""
        p = self.problem
        for v in p.primary_vars():
            data = json.dumps(self.describe(p.meanings[v]), separators=(",", ":"))
            yield f"{prefix} v {v} {data}\n"

    def header(self, out: TextIO, prefix: str) -> None:
        """The comment block every format starts with: the command, the map, the objective."""
        p = self.problem
        out.write(f"{prefix} satiling encode {self.command}\n")
        mark = f"{prefix} v".strip()
        out.write(f"{prefix} primary variables: {sum(p.primary)} of {p.num_vars}; "
                  f"'{mark} VAR PLACEMENT' maps them\n")
        if self.soft:
            out.write(f"{prefix} objective: maximise the number of true variables among "
                      f"{len(self.soft)} ({self.soft_meaning or 'soft'})\n")
        if p.lazy:
            out.write(f"{prefix} note: lazy constraints are not in this file; an answer may need re-checking\n")
        out.writelines(self.placement_lines(prefix))


def file_options(puzzle: Any, options: dict[str, Any]) -> dict[str, Any]:
    """The model options a file for another solver is built with: ``options`` with the puzzle's
    own changes (``puzzle.file_options``), which turn a rule left to lazy checks into constraints.
    No solver reading a file runs satiling's lazy checks, so a file must hold every rule (an
    IQ-Link file without its link rule had answers whose pieces were not linked)."""
    choose = getattr(puzzle, "file_options", None)
    return dict(choose(dict(options))) if choose is not None else dict(options)


def literal_row(kind: str, index: int, lits: Sequence[int], lo: int | None, hi: int | None) -> Row:
    """``lo <= (number of true literals) <= hi`` as a row over variables: a negated literal
    contributes ``1 - x``, so its variable gets coefficient -1 and its 1 shifts both bounds."""
    shift = sum(1 for lit in lits if lit < 0)
    terms = tuple((1 if lit > 0 else -1, abs(lit)) for lit in lits)
    return Row(kind, index, terms, None if lo is None else lo - shift, None if hi is None else hi - shift)


def rows(problem: Problem) -> Iterator[Row]:
    """Every constraint of ``problem`` as a row (lazy checks are not constraints of a file)."""
    for k, u in enumerate(problem.units, 1):
        yield literal_row("u", k, [u], 1, 1)
    for k, g in enumerate(problem.groups, 1):
        lo = g.lo if g.lo > 0 else None               # a count is never negative
        hi = g.hi if g.hi < len(g.lits) else None     # nor above its number of literals
        if lo is not None or hi is not None:
            yield literal_row("g", k, g.lits, lo, hi)
    for k, c in enumerate(problem.clauses, 1):
        yield literal_row("c", k, c, 1, None)
    for k, lin in enumerate(problem.linears, 1):
        yield Row("l", k, tuple(lin.terms), lin.lo, lin.hi)


def one_sided(row: Row) -> Iterator[tuple[tuple[tuple[int, int], ...], str, int]]:
    """The row as ``(terms, op, bound)`` pieces with op ``=``, ``>=`` or ``<=``: one for an
    equality or a one-sided row, two for a range."""
    if row.lo is not None and row.lo == row.hi:
        yield row.terms, "=", row.lo
        return
    if row.lo is not None:
        yield row.terms, ">=", row.lo
    if row.hi is not None:
        yield row.terms, "<=", row.hi
