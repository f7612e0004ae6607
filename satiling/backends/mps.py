"""Free MPS for MIP solvers (HiGHS, OR-Tools' ``import_from_mps_string``, SCIP, CBC, Gurobi).

Columns are named as in the LP file (``x<v>_<placement>``: longer than fixed MPS's 8 characters,
so the file is free MPS, which every reader above takes), and ``* v VAR PLACEMENT`` comments carry
the placement map.  Every variable is binary (``BV`` bounds).  A range row is written as two rows,
as in the LP file.  With an objective the file *minimises minus* the number of true soft variables:
``OBJSENSE`` is not read by every MPS reader, minimisation is.

MPS lists the matrix by column, so the rows are gathered per column in memory first (about the
size of the model; the clause-only DIMACS writer streams instead).
"""
from __future__ import annotations

from collections import defaultdict
from typing import TextIO

from .lp import columns, names_of
from .rows import Export, one_sided, rows

_OPS = {"=": "E", ">=": "G", "<=": "L"}


def write_mps(export: Export, out: TextIO) -> tuple[int, int]:
    """Write the model; return (columns, rows)."""
    p = export.problem
    names = names_of(p)
    export.header(out, "*")
    out.write(f"NAME {_safe(p.name)}\nROWS\n N obj\n")
    by_column: dict[int, list[tuple[str, int]]] = defaultdict(list)
    rhs: list[tuple[str, int]] = []
    n_rows = 0
    for row in rows(p):
        pieces = list(one_sided(row))
        for terms, op, bound in pieces:
            name = row.name if len(pieces) == 1 else f"{row.name}_{'lo' if op == '>=' else 'hi'}"
            out.write(f" {_OPS[op]} {name}\n")
            n_rows += 1
            for a, v in terms:
                by_column[v].append((name, a))
            if bound:
                rhs.append((name, bound))
    for v in export.soft:
        by_column[v].append(("obj", -1))
    out.write("COLUMNS\n")
    cols = columns(p, names)          # a model without variables: one empty column (lp.EMPTY_COLUMN)
    for v, col in enumerate(cols, 1):
        entries = by_column.pop(v, None) or [("obj", 0)]    # a column no row holds is still listed
        out.writelines(f"    {col} {r} {a}\n" for r, a in entries)
    out.write("RHS\n")
    out.writelines(f"    rhs {r} {b}\n" for r, b in rhs)
    out.write("BOUNDS\n")
    out.writelines(f" BV bnd {col}\n" for col in cols)
    out.write("ENDATA\n")
    return p.num_vars, n_rows


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "_-." else "_" for c in name) or "satiling"
