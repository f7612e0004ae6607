"""Benchmark: the compiled edge-matching backtracker against the SAT and CP-SAT engines, same run.

Parts (all by default; pick some with --parts):

* ``boards``: generated Eternity II-like boards (``--size`` 8: 3 frame + 8 inner colours, seeds
  1-5), each solved by ``satiling solve FILE --solver S`` for S = backtrack, cadical, cpsat (one
  thread).  Every run is a child process with a CPU cap (RLIMIT_CPU, ``--cap`` seconds); the time
  reported is the child's CPU time, whole command (loading, model building, search, verifying).
* ``clues``: clue puzzles 1-4 by the engine in this process (wall seconds for plan + search) and
  by ``satiling solve NAME --solver cadical`` (child CPU seconds).
* ``rate``: nodes per CPU second on the full Eternity II (starter fixed, 256 squares) with the
  row scan from the bottom-left (``--rate-seconds`` of search).
* ``counts``: all solutions of generated 6x6 boards by the engine and by ``count --engine sat``.
* ``cliff``: the CNF of a generated 12x12 board, pairwise at-most-one up to 500 literals against the
  clause budget now in ``backends/cnf.py`` (clauses, CPU seconds to produce them).

    python tools/bench_edgematch_engine.py --parts clues rate --rate-seconds 20
    python tools/bench_edgematch_engine.py --parts boards --seeds 1 2 3 4 5 --cap 60
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SAT = {"backtrack": ["--solver", "backtrack"], "cadical": ["--solver", "cadical"],
       "cpsat": ["--solver", "cpsat", "--threads", "1"]}


def child(cmd: list[str], cap: float) -> tuple[int, float, str]:
    """(exit code, child CPU seconds, stderr) of ``cmd`` run with a CPU cap."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(cap), int(cap) + 5))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=limit)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return p.returncode, cpu, p.stderr


def satiling(*args: str) -> list[str]:
    return [sys.executable, "-m", "satiling.cli", *args]


def boards(args: argparse.Namespace, tmp: Path) -> None:
    from satiling.families.edgematch_generate import generate, instance_toml
    print(f"\n## generated {args.size}x{args.size} boards, {args.frame} frame + {args.inner} inner "
          f"colours, CPU cap {args.cap:g} s per run")
    print("seed | " + " | ".join(SAT) + " | ratio cadical/backtrack | ratio cpsat/backtrack")
    for seed in args.seeds:
        gen = generate(args.size, args.size, args.frame, args.inner, seed)
        path = tmp / f"b{args.size}-{seed}.toml"
        path.write_text(instance_toml(gen, f"generate-edgematch {args.size} {args.size} --seed {seed}"))
        cells, secs = [], {}
        for name, flags in SAT.items():
            code, cpu, err = child(satiling("solve", str(path), *flags, "--time-limit",
                                            str(10 * args.cap)), args.cap)
            solved = code == 0
            secs[name] = cpu if solved else None
            cells.append(f"{cpu:.2f}" if solved else f"> {cpu:.1f} (exit {code})")
        ratios = [f"{secs[s] / secs['backtrack']:.1f}" if secs[s] and secs["backtrack"] else "-"
                  for s in ("cadical", "cpsat")]
        print(f"{seed} | " + " | ".join(cells) + " | " + " | ".join(ratios), flush=True)


def clues(args: argparse.Namespace) -> None:
    from satiling import catalog
    from satiling.engines.edgematch import EdgeBoard, race
    print("\n## clue puzzles: engine (CPU s in process: plans, estimates, search) against cadical "
          "(child CPU s, whole command)")
    for name in ("clue1", "clue2", "clue3", "clue4"):
        pz = catalog.load(name)
        t = time.process_time()
        found, _, engines = race(EdgeBoard(pz.rows, pz.cols, tuple(pz.pieces)))
        took = time.process_time() - t
        code, cpu, _ = child(satiling("solve", name, "--solver", "cadical"), args.cap)
        nodes = ", ".join(f"{e.board.order} {e.nodes}" for e in engines if e.nodes)
        print(f"{name}: engine {took:.3f} s ({nodes} nodes, {'found' if found else 'none'}); "
              f"cadical {cpu:.2f} s (exit {code}); ratio {cpu / max(took, 1e-3):.0f}", flush=True)


def rate(args: argparse.Namespace) -> None:
    from satiling import catalog
    from satiling.engines.edgematch import EdgeBoard, Engine
    pz = catalog.load("eternity2")
    t = pz.fixed[0]
    eng = Engine(EdgeBoard(16, 16, tuple(pz.pieces), ((t.row, t.col, t.piece - 1, t.rotation),),
                           args.order))
    cpu = time.process_time()
    wall = time.perf_counter()
    eng.solutions(seconds=args.rate_seconds)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"\n## Eternity II node rate ({args.order} order, starter fixed): {eng.nodes} nodes in "
          f"{cpu:.2f} CPU-s ({wall:.2f} wall): {eng.nodes / cpu / 1e6:.1f} M nodes per CPU-s")


def counts(args: argparse.Namespace, tmp: Path) -> None:
    from satiling.families.edgematch_generate import generate, instance_toml
    print("\n## counts of generated 6x6 boards (3 frame + 5 inner colours): engine against SAT")
    for seed in args.seeds[:3]:
        path = tmp / f"c6-{seed}.toml"
        path.write_text(instance_toml(generate(6, 6, None, None, seed), "count"))
        out = {}
        for engine in ("backtrack", "sat"):
            t = time.perf_counter()
            p = subprocess.run(satiling("count", str(path), "--engine", engine, "--quiet"),
                               capture_output=True, text=True)
            out[engine] = (p.stdout.strip(), time.perf_counter() - t)
        (a, ta), (b, tb) = out["backtrack"], out["sat"]
        print(f"seed {seed}: backtrack {a} in {ta:.2f} s, sat {b} in {tb:.2f} s (wall); "
              f"{'equal' if a == b else 'DIFFERENT'}; ratio {tb / ta:.0f}", flush=True)


def cliff(args: argparse.Namespace) -> None:
    from satiling.backends.cnf import CnfEncoder
    from satiling.families.edgematch_generate import generate
    problem = generate(12, 12, None, None, 1).puzzle().problem()
    print("\n## CNF of a generated 12x12 board (direct encoding)")
    for label, limit in (("pairwise up to 500", 500), ("clause budget", None)):
        enc = CnfEncoder(problem, "pairwise", limit)
        t = time.process_time()
        n = sum(1 for _ in enc.clauses())
        print(f"{label}: pairwise up to {enc.pairwise_limit} literals, {n} clauses, "
              f"{time.process_time() - t:.2f} CPU-s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parts", nargs="+", default=["clues", "rate", "counts", "cliff", "boards"],
                    choices=("boards", "clues", "rate", "counts", "cliff"))
    ap.add_argument("--size", type=int, default=8)
    ap.add_argument("--frame", type=int, default=3)
    ap.add_argument("--inner", type=int, default=8)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    ap.add_argument("--cap", type=float, default=60.0, help="CPU seconds per solver run")
    ap.add_argument("--rate-seconds", type=float, default=20.0)
    ap.add_argument("--order", default="rows-up", help="search order for the node rate")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for part in args.parts:
            if part in ("boards", "counts"):
                globals()[part](args, tmp)
            else:
                globals()[part](args)


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
