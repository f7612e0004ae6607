"""LP files for MIP solvers from a Problem, in the two LP dialects solvers read.

* ``write_lp``: CPLEX LP, read by HiGHS, SCIP, CBC, Gurobi and CPLEX.  Placement map in
  ``\\ v VAR PLACEMENT`` comments.
* ``write_lpsolve``: lp_solve's LP format, which is also what OR-Tools' LP importer reads
  (``model_builder.ModelBuilder().import_from_lp_string``; its parser is glop's ``ParseLp``).
  That importer takes no CPLEX LP at all, not even OR-Tools' own CPLEX LP export, and no comment
  and no ``.`` in a name, so this dialect has a file of its own, names of letters, digits and
  ``_`` only, and no comments (the names carry the placements).

Every variable is binary, named ``x<v>_<placement>`` (:func:`var_name`); groups, clauses and linear
constraints are rows (:mod:`satiling.backends.rows`).  With an objective (``--maximize-matches``,
``rules = at-most``) the file maximises the number of true soft variables.  Lazy constraints are
not included (a comment says so where the dialect has comments).
"""
from __future__ import annotations

import re
from typing import Callable, TextIO

from ..problem import Problem
from .rows import Export, one_sided, rows

_UNSAFE = re.compile(r"[^A-Za-z0-9_.]+")
_UNSAFE_STRICT = re.compile(r"[^A-Za-z0-9_]+")
#: the longest name written (CPLEX LP allows 255 characters; shorter keeps files readable)
NAME_LENGTH = 48


def var_name(problem: Problem, v: int, strict: bool = False) -> str:
    """``x<v>_<meaning>``: the variable's number (so names are unique and match the DIMACS map)
    and its meaning (a placement: ``x17_F_0.1_0.2_1.0_1.1_2.1``), with every run of characters an
    LP file cannot hold turned into ``_`` (with ``strict``, ``.`` too: lp_solve / OR-Tools)."""
    meaning = problem.meaning(v)
    unsafe = _UNSAFE_STRICT if strict else _UNSAFE
    text = "" if meaning is None else unsafe.sub("_", str(meaning).replace(",", ".")).strip("_")
    return f"x{v}_{text}"[:NAME_LENGTH] if text else f"x{v}"


def names_of(problem: Problem, strict: bool = False) -> Callable[[int], str]:
    """``var_name`` for every variable, computed once."""
    cache = [""] + [var_name(problem, v, strict) for v in range(1, problem.num_vars + 1)]
    return cache.__getitem__


#: the one column of a model without variables (a piece that fits nowhere, colours that never
#: meet): its rows, none of which can hold (``0 x0 >= 1``), still need a term to be written, and
#: a MIP reader answers "empty model", not "infeasible", for a file with no column at all
EMPTY_COLUMN = "x0"


def columns(problem: Problem, names: Callable[[int], str]) -> list[str]:
    """The names of the file's columns: every variable's, or :data:`EMPTY_COLUMN` alone."""
    return [names(v) for v in range(1, problem.num_vars + 1)] or [EMPTY_COLUMN]


def _terms(terms, names: Callable[[int], str], pad: str, per_line: int = 6) -> str:
    # a few terms per line: CPLEX reads lines of at most 510 characters; a row without terms
    # is written over the column ``pad`` with coefficient 0
    words = [f"{a:+d} {names(v)}" for a, v in terms]
    return "\n   ".join(" ".join(words[i:i + per_line]) for i in range(0, len(words), per_line)) \
        or f"0 {pad}"


def write_lp(problem: Problem | Export, out: TextIO) -> None:
    """Write the model in CPLEX LP format (a ``Problem`` alone: a feasibility MIP)."""
    export = problem if isinstance(problem, Export) else Export(problem, command=problem.name)
    p = export.problem
    names = names_of(p)
    cols = columns(p, names)
    export.header(out, "\\")
    if export.soft:
        out.write(f"Maximize\n obj: {_terms(((1, v) for v in export.soft), names, cols[0])}\n")
    else:
        out.write(f"Minimize\n obj: 0 {cols[0]}\n")
    out.write("Subject To\n")
    for row in rows(p):
        pieces = list(one_sided(row))
        for terms, op, bound in pieces:
            suffix = "" if len(pieces) == 1 else ("_lo" if op == ">=" else "_hi")
            out.write(f" {row.name}{suffix}: {_terms(terms, names, cols[0])} {op} {bound}\n")
    out.write("Binary\n")
    out.writelines(f" {col}\n" for col in cols)
    out.write("End\n")


def write_lpsolve(export: Export, out: TextIO) -> None:
    """Write the model in lp_solve's LP format (which OR-Tools' LP importer reads)."""
    p = export.problem
    names = names_of(p, strict=True)
    cols = columns(p, names)
    objective = " ".join(f"+{names(v)}" for v in export.soft)
    out.write(f"max: {objective};\n" if export.soft else "min: ;\n")
    for row in rows(p):
        expr = " ".join(f"{a:+d} {names(v)}" for a, v in row.terms) or f"0 {cols[0]}"
        if row.lo is not None and row.lo == row.hi:
            out.write(f"{row.name}: {expr} = {row.lo};\n")
        elif row.lo is not None and row.hi is not None:
            out.write(f"{row.name}: {row.lo} <= {expr} <= {row.hi};\n")
        elif row.lo is not None:
            out.write(f"{row.name}: {expr} >= {row.lo};\n")
        else:
            out.write(f"{row.name}: {expr} <= {row.hi};\n")
    out.write("bin " + ", ".join(cols) + ";\n")
