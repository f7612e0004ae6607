"""Which at-most-one encoding should the CNF backend use?  Measure, per encoding:

* formula size (variables, clauses) of the restricted 6x10 pentomino model,
* CPU seconds to the first solution,
* solutions per CPU second when enumerating with blocking clauses (the discriminating figure:
  many small searches, as in counting and uniqueness proofs),

all with CaDiCaL 1.9.5 in the same run.

    python tools/bench/amo.py [--cap SECONDS] [--solver NAME] [NAME]
"""
from __future__ import annotations

import argparse
import time

from pysat.solvers import Solver

from satiling import load
from satiling.backends.cnf import AMO_ENCODINGS, CnfEncoder
from satiling.search.enumerate import blocker
from satiling.search.symmetry import break_symmetry, problem_symmetries


def measure(problem, amo: str, solver: str, cap: float) -> dict:
    enc = CnfEncoder(problem, amo)
    clauses = list(enc.clauses())
    t0 = time.process_time()
    block = blocker(problem)
    n, first = 0, None
    with Solver(name=solver, bootstrap_with=clauses) as s:
        while time.process_time() - t0 < cap and s.solve():
            if first is None:
                first = time.process_time() - t0
            true = frozenset(v for v in s.get_model() if 0 < v <= problem.num_vars)
            s.add_clause(block(true))
            n += 1
    cpu = time.process_time() - t0
    return {"vars": enc.top, "clauses": len(clauses), "first": first, "n": n, "rate": n / cpu}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name", nargs="?", default="pentomino-6x10")
    ap.add_argument("--cap", type=float, default=20.0, help="CPU seconds of enumeration per encoding")
    ap.add_argument("--solver", default="cadical195")
    args = ap.parse_args()
    puzzle = load(args.name)
    problem = puzzle.problem()
    problem.units.extend(break_symmetry(problem, problem_symmetries(puzzle, problem)))
    print(f"{args.name}, symmetry-restricted, {args.solver}, {args.cap:.0f} CPU-s cap per encoding")
    print(f"{'encoding':12} {'vars':>7} {'clauses':>9} {'first s':>8} {'solutions':>9} {'per CPU-s':>9}")
    for amo in AMO_ENCODINGS:
        r = measure(problem, amo, args.solver, args.cap)
        first = f"{r['first']:.2f}" if r["first"] is not None else "-"
        print(f"{amo:12} {r['vars']:7} {r['clauses']:9} {first:>8} {r['n']:9} {r['rate']:9.1f}", flush=True)


if __name__ == "__main__":
    main()
