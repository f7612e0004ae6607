"""Experiment: the scoring search's schedule of breaks chosen by a model (issue 42), as Verhaard
chose eii's: a Markov chain over (depth, breaks used) whose steps are the expected numbers of ways
to fill the square at that depth whole or with one broken join, the schedule the one that
maximises the boards reached (at most ``cap`` breaks) per node spent.

The step rates come from Owen's probability model (each join matches with the chance that two
random sides of its kind -- rim or inner -- share a colour; the pieces left of the square's kind
and their rotations are the candidates), extended to one broken join per square.  The schedule for
a cap is found by coordinate descent on the depths at which each further break is allowed,
starting from the default curve's; each cap's schedule is computed once, when the search first
needs it (a better board lowers the cap).

    python tools/experiments/e2_markov.py --show 17            # the schedule for 17 breaks
    python tools/experiments/e2_markov.py --seconds 120 --seeds 1-6 --jobs 2

Each seed runs ``--maximize-matches backtrack`` on one core for that many CPU seconds with the
default tuning but the schedule; every best board is re-scored by ``satiling score``.
"""
from __future__ import annotations

import argparse
import functools
import json
import multiprocessing as mp
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from satiling import catalog
from satiling.apps.maximize import Tuning, default_tuning, maximize_matches


def rates(puzzle) -> tuple[np.ndarray, np.ndarray]:
    """(a0, a1) per depth of the row scan from the bottom-left: the expected ways to fill the
    square whole and with exactly one broken join."""
    n, R, C = puzzle.rows * puzzle.cols, puzzle.rows, puzzle.cols
    kind = {}
    for r in range(R):
        for c in range(C):
            kind[r, c] = (r in (0, R - 1)) + (c in (0, C - 1))   # 0 inner, 1 edge, 2 corner
    rim, inner = Counter(), Counter()
    for p in puzzle.pieces:
        greys = [i for i, x in enumerate(p) if x == 0]
        for i, x in enumerate(p):
            if x == 0:
                continue
            # a side next to a grey one runs along the rim; the rest meet inside
            along = any((i - g) % 4 in (1, 3) for g in greys)
            (rim if along else inner)[x] += 1
    p_rim = sum(v * v for v in rim.values()) / sum(rim.values()) ** 2
    p_inner = sum(v * v for v in inner.values()) / sum(inner.values()) ** 2
    left = Counter(kind[r, c] for r in range(R) for c in range(C))
    pinned = {(t.row, t.col) for t in puzzle.fixed}
    for sq in pinned:
        left[kind[sq]] -= 1
    a0, a1 = np.zeros(n), np.zeros(n)
    for d in range(n):
        r, c = R - 1 - d // C, d % C
        joins = []
        if c > 0:                                   # the west join: along the rim on rows 0, R-1
            joins.append(p_rim if r in (0, R - 1) else p_inner)
        if r < R - 1:                               # the south join: along the rim on columns 0, C-1
            joins.append(p_rim if c in (0, C - 1) else p_inner)
        if (r, c) in pinned:
            cands = 1.0
        else:
            cands = left[kind[r, c]] * (4 if kind[r, c] == 0 else 1)
            left[kind[r, c]] -= 1
        whole = float(np.prod(joins)) if joins else 1.0
        one = sum((1 - joins[i]) * float(np.prod(joins[:i] + joins[i + 1:])) for i in range(len(joins)))
        a0[d], a1[d] = cands * whole, cands * one
    return a0, a1


def merit(a0: np.ndarray, a1: np.ndarray, allow: np.ndarray, cap: int) -> float:
    """log(boards with at most ``cap`` breaks / nodes) when depth d allows ``allow[d]`` breaks."""
    e = np.zeros(cap + 1)
    e[0] = 1.0
    nodes = 0.0
    for d in range(len(a0)):
        nxt = e * a0[d]
        nxt[1:] += e[:-1] * a1[d]
        nxt[allow[d] + 1:] = 0.0
        e = nxt
        nodes += e.sum()
    return float(np.log(e.sum()) - np.log(nodes))


def allowance(slips: list[int], n: int) -> np.ndarray:
    allow = np.zeros(n, dtype=int)
    for s in slips:
        allow[s:] += 1
    return allow


@functools.lru_cache(maxsize=None)
def schedule(cap: int, n: int = 256) -> tuple[int, ...]:
    """The depths at which each of ``cap`` breaks is first allowed, by coordinate descent from
    the default curve's."""
    e2 = catalog.load("eternity2")
    a0, a1 = rates(e2)
    held = default_tuning(e2).held(n, cap)
    allow = [cap - h for h in held]
    slips = sorted(d for d in range(n) for _ in range(allow[d] - (allow[d - 1] if d else 0)))
    slips = (slips + [n - 1] * cap)[:cap]
    best = merit(a0, a1, allowance(slips, n), cap)
    improved = True
    while improved:
        improved = False
        for i in range(cap):
            lo = slips[i - 1] if i else 0
            hi = slips[i + 1] if i + 1 < cap else n - 1
            for s in range(lo, hi + 1):
                trial = slips[:i] + [s] + slips[i + 1:]
                m = merit(a0, a1, allowance(trial, n), cap)
                if m > best + 1e-9:
                    best, slips, improved = m, trial, True
    return tuple(slips)


#: the caps the model schedules (computed before the searches start, so no search pays for them)
MODEL_CAPS = range(8, 31)


@dataclass
class ModelTuning(Tuning):
    """The default tuning with the model's schedule for each cap."""

    def held(self, n: int, cap: int, pins: list[int] = ()) -> list[int]:
        if cap > MODEL_CAPS[-1]:                # the first, loose boards: the default curve
            return super().held(n, cap, pins)
        allow = allowance(list(schedule(cap, n)), n)
        return [max(0, cap - int(a) - sum(p <= d + 1 for p in pins)) for d, a in enumerate(allow)]


def one_seed(args: tuple[int, float, str]) -> dict:
    seed, seconds, folder = args
    from satiling.render.edgematch_svg import board_text
    e2 = catalog.load("eternity2")
    base = default_tuning(e2)
    tuning = ModelTuning(**{f: getattr(base, f) for f in base.__dataclass_fields__})
    trace = []
    result = maximize_matches(e2, seconds, lambda imp: trace.append((imp.score, round(imp.seconds, 1))),
                              engine="backtrack", seed=seed, cpu_time=True, tuning=tuning, workers=1)
    path = Path(folder) / f"seed{seed}.txt"
    path.write_text(board_text(e2, e2.board_from(result.solution)) + "\n")
    scored = subprocess.run([sys.executable, "-m", "satiling.cli", "score", "eternity2", str(path)],
                            capture_output=True, text=True).stdout
    return {"seed": seed, "score": result.score, "scored": scored.strip(), "trace": trace[-4:]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--show", type=int, help="print the schedule for this many breaks")
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--seeds", default="1-6")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    if a.show is not None:
        e2 = catalog.load("eternity2")
        r0, r1 = rates(e2)
        s = schedule(a.show)
        held = default_tuning(e2).held(256, a.show)
        default_allow = np.array([a.show - h for h in held])
        print("model slips:", list(s))
        print(f"merit model {merit(r0, r1, allowance(list(s), 256), a.show):.3f}, "
              f"default {merit(r0, r1, default_allow, a.show):.3f}")
        return
    lo, _, hi = a.seeds.partition("-")
    seeds = range(int(lo), int(hi or lo) + 1)
    folder = tempfile.mkdtemp(prefix="e2markov-")
    for cap in MODEL_CAPS:              # inherited by the forked searches
        schedule(cap)
    with mp.get_context("fork").Pool(a.jobs) as pool:
        rows = pool.map(one_seed, [(s, a.seconds, folder) for s in seeds], chunksize=1)
    for row in rows:
        print(json.dumps(row))
    print(f"mean {np.mean([r['score'] for r in rows]):.2f}; boards in {folder}")


if __name__ == "__main__":
    main()
