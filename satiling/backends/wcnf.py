"""Weighted CNF for MaxSAT solvers, in the format of the MaxSAT Evaluations since 2022 (and of
PySAT's ``WCNF.to_fp``): hard clauses as ``h LITS 0``, soft ones as ``WEIGHT LITS 0``, no ``p``
line.

The hard clauses are exactly the DIMACS file's (same :class:`~satiling.backends.cnf.CnfEncoder`,
same numbering, same ``c v VAR PLACEMENT`` map), so an answer decodes the same way; each soft
variable becomes a unit soft clause of weight 1.  Clauses stream to the file, as in the DIMACS
writer, rather than going through PySAT's ``WCNF`` object, which holds every clause as a Python list
first (the Eternity II score problem has millions of hard clauses; measurements:
docs/decisions/2026-11-27-models-and-encodings.md); the format is the one PySAT's ``WCNF.to_fp``
writes, and ``tests/backends/test_formats.py`` reads a file back through ``pysat.formula.WCNF``.
"""
from __future__ import annotations

from typing import Iterator, TextIO

from .cnf import CnfEncoder, write_text
from .rows import Export


def write_wcnf(export: Export, out: TextIO, amo: str) -> tuple[int, int, int]:
    """Write the model; return (variables, hard clauses, soft clauses)."""
    export.header(out, "c")
    enc = CnfEncoder(export.problem, amo)
    hard = 0

    def hard_lines() -> Iterator[str]:      # the DIMACS lines, each made a hard clause
        nonlocal hard
        for text in enc.dimacs_text():
            if text:
                hard += text.count("\n")
                yield "h " + text[:-1].replace("\n", "\nh ") + "\n"
    write_text(out, hard_lines())
    out.writelines(f"1 {v} 0\n" for v in export.soft)
    return enc.top, hard, len(export.soft)
