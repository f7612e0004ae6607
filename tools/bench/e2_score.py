"""Benchmark: the best Eternity II board in a time budget, the compiled scoring search
(``--maximize-matches backtrack``) against the large-neighbourhood search it replaces (``lns``),
both measured in the same run.

Three measurements, each in a child process so the CPU time is the search's own:

1. node rate: the scoring search on the full board (starter piece fixed, schedule of a 450 board)
   for a fixed number of nodes, in nodes per CPU second and per wall second;
2. ``backtrack``: the best board within ``--seconds`` CPU seconds (the machine is shared, so a
   wall-clock budget would measure the load; ``--wall`` makes them wall-clock seconds);
3. ``lns``: the best board of the old engine within the same number of wall seconds the
   backtracker took (CP-SAT knows only wall time).

Every best board is written to a file and re-scored by ``satiling score eternity2 FILE``; the
table shows that score, not the engine's.  (``tools/bench/eternity2.py`` compares the backtracker
before and after issue 24, one core and every core, and the exact engine's restarts.)

    python tools/bench/e2_score.py                  # 60 s each, 2e8 nodes for the rate
    python tools/bench/e2_score.py --quick          # 10 s each, 2e7 nodes
    python tools/bench/e2_score.py --seconds 600 --wall --skip-lns   # ten minutes on the clock
    python tools/bench/e2_score.py --seconds 120 --seeds 1-6 --jobs 2  # per seed, CPU seconds
    python tools/bench/e2_score.py --seconds 120 --seeds 1-6 --jobs 2 --set bend=1.3  # a tuning

Measured with the workers sharing the best board's count of breaks (each search lowers its cap
below the best any of them has found, read every few milliseconds; the default since), the same
build otherwise:

* ``--seconds 600 --wall --skip-lns --nodes 2e7 --seed S`` (both cores), seeds 0-5: **464**
  after 126.4, 421.8, 78.1, 230.6 and 446.6 wall-s (seed 1 **465** after 595.6 s); seed 5 463
  after 30.9 s, no better.  Five of six reach 464, as without the sharing (below: 551, 337, 84,
  208, 393 s, seed 5 463); the median time to it 231 s against 337 s: too few runs to call.
* ``--seconds 3600 --wall --skip-lns --nodes 2e7 --seed 5`` (both cores, an hour, 7182 CPU-s):
  463 after 31.5 s, **464** after 1239.7 s, **465** after 1457.4 s.

Measured with the default after the deep squares got four levels of run copies, each made from
the one above it (``_edgescore.c``: the same nodes, 11-17% more of them per CPU second at the caps
of 461-463 boards, ``tools/experiments/edgescore_rate.py``; load average 2):

* ``--seconds 120 --seeds 1-12 --jobs 2``: 463, 462, 463, 462, 463, 463, **463**, 462, 463, 462,
  463, 463 (mean 462.67, worst 462; seed 7 463 after 113.4 CPU-s, the rest as before, sooner);
* ``--seconds 600 --wall --skip-lns --nodes 2e7`` (both cores): ``--seed 0``: **464** after
  551.3 wall-s (463 after 41 s), where the build before stopped at 463; ``--seed 4``: **465**
  after 541.4 wall-s (463 after 173 s, 464 after 393 s); ``--seed 5``: 463 after 33.5 wall-s, no
  better.  With the build before (below), seeds 1, 2 and 3 reached 464 after 337, 84 and 208 s:
  five of seeds 0-5 reach 464 within ten minutes.
* ``--seconds 3600 --wall --skip-lns --nodes 2e7 --seed 3`` (both cores, an hour, the build
  before; other work beside it for some 20 minutes, 6051 CPU-s in all): **465** after 2382
  wall-s (463 after 40 s, 464 after 208 s).

Measured with the default schedule of a cap two breaks looser (``maximize.Tuning.slack`` 2), two
runs side by side each time (load average 1-2):

* ``--seconds 120 --seeds 1-12``: 463, 463, 463, 463, 462, 463, 462, 462, 462, 463, 463, **465**
  (mean 462.83, worst 462); beside it, ``--set slack=0`` (the default before) gave the boards
  below again, mean 462.33, worst 461; ``--set slack=1``: mean 462.58, worst 462; ``--set
  slack=3``: mean 462.42, worst 461, one 464;
* ``--seconds 600 --wall --skip-lns --nodes 2e7 --seed 1`` (both cores): **465** after 192.8
  wall-s (463 after 76 s, 464 and 465 in the same report), no better by the end (1196 CPU-s).
* ``--seconds 3600 --wall --skip-lns --nodes 2e7 --seed 0`` (both cores, an hour, the machine
  quiet): **465** after 3178 wall-s (463 after 55 s, 464 after 978.5 s), 7178 CPU-s in all.
  The runs below (465 after 159 s, the hour's 464) used the default before it (``slack`` 0).
* With the patience doubling only at restarts since the last better board (``--set stall=1``,
  the default since): ``--seconds 120 --seeds 1-12 --jobs 2``: 463, 462, 463, 462, 463, 463,
  462, 462, 463, 462, 463, 463, mean 462.58, worst 462; ``--seconds 600 --wall --skip-lns
  --nodes 2e7 --seed 1`` (both cores): **465** after 520.4 wall-s (463 after 96 s, 464 after
  337 s; 1196 CPU-s in all); ``--seed 0``: 463 after 44.7 s, no better by the end; ``--seed 2``: **464** after 84.1 s (463
  after 48 s), no better.  The runs
  above used ``stall`` off.

Measured with the default after restarts grew (2^25 nodes doubling to 2^30, ``maximize.Tuning.patience``;
load average 1-2):

* ``--seconds 120 --seeds 1-12 --jobs 2``: 463, 462, 463, 461, 463, 463, 461, 462, 462, 461, 462,
  **465** (mean 462.33, worst 461; 9 of 12 at 462 or more); ``--set restart_nodes=1073741824``
  (2^30 from the first restart): mean 461.58, 6 of 12, three 463;
* ``--seconds 600 --wall --skip-lns --nodes 2e7 --seed 1`` (both cores): **465** after 159 wall-s
  (461 after 10 s, 463 after 57 s; 1197 CPU-s in all); with ``--set restart_nodes=1073741824``,
  seed 0: **464** after 169 wall-s (462 after 103 s, 463 after 147 s);
* ``--seconds 3600 --wall --skip-lns --nodes 2e7 --seed 0`` (both cores, an hour; the test suite
  ran beside it for about 16 minutes, 6270 CPU-s in all): **464** after 92.5 wall-s (460 after
  13 s, 462 after 22 s), no better within the hour.

Measured with the default before (restarts of 2^25 nodes; the schedule bent, 1.2, from depth
200) after the deep squares got copies of their candidate runs without the pieces placed above
(``_edgescore.c``, levels; 49.6 M nodes per CPU second against 39.5 M on the same 3e8 nodes, both
builds in turn; load average 1-2):

* ``--seconds 120 --seeds 1-12 --jobs 2``: 462 x 6, 461, 463, 462, 461, 462, 462 (mean 461.92,
  worst 461; 10 of 12 at 462 or more, the same boards as before the copies but sooner: 462 first
  after 43, 44, 45, 16, 91, 18, -, 105 (463), 29, -, 9 and 59 CPU-s); ``--set
  restart_nodes=134217728`` (4x longer restarts): mean 461.83, 9 of 12;
* ``--seconds 600 --wall --skip-lns --nodes 2e7`` (both cores, seed 0): **463** after 111 wall-s
  (1196 CPU-s in all), no better by the end; ``--seed 1``: 463 after 329 wall-s, no better;
* ``--seconds 3600 --wall --skip-lns --nodes 2e7`` (both cores, seed 0, an hour; the machine
  shared with other work, 4765 CPU-s in all): **463** after 142 wall-s, no 464 within the hour;
* ``--seeds 7,10 --seconds 400``: the two seeds short of 462 at 120 CPU-s meet it after 120.9 and
  255.1 CPU-s.

Measured with the schedule bent (``bend`` 1.2, from depth 205; load average 1-2):

* ``--seconds 120 --seeds 1-12 --jobs 2``: 463, 462, 461, 461, 461, 462, 460, 462, 462, 461, 461,
  460 (mean 461.33, worst 460; 6 of 12 at 462 or more); ``--set bend=1.3``: mean 461.33, 7 of 12;
  ``--set bend=1.5`` (seeds 1-6): 459.67; ``--set bend=1`` (the even schedule, before): 461, 462,
  460, 461, 460, 461, 461, 461, 461, 462, 461, 462 (mean 461.08, 3 of 12);
* ``--seconds 600 --wall --skip-lns --nodes 2e7`` (both cores, seed 0): **463** after 48 wall-s
  (1196 CPU-s in all), no better by the end.

Measured after issue 24 with the even schedule (one break per square, Blackwood's priority
colours; shared 2-core machine, load average 3-7):

* ``--seconds 120 --seeds 1-6 --jobs 2``: 461, 462, 460, 461, 460, 461 (mean 460.83, worst 460);
* ``--seconds 600 --wall --skip-lns --nodes 2e7`` (both cores, seed 0): **463** after 208 wall-s
  (595 CPU-s in all), no better by the end; node rate 59.7 M nodes per CPU second.

Measured before (shared 2-core machine, load average 7-10, seed 0):

* node rate: 48.9 M nodes per CPU second (2e8 nodes; 9.9 M per wall second under that load);
  54.9 M per CPU second over the first 2e7 nodes;
* 60 CPU-s (199 wall-s): backtrack **457**/480, lns 396 in the same 199 wall-s (65.8 CPU-s):
  23 broken joins against 84, 3.65x fewer; ``satiling score`` agreed on both boards;
* 600 wall-s (239 CPU-s under that load, ``--wall --skip-lns``): backtrack **458**/480;
* the same search outside this tool (restarts of 3.3e7 nodes, 2.4e9 nodes = about 55 CPU-s,
  seeds 1 and 2): 455 and 456.
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


def child_rate(nodes: int, seed: int) -> dict:
    """Nodes per second of the compiled search on Eternity II (no board reported: cap 30)."""
    from satiling import catalog
    from satiling.engines import edgescore
    e2 = catalog.load("eternity2")
    lay = edgescore.layout(e2, seed=seed)
    held = edgescore.reserve(len(lay.order), 30)
    c0, w0 = time.process_time(), time.perf_counter()
    out = edgescore.search(lay, held, 30, lambda *a: False, node_limit=nodes)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    return {"nodes": out.nodes, "cpu": cpu, "wall": wall}


def tuning_of(settings: list[str]):
    """The default tuning of Eternity II with ``KEY=VALUE`` settings of its fields, or None."""
    if not settings:
        return None
    from dataclasses import fields, replace
    from satiling import catalog
    from satiling.apps.maximize import Tuning, default_tuning
    kinds = {f.name: type(getattr(Tuning(), f.name)) for f in fields(Tuning)}
    changes = {}
    for item in settings:
        key, _, value = item.partition("=")
        if key not in kinds:
            raise SystemExit(f"--set: unknown setting {key!r} (choose from {', '.join(kinds)})")
        kind = kinds[key]
        changes[key] = (value if kind is str else value.lower() in ("1", "true") if kind is bool else
                        tuple(int(x) for x in value.split(",")) if kind is tuple or key == "slips" else
                        float(value) if kind in (float, type(None)) else kind(float(value)))
    return replace(default_tuning(catalog.load("eternity2")), **changes)


def child_best(engine: str, seconds: float, seed: int, path: str, cpu: bool, settings: list[str]) -> dict:
    """The best board of ``engine`` in ``seconds`` (CPU seconds for backtrack if ``cpu``),
    written to ``path``; ``settings``: changes to the backtracker's tuning (``KEY=VALUE``), and
    ``hints`` (the four clue pieces held too, as ``--hints``)."""
    hints = "hints" in settings
    settings = [x for x in settings if x != "hints"]
    from satiling import catalog
    from satiling.render.edgematch_svg import board_text
    from satiling.apps.maximize import maximize_matches
    e2 = catalog.load("eternity2")
    trace = []
    w0 = time.perf_counter()
    cpu = cpu and engine == "backtrack"
    result = maximize_matches(e2, seconds, lambda imp: trace.append((imp.score, round(imp.seconds, 1))),
                              engine=engine, seed=seed, cpu_time=cpu, tuning=tuning_of(settings),
                              workers=1 if cpu else None, hints=hints)   # CPU seconds: one process
    wall = time.perf_counter() - w0
    with open(path, "w") as f:
        f.write(board_text(e2, e2.board_from(result.solution)) + "\n")
    return {"score": result.score, "wall": wall, "cpu": time.process_time(), "trace": trace}


def run_child(*args: str) -> tuple[dict, float]:
    """Run this script as a child with ``args``; its JSON answer and its CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return json.loads(out.stdout.strip().splitlines()[-1]), cpu


def rescore(path: str, hints: bool = False) -> int:
    """The board's score as ``satiling score`` counts it (a separate process); with ``hints``,
    the starter and the four clue pieces checked in place on the board it prints."""
    r = subprocess.run([sys.executable, "-m", "satiling.cli", "score", "eternity2", path],
                       capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        raise SystemExit(f"satiling score failed on {path}: {r.stderr.strip()}")
    if hints:
        clues_in_place(r.stdout, path)
    return int(re.search(r"^score (\d+)/480", r.stdout, re.M).group(1))


def clues_in_place(printed: str, path: str) -> None:
    """Stop unless the board ``satiling score`` printed (16 rows of ``piece/rotation``) holds
    the starter and the four clue pieces as the instance pins them."""
    from satiling import catalog
    e2 = catalog.load("eternity2")
    rows = [line.split("#")[0].split() for line in printed.splitlines() if re.search(r"#\s*[A-Z]$", line)]
    for t in e2.fixed + e2.hints:
        if rows[t.row][t.col].split("/") != [str(t.piece), str(t.rotation)]:
            raise SystemExit(f"{path}: piece {t.piece} is not on {t.square} as pinned ({rows[t.row][t.col]})")


def by_seed(args) -> None:
    """The backtracker once per seed (one search process each; CPU seconds unless --wall, when
    it uses every core), every board re-scored by ``satiling score``."""
    from concurrent.futures import ThreadPoolExecutor
    a, _, b = args.seeds.partition("-")
    seeds = list(range(int(a), int(b) + 1)) if b else [int(x) for x in args.seeds.split(",")]
    folder = args.keep or tempfile.mkdtemp(prefix="e2score-")
    os.makedirs(folder, exist_ok=True)
    clock = "wall" if args.wall else "cpu"
    print(f"load average at start: {os.getloadavg()[0]:.2f}; backtrack, {args.seconds:g} {clock}-s per seed"
          + (f"; settings {' '.join(args.set)}" if args.set else ""))

    def one(seed: int) -> tuple:
        path = os.path.join(folder, f"backtrack-{seed}.txt")
        out = subprocess.run([sys.executable, __file__, "--child", "best", "backtrack", str(args.seconds),
                              str(seed), path, clock, *args.set], capture_output=True, text=True, cwd=ROOT,
                             check=True)
        res = json.loads(out.stdout.strip().splitlines()[-1])
        return seed, res, rescore(path, "hints" in args.set)

    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        rows = list(pool.map(one, seeds))
    for seed, res, checked in rows:
        if checked != res["score"]:
            raise SystemExit(f"seed {seed}: the engine's score {res['score']} is not the board's {checked}")
        print(f"seed {seed}: {checked}/480 (satiling score agrees)  improvements (score, s): {res['trace'][-4:]}")
    scores = [r[2] for r in rows]
    print(f"mean {sum(scores) / len(scores):.2f}, worst {min(scores)}, best {max(scores)}; "
          f"load average at end: {os.getloadavg()[0]:.2f}; boards in {folder}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="budget per engine (default 60)")
    ap.add_argument("--nodes", type=float, default=2e8, help="nodes for the rate (default 2e8)")
    ap.add_argument("--quick", action="store_true", help="10 s per engine, 2e7 nodes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--skip-lns", action="store_true", help="only the backtracker")
    ap.add_argument("--wall", action="store_true", help="wall-clock budgets (default: CPU seconds)")
    ap.add_argument("--keep", metavar="DIR", help="keep the best boards in DIR")
    ap.add_argument("--seeds", help="only the backtracker, once per seed (e.g. 1-6 or 1,3): "
                    "the score of each, the mean and the worst")
    ap.add_argument("--jobs", type=int, default=1, help="with --seeds: runs at a time (CPU seconds "
                    "measure each run alone; default 1)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a setting of the backtracker's tuning (satiling.apps.maximize.Tuning), "
                    "e.g. --set bend=1.3; repeatable")
    ap.add_argument("--hints", action="store_true", help="the four clue pieces held too (--hints); "
                    "every board checked to hold them and the starter")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sys.path.insert(0, ROOT)
    if args.child:
        kind, *rest = args.child
        answer = child_rate(int(float(rest[0])), int(rest[1])) if kind == "rate" else \
            child_best(rest[0], float(rest[1]), int(rest[2]), rest[3], rest[4] == "cpu", rest[5:])
        print(json.dumps(answer))
        return
    if args.hints:
        args.set = [*args.set, "hints"]
    if args.seeds:
        return by_seed(args)
    seconds, nodes = (10.0, 2e7) if args.quick else (args.seconds, args.nodes)
    folder = args.keep or tempfile.mkdtemp(prefix="e2score-")
    os.makedirs(folder, exist_ok=True)
    print(f"load average at start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")

    rate, _ = run_child("rate", str(nodes), str(args.seed))
    print(f"node rate: {rate['nodes'] / rate['cpu'] / 1e6:.1f} M nodes per CPU second, "
          f"{rate['nodes'] / rate['wall'] / 1e6:.1f} M per wall second ({rate['nodes']:.3g} nodes)")

    rows = []
    path = os.path.join(folder, "backtrack.txt")
    clock = "wall" if args.wall else "cpu"
    bt, cpu = run_child("best", "backtrack", str(seconds), str(args.seed), path, clock, *args.set)
    rows.append(("backtrack", bt, cpu, rescore(path, "hints" in args.set)))
    if not args.skip_lns:
        path = os.path.join(folder, "lns.txt")
        lns, cpu = run_child("best", "lns", str(bt["wall"]), str(args.seed), path, "wall")
        rows.append(("lns", lns, cpu, rescore(path)))
    print(f"\n{'engine':10} {'budget':>16} {'wall s':>7} {'CPU s':>6} {'engine score':>12} "
          f"{'satiling score':>14}  last improvements (score, wall s)")
    for name, res, cpu, checked in rows:
        budget = f"{seconds:g} {clock}-s" if name == "backtrack" else f"{bt['wall']:.0f} wall-s"
        print(f"{name:10} {budget:>16} {res['wall']:7.1f} {cpu:6.1f} {res['score']:12d} {checked:14d}  "
              f"{res['trace'][-3:]}")
        if checked != res["score"]:
            raise SystemExit(f"{name}: the engine's score {res['score']} is not the board's {checked}")
    if len(rows) == 2:
        broken = [480 - r[3] for r in rows]
        print(f"\nbroken joins: backtrack {broken[0]}, lns {broken[1]}: "
              f"{broken[1] / max(broken[0], 1):.2f}x fewer with the backtracker")
    print(f"load average at end: {os.getloadavg()[0]:.2f}; boards in {folder}")


if __name__ == "__main__":
    main()
