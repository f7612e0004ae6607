"""Simulated speed-up of the edge-matching backtracker split into prefix jobs, from measured job times.

The count of one board is split as ``count --workers N`` splits it (``engines.edgematch.split``:
prefixes of the search, the largest by Knuth's estimate split again), but finer: every job is then
run here, one after another, and its CPU time measured; a job that measured more than ``--share``
of the total (1/1000 by default: with jobs of 1/50 no schedule beats a speed-up of 50) is split
into its children, which are measured instead, until none is.  The job times are then scheduled
on P simulated workers, jobs handed out in order to whichever worker is free first (as a process
pool does), and also largest estimate first (known before the run); the speed-up is the total
over the makespan.  The counts of the jobs must add up to the unsplit count.

    python tools/experiments/edgematch_speedup.py                        # generated 6x6, seed 1
    python tools/experiments/edgematch_speedup.py --size 7 --inner 8 --seed 2 --workers 16 64 256

Measured 2026-11-23 (``--size 7 --inner 7 --seed 1``): 20 solutions, 1.79e9 nodes, 38.0 CPU-s
unsplit; 4958 jobs, the largest 0.0010 of the total; the jobs' solutions add up to 20.  Speed-up
15.8 / 61.4 / 214.6 at 16 / 64 / 256 workers (jobs in search order), 16.0 / 63.5 / 226.8 (largest
estimate first).  Knuth's estimate (200 paths per job) put the jobs' nodes at 0.50 of the measured.
With ``--share 0.02`` (877 jobs, the largest 0.0199): 15.1 / 39.5 / 49.3.
"""
from __future__ import annotations

import argparse
import heapq
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def makespan(times: list[float], workers: int) -> float:
    """Finish time when each job in turn goes to the worker that is free first."""
    free = [0.0] * workers
    for t in times:
        heapq.heappush(free, heapq.heappop(free) + t)
    return max(free)


def main() -> None:
    from satiling.engines.edgematch import EdgeBoard, Engine, run_jobs, split
    from satiling.families.edgematch.generate import generate
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=6)
    ap.add_argument("--frame", type=int)
    ap.add_argument("--inner", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--share", type=float, default=1 / 1000,
                    help="largest job allowed, of the total (at most 1/50; 256 workers need less)")
    ap.add_argument("--workers", type=int, nargs="+", default=[16, 64, 256])
    args = ap.parse_args()
    pz = generate(args.size, args.size, args.frame, args.inner, args.seed).puzzle()
    board = EdgeBoard(pz.rows, pz.cols, tuple(pz.pieces))
    eng = Engine(board)
    board = eng.board
    t = time.process_time()
    whole = run_jobs(board, [()])[0]
    print(f"{args.size}x{args.size} seed {args.seed} ({board.order} order): {whole.solutions} "
          f"solutions, {whole.nodes} nodes, {whole.seconds:.2f} CPU-s unsplit")
    t = time.process_time()
    estimates = dict(split(eng, share=args.share / 4, max_jobs=1 << 16))
    prefixes = list(estimates)
    plan_s = time.process_time() - t
    jobs = {r.prefix: r for r in run_jobs(board, prefixes)}
    rounds, whole_jobs = 0, set()
    while True:
        total = sum(r.seconds for r in jobs.values())
        big = [p for p, r in jobs.items() if r.seconds > args.share * total and p not in whole_jobs]
        if not big:
            break
        rounds += 1
        for p in big:
            kids = [p + (c,) for c in eng.children(p)]
            if not kids or len(p) == len(eng.plan.steps):
                whole_jobs.add(p)               # cannot be split further
                continue
            del jobs[p]
            for r in run_jobs(board, kids):
                jobs[r.prefix] = r
                estimates[r.prefix] = 1 + eng.estimate(r.prefix, 200, seed=len(r.prefix) + 1)
    order = sorted(jobs)
    times = [jobs[p].seconds for p in order]
    total = sum(times)
    found = sum(jobs[p].solutions for p in order)
    print(f"{len(order)} jobs (planned in {plan_s:.2f} CPU-s; {rounds} rounds of re-splitting "
          f"measured jobs above {args.share:.3g} of the total); largest job "
          f"{max(times) / total:.4f} of the total {total:.2f} CPU-s; solutions "
          f"{found} ({'equal to' if found == whole.solutions else 'DIFFERENT from'} the unsplit count)")
    by_estimate = [jobs[p].seconds for p in sorted(order, key=lambda p: -estimates[p])]
    for w in args.workers:
        a, b = total / makespan(times, w), total / makespan(by_estimate, w)
        print(f"{w:4} workers: speed-up {a:6.1f} (jobs in search order), {b:6.1f} (largest "
              f"estimate first); ideal {min(w, len(order))}")
    est_total = sum(estimates[p] for p in order)
    nodes = sum(jobs[p].nodes for p in order)
    print(f"Knuth's estimate of the jobs' nodes: {est_total:.3g} against {nodes} measured "
          f"(ratio {est_total / nodes:.2f})")


if __name__ == "__main__":
    main()
