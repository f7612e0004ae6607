"""A CPLEX-LP file for MIP solvers (HiGHS, CBC, Gurobi, CPLEX, SCIP) from a Problem.

Every variable is binary; groups and linear constraints are rows; a clause ``a or not b`` becomes
``x_a - x_b >= 0`` (at least one literal true: sum of positive literals minus negative ones
``>= 1 - #negative``).  Lazy constraints are not included (a comment says so).
"""
from __future__ import annotations

from typing import TextIO

from ..problem import Problem


def _row(lits, lo: int | None, hi: int | None, name: str) -> list[str]:
    terms = []
    shift = 0
    for lit in lits:
        if lit > 0:
            terms.append(f"+ x{lit}")
        else:
            terms.append(f"- x{-lit}")
            shift += 1                      # (1 - x) contributes 1 to the left side
    lhs = " ".join(terms) or "0 x1"
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
    """Write ``problem`` as a feasibility MIP (objective 0) in CPLEX LP format."""
    out.write(f"\\ satiling {problem.name}\n")
    if problem.lazy:
        out.write("\\ lazy constraints are not included\n")
    out.write("Minimize\n obj: 0 x1\nSubject To\n")
    n = 0
    for u in problem.units:
        n += 1
        out.write("\n".join(_row([u], 1, None, f"u{n}")) + "\n")
    for g in problem.groups:
        n += 1
        out.write("\n".join(_row(g.lits, g.lo or None, g.hi if g.hi < len(g.lits) else None, f"g{n}")) + "\n")
    for c in problem.clauses:
        n += 1
        out.write("\n".join(_row(c, 1, None, f"c{n}")) + "\n")
    for lin in problem.linears:
        n += 1
        expr = " ".join(f"{a:+d} x{v}" for a, v in lin.terms)
        if lin.lo is not None:
            out.write(f" l{n}_lo: {expr} >= {lin.lo}\n")
        if lin.hi is not None:
            out.write(f" l{n}_hi: {expr} <= {lin.hi}\n")
    out.write("Binary\n")
    for v in range(1, problem.num_vars + 1):
        out.write(f" x{v}\n")
    out.write("End\n")
