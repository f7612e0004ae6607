"""Benchmark: the seed's 2x2 compound pieces (``tools/bench/compound2x2.c``) against satiling's compiled
edge-matching backtracker, same run.

``compound2x2.c`` makes every valid 2x2 block of four pieces (frame rule respected per macro
square class) and backtracks over the (n/2) x (n/2) macro board in row order, the pieces in use a
64-bit mask (see its header).  This script builds it with ``cc -O3`` into a scratch directory
outside the repository, writes the generated boards there, and measures:

* ``counts``: all solutions of generated 6x6 boards (3 frame + 5 inner colours, ``--count-seeds``)
  by the compound search and by the package engine (``count`` in row scan, and with the order it
  picks itself); raw boards (all four turns of a board) on both sides; the ratio is compound /
  engine (row scan).
* ``first``: time to the first solution of generated 8x8 boards (3 + 8 colours, ``--seeds``), CPU
  cap ``--cap`` seconds each, by the compound search (each ``--orders``), the package's ``solve``
  (its own order, the tight value order) and the package engine in plain row scan (table order).
* ``estimates``: what exhausting the 8x8 boards would cost: Knuth's estimate of each whole tree
  (``--probes`` random paths; compound in blocks placed, engine in row scan in pieces placed)
  divided by each one's node rate over ``--rate-cap`` CPU seconds of search.

Every run is a child process with RLIMIT_CPU; times are the child's CPU seconds (``getrusage``
RUSAGE_CHILDREN), whole process: Python start and planning for the engine, block making for the
compound search.  Every board found passes ``puzzle.verify``.

    python tools/bench/compound.py --orders table support tight --seeds 1 2 3 4 5 --cap 60
    python tools/bench/compound.py --parts first --orders tight --engines solve --seeds 2 5 --cap 120

Measured 2026-11-23 on the shared 2-core machine (load 1-3; the package engine ran at 36-38 M
nodes per CPU-s here, not the 65 M of a quiet machine, so read the ratios), the first command:

| 6x6 seed | solutions compound / engine rows / engine auto | compound s (search) | compound --skip s | engine rows s (search) | ratio (search) | macro nodes / engine nodes |
| --- | --- | --- | --- | --- | --- | --- |
| 1 | 188 / 188 / 188 | 0.61 (0.60) | 0.78 | 2.03 (1.84) | 0.30 (0.33) | 24.0 M / 61.2 M |
| 2 | 200 / 200 / 200 | 0.55 (0.55) | 0.67 | 1.86 (1.67) | 0.30 (0.33) | 21.7 M / 54.7 M |
| 3 | 424 / 424 / 424 | 0.71 (0.70) | 0.93 | 2.34 (2.14) | 0.30 (0.33) | 26.5 M / 69.6 M |

| 8x8 seed | compound table | compound support | compound tight | engine solve | engine rows | ratio |
| --- | --- | --- | --- | --- | --- | --- |
| 1 | > 60.0, 1.9e9 | > 60.0, 1.8e9 | **40.7**, 1.0e9 | 57.2, 2.1e9 | > 60.1, 2.2e9 | 0.71 |
| 2 | > 60.0, 2.0e9 | > 60.0, 1.9e9 | > 60.0, 1.5e9 | > 60.8 | > 60.1, 2.3e9 | - |
| 3 | > 60.0, 1.9e9 | > 60.1, 1.8e9 | > 60.1, 1.5e9 | > 60.9 | > 60.3, 2.2e9 | - |
| 4 | > 60.0, 1.9e9 | > 60.0, 1.8e9 | > 60.0, 1.5e9 | **37.8**, 1.4e9 | > 60.1, 2.2e9 | > 1.59 |
| 5 | > 60.0, 1.9e9 | > 60.1, 1.8e9 | > 60.0, 1.5e9 | > 61.0 | > 60.3, 2.3e9 | - |

(CPU s whole process, nodes: blocks placed for the compound search, pieces placed for the engine.)

| 8x8 seed | compound tree | compound rate | compound exhaust | engine rows tree | engine rate | engine exhaust | ratio |
| --- | --- | --- | --- | --- | --- | --- | --- |
| 1 | 4.64e12 | 31.1 M/s | 1.49e5 s | 6.36e12 | 36.6 M/s | 1.74e5 s | 0.86 |
| 2 | 2.88e12 | 33.4 M/s | 8.61e4 s | 6.17e12 | 38.2 M/s | 1.61e5 s | 0.53 |
| 3 | 3.70e12 | 31.4 M/s | 1.18e5 s | 5.01e12 | 36.3 M/s | 1.38e5 s | 0.85 |
| 4 | 3.37e12 | 31.5 M/s | 1.07e5 s | 1.79e12 | 36.8 M/s | 4.87e4 s | 2.20 |
| 5 | 2.21e12 | 32.7 M/s | 6.74e4 s | 3.41e12 | 37.8 M/s | 9.02e4 s | 0.75 |

The second command (cap 120 CPU-s, seeds 2 and 5):

| 8x8 seed | compound tight | engine solve | ratio |
| --- | --- | --- | --- |
| 2 | > 120.1, 2.7e9 | > 121.0 | - |
| 5 | **80.0**, 1.8e9 | > 121.0 | < 0.67 |

Variants, measured with ``compound2x2`` alone (same machine, same day):

* candidate order on 8x8 (3 + 8) seeds 1 and 2, cap 60: "fewest" (static, fewest continuations
  first; run with ``--skip``, 7.6e8 blocks in 60 s) solved neither, like "support" and "table".
* nodes to the first solution of 6x6 boards seeds 1-24 (geometric mean): table 8.9e4, support
  6.7e4, fewest 8.7e4, tight 6.6e4, tight-below 8.7e4, tight-live 7.7e4; on 8x8 boards with
  3 + 7 colours (seeds 1-6, cap 15 s) solved: table 3, support 4, tight 4, tight-live 2 of 6.
  Scoring by the lower neighbour too (tight-below) or by free blocks (tight-live, which scans
  the next table per candidate) did not beat plain "tight"; "tight" is the best order.
* ``--skip`` (a used top-left / top-right piece skips its run of blocks) scans 2.3 times fewer
  entries on 6x6 but is 1.2-1.3 times slower (the table above): a data-dependent branch per entry
  costs more than the one AND it saves.  Unrolling the mask scan by four: no faster.  Not kept.
* Macro fill order: on a square board the row scans from any corner are one search (turning the
  board leaves the pieces as they are), so only a non-scan order (spiral, frame first) could
  differ; it needs tables keyed by other side pairs.  Not built: on Eternity II the estimate of
  Eternity2Puzzles.jl puts the frame-first tree at 1.1e57 nodes against the row scan's 1.4e47.

Conclusion.  The compound search is exact (its counts equal the engine's) and exhausts 6x6 boards
3.0 times faster (0.33 in search time): it places 0.4 times as many blocks as the engine places
pieces.  That advantage does not carry to 8x8: there the macro tree (2.2-4.6e12 blocks by Knuth's
estimate) is 0.5-1.9 times the engine's row-scan tree in pieces, every block costs about 25 table
entries scanned (most hold a piece already in use) so blocks go at 31-33 M/s against the engine's
36-38 M pieces/s, and exhausting an 8x8 board would take about as long (ratio 0.53-2.20,
geometric mean 0.91; Knuth's estimates of these heavy-tailed trees vary by 2x between runs of
2000 and 20000 paths).  To a first solution it is no better than the engine's ``solve``: with its
best order ("tight", one level up) it solved seed 1 in 40.7 CPU-s (engine 57.2, ratio 0.71) and
missed seed 4 (engine 37.8); neither solves seeds 2 or 5 within 60 CPU-s.  Given 120 CPU-s it
found seed 5 in 80.0 (the engine none in 121) and neither found seed 2.  It won seeds 1 and 5, the
engine seed 4: with trees of equal size these times say where each order meets the few solutions
more than which search is faster.  No speed-up per exhaust at 8x8, none shown per solution: not
worth moving into the package.
"""
from __future__ import annotations

import argparse
import json
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
ORDERS = ("table", "support", "fewest", "tight", "tight-below", "tight-live")


def build(tmp: Path) -> Path:
    """compound2x2.c compiled into ``tmp`` (never into the repository)."""
    exe = tmp / "compound2x2"
    subprocess.run(["cc", "-O3", "-std=c11", "-o", str(exe), str(ROOT / "tools" / "bench" / "compound2x2.c")],
                   check=True)
    return exe


def board_file(tmp: Path, n: int, frame: int, inner: int, seed: int) -> tuple[Path, object]:
    """The generated board written as compound2x2 reads it, and the puzzle (for verify)."""
    from satiling.families.edgematch.generate import generate
    gen = generate(n, n, frame, inner, seed)
    path = tmp / f"b{n}-{frame}-{inner}-{seed}.txt"
    path.write_text(f"{n}\n" + "".join(" ".join(map(str, p)) + "\n" for p in gen.pieces))
    return path, gen.puzzle()


def child(cmd: list[str], cap: float) -> tuple[float, str]:
    """(child CPU seconds, stdout) of ``cmd`` run with a CPU cap."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(cap) + 1, int(cap) + 10))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=limit)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, -signal.SIGXCPU, -signal.SIGKILL):
        raise RuntimeError(f"{cmd[0]} failed ({p.returncode}): {p.stderr.strip()}")
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), p.stdout


def verify(puzzle, placed: list[tuple[int, int, int, int]]) -> None:
    """Raises unless ``placed`` ((row, col, piece from 0, rotation) per square) solves the board."""
    from satiling.families.edgematch.geometry import Tile
    puzzle.verify([Tile(r, c, p + 1, rot) for r, c, p, rot in placed])


def compound(exe: Path, board: Path, puzzle, n: int, order: str, cap: float,
             count_all: bool, skip: bool = False) -> dict:
    cmd = [str(exe), str(board), "--order", order, "--cap", str(cap)] + (["--skip"] if skip else [])
    cpu, out = child(cmd + (["--count"] if count_all else []), cap)
    res: dict = {"cpu": cpu}
    for line in out.splitlines():
        key, _, value = line.partition(" ")
        res[key] = value
    res["cpu_search"] = res.get("cpu", cpu)
    res["cpu"] = cpu
    if "solution" in res:
        v = list(map(int, res["solution"].split()))
        verify(puzzle, [(i // n, i % n, v[2 * i], v[2 * i + 1]) for i in range(n * n)])
    res["found"] = "solution" in res
    return res


def engine(mode: str, n: int, frame: int, inner: int, seed: int, cap: float) -> dict:
    """The package engine in a child process (this script with --child)."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", mode, str(n), str(frame),
           str(inner), str(seed), str(cap)]
    cpu, out = child(cmd, cap)
    res = json.loads(out) if out.strip() else {"status": "cap"}
    res["cpu"] = cpu
    return res


class CpuCap(Exception):
    pass


def run_child(mode: str, n: int, frame: int, inner: int, seed: int, cap: float) -> None:
    """One engine run, its result as JSON on stdout: counts, or the first solution (verified)."""
    from dataclasses import replace
    from satiling.engines.edgematch import EdgeBoard, Engine, race
    from satiling.families.edgematch.generate import generate

    def on_cap(*_: object) -> None:
        raise CpuCap
    signal.signal(signal.SIGXCPU, on_cap)      # the engine runs Python's handlers every 2^16 nodes
    gen = generate(n, n, frame, inner, seed)
    board = EdgeBoard(n, n, tuple(gen.pieces))
    out: dict = {}
    t0 = time.process_time()
    try:
        if mode in ("count-rows", "count-auto"):
            b = replace(board, order="rows") if mode == "count-rows" else board
            engine = Engine(b)
            out["status"] = engine.solutions()
            out["solutions"], out["nodes"] = engine.search.solutions, engine.nodes
        elif mode == "estimate":
            out["estimate"] = Engine(replace(board, order="rows")).estimate(probes=int(cap), seed=1)
        elif mode == "solve":
            found, out["status"], engines = race(board)
            out["nodes"] = sum(e.nodes for e in engines)
            if found:
                verify(gen.puzzle(), found)
                out["found"] = True
        elif mode == "rows":
            eng = Engine(replace(board, order="rows"))
            t0 = time.process_time()
            found: list = []
            while not found and time.process_time() < cap:
                status = eng.solutions(limit=1, on_solution=found.append, max_nodes=1 << 24,
                                       resume=True)
                if status == "exhausted":
                    break
            out["nodes"] = eng.nodes
            out["status"] = "limit" if found else "cap"
            if found:
                verify(gen.puzzle(), found[0])
                out["found"] = True
    except CpuCap:
        out["status"] = "cap"
    out["search_cpu"] = time.process_time() - t0
    print(json.dumps(out))


def counts(args: argparse.Namespace, exe: Path, tmp: Path) -> None:
    print(f"\n## all solutions, generated 6x6 boards (3 frame + 5 inner colours), compound order "
          f"{args.count_order}; CPU s whole process (search alone)")
    print("seed | solutions compound / engine rows / engine auto | compound s | compound --skip s | "
          "engine rows s | engine auto s | ratio compound / engine rows, whole (search) | macro "
          "nodes | engine rows nodes")
    print(" | ".join(["---"] * 9))
    for seed in args.count_seeds:
        path, pz = board_file(tmp, 6, 3, 5, seed)
        c = compound(exe, path, pz, 6, args.count_order, args.cap, True)
        cs = compound(exe, path, pz, 6, args.count_order, args.cap, True, skip=True)
        er = engine("count-rows", 6, 3, 5, seed, args.cap)
        ea = engine("count-auto", 6, 3, 5, seed, args.cap)
        same = int(c["solutions"]) == er.get("solutions") == ea.get("solutions")
        print(f"{seed} | {c['solutions']} / {er.get('solutions')} / {ea.get('solutions')}"
              f"{'' if same else ' DIFFER'} | {c['cpu']:.2f} ({float(c['cpu_search']):.2f}) | "
              f"{cs['cpu']:.2f} | "
              f"{er['cpu']:.2f} ({er['search_cpu']:.2f}) | {ea['cpu']:.2f} ({ea['search_cpu']:.2f}) | "
              f"{c['cpu'] / er['cpu']:.2f} ({float(c['cpu_search']) / er['search_cpu']:.2f}) | "
              f"{c['nodes']} | {er.get('nodes')}", flush=True)


def first(args: argparse.Namespace, exe: Path, tmp: Path) -> None:
    cap = args.cap
    print(f"\n## first solution, generated 8x8 boards (3 frame + 8 inner colours), CPU cap {cap:g} s;"
          " CPU s whole process, nodes")
    heads = [f"compound {o}" for o in args.orders] + [f"engine {e}" for e in args.engines]
    print("seed | " + " | ".join(heads) + " | ratio best compound / engine solve")
    print(" | ".join(["---"] * (len(heads) + 2)))

    def cell(res: dict) -> str:
        nodes = f", {float(res['nodes']):.2g}" if res.get("nodes") else ""
        return (f"{res['cpu']:.1f}" if res.get("found") else f"> {res['cpu']:.1f}") + nodes

    for seed in args.seeds:
        path, pz = board_file(tmp, 8, 3, 8, seed)
        runs = [compound(exe, path, pz, 8, o, cap, False) for o in args.orders]
        runs += [engine(e, 8, 3, 8, seed, cap) for e in args.engines]
        best = min((r["cpu"] for r in runs[:len(args.orders)] if r.get("found")), default=None)
        solved = runs[len(args.orders)] if "solve" in args.engines else {}
        ref = solved["cpu"] if solved.get("found") else None
        if best and ref:
            ratio = f"{best / ref:.2f}"
        elif best or ref:          # one side capped: a bound
            ratio = f"< {best / cap:.2f}" if best else f"> {cap / ref:.2f}"
        else:
            ratio = "-"
        print(f"{seed} | " + " | ".join(cell(r) for r in runs) + f" | {ratio}", flush=True)


def estimates(args: argparse.Namespace, exe: Path, tmp: Path) -> None:
    """Whole-tree sizes (Knuth, --probes paths) and node rates (a --rate-cap run in row scan,
    table order): the CPU seconds each search would need to exhaust the board."""
    print(f"\n## exhausting 8x8 boards (3 + 8 colours): Knuth's estimate ({args.probes} paths) / "
          f"node rate ({args.rate_cap:g} CPU-s of search)")
    print("seed | compound tree | compound nodes/s | compound s | engine rows tree | engine "
          "nodes/s | engine s | ratio compound / engine")
    print(" | ".join(["---"] * 8))
    for seed in args.seeds:
        path, pz = board_file(tmp, 8, 3, 8, seed)
        _, out = child([str(exe), str(path), "--estimate", str(args.probes)], args.cap)
        ctree = float(dict(line.split(" ", 1) for line in out.splitlines())["estimate"])
        c = compound(exe, path, pz, 8, "table", args.rate_cap, False)
        crate = int(c["nodes"]) / float(c["cpu_search"])
        etree = engine("estimate", 8, 3, 8, seed, args.probes)["estimate"]
        e = engine("rows", 8, 3, 8, seed, args.rate_cap)
        erate = e["nodes"] / e["search_cpu"]
        print(f"{seed} | {ctree:.3g} | {crate / 1e6:.1f} M | {ctree / crate:.3g} | {etree:.3g} | "
              f"{erate / 1e6:.1f} M | {etree / erate:.3g} | {(ctree / crate) / (etree / erate):.2f}",
              flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parts", nargs="+", default=["counts", "first", "estimates"],
                    choices=["counts", "first", "estimates"])
    ap.add_argument("--seeds", nargs="+", type=int, default=[1, 2, 3, 4, 5])
    ap.add_argument("--count-seeds", nargs="+", type=int, default=[1, 2, 3])
    ap.add_argument("--orders", nargs="+", default=["table"], choices=ORDERS)
    ap.add_argument("--count-order", default="table", choices=ORDERS)
    ap.add_argument("--engines", nargs="+", default=["solve", "rows"], choices=["solve", "rows"],
                    help="the package engine's runs in the first-solution table")
    ap.add_argument("--cap", type=float, default=60.0)
    ap.add_argument("--probes", type=int, default=20000)
    ap.add_argument("--rate-cap", type=float, default=10.0)
    ap.add_argument("--child", nargs=6, metavar=("MODE", "N", "FRAME", "INNER", "SEED", "CAP"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        mode, *nums = args.child
        n, frame, inner, seed = map(int, nums[:4])
        run_child(mode, n, frame, inner, seed, float(nums[4]))
        return
    with tempfile.TemporaryDirectory() as scratch:
        tmp = Path(scratch)
        exe = build(tmp)
        if "counts" in args.parts:
            counts(args, exe, tmp)
        if "first" in args.parts:
            first(args, exe, tmp)
        if "estimates" in args.parts:
            estimates(args, exe, tmp)


if __name__ == "__main__":
    main()
