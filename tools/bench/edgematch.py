"""Benchmark: edge-matching encodings, redundant constraints and solvers on generated boards.

Default: Eternity II-like 8x8 boards with 3 frame + 8 inner colours (colours dealt evenly, all
pieces distinct, none symmetric), seeds 1 and 2; the direct and Heule's compact encoding, each
plain, with one redundant constraint, and with all of them; CaDiCaL 1.9.5 and Kissat 4.0.4
(PySAT) and CP-SAT (1 worker).  Every run is a child process with a CPU-time cap (RLIMIT_CPU);
the time reported is the child's CPU time for the solver call (model building excluded), and every
solution found is checked by the puzzle's verifier.

    python tools/bench/edgematch.py                      # the full table (bounded by --cap)
    python tools/bench/edgematch.py --size 7 --inner 6 --seeds 1 --cap 30 --solvers cadical

Measured (shared 2-core machine, cap 60 CPU-s, seeds 1 and 2):

* 8x8, 3 + 8 colours: **none of 64 runs finished** -- direct and compact, each of the six
  constraint settings, with CaDiCaL; plain and all four with Kissat and CP-SAT too (direct plain
  and colour counts also failed at a 120-s cap).
* 7x7, 3 + 6 colours, CaDiCaL: direct plain solved both boards (33.2, 24.7 s), compact plain one
  (14.8 s); colour counts, balanced rotation and fixing a corner solved one board each (26-33 s);
  checkerboard parity and all four together solved none.  Direct plain with Kissat: 9.3 s on one
  board; with CP-SAT: 30.3 s on the other.
* So on these boards no redundant constraint helped a CDCL solver; the ones with many auxiliary
  variables (parity: 13x the variables) hurt most.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

CONFIGS = {
    "plain": {},
    "colour-counts": {"colour_counts": True},
    "balanced-rotation": {"balanced_rotation": True},
    "checkerboard-parity": {"checkerboard_parity": True},
    "fix-corner": {"fix_corner": True},
    "all four": {"colour_counts": True, "balanced_rotation": True, "checkerboard_parity": True,
                 "fix_corner": True},
}
SOLVERS = {"cadical": "cadical195", "kissat": "kissat404", "cpsat": "cpsat"}


def one(args: argparse.Namespace) -> None:
    """Child: build, report the size, solve, verify, report the result (JSON lines on stdout)."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
    from satiling.backends.cnf import CnfEncoder
    from satiling.families.edgematch.generate import generate
    from satiling.search.solve import solve
    gen = generate(args.size, args.size, args.frame, args.inner, args.seed, even=not args.random_counts)
    puzzle = gen.puzzle(f"b{args.size}-{args.seed}")
    t0 = time.process_time()
    problem = puzzle.problem(encoding=args.encoding, **CONFIGS[args.config])
    enc = CnfEncoder(problem)
    n_clauses = sum(1 for _ in enc.clauses())
    print(json.dumps({"vars": enc.top, "clauses": n_clauses, "build": time.process_time() - t0}), flush=True)
    t1 = time.process_time()
    result = solve(problem, solver=SOLVERS[args.solver])
    cpu = time.process_time() - t1
    if result.status == "SAT":
        puzzle.verify(problem.decode(result.true_vars))
    print(json.dumps({"status": result.status, "cpu": cpu}), flush=True)


def run(args: argparse.Namespace, seed: int, encoding: str, config: str, solver: str) -> dict:
    cmd = [sys.executable, __file__, "--one", "--size", str(args.size), "--frame", str(args.frame),
           "--inner", str(args.inner), "--seed", str(seed), "--encoding", encoding, "--config", config,
           "--solver", solver] + (["--random-counts"] if args.random_counts else [])
    cap = args.cap

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(cap) + 30, int(cap) + 30))

    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=limit)
    try:
        out, err = proc.communicate(timeout=cap * 6 + 60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    row: dict = {"wall": time.perf_counter() - start}
    for line in out.splitlines():
        row.update(json.loads(line))
    if "status" not in row or row.get("cpu", 0) > cap:
        row["status"], row["cpu"] = "TIMEOUT", None
        if proc.returncode not in (0, -9, -24, 152) and "Traceback" in err:
            row["status"] = "ERROR: " + err.strip().splitlines()[-1][:80]
    return row


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--size", type=int, default=8)
    p.add_argument("--frame", type=int, default=3)
    p.add_argument("--inner", type=int, default=8)
    p.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    p.add_argument("--cap", type=float, default=60.0, help="CPU seconds per run (default 60)")
    p.add_argument("--encodings", nargs="+", default=["direct", "compact"])
    p.add_argument("--configs", nargs="+", default=list(CONFIGS))
    p.add_argument("--solvers", nargs="+", default=list(SOLVERS))
    p.add_argument("--random-counts", action="store_true", help="colours drawn independently per join")
    # child mode
    p.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--seed", type=int, help=argparse.SUPPRESS)
    p.add_argument("--encoding", help=argparse.SUPPRESS)
    p.add_argument("--config", help=argparse.SUPPRESS)
    p.add_argument("--solver", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.one:
        one(args)
        return
    print(f"# {args.size}x{args.size} boards, {args.frame} frame + {args.inner} inner colours, "
          f"{'independent' if args.random_counts else 'even'} colour counts, seeds {args.seeds}, "
          f"cap {args.cap:.0f} CPU-s per run; times are solver CPU seconds", flush=True)
    print("| encoding | constraints | CNF vars / clauses | " +
          " | ".join(f"{s} seed {d}" for s in args.solvers for d in args.seeds) + " | solved |", flush=True)
    print("|" + " --- |" * (4 + len(args.solvers) * len(args.seeds)), flush=True)
    total_start = time.perf_counter()
    for encoding in args.encodings:
        for config in args.configs:
            cells, size, solved = [], "", 0
            for solver in args.solvers:
                for seed in args.seeds:
                    r = run(args, seed, encoding, config, solver)
                    if not size and "vars" in r:
                        size = f"{r['vars']} / {r['clauses']}"
                    if r["status"] in ("SAT", "UNSAT"):
                        solved += 1
                        cells.append(f"{r['cpu']:.1f}")
                    elif r["status"] == "TIMEOUT":
                        cells.append(f"> {args.cap:.0f}")
                    else:
                        cells.append(r["status"])
            print(f"| {encoding} | {config} | {size} | " + " | ".join(cells) +
                  f" | {solved}/{len(cells)} |", flush=True)
    print(f"# total wall time {time.perf_counter() - total_start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
