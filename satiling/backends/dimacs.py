"""DIMACS CNF out (with a map from variables to placements), solver output in.

The written file starts with ``c`` lines: ``c satiling PUZZLE``, then one ``c v VAR JSON`` line per
primary variable giving its placement, so any solver's model can be decoded later
(``satiling decode``).  Clauses stream to the file; the header's clause count is computed first
without producing the clauses, so memory stays bounded however large the formula is.

Solver output is read in SAT-competition form (``s SATISFIABLE`` / ``v 1 -2 ... 0``) or as a plain
list of literals.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Callable, Iterator, TextIO

from ..errors import SatilingError
from ..problem import Problem
from .cnf import DEFAULT_AMO, CnfEncoder

_CHUNK = 20000


def write_dimacs(problem: Problem, out: TextIO, amo: str = DEFAULT_AMO,
                 describe: Callable[[object], object] | None = None) -> tuple[int, int]:
    """Write ``problem`` as DIMACS to ``out``; return (variables, clauses).

    ``describe`` turns a placement into JSON-able data (default: ``placement.to_json()``).
    """
    describe = describe or (lambda m: m.to_json() if hasattr(m, "to_json") else str(m))
    n_vars, n_clauses = CnfEncoder(problem, amo).size()
    out.write(f"c satiling {problem.name}\n")
    out.write(f"c primary variables: {sum(problem.primary)} of {n_vars}; 'c v VAR PLACEMENT' maps them\n")
    if problem.lazy:
        out.write("c note: lazy constraints are not in this file; a model may need re-checking\n")
    for v in problem.primary_vars():
        out.write(f"c v {v} {json.dumps(describe(problem.meanings[v]), separators=(',', ':'))}\n")
    out.write(f"p cnf {n_vars} {n_clauses}\n")
    buf: list[str] = []
    for clause in CnfEncoder(problem, amo).clauses():
        buf.append(" ".join(map(str, clause)) + " 0\n")
        if len(buf) >= _CHUNK:
            out.write("".join(buf))
            buf.clear()
    out.write("".join(buf))
    return n_vars, n_clauses


@dataclass
class SolverOutput:
    """What a SAT solver said: ``status`` is SATISFIABLE, UNSATISFIABLE, UNKNOWN or None (plain
    literal list), ``true_vars`` the positive literals of the model."""

    status: str | None
    true_vars: frozenset[int]
    literals: int


_TOKEN = re.compile(r"-?\d+")


def read_solver_output(text: str, num_vars: int | None = None) -> SolverOutput:
    """Parse SAT-competition output (``s``/``v`` lines) or a plain whitespace-separated literal list.

    Raises SatilingError on anything that is neither: a stray word, a literal out of range, a
    variable that is both true and false.
    """
    status, lits = None, []
    competition = any(line.startswith(("s ", "v ")) for line in text.splitlines())
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("c"):
            continue
        if competition:
            if line.startswith("s "):
                status = line[2:].strip().upper()
                if status not in ("SATISFIABLE", "UNSATISFIABLE", "UNKNOWN"):
                    raise SatilingError(f"solver output line {n}: unknown status {status!r}")
                continue
            if not line.startswith("v "):
                raise SatilingError(f"solver output line {n}: expected 's', 'v' or 'c', got {line[:30]!r}")
            line = line[2:]
        lits.extend(_ints(line, n))
    lits = [lit for lit in lits if lit != 0]
    if not lits and status not in ("UNSATISFIABLE", "UNKNOWN"):
        raise SatilingError("solver output has no model (no literals found)")
    seen: dict[int, bool] = {}
    for lit in lits:
        v = abs(lit)
        if num_vars is not None and v > num_vars:
            raise SatilingError(f"solver output names variable {v}, but the formula has {num_vars}")
        if seen.get(v, lit > 0) != (lit > 0):
            raise SatilingError(f"solver output sets variable {v} both true and false")
        seen[v] = lit > 0
    return SolverOutput(status, frozenset(v for v, val in seen.items() if val), len(lits))


def _ints(line: str, n: int) -> Iterator[int]:
    for tok in line.split():
        if not _TOKEN.fullmatch(tok):
            raise SatilingError(f"solver output line {n}: {tok[:20]!r} is not a literal")
        yield int(tok)


def read_variable_map(lines: TextIO) -> dict[int, object]:
    """The ``c v VAR JSON`` map from a DIMACS file written by :func:`write_dimacs`."""
    out = {}
    for line in lines:
        if line.startswith("p "):
            break
        if line.startswith("c v "):
            _, _, var, data = line.split(" ", 3)
            out[int(var)] = json.loads(data)
    return out
