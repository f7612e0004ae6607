"""Benchmark: the edge-matching engines before and after issue 24, in one run, beside the
published figures.

Two parts, every measurement in a child process of its own:

1. **Eternity II scores by time** (``satiling solve eternity2 --maximize-matches``):
   ``old`` -- the scoring search as it was (one process, row scan, no priority colours:
   ``maximize.Tuning()``); ``new`` -- the default tuning (``maximize.default_tuning``) on one core; ``new x N`` -- the default on every core (one search
   per core, different seeds).  One run per engine for the longest budget; the score at each shorter
   budget is read from its trace of improvements.  One-core runs count CPU seconds of the search
   process (the machine is shared), the all-core run wall seconds.  Each final board is re-scored by
   ``satiling score``.
2. **CPU seconds to a first solution** on Brendan Owen's 7x7, 8x8 and 9x9 boards
   (``tests/data/owen/``) and generated 8x8 boards (3 frame + 8 inner colours, ``--seeds``):
   ``old`` -- the backtracker's plain search (``engines.edgematch.race``); ``new`` -- Luby restarts
   with randomised value orders (``race(..., seed=1)``).  Each run is capped in CPU seconds
   (``--cap``, by RLIMIT_CPU); every solution is checked by ``puzzle.verify``.

    python tools/bench/eternity2.py --minutes 1,2 --cap 60            # about 25 minutes
    python tools/bench/eternity2.py --minutes 1,2,10 --skip-exact     # Eternity II only
    python tools/bench/eternity2.py --skip-e2 --seeds 1-10 --cap 600  # the exact boards only

Published figures printed beside (issue 24): Eternity II -- Blackwood's solver 454 in about a minute
(one thread), an ALNS repair of that board to 462 in 30 s more, Wauters et al.'s hyper-heuristic
461 in 1 h, Verhaard's eii one 463 every 2 s on one core (2009 PC); Owen's 8x8 -- 845 s single-core
(5.6e10 nodes at 61 M nodes/s).  satiling before this issue: 457 after 63 s, 458 after 155 s; Owen 8x8
380 CPU-s; generated 8x8 seeds 1-5: 56, >59, 51, 37, >59 CPU-s (seed 5 in 530.7, seed 2 not in 1100).

Measured figures: docs/decisions/2026-11-27-eternity2-scoring-search.md (the default) and
docs/decisions/2026-11-27-edgematch-exact-search.md (the exact engine).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OWEN = {n: os.path.join("tests", "data", "owen", f"owen{n}.toml") for n in (7, 8, 9)}
PUBLISHED_E2 = "Blackwood 454 in ~60 s then ALNS 462 in 30 s more; Wauters 461 in 1 h; eii 463 every 2 s"
PUBLISHED_EXACT = {"owen8": "845 s (single core)"}
BEFORE_EXACT = {"owen8": "380", "gen8-1": "56", "gen8-2": ">1100", "gen8-3": "51", "gen8-4": "37",
                "gen8-5": "530.7"}


# -- children ----------------------------------------------------------------------------------
def child_e2(which: str, seconds: float, seed: int, path: str) -> dict:
    """The best Eternity II board of engine ``which`` in ``seconds``; the trace of improvements as
    (score, wall s, CPU s of this process)."""
    from satiling import catalog
    from satiling.render.edgematch_svg import board_text
    from satiling.apps import maximize as mx
    e2 = catalog.load("eternity2")
    trace = []
    c0 = time.process_time()

    def seen(imp) -> None:
        trace.append((imp.score, round(imp.seconds, 1), round(time.process_time() - c0, 1)))

    tuning, workers, cpu = {"old": (mx.Tuning(), 1, True), "new": (None, 1, True),     # None: the default
                            "all": (None, None, False)}[which]
    w0 = time.perf_counter()
    result = mx.maximize_matches(e2, seconds, seen, engine="backtrack", seed=seed, cpu_time=cpu,
                                 tuning=tuning, workers=workers)
    with open(path, "w") as f:
        f.write(board_text(e2, e2.board_from(result.solution)) + "\n")
    return {"score": result.score, "wall": time.perf_counter() - w0, "trace": trace}


def child_exact(which: str, name: str) -> dict:
    """A first solution of board ``name`` (owenN or gen8-SEED) by engine ``which``."""
    from satiling import catalog
    from satiling.search.edgeboards import edge_boards, tiles
    from satiling.engines.edgematch import race
    if name.startswith("owen"):
        puzzle = catalog.load(os.path.join(ROOT, OWEN[int(name[4:])]))
    else:
        from satiling.families.edgematch.generate import generate
        puzzle = generate(8, 8, seed=int(name.split("-")[1])).puzzle()
    (board,) = edge_boards(puzzle, False, distinct=False)
    c0 = time.process_time()
    found, status, engines = race(board, seed=None if which == "old" else 1)
    cpu = time.process_time() - c0
    if found is not None:
        puzzle.verify(tiles(found))
    return {"status": status, "cpu": cpu, "nodes": sum(e.nodes for e in engines)}


def run_child(args: list[str], cpu_cap: float | None = None) -> tuple[dict | None, float]:
    """This script as a child with ``args`` (CPU-capped if asked); its JSON answer (None if the
    cap killed it) and its CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)

    def cap() -> None:
        if cpu_cap:
            resource.setrlimit(resource.RLIMIT_CPU, (int(cpu_cap) + 1, int(cpu_cap) + 2))

    out = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True, text=True,
                         cwd=ROOT, preexec_fn=cap)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if out.returncode != 0:
        if cpu_cap and (out.returncode < 0 or cpu >= cpu_cap):     # SIGXCPU/SIGKILL: the cap
            return None, cpu
        raise SystemExit(f"child {args} failed: {out.stderr.strip()[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1]), cpu


def rescore(path: str) -> int:
    """The board's score as ``satiling score`` counts it (a separate process)."""
    r = subprocess.run([sys.executable, "-m", "satiling.cli", "score", "eternity2", path],
                       capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        raise SystemExit(f"satiling score failed on {path}: {r.stderr.strip()}")
    return int(re.search(r"^score (\d+)/480", r.stdout, re.M).group(1))


def at(trace: list, seconds: float, column: int) -> int | None:
    """The best score reached within ``seconds`` (column 1: wall, 2: CPU)."""
    got = [t[0] for t in trace if t[column] <= seconds]
    return max(got) if got else None


# -- main --------------------------------------------------------------------------------------
def seeds_arg(text: str) -> list[int]:
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",") if x]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", default="1,2", help="Eternity II budgets, comma-separated (default 1,2)")
    ap.add_argument("--engines", default="old,new,all", help="of old, new (one core), all (every core)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cap", type=float, default=60.0, help="CPU seconds per exact run (default 60)")
    ap.add_argument("--seeds", type=seeds_arg, default=seeds_arg("1-5"), help="generated 8x8 seeds (1-5)")
    ap.add_argument("--owen", default="7,8,9", help="Owen's boards (default 7,8,9; '' for none)")
    ap.add_argument("--exact-engines", default="old,new",
                    help="of old (the default search), new (Luby restarts, seed 1) (default both)")
    ap.add_argument("--skip-e2", action="store_true")
    ap.add_argument("--skip-exact", action="store_true")
    ap.add_argument("--keep", metavar="DIR", help="keep the best boards in DIR")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sys.path.insert(0, ROOT)
    if args.child:
        kind, *rest = args.child
        answer = child_e2(rest[0], float(rest[1]), int(rest[2]), rest[3]) if kind == "e2" else \
            child_exact(rest[0], rest[1])
        print(json.dumps(answer))
        return
    print(f"load average at start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
    if not args.skip_e2:
        e2(args)
    if not args.skip_exact:
        exact(args)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


def e2(args: argparse.Namespace) -> None:
    budgets = [float(m) * 60 for m in args.minutes.split(",")]
    folder = args.keep or tempfile.mkdtemp(prefix="eternity2-")
    os.makedirs(folder, exist_ok=True)
    print(f"\nEternity II, score at each budget ({'one core: CPU-s; all cores: wall-s'})")
    print(f"{'engine':10}" + "".join(f"{f'{b:g} s':>9}" for b in budgets) +
          f"{'final':>7}{'checked':>9}{'CPU s':>8}  last improvements (score, wall s, CPU s)")
    for which in args.engines.split(","):
        path = os.path.join(folder, f"{which}.txt")
        res, cpu = run_child(["e2", which, str(max(budgets)), str(args.seed), path])
        checked = rescore(path)
        column = 1 if which == "all" else 2
        cells = "".join(f"{at(res['trace'], b, column) or '-':>9}" for b in budgets)
        name = {"old": "old", "new": "new", "all": f"new x{os.cpu_count()}"}[which]
        print(f"{name:10}{cells}{res['score']:>7}{checked:>9}{cpu:8.1f}  {res['trace'][-3:]}", flush=True)
        if checked != res["score"]:
            raise SystemExit(f"{which}: the engine's score {res['score']} is not the board's {checked}")
    print(f"published: {PUBLISHED_E2}; boards in {folder}")


def exact(args: argparse.Namespace) -> None:
    boards = [f"owen{n}" for n in seeds_arg(args.owen)] + [f"gen8-{s}" for s in args.seeds]
    engines = args.exact_engines.split(",")
    print(f"\nCPU seconds to a first solution (cap {args.cap:g} CPU-s; '>' = not within the cap)")
    print(f"{'board':10}" + "".join(f"{w:>10}" for w in engines) + "  " +
          "".join(f"{'nodes ' + w:>12}" for w in engines) + "  before / published")
    spent: dict[str, list[float]] = {w: [] for w in engines}
    for name in boards:
        row, nodes = [], []
        for which in engines:
            res, cpu = run_child(["exact", which, name], cpu_cap=args.cap)
            ok = res is not None and res["status"] == "limit"
            row.append(f"{cpu:.1f}" if ok else f">{cpu:.0f}")
            nodes.append(f"{res['nodes']:.3g}" if res else "-")
            if name.startswith("gen"):            # the summary: generated boards only
                spent[which].append(cpu if ok else float("inf"))
        note = " / ".join(x for x in (BEFORE_EXACT.get(name, ""), PUBLISHED_EXACT.get(name, "")) if x)
        print(f"{name:10}" + "".join(f"{x:>10}" for x in row) + "  " + "".join(f"{x:>12}" for x in nodes)
              + f"  {note}", flush=True)
    for which, times in spent.items():
        if not times:
            continue
        times = sorted(times)
        median = times[len(times) // 2] if len(times) % 2 else (times[len(times) // 2 - 1] + times[len(times) // 2]) / 2
        print(f"{which}, generated boards: median {median:.1f} CPU-s, {sum(t <= 60 for t in times)} of {len(times)} within 60 CPU-s, "
              f"{sum(t < float('inf') for t in times)} within the cap")


if __name__ == "__main__":
    main()
