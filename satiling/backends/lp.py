"""A CPLEX-LP file for MIP solvers (HiGHS, CBC, Gurobi, CPLEX, SCIP) from a Problem.

Every variable is binary; groups and linear constraints are rows; a clause ``a or not b`` becomes
``x_a - x_b >= 0`` (at least one literal true: sum of positive literals minus negative ones
``>= 1 - #negative``).  Lazy constraints are not included (a comment says so).
"""
from __future__ import annotations

import re
from typing import Callable, TextIO

from ..problem import Problem

_UNSAFE = re.compile(r"[^A-Za-z0-9_.]+")
#: the longest name written (CPLEX LP allows 255 characters; shorter keeps files readable)
NAME_LENGTH = 48


def var_name(problem: Problem, v: int) -> str:
    """``x<v>_<meaning>``: the variable's number (so names are unique and match the DIMACS map)
    and its meaning (a placement: ``x17_F_0.1_0.2_1.0_1.1_2.1``), with every run of characters an
    LP file cannot hold turned into ``_``."""
    meaning = problem.meaning(v)
    text = "" if meaning is None else _UNSAFE.sub("_", str(meaning).replace(",", ".")).strip("_")
    return f"x{v}_{text}"[:NAME_LENGTH] if text else f"x{v}"


def _row(lits, lo: int | None, hi: int | None, name: str, names: Callable[[int], str]) -> list[str]:
    terms = []
    shift = 0
    for lit in lits:
        if lit > 0:
            terms.append(f"+ {names(lit)}")
        else:
            terms.append(f"- {names(-lit)}")
            shift += 1                      # (1 - x) contributes 1 to the left side
    # a few terms per line: CPLEX reads lines of at most 510 characters
    lhs = "\n   ".join(" ".join(terms[i:i + 6]) for i in range(0, len(terms), 6)) or f"0 {names(1)}"
    rows = []
    if lo is not None and lo == hi:
        rows.append(f" {name}: {lhs} = {lo - shift}")
    else:
        if lo is not None:
            rows.append(f" {name}_lo: {lhs} >= {lo - shift}")
        if hi is not None:
            rows.append(f" {name}_hi: {lhs} <= {hi - shift}")
    return rows


def write_lp(problem: Problem, out: TextIO) -> None:
    """Write ``problem`` as a feasibility MIP (objective 0) in CPLEX LP format; variables are
    named by :func:`var_name`."""
    names = _names(problem)
    out.write(f"\\ satiling {problem.name}\n")
    if problem.lazy:
        out.write("\\ lazy constraints are not included\n")
    out.write(f"Minimize\n obj: 0 {names(1)}\nSubject To\n")
    n = 0
    for u in problem.units:
        n += 1
        out.write("\n".join(_row([u], 1, None, f"u{n}", names)) + "\n")
    for g in problem.groups:
        n += 1
        out.write("\n".join(_row(g.lits, g.lo or None, g.hi if g.hi < len(g.lits) else None,
                                 f"g{n}", names)) + "\n")
    for c in problem.clauses:
        n += 1
        out.write("\n".join(_row(c, 1, None, f"c{n}", names)) + "\n")
    for lin in problem.linears:
        n += 1
        expr = " ".join(f"{a:+d} {names(v)}" for a, v in lin.terms)
        if lin.lo is not None:
            out.write(f" l{n}_lo: {expr} >= {lin.lo}\n")
        if lin.hi is not None:
            out.write(f" l{n}_hi: {expr} <= {lin.hi}\n")
    out.write("Binary\n")
    for v in range(1, problem.num_vars + 1):
        out.write(f" {names(v)}\n")
    out.write("End\n")


def _names(problem: Problem) -> Callable[[int], str]:
    cache = [""] + [var_name(problem, v) for v in range(1, problem.num_vars + 1)]
    return cache.__getitem__
