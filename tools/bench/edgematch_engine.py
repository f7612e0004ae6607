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
* ``counts``: all solutions of generated 5x5 and 6x6 boards by the engine and by ``count --engine
  sat``.
* ``oracle``: a SAT oracle inside the search, measured: below random prefixes of 16, 24, 32
  squares of the first 8x8 board, the backtracker's time for the whole subtree against one CaDiCaL
  call on the rest of the board.
* ``peer`` (with ``--ssxcc PATH``): all solutions of generated 6x6 boards by the engine and by
  Knuth's SSXCC (dancing cells) on the same board as an exact cover with colours.
* ``values``: nodes to the first solution with the table and the "tight" value order (the one
  solve uses on few-solution boards) on generated 7x7 boards (3 + 6 colours, ``--value-seeds``).
* ``strategies``: nodes to the first solution on generated 7x7 boards (3 + 7 colours,
  ``--value-seeds``) by one depth-first search, Luby restarts, and the subtrees below every prefix
  of ``--prefix-depth`` squares in turns (node budget doubling per round); then where the
  depth-first search spends its nodes on ``--profile-seed`` (subtrees exhausted per depth).
* ``cliff``: the CNF of a generated 12x12 board, pairwise at-most-one up to 500 literals against the
  clause budget now in ``backends/cnf.py`` (clauses, CPU seconds to produce them).

    python tools/bench/edgematch_engine.py --parts clues rate --rate-seconds 20
    python tools/bench/edgematch_engine.py --parts boards --seeds 1 2 3 4 5 --cap 60
    python tools/bench/edgematch_engine.py --parts peer --ssxcc /path/to/ssxcc

Measured 2026-11-23 on the shared 2-core machine (load about 10; CPU seconds):

* Eternity II, starter fixed, row scan from the bottom left: 64.8 M nodes per CPU-s (518 M
  nodes in 8.0 CPU-s).
* Clue puzzles 1-4: 0.007 / 0.012 / 0.017 / 0.038 s (plans, estimates and search); CaDiCaL
  through ``satiling solve`` 0.20-0.53 s, whole command: ratios 30 / 45 / 11 / 14.
* Counts of generated 6x6 boards (3 + 5 colours, raw): 188 / 200 / 424 solutions in 1.44 / 1.31
  / 1.65 s; Knuth's SSXCC on the same exact cover with colours 31.8 / 28.6 / 81.6 s, equal counts:
  ratios 22 / 22 / 50.  (``count --engine sat`` took 127 CPU-s for the first: 47 classes.)
* Generated 8x8 boards (3 + 8 colours), ``--parts boards --seeds 1 2 3 4 5 --cap 60``: the
  backtracker (tight value order) solved seeds 1 / 3 / 4 in 55.96 / 51.03 / 36.79 CPU-s (whole
  command) and not seeds 2 and 5 (> 59 CPU-s); CaDiCaL and CP-SAT (one thread) solved none
  (> 59 CPU-s each).  With the table value order the backtracker solved none of the five in about
  1.2e9 nodes (25 CPU-s each).  Without a cap (``satiling solve``, nice 5, the machine shared):
  seed 5 solved in 530.7 CPU-s, seed 2 not in 1100 CPU-s (1500 s wall).  CaDiCaL 1.5.3 and 1.9.5
  with a corner fixed, direct and Heule's compact encoding, solved neither seed 1 nor 2 in 150 s
  wall (39-85 CPU-s each).  The trees are 2-3e12 nodes by Knuth's estimate (20000 paths, row
  scan), with few solutions; colour-count pruning (free half-edges per colour and square class against the
  open ones) cut 1 % of the nodes at 18 % of the node rate, forward checking none in the row scan,
  and a dynamic fewest-candidates square choice made the estimated tree 300 times larger: not kept.
* Value order, ``--parts values`` (7x7 boards, 3 + 6 colours, seeds 1-24): nodes to the first
  solution, table / tight: geometric mean 2.18, fewer nodes with tight on 15 of 24 boards.  A
  variant counting only the next square's entries of pieces still free ("free") gave table / free
  1.92 and tight / free 0.88 (free fewer on 11 of 24): not kept.
* First-solution strategies (issue 24), ``--parts strategies --value-seeds 20`` and variants
  measured with scratch builds of the engine (7x7, 3 + 7 colours, geometric means of nodes, seeds
  1-10 / 11-20): depth-first 6.1e7 / 6.0e7 (worst 2.8e8); prefixes of 3 / 4 / 5 squares in turns
  1.7e8 / 1.6e8, 1.3e8 / 3.5e7, 8.5e7 / 5.8e7; Luby restarts 3.0e8 against 6.9e7 (seeds 1-8).
  Seed 6: 1.41e8 nodes to the first solution, 1.41e8 of them in wrong choices for the first row
  (depths 1-3: 8.7e7, 5.1e7, 3.1e6), 2e4 after it.  docs/decisions/2026-11-27-edgematch-exact-search.md
  lists the value orders and fill orders tried.
* SAT oracle on 8x8 seed 1: below prefixes of 16 / 24 / 32 squares the backtracker exhausts the
  whole subtree in 0.48 / 0.03 / 0.02 ms, one CaDiCaL call costs 308 / 113 / 18 ms (every answer
  UNSAT): 640 to 3500 times the subtree it could prune.  It does not pay; not built in.
* CNF of a 12x12 board: 16.2 M clauses in 1.95 CPU-s with pairwise up to 500 literals; 0.56 M in
  0.11 CPU-s with the clause budget.
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

ROOT = Path(__file__).resolve().parents[2]
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


def cpu_with_children() -> float:
    """CPU seconds of this process and of its finished children."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def satiling(*args: str) -> list[str]:
    return [sys.executable, "-m", "satiling.cli", *args]


def boards(args: argparse.Namespace, tmp: Path) -> None:
    from satiling.families.edgematch.generate import generate, instance_toml
    print(f"\n## generated {args.size}x{args.size} boards, {args.frame} frame + {args.inner} inner "
          f"colours, CPU cap {args.cap:g} s per run")
    solvers = {k: v for k, v in SAT.items() if k in args.solvers}
    others = [s for s in solvers if s != "backtrack"]
    print("seed | " + " | ".join(solvers) + "".join(f" | ratio {s}/backtrack" for s in others))
    for seed in args.seeds:
        gen = generate(args.size, args.size, args.frame, args.inner, seed)
        path = tmp / f"b{args.size}-{seed}.toml"
        path.write_text(instance_toml(gen, f"generate-edgematch {args.size} {args.size} --seed {seed}"))
        cells, secs = [], {}
        for name, flags in solvers.items():
            code, cpu, err = child(satiling("solve", str(path), *flags, "--time-limit",
                                            str(10 * args.cap)), args.cap)
            solved = code == 0
            secs[name] = cpu if solved else None
            cells.append(f"{cpu:.2f}" if solved else f"> {cpu:.1f} (exit {code})")
        ratios = [f"{secs[s] / secs['backtrack']:.1f}" if secs[s] and secs.get("backtrack") else "-"
                  for s in others]
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
    """All solutions by the engine and by ``count --engine sat`` (whole commands, wall seconds):
    5x5 boards with the default colours, 6x6 with 8 inner colours (with the default 5, the SAT
    count of one 6x6 board takes minutes)."""
    from satiling.families.edgematch.generate import generate, instance_toml
    print("\n## counts of generated boards: engine against SAT (whole commands, wall s)")
    for size, inner in ((5, None), (6, 8)):
        for seed in args.seeds[:3]:
            path = tmp / f"c{size}-{seed}.toml"
            path.write_text(instance_toml(generate(size, size, None, inner, seed), "count"))
            out = {}
            for engine in ("backtrack", "sat"):
                t = time.perf_counter()
                p = subprocess.run(satiling("count", str(path), "--engine", engine, "--quiet"),
                                   capture_output=True, text=True)
                out[engine] = (p.stdout.strip(), time.perf_counter() - t)
            (a, ta), (b, tb) = out["backtrack"], out["sat"]
            print(f"{size}x{size} seed {seed}: backtrack {a} in {ta:.2f} s, sat {b} in {tb:.2f} s; "
                  f"{'equal' if a == b else 'DIFFERENT'}; ratio {tb / ta:.1f}", flush=True)


def values(args: argparse.Namespace) -> None:
    """Nodes to the first solution, table against tight value order (the order solve uses), on
    generated 7x7 boards (3 + 6 colours), each in the order of the smallest estimated tree."""
    import math
    from dataclasses import replace
    from satiling.engines.edgematch import EdgeBoard, Engine
    from satiling.families.edgematch.generate import generate
    print("\n## value order: nodes to the first solution, 7x7 boards (3 + 6 colours)")
    logs = []
    for seed in range(1, args.value_seeds + 1):
        pz = generate(7, 7, 3, 6, seed).puzzle()
        board = Engine(EdgeBoard(7, 7, tuple(pz.pieces))).board
        nodes = []
        for how in ("table", "tight"):
            eng = Engine(replace(board, values=how))
            eng.solutions(limit=1)
            nodes.append(eng.nodes)
        logs.append(math.log(nodes[0] / nodes[1]))
        print(f"seed {seed} ({board.order}): table {nodes[0]}, tight {nodes[1]}: ratio "
              f"{nodes[0] / nodes[1]:.2f}", flush=True)
    print(f"geometric mean of table / tight: {math.exp(sum(logs) / len(logs)):.2f} "
          f"({sum(x > 0 for x in logs)} of {len(logs)} boards fewer nodes with tight)")


def oracle(args: argparse.Namespace) -> None:
    """Would a SAT oracle pay inside the search?  For random prefixes of the first ``depth``
    squares of an 8x8 board: the backtracker's CPU time to exhaust the subtree below the prefix,
    against one CaDiCaL call on the board with the prefix fixed (the oracle's question: can the
    rest still be completed?).  It pays only where the call is cheaper than the subtree."""
    import random
    from satiling.engines.edgematch import EdgeBoard, Engine
    from satiling.families.edgematch import EdgeMatchPuzzle, Tile
    from satiling.families.edgematch.generate import generate
    from satiling.search.solve import solve
    pz = generate(args.size, args.size, args.frame, args.inner, args.seeds[0]).puzzle()
    eng = Engine(EdgeBoard(pz.rows, pz.cols, tuple(pz.pieces), (), "rows"))
    rng = random.Random(1)
    print(f"\n## SAT oracle: subtree below a random prefix, backtracker against one CaDiCaL call "
          f"({args.size}x{args.size} seed {args.seeds[0]}, row scan)")
    for depth in (16, 24, 32):
        bt, sat, answers = [], [], []
        while len(bt) < 5:
            prefix: tuple[int, ...] = ()
            while len(prefix) < depth:
                kids = eng.children(prefix)
                if not kids:
                    break
                prefix += (rng.choice(kids),)
            if len(prefix) < depth:
                continue
            t = time.process_time()
            eng.search.reset()
            eng.solutions(prefix)
            bt.append(time.process_time() - t)
            placed = eng.board_of(prefix)[:depth]
            fixed = [Tile(r, c, p + 1, rot) for r, c, p, rot in placed]
            sub = EdgeMatchPuzzle("prefix", pz.rows, pz.cols, pz.pieces, fixed)
            t = cpu_with_children()
            result = solve(sub.problem(), solver="cadical", time_limit=args.cap)
            sat.append(cpu_with_children() - t)             # model build and solver child included
            answers.append(result.status)
        print(f"depth {depth}: backtracker {sum(bt) / 5 * 1000:.2f} ms per subtree, CaDiCaL "
              f"{sum(sat) / 5 * 1000:.1f} ms per call (CPU, building the model included), "
              f"answers {answers}; the oracle would cost {sum(sat) / max(sum(bt), 1e-9):.0f}x the "
              "subtree it might prune", flush=True)


def xcc(pz) -> str:
    """The board as an exact cover with colours (Knuth's XCC format): primary items the squares
    and the pieces, secondary items the joins; one option per legal placement, giving each join
    it touches the colour of its side there (colours as single letters)."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    joins = [f"{'h' if j.side == 1 else 'v'}{j.a[0]}_{j.a[1]}" for j in pz.joins()]
    squares = [f"s{r}_{c}" for r, c in pz.squares()]
    pieces = [f"p{i}" for i in range(1, len(pz.pieces) + 1)]
    lines = [" ".join(squares + pieces) + " | " + " ".join(joins)]
    for t in pz.placements():
        e = pz.edges(t.piece, t.rotation)
        items = [f"s{t.row}_{t.col}", f"p{t.piece}"]
        for d in range(4):
            if pz.on_rim((t.row, t.col), d):
                continue
            r, c = (t.row, t.col) if d in (1, 2) else (t.row + (d == 0) * -1, t.col + (d == 3) * -1)
            items.append(f"{'h' if d in (1, 3) else 'v'}{r}_{c}:{letters[e[d]]}")
        lines.append(" ".join(items))
    return "\n".join(lines) + "\n"


def peer(args: argparse.Namespace, tmp: Path) -> None:
    """All solutions of generated 6x6 boards: the engine (in process) against Knuth's SSXCC on
    the same board as an exact cover with colours (child process)."""
    import re
    from satiling.engines.edgematch import EdgeBoard, Engine
    from satiling.families.edgematch.generate import generate
    print(f"\n## counts of generated 6x6 boards (raw): engine against Knuth's SSXCC ({args.ssxcc})")
    for seed in args.seeds[:3]:
        pz = generate(6, 6, None, None, seed).puzzle()
        path = tmp / f"x6-{seed}.dlx"
        path.write_text(xcc(pz))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(path) as f:
            p = subprocess.run([args.ssxcc], stdin=f, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        peer_s = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        m = re.search(r"Altogether (\d+) solution", p.stderr)
        t = time.process_time()
        engine = Engine(EdgeBoard(6, 6, tuple(pz.pieces)))
        engine.solutions()
        n, nodes = engine.search.solutions, engine.nodes
        ours = time.process_time() - t
        theirs = m.group(1) if m else "?"
        print(f"seed {seed}: engine {n} in {ours:.2f} CPU-s ({nodes} nodes); ssxcc {theirs} in "
              f"{peer_s:.2f} CPU-s; {'equal' if str(n) == theirs else 'DIFFERENT'}; ratio "
              f"{peer_s / max(ours, 1e-3):.1f}", flush=True)


def cliff(args: argparse.Namespace) -> None:
    from satiling.backends.cnf import CnfEncoder
    from satiling.families.edgematch.generate import generate
    problem = generate(12, 12, None, None, 1).puzzle().problem()
    print("\n## CNF of a generated 12x12 board (direct encoding)")
    for label, limit in (("pairwise up to 500", 500), ("clause budget", None)):
        enc = CnfEncoder(problem, "pairwise", limit)
        t = time.process_time()
        n = sum(1 for _ in enc.clauses())
        print(f"{label}: pairwise up to {enc.pairwise_limit} literals, {n} clauses, "
              f"{time.process_time() - t:.2f} CPU-s")


def strategies(args: argparse.Namespace) -> None:
    """Nodes to the first solution on generated 7x7 boards (3 + 7 colours, seeds 1 to
    ``--value-seeds``, each in the order of the smallest estimated tree, tight value order) by
    three ways of spending the search: one depth-first search (what solve does); Luby restarts
    (``restarts``, unit ``LUBY_UNIT``); the subtrees below every prefix of ``--prefix-depth``
    squares taken in turns with a node budget doubling per round (restarted from the prefix each
    round).  Then, for ``--profile-seed``, where the depth-first search spends its nodes: per
    depth, the subtrees it exhausts before the choice that leads to its first solution."""
    import math
    from dataclasses import replace
    from satiling.engines import edgematch as em
    from satiling.families.edgematch.generate import generate
    cap = int(args.node_cap)

    def interleaved(eng: "em.Engine", depth: int) -> int:
        jobs = [()]
        for _ in range(depth):
            jobs = [p + (c,) for p in jobs for c in eng.children(p)] or jobs
        budget, total = 1 << 12, 0
        while jobs and total < cap:
            left = []
            for p in jobs:
                found: list = []
                before = eng.nodes
                status = eng.solutions(p, limit=1, on_solution=found.append, max_nodes=budget)
                total += eng.nodes - before
                if found:
                    return total
                if status != "exhausted":
                    left.append(p)
            jobs, budget = left, 2 * budget
        return total

    def lubys(eng: "em.Engine") -> int:
        i = 0
        while eng.nodes < cap:
            i += 1
            found: list = []
            status = eng.solutions(limit=1, on_solution=found.append,
                                   max_nodes=em.luby(i) * em.LUBY_UNIT, seed=em._mix(1, i))
            if found or status == "exhausted":
                break
        return eng.nodes

    print(f"\n## first solution of 7x7 boards (3 + 7 colours): nodes by strategy (cap {cap:.3g})")
    names = ("depth-first", "Luby restarts", f"prefixes of {args.prefix_depth} in turns")
    logs: list[list[float]] = [[], [], []]
    for seed in range(1, args.value_seeds + 1):
        pz = generate(7, 7, 3, 7, seed).puzzle()
        board = replace(em.Engine(em.EdgeBoard(7, 7, tuple(pz.pieces))).board, values="tight")
        dfs = em.Engine(board)
        dfs.solutions(limit=1, max_nodes=cap)
        got = [dfs.nodes, lubys(em.Engine(board)), interleaved(em.Engine(board), args.prefix_depth)]
        for log, n in zip(logs, got):
            log.append(math.log(max(n, 1)))
        print(f"seed {seed} ({board.order}): " + ", ".join(f"{n} {x:.3g}" for n, x in zip(names, got)),
              flush=True)
    for name, log in zip(names, logs):
        print(f"{name}: geometric mean {math.exp(sum(log) / len(log)):.3g}, worst {math.exp(max(log)):.3g}")
    pz = generate(7, 7, 3, 7, args.profile_seed).puzzle()
    board = replace(em.Engine(em.EdgeBoard(7, 7, tuple(pz.pieces))).board, values="tight")
    eng = em.Engine(board)
    path: list[list[int]] = []
    eng.search.run([], 1, 0.0, lambda t: path.append(list(t)))
    print(f"\nseed {args.profile_seed} ({board.order}): first solution after {eng.nodes} nodes; "
          f"subtrees exhausted before it, by depth (square, candidates, rank of the solution's)")
    for d, choice in enumerate(path[0]):
        kids = eng.children(path[0][:d])
        sizes = []
        for c in kids[:kids.index(choice)]:
            sub = em.Engine(board)
            sub.solutions(path[0][:d] + [c])
            sizes.append(sub.nodes + 1)
        if sum(sizes) > 1000:
            print(f"depth {d} {eng.plan.steps[d]}: {len(kids)} candidates, rank {kids.index(choice)}, "
                  f"{sum(sizes):.3g} nodes ({', '.join(f'{x:.2g}' for x in sizes)})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parts", nargs="+",
                    default=["clues", "rate", "counts", "cliff", "oracle", "values", "boards"],
                    choices=("boards", "clues", "rate", "counts", "cliff", "oracle", "values", "peer",
                             "strategies"))
    ap.add_argument("--prefix-depth", type=int, default=4, help="for --parts strategies")
    ap.add_argument("--profile-seed", type=int, default=6, help="for --parts strategies")
    ap.add_argument("--node-cap", type=float, default=2e9, help="for --parts strategies")
    ap.add_argument("--value-seeds", type=int, default=24, help="7x7 boards for --parts values")
    ap.add_argument("--ssxcc", help="Knuth's SSXCC binary, built from the peers (for --parts peer)")
    ap.add_argument("--size", type=int, default=8)
    ap.add_argument("--frame", type=int, default=3)
    ap.add_argument("--inner", type=int, default=8)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    ap.add_argument("--solvers", nargs="+", default=list(SAT), choices=list(SAT),
                    help="engines for the generated boards")
    ap.add_argument("--cap", type=float, default=60.0, help="CPU seconds per solver run")
    ap.add_argument("--rate-seconds", type=float, default=20.0)
    ap.add_argument("--order", default="rows-up", help="search order for the node rate")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for part in args.parts:
            if part in ("boards", "counts", "peer"):
                globals()[part](args, tmp)
            else:
                globals()[part](args)


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
