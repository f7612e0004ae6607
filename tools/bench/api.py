"""The library against the command line: the API example that builds the 6x10 pentomino board
from code and counts its 9356 solutions, and ``satiling count pentomino-6x10 --raw``, in one run.

    python tools/bench/api.py [--repeat N] [--old]

Each contender is a whole process (interpreter start, imports, model, search), run in turn
``--repeat`` times; the figures are the medians of wall and CPU time (user + system).  Prints the
ratio API / CLI and exits 1 when it is above 1.5 (the bar of issue 22's "Must show").  Then both
again inside this process (the library call against ``satiling.cli.main``), where start-up and
imports drop out and only the work each does to count is left.

``--old`` also times what the README showed before the API: ``ExactCover(matrix_of(problem))
.count()``, in this process.  That matrix has no board, so the search is dancing links without
the pocket cut over the whole tree (every one of the 9356 solutions is searched for, none derived
from another by symmetry): 9-11 s where the pipeline the CLI and the API share restricts the X
pentomino to a quarter of its places, searches bitboards column by column with the cut and
expands each of the 2339 classes to its members.
"""
from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "count_pentominoes.py"
#: the published count (Haselgrove 1960; Knuth, "Dancing Links", 2000)
EXPECTED = 9356
LIMIT = 1.5


def cli_command() -> list[str]:
    """``satiling`` as installed beside this interpreter (else ``python -m satiling.cli``)."""
    script = shutil.which("satiling", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "satiling.cli"]


def timed(command: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out


def in_process(repeat: int) -> tuple[float, float]:
    """Median seconds of the library's count and of ``main(["count", ...])`` in this process."""
    import contextlib
    import io
    import satiling
    from satiling.cli import main as cli_main
    api, cli = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        assert satiling.Polyform((6, 10), "pentominoes").count(raw=True) == EXPECTED
        api.append(time.perf_counter() - start)
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert cli_main(["count", "pentomino-6x10", "--raw", "--quiet"]) == 0
        cli.append(time.perf_counter() - start)
    return statistics.median(api), statistics.median(cli)


def old_route() -> tuple[int, float]:
    """The README's former example, in this process: (count, seconds)."""
    import satiling
    from satiling.engines.exactcover import ExactCover, matrix_of
    problem = satiling.load("pentomino-6x10").problem()
    start = time.perf_counter()
    n = ExactCover(matrix_of(problem)).count()
    return n, time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs of each (default 5)")
    ap.add_argument("--old", action="store_true", help="also time ExactCover(matrix_of(problem)).count()")
    args = ap.parse_args()
    contenders = {
        "api": ("python examples/count_pentominoes.py", [sys.executable, str(EXAMPLE)]),
        "cli": ("satiling count pentomino-6x10 --raw", cli_command() + ["count", "pentomino-6x10",
                                                                       "--raw", "--quiet"]),
    }
    runs: dict[str, list[tuple[float, float]]] = {k: [] for k in contenders}
    for _ in range(args.repeat):                 # in turn, so that a busy moment hits both
        for key, (_, command) in contenders.items():
            wall, cpu, out = timed(command)
            if out.split()[:1] != [str(EXPECTED)]:
                print(f"{key}: printed {out[:80]!r}, not {EXPECTED}")
                return 1
            runs[key].append((wall, cpu))
    medians = {k: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r))
               for k, r in runs.items()}
    for key, (label, _) in contenders.items():
        wall, cpu = medians[key]
        print(f"{key}  {label:40} {EXPECTED}  wall {wall:.2f} s  cpu {cpu:.2f} s")
    ratio = medians["api"][0] / medians["cli"][0]
    print(f"ratio api / cli: {ratio:.2f} wall, {medians['api'][1] / medians['cli'][1]:.2f} cpu "
          f"(median of {args.repeat}; at most {LIMIT})")
    api, cli = in_process(args.repeat)
    print(f"in one process: api {api:.2f} s, cli {cli:.2f} s, ratio {api / cli:.2f}")
    if args.old:
        n, seconds = old_route()
        print(f"old  ExactCover(matrix_of(problem)).count()   {n}  {seconds:.2f} s in process")
    return 0 if ratio <= LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
