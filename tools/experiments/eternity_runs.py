"""Heavy Eternity runs: placement generation, model building, the full-board CNF, solving Pram.

    python tools/experiments/eternity_runs.py                      # every measurement below, one process each
    python tools/experiments/eternity_runs.py placements eternity  # one measurement
    python tools/experiments/eternity_runs.py problem eternity
    python tools/experiments/eternity_runs.py encode eternity [--out eternity.cnf]   # default: count bytes only
    python tools/experiments/eternity_runs.py solve pram [--solver cadical] [--time-limit 3600] [--save DIR]

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
  tiling, nor did ``tools/experiments/walk_restarts.py`` (two seeds, 1380 CPU-s each, 360k and 276k nodes);
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
* The data (``python tools/experiments/pram_beam.py data``, 30 CPU-s): satiling's configuration counts equal
  Burkardt & Garvie's Table 4 for Trinity 142, Serenity 876, Whale 1071 and Boat 8753; Pram has
  108 955 against the paper's 108 049 (906 more, 14.2 a piece).  The paper gives no per-piece
  figures, so the difference cannot be put on pieces from it.  On Pram's region the 64 pieces have
  1593..1810 placements each and all 209 Eternity pieces 1509..1810, so no single piece swapped
  for another explains 906 (one swap moves the total by at most 301).  Every one of the 221 tile
  words and all 8 regions are unions of half-equilateral triangles (Selby: a piece is "12
  half-triangles"), and the 209 pieces are 209 distinct shapes.  The transcription matches
  Burkardt's repository (his own code gives 108 955 on it); no error in it could be shown, so the
  bundled data is unchanged.  What the paper counted (an earlier region word or tile list) is
  unknown.
* Local obstructions (``pram_beam.py windows pram --radius R``): for every one of Pram's 222
  hexagons, the cells within R of its centre covered exactly once by distinct pieces that stay on
  the board.  R = 2 (up to 155 cells): all 222 covered, 35 CPU-s; R = 3 (up to 420 cells, about 12
  pieces): all covered, hardest 64 986 nodes, 59 CPU-s.  No local proof that Pram cannot be tiled.
* The packing (``satiling pack pram --time-limit 1500 --json``, CP-SAT, 1 worker, nice 19 at load
  10): 51 of 64 pieces (1836 of 2304 cells) after 1500 s wall (466 CPU-s, peak 1.0 GB); the bound
  stayed at 64.  CP-SAT maximising is weak on these boards: on Boat (one tiling) it reached 17 of
  21 pieces in 60 s.  The packing cannot refute a tiling here.
* Selby's method (``tools/experiments/beam.py``; tilability from placement counts, roughness 1,
  tightness 0.5; exhaust by the compiled engine, a state only when Knuth's estimate is within the
  budget).  Tortoise (45 pieces): ``pram_beam.py beam tortoise --width 30 --exhaust-at 20`` tiles
  it in 2 CPU-s of search (2.6 CPU-s for the whole process; 9 favourable states at 25 pieces
  placed, the first tiles in 86 exhaust nodes; ``--python-exhaust``: 25 nodes, 2.1 CPU-s).  Pram: ``pram_beam.py beam pram --width 300 --exhaust-at 24 --budget
  2000000``: the beam keeps 300 states at every level down to 40 pieces placed (5 CPU-s a level,
  150 CPU-s), then all 300 favourable states are exhausted without a tiling (335 231 nodes in
  all, 9 to 14 245 a state; 227 CPU-s, 653 s wall, peak 1.1 GB).  So the best partial states die
  within a few thousand nodes: Pram has nothing like the surplus of solutions Selby's method
  lives on (64 pieces is below his critical size of 70-80, and a board of exactly its pieces has no
  spare ones to choose from).  The best attempt, ``pram_beam.py beam pram --width 500
  --exhaust-at 28 --budget 1000000 --time-limit 2700`` (exhaust with a real node budget): 500
  states at every level down to 36 pieces placed (220 CPU-s), then the 213 best states exhausted
  in the time, none tiles (9 880 926 nodes, 24 to 966 554 a state, about 10 000 nodes/CPU-s;
  1379 CPU-s, 46 min wall at load 5-9, peak 1.5 GB); exit 3.
* ``pram_beam.py windows pram --radius 4`` (windows of about 20 pieces) did not finish in 600 s;
  no window had failed before it was stopped.
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
    from satiling import load, render
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
        (folder / f"{args.puzzle}.svg").write_text(render.to_svg(puzzle, solution))
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
