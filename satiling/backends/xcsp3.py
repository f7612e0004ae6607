"""XCSP3 (the format of the XCSP competitions), for ACE, Choco, Picat and the other XCSP3 solvers.

One array ``x`` of 0/1 variables: ``x[i]`` is the problem's variable ``i + 1`` (XCSP3 arrays count
from 0); ``<!-- v VAR PLACEMENT -->`` comments map the placements.  Every constraint is a
``<sum>`` with coefficients and a condition; with an objective the instance is a COP maximising the
sum of the soft variables.  Solvers answer with ``<instantiation>``, which ``satiling decode
--format xcsp3`` reads.

Written directly rather than through ``pycsp3``: pycsp3 builds the XML through a global
modelling session (``satisfy``/``compile``, to a file it names from ``sys.argv``), which a library
call cannot use cleanly, and it builds the same sums far slower than this writer (measurements:
docs/decisions/2026-11-27-models-and-encodings.md); it would also make a 20 MB package (jars,
lxml) a dependency.  What is written is solved by pycsp3's own ACE in ``tests/backends/test_formats.py``.
"""
from __future__ import annotations

import io
from typing import TextIO
from xml.sax.saxutils import quoteattr

from .rows import Export, one_sided, rows

_OPS = {"=": "eq", ">=": "ge", "<=": "le"}


def _list(vars_) -> str:
    return " ".join(f"x[{v - 1}]" for v in vars_)


def write_xcsp3(export: Export, out: TextIO) -> tuple[int, int]:
    """Write the instance; return (variables, constraints)."""
    p = export.problem
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    note = quoteattr(f"satiling encode {export.command}")
    out.write(f'<instance format="XCSP3" type="{"COP" if export.soft else "CSP"}" note={note}>\n')
    for line in _comments(export):
        out.write(f"<!-- {line} -->\n")
    # an array has at least one variable, a sum at least one term: a model without variables
    # (a piece that fits nowhere) gets x[0] all the same, and a row without terms (which cannot
    # hold: 0 >= 1) is written over x[0] with coefficient 0
    out.write(f'<variables>\n  <array id="x" size="[{max(p.num_vars, 1)}]"> 0 1 </array>\n</variables>\n')
    out.write("<constraints>\n")
    n = 0
    for row in rows(p):
        if row.lo is not None and row.hi is not None and row.lo != row.hi:
            pieces = [(row.terms, "in", f"{row.lo}..{row.hi}")]
        else:
            pieces = [(t, _OPS[op], str(b)) for t, op, b in one_sided(row)]
        for terms, op, bound in pieces:
            terms = terms or ((0, 1),)
            coeffs = " ".join(str(a) for a, _ in terms)
            out.write(f'  <sum id="{row.name}"><list> {_list(v for _, v in terms)} </list>'
                      f"<coeffs> {coeffs} </coeffs><condition> ({op},{bound}) </condition></sum>\n")
            n += 1
    out.write("</constraints>\n")
    if export.soft:
        out.write(f'<objectives>\n  <maximize type="sum"> {_list(export.soft)} </maximize>\n</objectives>\n')
    out.write("</instance>\n")
    return p.num_vars, n


def _comments(export: Export) -> list[str]:
    """The header lines but the command (in the ``note`` attribute: a comment may not hold the
    ``--`` of an option), made safe for an XML comment."""
    buf = io.StringIO()
    export.header(buf, "")
    lines = [line.strip() for line in buf.getvalue().splitlines()[1:]]
    return [line.replace("--", "- -") for line in lines]
