"""Counting benchmark: `satiling count` against xcover and CP-SAT, measured in the same run.

    python tools/bench/count.py [NAME] [--cpsat-cap SECONDS] [--repeat N]

Every contender runs in its own process; the figure is that process's CPU time (user + system), which
holds up better than wall time on a shared machine.  Prints each time and the ratio to xcover
(Knuth's dancing cells, compiled with numba; the second, warm call is timed, so compilation is not
charged to it).  CP-SAT's enumerate_all_solutions is capped (it needs minutes): when capped, its
rate is extrapolated to the full count and marked so.

Needs xcover (``pip install -e '.[bench]'``).
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

XCOVER = r"""
import json, sys, time
from satiling import load
from xcover import covers
puzzle = load(sys.argv[1])
rows = [[pl.piece] + [repr(c) for c in pl.cells] for pl in puzzle.placements()]
n = sum(1 for _ in covers(rows[:50]))          # warm up numba's compilation on a small problem
t = time.process_time()
n = sum(1 for _ in covers(rows))
print(json.dumps({"count": n, "cpu": time.process_time() - t}))
"""

CPSAT = r"""
import json, sys, time
from ortools.sat.python import cp_model
from satiling import load
from satiling.backends.cpsat import to_cpsat
puzzle = load(sys.argv[1]); cap = float(sys.argv[2])
model, x = to_cpsat(puzzle.problem())
class Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self):
        super().__init__(); self.n = 0
    def on_solution_callback(self):
        self.n += 1
solver = cp_model.CpSolver()
solver.parameters.enumerate_all_solutions = True
solver.parameters.num_workers = 1
solver.parameters.max_time_in_seconds = cap
cb = Counter()
t = time.process_time()
status = solver.solve(model, cb)
print(json.dumps({"count": cb.n, "cpu": time.process_time() - t,
                  "complete": status == cp_model.OPTIMAL}))
"""


def child_cpu(cmd: list[str]) -> tuple[float, str]:
    """Run a command; return its CPU seconds (user + system) and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out


def satiling_count(name: str, raw: bool) -> tuple[int, float]:
    cmd = [sys.executable, "-m", "satiling.cli", "count", name, "--quiet"] + (["--raw"] if raw else [])
    cpu, out = child_cpu(cmd)
    return int(out.strip()), cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name", nargs="?", default="pentomino-6x10")
    ap.add_argument("--cpsat-cap", type=float, default=120.0, help="CPU cap for CP-SAT (s)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each contender (best is kept)")
    args = ap.parse_args()
    import importlib.util
    if importlib.util.find_spec("xcover") is None:
        sys.exit("bench_count: needs xcover (pip install -e '.[bench]'); for Knuth's DLX1 and the "
                 "bitboard yardstick see tools/bench/exactcover.py")

    rows = []
    for _ in range(args.repeat):
        raw_n, raw_cpu = satiling_count(args.name, raw=True)
        dis_n, dis_cpu = satiling_count(args.name, raw=False)
        _, out = child_cpu([sys.executable, "-c", XCOVER, args.name])
        xc = json.loads(out)
        rows.append((raw_n, raw_cpu, dis_n, dis_cpu, xc["count"], xc["cpu"]))
    raw_n, raw_cpu, dis_n, dis_cpu, xc_n, xc_cpu = min(rows, key=lambda r: r[1])
    _, out = child_cpu([sys.executable, "-c", CPSAT, args.name, str(args.cpsat_cap)])
    cp = json.loads(out)
    cp_full = cp["cpu"] if cp["complete"] else cp["cpu"] * raw_n / max(cp["count"], 1)

    print(f"{args.name}: counts raw {raw_n}, distinct {dis_n}; xcover {xc_n}; "
          f"CP-SAT {cp['count']}{'' if cp['complete'] else ' (capped)'}")
    print(f"{'contender':42} {'CPU s':>8} {'/ xcover':>9}")
    table = [
        ("satiling count --raw (whole process)", raw_cpu),
        ("satiling count (distinct, whole process)", dis_cpu),
        ("xcover covers(), warm (raw)", xc_cpu),
        ("CP-SAT enumerate_all_solutions (raw)" + ("" if cp["complete"] else ", extrapolated"), cp_full),
    ]
    for label, cpu in table:
        print(f"{label:42} {cpu:8.2f} {cpu / xc_cpu:9.2f}")
    if raw_n != xc_n:
        sys.exit("counts disagree!")


if __name__ == "__main__":
    t0 = time.time()
    main()
    print(f"(benchmark wall time {time.time() - t0:.0f} s)", file=sys.stderr)
