"""Every format ``satiling encode --format`` writes, in one table, and the one call that writes it.

=========  ======================================================  ==========================
format     for                                                     names placements by
=========  ======================================================  ==========================
dimacs     SAT solvers (CNF)                                       ``c v VAR PLACEMENT``
wcnf       MaxSAT solvers (hard and soft clauses, 2022 format)     ``c v VAR PLACEMENT``
opb        pseudo-Boolean solvers (Sat4j, clasp, RoundingSat)      ``* v VAR PLACEMENT``
cpsat      OR-Tools CP-SAT (``CpModelProto`` as protobuf text)     variable names, ``# v``
lp         MIP solvers reading CPLEX LP (HiGHS, SCIP, CBC, ...)    names, ``\\ v``
lpsolve    lp_solve and OR-Tools' LP importer                      names
mps        MIP solvers reading free MPS (HiGHS, OR-Tools, ...)     names, ``* v``
xcc        Knuth's DLX1 / SSXCC (exact cover)                      ``| v VAR PLACEMENT``
mzn        MiniZinc (``-o M.mzn``: model, data in ``M.dzn``)        ``% v VAR PLACEMENT``
xcsp3      XCSP3 solvers (ACE, Choco, ...)                         ``<!-- v VAR PLACEMENT -->``
=========  ======================================================  ==========================

Each writer returns its sizes, which :func:`write_model` says in one line.

File names: MiniZinc takes a model only from a name ending in ``.mzn`` (and data from ``.dzn``),
ACE an XCSP3 instance only from one ending in ``.xml`` (another name it reads as a Java class and
stops).  ``-o NAME.mzn`` writes the model and its data as two files, as the MiniZinc Challenge
ships problems; to stdout or another name, the data follows the model in one file, which MiniZinc
reads as well, so a pipe or a redirect keeps working.  A name without the suffix is written
all the same, with a note saying which name the solvers want (:func:`file_names`).
"""
from __future__ import annotations

import os
from typing import TextIO

from ..errors import SatilingError
from .rows import Export

FORMATS = ("dimacs", "wcnf", "opb", "cpsat", "lp", "lpsolve", "mps", "xcc", "mzn", "xcsp3")
#: formats that cannot say an objective: an objective given to them is refused, not dropped
NO_OBJECTIVE = ("dimacs", "xcc")


#: the end of a file name the format's solvers read, and which solver says so
SUFFIXES = {"mzn": (".mzn", "minizinc reads a model"), "xcsp3": (".xml", "ACE reads an instance")}


def file_names(fmt: str, output: str | None) -> tuple[str | None, str | None]:
    """``(data file, note)`` for ``encode --format fmt -o output``: the data file MiniZinc's
    model is split into (``NAME.mzn`` -> ``NAME.dzn``), else None; a note for the user when the
    name lacks the suffix the format's solvers need (none for stdout, a pipe or a device)."""
    if fmt not in SUFFIXES or output is None or output == "-":
        return None, None
    suffix, reader = SUFFIXES[fmt]
    if output.endswith(suffix):
        return (output[: -len(suffix)] + ".dzn" if fmt == "mzn" else None), None
    if os.path.exists(output) and not os.path.isfile(output):
        return None, None                  # /dev/stdout, a FIFO: not a name a solver is given
    return None, f"{reader} only from a name ending in {suffix}; {output} is written all the same"


def write_model(fmt: str, export: Export, out: TextIO, amo: str, data: TextIO | None = None) -> str:
    """Write ``export`` as ``fmt`` to ``out``; return its sizes as words for the user.
    ``data``: where MiniZinc's data goes (after the model in ``out`` when None).
    (DIMACS, which needs its clause count first and reports progress, is the caller's.)"""
    if fmt in NO_OBJECTIVE and export.soft:
        raise SatilingError(f"the {fmt} format has no objective: use wcnf, opb, lp, mps, cpsat, mzn "
                            "or xcsp3 for a model with one")
    if fmt == "wcnf":
        from .wcnf import write_wcnf
        n, hard, soft = write_wcnf(export, out, amo)
        return f"{n} variables, {hard} hard clauses, {soft} soft clauses"
    if fmt == "opb":
        from .opb import write_opb
        return "{} variables, {} constraints".format(*write_opb(export, out))
    if fmt == "cpsat":
        return write_cpsat(export, out)
    if fmt == "lp":
        from .lp import write_lp
        write_lp(export, out)
        return f"{export.problem.num_vars} binary variables"
    if fmt == "lpsolve":
        from .lp import write_lpsolve
        write_lpsolve(export, out)
        return f"{export.problem.num_vars} binary variables"
    if fmt == "mps":
        from .mps import write_mps
        return "{} columns, {} rows".format(*write_mps(export, out))
    if fmt == "xcc":
        from .xcc import write_xcc
        return "{} items, {} options".format(*write_xcc(export, out))
    if fmt == "mzn":
        from .mzn import write_mzn
        return "{} variables, {} constraints".format(*write_mzn(export, out, data))
    if fmt == "xcsp3":
        from .xcsp3 import write_xcsp3
        return "{} variables, {} constraints".format(*write_xcsp3(export, out))
    raise SatilingError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")


def write_cpsat(export: Export, out: TextIO) -> str:
    """The CP-SAT model as protobuf text, ``#`` comments first (text format allows them); load it
    with ``text_format.Parse(text, model.proto)`` on a fresh ``cp_model.CpModel()``."""
    from .cpsat import to_cpsat
    model, x = to_cpsat(export.problem)
    if export.soft:
        model.maximize(sum(x[v] for v in export.soft))
    export.header(out, "#")
    out.write(str(model.proto))
    return f"{len(model.proto.variables)} variables, {len(model.proto.constraints)} constraints"
