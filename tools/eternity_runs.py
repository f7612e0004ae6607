"""Heavy Eternity runs: placement generation, model building, the full-board CNF, solving Pram.

    python tools/eternity_runs.py                      # every measurement below, one process each
    python tools/eternity_runs.py placements eternity  # one measurement
    python tools/eternity_runs.py problem eternity
    python tools/eternity_runs.py encode eternity [--out eternity.cnf]   # default: count bytes only
    python tools/eternity_runs.py solve pram [--solver cadical] [--time-limit 3600] [--save DIR]

Every measurement runs in a fresh process, so "peak" is that process's maximum resident set size
(it includes the interpreter and imports: the ``baseline`` line shows how much).  Seconds are CPU
seconds of the process (the machine is shared; wall seconds are printed too).

Measured on a shared 2-core machine (CPU seconds):

* ``satiling encode eternity > eternity.cnf``: 52 096 157 variables (1 372 296 placements, the
  rest ladder auxiliaries), 214 877 597 clauses, 5.6 GB, 418 CPU-s (11 min wall at load 3), peak
  1.6 GB -- the model in memory; the clauses stream.  The model alone: 14 CPU-s, 1.5 GB.
* Pram (64 pieces, 108 955 placements) is **not solved**: CaDiCaL (1458 CPU-s on the 602 MB
  DIMACS, 4.1 M variables with the ladder auxiliaries, peak 4.8 GB), CP-SAT (900 s), SCIP (root LP
  unfinished after 1500 s), the walk (1200 CPU-s) and xcover's dancing links (20 min) found no
  tiling, nor did ``tools/walk_restarts.py`` (two seeds, 1380 CPU-s each, 360k and 276k nodes);
  the LP relaxation under a random objective is fractional everywhere.  Tortoise (45 pieces) falls
  to the walk in 1811 nodes, 2.4 CPU-s.
* ``tools/dlx_search.py`` (dancing links in C, 7000 nodes/CPU-s on Pram, about 27x the walk) exhausts
  Tortoise in 3896 nodes (it has 2 tilings) but not Pram.  Whale's region lies inside Pram's in
  the same coordinates and its 8 pieces are Pram's, so ``--given whale`` keeps Whale's unique
  tiling and leaves 56 pieces (76 956 placements).  On that board CaDiCaL (Whale's 8 placements as
  units) found nothing in 711 CPU-s, and CP-SAT with 2 workers nothing in 1338 s wall: presolve
  left 62 615 variables and search had fixed 10 532 of them, the last at about one a second.  Two
  dancing-links runs from both ends of the first branching (26 rows) took 2454 and 2084 CPU-s
  (17.8 M and 15.7 M nodes).  They finished 5 + 17 of the 26 subtrees, then each sat in one of
  the last two.  Mapped with ``--path`` (a subtree counts as live if it outlasts 65 536 nodes):
  24 of the 26 first rows die within 24 nodes; under the two live ones (14 and 15 rows) all but
  one die within 24 nodes; below that, along the first live path, 8 of 30, 4 of 4 and 11 of 14
  rows are live, so about 2 x 8 x 4 x 11 = 700 live subtrees hang at depth 5, and the first of
  them alone took over 10 M nodes without finishing.
  The exhaust is 10^10 nodes or more: CPU-months at this rate.  No branch ever held more than 39
  of the 56 pieces.  ``--path`` splits the tree into jobs for many machines.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Clock:
    """CPU and wall seconds since creation."""

    def __init__(self) -> None:
        self.cpu, self.wall = time.process_time(), time.perf_counter()

    def __str__(self) -> str:
        return f"{time.process_time() - self.cpu:.1f} s CPU ({time.perf_counter() - self.wall:.1f} s wall)"


def run_baseline(args: argparse.Namespace) -> None:
    import satiling.backends.cnf  # noqa: F401  (the imports every other run pays for)
    import satiling.catalog  # noqa: F401
    print(f"baseline: interpreter + imports, peak {peak_mb():.0f} MB")


def run_placements(args: argparse.Namespace) -> None:
    from satiling import load
    clock = Clock()
    puzzle = load(args.puzzle)
    loaded = str(clock)
    clock = Clock()
    n = len(puzzle.placements())
    print(f"placements {args.puzzle}: {n} placements in {clock} (load {loaded}); peak {peak_mb():.0f} MB")


def run_problem(args: argparse.Namespace) -> None:
    from satiling import load
    puzzle = load(args.puzzle)
    puzzle.placements()
    before = peak_mb()
    clock = Clock()
    problem = puzzle.problem()
    print(f"problem {args.puzzle}: {problem.stats()} built in {clock}; "
          f"peak {before:.0f} MB after placements, {peak_mb():.0f} MB after the model")


class CountingSink:
    """A write-only file that only counts bytes (the CNF is not kept unless --out is given)."""

    def __init__(self) -> None:
        self.bytes = 0

    def write(self, text: str) -> int:
        self.bytes += len(text)
        return len(text)


def run_encode(args: argparse.Namespace) -> None:
    from satiling import load
    from satiling.backends.dimacs import write_dimacs
    clock = Clock()
    puzzle = load(args.puzzle)
    problem = puzzle.problem()
    built = str(clock)
    clock = Clock()
    if args.out:
        with open(args.out, "w") as out:
            n_vars, n_clauses = write_dimacs(problem, out)
        size = Path(args.out).stat().st_size
    else:
        sink = CountingSink()
        n_vars, n_clauses = write_dimacs(problem, sink)
        size = sink.bytes
    print(f"encode {args.puzzle}: {n_vars} variables, {n_clauses} clauses, {size / 1e9:.2f} GB of DIMACS "
          f"in {clock} (after load + model {built}); peak {peak_mb():.0f} MB")


def run_solve(args: argparse.Namespace) -> None:
    from satiling import load
    from satiling.search.solve import solve
    puzzle = load(args.puzzle)
    problem = puzzle.problem()
    clock = Clock()
    result = solve(problem, solver=args.solver, time_limit=args.time_limit)
    print(f"solve {args.puzzle}: {result.status} by {result.solver} in {result.seconds:.1f} s wall "
          f"({clock}); {problem.stats()['variables']} placements; peak {peak_mb():.0f} MB")
    if result.status != "SAT":
        return
    solution = problem.decode(result.true_vars)
    puzzle.verify(solution)
    print(f"solve {args.puzzle}: solution verified ({len(solution)} tiles)")
    if args.save:
        folder = Path(args.save)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{args.puzzle}.json").write_text(json.dumps([p.to_json() for p in solution]) + "\n")
        (folder / f"{args.puzzle}.svg").write_text(puzzle.svg(solution))
        print(f"solve {args.puzzle}: wrote {folder / args.puzzle}.json and .svg")


STAGES = {"baseline": run_baseline, "placements": run_placements, "problem": run_problem,
          "encode": run_encode, "solve": run_solve}
DEFAULT_PLAN = [["baseline"], ["placements", "pram"], ["placements", "eternity"], ["problem", "eternity"],
                ["encode", "eternity"], ["solve", "pram", "--time-limit", "3600"]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("stage", nargs="?", choices=sorted(STAGES))
    parser.add_argument("puzzle", nargs="?", default="eternity")
    parser.add_argument("--out", help="encode: write the DIMACS file here")
    parser.add_argument("--solver", default="cadical")
    parser.add_argument("--time-limit", type=float, default=None)
    parser.add_argument("--save", help="solve: folder for the solution's JSON and SVG")
    args = parser.parse_args(argv)
    if args.stage:
        STAGES[args.stage](args)
        return 0
    for step in DEFAULT_PLAN:     # each in a fresh process: peaks do not mix
        sys.stdout.flush()
        subprocess.run([sys.executable, __file__, *step], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
