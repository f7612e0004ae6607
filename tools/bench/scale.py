"""Speed-up of ``satiling count --workers N`` over one process, measured the way a user runs it.

Each job is run as the real command (a fresh process: model building, cube planning, worker
start-up all included) once in one process and once with N workers, alternately, and the script
prints wall-clock seconds, CPU seconds (the command and its workers), the speed-up and the
machine's load average -- on a shared machine the load is part of the measurement.

The default jobs: the longest bundled count, the fixed tetrominoes in 4x19 (no solution: the whole
tree is walked; 33 s on a quiet core, over a minute on a loaded one), and the largest with many
solutions, the 6x10 pentominoes, raw (9356 solutions, each verified) and distinct (2339).
Measured on a quiet 2-core machine (load 0.4-1.0), one run each: 4x19 32.8 s -> 17.5 s with two
workers (1.88x); 6x10 raw 4.4 -> 2.8 s (1.59x); 6x10 distinct 4.1 -> 2.4 s (1.71x) -- the short
jobs pay for start-up and cube planning in every worker.
(The Eternity-piece puzzles are no good here: the splitter solves ``tortoise`` by itself; ``pram``
and ``boomerang`` do not finish in ten minutes.)  With ``--cubes`` it also measures, inside this process, the CPU of every
cube in one process and per worker on N processes: the busiest worker's CPU is what the wall time
would be on free cores, which a shared machine does not have.

    python tools/bench/scale.py                       # the default jobs, 2 workers
    python tools/bench/scale.py pentomino-6x10 --raw --workers 2 --repeat 2
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time

DEFAULT_JOBS = [["tetromino-fixed-4x19"], ["pentomino-6x10", "--raw"], ["pentomino-6x10"]]


def run(args: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the command and its workers, stdout) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "satiling.cli", *args], capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode not in (0, 1):
        sys.exit(f"{' '.join(args)} failed: {out.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.stdout.strip()


def cube_profile(job: list[str], workers: int) -> None:
    """Where the CPU goes: cubes in one process, then the same cubes on ``workers`` processes.

    The busiest worker's CPU is the wall time the run would take on free cores (plus start-up),
    so serial CPU / busiest worker's CPU is the speed-up a quiet machine would show.
    """
    from satiling import catalog
    from satiling.search.searchers import searcher
    from satiling.search.workers import executor, results
    from satiling.search.stream import Run, Settings
    raw = "--raw" in job
    puzzle = catalog.load(job[0])
    run = Run(job[0], puzzle, puzzle.problem(), {}, Settings(raw=raw))
    runner = searcher("auto", run.space.problem).runner(run.space, "cadical")
    cubes = range(len(run.space.cubes))
    serial = [runner.run(i, raw).cpu for i in cubes]
    total, biggest = sum(serial), max(serial, default=0.0)
    print(f"  cubes: {len(serial)}, CPU in one process {total:.1f} s, largest cube {biggest:.2f} s")
    with executor(workers) as ex:
        per_worker: dict[int, float] = {}
        for r in results(ex, run.job, cubes, raw, keep=False, verify=True):
            per_worker[r.worker] = per_worker.get(r.worker, 0.0) + r.cpu
    busiest = max(per_worker.values())
    print(f"  on {workers} workers: CPU per worker {', '.join(f'{c:.1f} s' for c in per_worker.values())}; "
          f"speed-up on free cores (one process / busiest worker): {total / busiest:.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name", nargs="?", help="one puzzle (default: the jobs listed above)")
    ap.add_argument("--raw", action="store_true")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="runs of each setting (alternating)")
    ap.add_argument("--cubes", action="store_true", help="also profile the cubes in this process")
    a = ap.parse_args()
    jobs = [[a.name] + (["--raw"] if a.raw else [])] if a.name else DEFAULT_JOBS
    print(f"cores: {os.cpu_count()}, load average at start: {os.getloadavg()[0]:.2f}")
    for job in jobs:
        print(f"satiling count {' '.join(job)}")
        times: dict[int, list[tuple[float, float]]] = {1: [], a.workers: []}
        answers = set()
        for _ in range(a.repeat):
            for n in (1, a.workers):
                wall, cpu, answer = run(["count", *job, "--quiet", "--workers", str(n)])
                times[n].append((wall, cpu))
                answers.add(answer)
                print(f"  {n} worker{'s' if n > 1 else ' '}: {wall:7.1f} s wall, {cpu:7.1f} s CPU "
                      f"-> {answer}   (load {os.getloadavg()[0]:.2f})")
        if len(answers) != 1:
            sys.exit(f"  the counts differ: {sorted(answers)}")
        best = {n: min(w for w, _ in t) for n, t in times.items()}
        print(f"  speed-up with {a.workers} workers: {best[1] / best[a.workers]:.2f}x (best wall times)")
        if a.cubes:
            cube_profile(job, a.workers)


if __name__ == "__main__":
    main()
