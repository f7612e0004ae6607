"""Time to "no solution" with and without ``--parity``: where a linear side constraint pays.

Instances: the tetromino-4x5k boxes (k sets of the five free tetrominoes in a 4 x 5k box; odd k is
ruled out by the checkerboard), the seven one-sided tetrominoes in 4x7 (ruled out the same way) and
the 19 fixed tetrominoes in 4x19 (impossible for a reason parity does not see).

Model variants:

* ``plain``  -- the exact cover alone;
* ``raw``    -- plus the parity constraint as written, sum(imbalance * x) == region's imbalance
               (pseudo-Boolean with coefficients +-2 over every T placement);
* ``parity`` -- what ``--parity`` adds: the same constraint shifted per piece and divided by the
               gcd, whose bounds cross when parity rules the puzzle out (then also the empty clause).

Solvers: CaDiCaL 1.9.5 through PySAT (with a DRAT proof: its added lemmas and all its lines, deletions
included) and CP-SAT (one worker).  Every run is a fresh process, killed once the cap (wall seconds, default 60) is reached;
the seconds reported are the process's CPU time from loading the puzzle to the answer (model,
encoding and solving; not Python's imports).  For each solver the plain and raw models stop at the
first k they cannot finish within the cap; ``--parity`` goes on.

    python tools/bench/parity.py                       # k = 1, 3, 5, 7, 9, cap 60 s
    python tools/bench/parity.py --ks 1,3,11 --cap 20
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

VARIANTS = ("plain", "raw", "parity")
SOLVERS = ("cadical", "cpsat")


# -- one run (in a child process) ----------------------------------------------------------------
def load_instance(spec: str):
    """``box:K`` -> K sets of the free tetrominoes in 4 x 5K; anything else: a bundled name."""
    from satiling import catalog
    if not spec.startswith("box:"):
        return catalog.load(spec)
    k = int(spec[4:])
    pieces = [dict(p, count=k) for p in catalog.piece_set("tetrominoes")]
    data = {"family": "polyform", "lattice": "square", "region": {"rows": 4, "cols": 5 * k},
            "piece": pieces}
    return catalog.load_data(data, f"tetromino-4x{5 * k}", catalog.instances_dir())


def build(spec: str, variant: str):
    from satiling.families.polyform.parity import imbalances
    from satiling.geometry.colourings import colourings
    puzzle = load_instance(spec)
    problem = puzzle.problem(parity=variant == "parity")
    if variant == "raw":
        cols = colourings(puzzle.lattice.name)
        variables = problem.primary_vars()
        region, values = imbalances(cols, puzzle.region, (problem.meaning(v).cells for v in variables))
        for d in range(len(region)):
            terms = [(imb[d], v) for v, imb in zip(variables, values) if imb[d]]
            problem.add_linear(terms, region[d], region[d], name="raw parity")
    return problem


def run_cadical(problem) -> dict:
    from pysat.solvers import Solver
    from satiling.backends.cnf import CnfEncoder
    enc = CnfEncoder(problem)
    clauses = list(enc.clauses())
    with Solver(name="cadical195", with_proof=True) as s:
        s.append_formula(clauses)
        sat = s.solve()
        proof = [] if sat else s.get_proof()
        stats = s.accum_stats()
    return {"status": "SAT" if sat else "UNSAT", "vars": enc.top, "clauses": len(clauses),
            "conflicts": stats.get("conflicts"), "proof_lines": None if sat else len(proof),
            "proof_lemmas": None if sat else sum(1 for line in proof if not line.startswith("d")),
            "proof_bytes": None if sat else sum(len(line) + 1 for line in proof)}


def run_cpsat(problem) -> dict:
    from satiling.search.solve import solve
    r = solve(problem, solver="cpsat")
    return {"status": r.status}


def child(spec: str, variant: str, solver: str) -> None:
    import satiling.search.solve  # noqa: F401  -- imports are not part of the measurement
    from ortools.sat.python import cp_model  # noqa: F401
    import pysat.solvers  # noqa: F401
    start = time.process_time()
    problem = build(spec, variant)
    out = run_cadical(problem) if solver == "cadical" else run_cpsat(problem)
    out["cpu"] = round(time.process_time() - start, 3)
    out["rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(json.dumps(out))


# -- the table (parent) -----------------------------------------------------------------------------
def measure(spec: str, variant: str, solver: str, cap: float) -> dict:
    cmd = [sys.executable, __file__, "--child", spec, variant, solver]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=cap,
                              env=dict(os.environ, PYTHONPATH=_root()))
    except subprocess.TimeoutExpired:
        return {"status": "TIMEOUT"}
    if done.returncode != 0:
        return {"status": "ERROR", "error": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def _root() -> str:
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cell(r: dict, cap: float) -> str:
    if r["status"] == "TIMEOUT":
        return f"> {cap:g} s"
    if r["status"] == "ERROR":
        return "error"
    text = f"{r['status']} {r['cpu']:.2f} s"
    if r.get("proof_lines") is not None:
        text += f", DRAT {r['proof_lemmas']} lemmas / {r['proof_lines']} lines"
    return text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ks", default="1,3,5,7,9", help="box sizes k (4 x 5k), comma-separated")
    ap.add_argument("--cap", type=float, default=60.0, help="wall seconds per run (default 60)")
    ap.add_argument("--solvers", default=",".join(SOLVERS))
    ap.add_argument("--extra", default="tetromino-one-sided-4x7,tetromino-fixed-4x19",
                    help="bundled instances measured after the boxes")
    ap.add_argument("--child", nargs=3, metavar=("SPEC", "VARIANT", "SOLVER"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    solvers = args.solvers.split(",")
    specs = [f"box:{k}" for k in args.ks.split(",")] + [s for s in args.extra.split(",") if s]
    gave_up: set[tuple[str, str]] = set()       # (solver, variant) past its cap on a smaller box
    print(f"cap {args.cap:g} s wall per run; CPU seconds from loading to the answer\n")
    print("| instance | solver | " + " | ".join(VARIANTS) + " |")
    print("| --- | --- | " + " | ".join("---" for _ in VARIANTS) + " |")
    for spec in specs:
        name = f"tetromino-4x{5 * int(spec[4:])}" if spec.startswith("box:") else spec
        for solver in solvers:
            cells = []
            for variant in VARIANTS:
                if (solver, variant) in gave_up and spec.startswith("box:"):
                    cells.append("(gave up)")
                    continue
                r = measure(spec, variant, solver, args.cap)
                if variant != "parity" and r["status"] == "TIMEOUT" and spec.startswith("box:"):
                    gave_up.add((solver, variant))
                cells.append(cell(r, args.cap))
            print(f"| {name} | {solver} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
