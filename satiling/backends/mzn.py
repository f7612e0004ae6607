"""A MiniZinc model with its data in one file, for ``minizinc --solver gecode`` (or any back end).

``x[v]`` is the problem's variable ``v`` (a ``var bool``); ``% v VAR PLACEMENT`` comments map
the placements.  Each unit, group, clause and linear constraint is one linear constraint over
``x`` (MiniZinc turns a ``bool`` into 0/1 in arithmetic); with an objective the model maximises
the number of true soft variables.  The output item prints the whole assignment as ``x = [...]``,
which ``satiling decode --format mzn`` reads (so does ``--output-mode json``'s ``{"x": [...]}``).
"""
from __future__ import annotations

from typing import TextIO

from .rows import Export, one_sided, rows

_OPS = {"=": "==", ">=": ">=", "<=": "<="}


def _expr(terms) -> str:
    words = []
    for a, v in terms:
        sign = "-" if a < 0 else "+"
        words.append(f"{sign} {abs(a)}*x[{v}]" if abs(a) != 1 else f"{sign} x[{v}]")
    return " ".join(words).lstrip("+ ") or "0"


def write_mzn(export: Export, out: TextIO) -> tuple[int, int]:
    """Write the model; return (variables, constraints)."""
    p = export.problem
    export.header(out, "%")
    out.write(f"int: n = {p.num_vars};\narray[1..n] of var bool: x;\n")
    n = 0
    for row in rows(p):
        for terms, op, bound in one_sided(row):
            out.write(f"constraint {_expr(terms)} {_OPS[op]} {bound};  % {row.name}\n")
            n += 1
    if export.soft:
        out.write(f"solve maximize {_expr((1, v) for v in export.soft)};\n")
    else:
        out.write("solve satisfy;\n")
    out.write('output ["x = \\(x);\\n"];\n')
    return p.num_vars, n
