"""Time the engine-agreement property test's first seeds in one process (the make test's costliest
module: every engine on each generated instance, through the command line in-process).

    python tools/bench/agreement.py              # seeds 0-59
    python tools/bench/agreement.py --seeds 120

Prints the wall and CPU seconds of this process (a SAT solver's child process is not counted in
the CPU figure, only in the wall).  Compare two checkouts by running it in each, one after the
other, on a quiet machine.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=60, help="seeds 0 .. N-1 (default 60)")
    args = ap.parse_args()
    sys.path[:0] = [str(ROOT / "tests" / "search"), str(ROOT / "tests")]
    import test_agreement
    wall, cpu = time.perf_counter(), time.process_time()
    for seed in range(args.seeds):
        with tempfile.TemporaryDirectory() as tmp:
            test_agreement.agree(seed, Path(tmp))
    print(f"{args.seeds} seeds: {time.perf_counter() - wall:.1f} s wall, "
          f"{time.process_time() - cpu:.1f} CPU-s in this process")


if __name__ == "__main__":
    main()
