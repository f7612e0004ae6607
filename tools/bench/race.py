"""Benchmark: a race of two CaDiCaL versions (``solve --solver race``) against each alone.

CDCL run times are heavy-tailed, and the tail lands on different boards for different versions.
``--solver race`` runs CaDiCaL 1.9.5 and 1.5.3 in two processes and keeps the first answer.  This
benchmark solves generated edge-matching boards (the SAT model, not the backtracker) with each
solver alone and with the race, in the same run, and reports wall and CPU seconds (children
included) per board and the totals.

    python tools/bench/race.py [--size 7] [--frame 3] [--inner 6] [--seeds 1 2 ...] [--cap 60]

A board that is not solved within ``--cap`` seconds counts as ``--cap``.

Measured (2-core machine, otherwise idle; ``--seeds 1 2 3 4 5 6 7 8 --cap 30``), wall / CPU s:

| seed | cadical195 | cadical153 | race |
| --- | --- | --- | --- |
| 1 | 23.22 / 23.19 | 0.35 / 0.35 | 0.35 / 0.55 |
| 2 | 17.11 / 17.11 | 22.62 / 22.61 | 17.90 / 35.51 |
| 3 | > 30 | > 30 | > 30 |
| 4 | 8.48 / 8.48 | 6.56 / 6.56 | 6.56 / 12.92 |
| 5 | 15.42 / 15.42 | > 30 | 15.11 / 29.97 |
| 6 | 25.81 / 25.81 | 9.48 / 9.48 | 9.85 / 19.49 |
| 7 | > 30 | 20.34 / 20.34 | 21.62 / 42.95 |
| 8 | > 30 | > 30 | > 30 |
| total | 180.5 / 180.5 | 149.9 / 149.9 | 131.8 / 261.4 |

The race solved 6 of 8 boards in 30 s (each version alone 5), in 0.73 of CaDiCaL 1.9.5's wall
time and 0.88 of the better version's, for 1.45-1.74 times the CPU.  It stays an option, not the
default: the models ``auto`` still gives to SAT (IQ-Link's linked graph, side constraints) are
answered in well under a second, where a second solver only doubles the CPU.
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
SOLVERS = ("cadical195", "cadical153", "race")


def run(cmd: list[str]) -> tuple[int, float, float]:
    """(exit code, wall seconds, CPU seconds of the command and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return p.returncode, wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=7)
    ap.add_argument("--frame", type=int, default=3)
    ap.add_argument("--inner", type=int, default=6)
    ap.add_argument("--seeds", type=int, nargs="+", default=list(range(1, 13)))
    ap.add_argument("--cap", type=float, default=60.0, help="wall seconds per run")
    args = ap.parse_args()
    from satiling.families.edgematch.generate import generate, instance_toml
    tmp = Path(tempfile.mkdtemp())
    print(f"## generated {args.size}x{args.size} boards ({args.frame} frame + {args.inner} inner "
          f"colours), SAT model, wall / CPU seconds, cap {args.cap:g} s")
    print("seed | " + " | ".join(SOLVERS))
    totals = {s: [0.0, 0.0] for s in SOLVERS}
    for seed in args.seeds:
        path = tmp / f"b{seed}.toml"
        path.write_text(instance_toml(generate(args.size, args.size, args.frame, args.inner, seed),
                                      f"generate-edgematch {args.size} {args.size} --seed {seed}"))
        cells = []
        for s in SOLVERS:
            code, wall, cpu = run([sys.executable, "-m", "satiling.cli", "solve", str(path),
                                   "--solver", s, "--time-limit", str(args.cap)])
            if code != 0:
                wall = max(wall, args.cap)
            totals[s][0] += wall
            totals[s][1] += cpu
            cells.append(f"{wall:.2f} / {cpu:.2f}" + ("" if code == 0 else f" (exit {code})"))
        print(f"{seed} | " + " | ".join(cells), flush=True)
    print("total | " + " | ".join(f"{w:.1f} / {c:.1f}" for w, c in totals.values()))
    best = min(totals["cadical195"][0], totals["cadical153"][0])
    print(f"race wall / better single solver's wall: {totals['race'][0] / best:.2f}; "
          f"race wall / cadical195 wall: {totals['race'][0] / totals['cadical195'][0]:.2f}")


if __name__ == "__main__":
    main()
