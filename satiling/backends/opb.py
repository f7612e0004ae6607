"""OPB, the pseudo-Boolean competition's format, for PB solvers (Sat4j, clasp, RoundingSat, ...).

Variables are ``x1 .. xN``, the problem's own numbers (no auxiliary variables: PB constraints say
cardinalities directly); ``* v VAR PLACEMENT`` comments map them to placements.  Only ``>=`` and
``=`` are written (the format has no ``<=``: such a row is negated), and negated literals are
folded into the bound rather than written ``~x``, which not every reader takes.  With an objective
the file minimises minus the number of true soft variables (``min: -1 x17 ...``), so a solver's
``o`` line is minus the score.  PySAT has no OPB writer, so the file is written here.
"""
from __future__ import annotations

from typing import TextIO

from .rows import Export, one_sided, rows


def _sum(terms) -> str:
    # a row without terms (none can hold: a piece that fits nowhere) over x1 with coefficient 0,
    # which the header declares even for a model without variables
    return " ".join(f"{a:+d} x{v}" for a, v in terms) or "0 x1"


def write_opb(export: Export, out: TextIO) -> tuple[int, int]:
    """Write the model; return (variables, constraints)."""
    p = export.problem
    n = sum(1 for r in rows(p) for _ in one_sided(r))          # the header needs the count first
    # solvers (clasp) recognise the format by this first line
    out.write(f"* #variable= {max(p.num_vars, 1)} #constraint= {n}\n")
    export.header(out, "*")
    if export.soft:
        out.write(f"min: {_sum((-1, v) for v in export.soft)} ;\n")
    written = 0
    for row in rows(p):
        for terms, op, bound in one_sided(row):
            if op == "<=":
                terms, op, bound = tuple((-a, v) for a, v in terms), ">=", -bound
            out.write(f"{_sum(terms)} {op} {bound} ;\n")
            written += 1
    return p.num_vars, written

