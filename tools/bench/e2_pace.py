"""Benchmark: the node rate of the scoring search on Eternity II, this working tree against a git
revision, both built the same way and measured in turn in one run.

Both builds are made here, in a temporary folder, with the same compiler command (the one
setuptools uses: the interpreter's CC and CFLAGS, ``-O3 -std=c11``): the working tree's
``satiling/`` and ``instances/`` copied, the revision's taken with ``git archive``.  Each
measurement runs in a child process (so its CPU time is the search's own): the layout of a seed,
the default tuning (its priority colours and schedule) at the cap of a board of ``--score``
joins, a fixed number of nodes.  The two builds must meet the same nodes (the candidate order is
the layout's): the script checks that they stop at the same node count with the same boards
reported, so the ratio of their rates is the speed-up.  The rounds alternate the builds
(base, this, base, this, ...) so that a change in the machine's load hits both alike.

    python tools/bench/e2_pace.py                          # against HEAD, cap of a 463 board
    python tools/bench/e2_pace.py --rev HEAD~3 --score 458 463 --seeds 1-3 --rounds 3
    python tools/bench/e2_pace.py --rev HEAD --rows        # also where the nodes go, per row
    python tools/bench/e2_pace.py --profile 30 --seed 1    # this build only: where a default
                                                            # run's nodes go, per row (30 CPU-s)

Measurements: docs/decisions/2026-11-27-eternity2-pace.md.
"""
from __future__ import annotations

import argparse
import array
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = "satiling/engines/_edgescore.c"


def child(nodes: int, seed: int, score: int) -> dict:
    """One measurement in this process (the build first on the path)."""
    from satiling import catalog
    from satiling.apps import maximize
    from satiling.engines import edgescore
    e2 = catalog.load("eternity2")
    tuning = maximize.default_tuning(e2)
    n, joins = e2.rows * e2.cols, len(e2.joins())
    lay = edgescore.layout(e2, seed=seed, order=tuning.order, priority=tuning.priority,
                           double=tuning.double, rim_breaks=tuning.rim_breaks)
    cap = joins - score
    boards: list = []
    hist = array.array("q", [0] * 4 * (n + 1))
    start = time.process_time()
    out = edgescore.search(lay, tuning.held(n, cap), cap,
                           lambda breaks, at, raw: boards.append((breaks, at)) and False,
                           node_limit=nodes, need=tuning.need(e2), hist=hist)
    cpu = time.process_time() - start
    rows = [sum(hist[r * e2.cols:(r + 1) * e2.cols]) for r in range(e2.rows)]
    return {"nodes": out.nodes, "cpu": cpu, "boards": boards, "rows": rows}


def profile(seconds: float, seed: int) -> None:
    """The restarts of ``--maximize-matches backtrack`` (one search, the default tuning, CPU
    seconds) with the nodes placed at each depth counted: the node rate and the share per row."""
    from satiling import catalog
    from satiling.apps.maximize import scoring
    from satiling.engines import edgescore
    e2 = catalog.load("eternity2")
    hist = array.array("q", [0] * 4 * (e2.rows * e2.cols + 1))
    plain, counted = edgescore.search, {"nodes": 0, "restarts": 0}

    def search(*args, **kwargs):            # every restart's search, its nodes counted
        out = plain(*args, **kwargs, hist=hist)
        counted["nodes"] += out.nodes
        counted["restarts"] += 1
        return out

    edgescore.search = search
    start = time.process_time()
    res = scoring._backtrack_one(e2, seconds, lambda imp: None, False, time.monotonic(), seed,
                                   True, scoring.default_tuning(e2))
    cpu = time.process_time() - start
    total = sum(hist[:e2.rows * e2.cols + 1]) or 1
    print(f"score {res.score}, {counted['restarts']} restarts, "
          f"{counted['nodes'] / cpu / 1e6:.1f} M nodes per CPU second")
    print("nodes per row (bottom first): " + " ".join(
        f"{100 * sum(hist[r * e2.cols:(r + 1) * e2.cols]) / total:.1f}%" for r in range(e2.rows)))


def build(tree: Path) -> None:
    """Compile the scoring search of ``tree`` in place, as setuptools would."""
    cc = shlex.split(sysconfig.get_config_var("CC") or "cc")
    flags = shlex.split(sysconfig.get_config_var("CFLAGS") or "")
    out = tree / ENGINE.replace(".c", sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run([*cc, *flags, "-fPIC", "-shared", "-O3", "-std=c11",
                    f"-I{sysconfig.get_paths()['include']}", str(tree / ENGINE), "-o", str(out)],
                   check=True)


def trees(rev: str, into: Path) -> tuple[Path, Path]:
    """The revision's tree and the working tree's, each with its engine built."""
    base, this = into / "base", into / "this"
    base.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "satiling", "instances"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
    for part in ("satiling", "instances"):
        shutil.copytree(ROOT / part, this / part, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    for tree in (base, this):
        build(tree)
    return base, this


def measure(tree: Path, nodes: int, seed: int, score: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, __file__, "--child", str(nodes), str(seed), str(score)],
                         env=env, capture_output=True, text=True, check=True, cwd=tree)
    return json.loads(out.stdout)


def seeds_of(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        print(json.dumps(child(*map(int, sys.argv[2:5]))))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="HEAD", help="the revision to measure against (default HEAD)")
    ap.add_argument("--nodes", type=float, default=1e8)
    ap.add_argument("--score", type=int, nargs="+", default=[463], help="the cap's board (default 463)")
    ap.add_argument("--seeds", default="1-2", help="layout seeds, e.g. 1-3 (default 1-2)")
    ap.add_argument("--rounds", type=int, default=2, help="measurements of each build per line")
    ap.add_argument("--rows", action="store_true", help="print the share of the nodes in each row")
    ap.add_argument("--profile", type=float, metavar="SECONDS",
                    help="only this build: a default run of SECONDS CPU-s, its nodes per row")
    ap.add_argument("--seed", type=int, default=1, help="with --profile: the search's seed")
    args = ap.parse_args()
    if args.profile:
        sys.path.insert(0, str(ROOT))
        return profile(args.profile, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        base, this = trees(args.rev, Path(tmp))
        print(f"{'score':>5} {'seed':>4} {'base M/CPU-s':>13} {'this M/CPU-s':>13} {'ratio':>6}")
        logs = []
        for score in args.score:
            for seed in seeds_of(args.seeds):
                got: dict[str, list[dict]] = {"base": [], "this": []}
                for _ in range(args.rounds):
                    for name, tree in (("base", base), ("this", this)):
                        got[name].append(measure(tree, int(args.nodes), seed, score))
                a, b = got["base"][0], got["this"][0]
                if (a["nodes"], a["boards"], a["rows"]) != (b["nodes"], b["boards"], b["rows"]):
                    raise SystemExit(f"score {score} seed {seed}: the builds met different nodes")
                rate = {k: sum(r["nodes"] for r in v) / sum(r["cpu"] for r in v) / 1e6 for k, v in got.items()}
                logs.append(math.log(rate["this"] / rate["base"]))
                print(f"{score:>5} {seed:>4} {rate['base']:>13.1f} {rate['this']:>13.1f} "
                      f"{rate['this'] / rate['base']:>6.3f}", flush=True)
                if args.rows:
                    total = sum(a["rows"]) or 1
                    print("      nodes per row (bottom first): "
                          + " ".join(f"{100 * x / total:.1f}%" for x in a["rows"]))
        print(f"geometric mean ratio this/base: {math.exp(sum(logs) / len(logs)):.3f}")


if __name__ == "__main__":
    main()
