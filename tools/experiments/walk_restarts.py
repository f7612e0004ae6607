"""One tiling by the walk with randomised restarts (for the large polydrafter boards).

The walk of ``satiling.engines.exactcover_ref`` decides on the most constrained group and tries its placements
in order.  Here ties between groups are broken at random, placements are tried in random order,
and each try stops after a node budget that grows by 30% per restart: a search whose early choices
were unlucky is abandoned instead of exhausted (heavy tails).  Every tiling found is checked by the
puzzle's verifier and written as a JSON line that ``satiling verify NAME FILE`` re-checks.

    python tools/experiments/walk_restarts.py tortoise --seconds 60
    python tools/experiments/walk_restarts.py pram --seconds 1200 --seed 2 --out pram.jsonl
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from satiling import load  # noqa: E402
from satiling.engines.exactcover_ref import Walk  # noqa: E402


class OutOfBudget(Exception):
    pass


def search(walk: Walk, alive: int, open_groups: frozenset[int], chosen: list[int],
           rng: random.Random, budget: int) -> list[int] | None:
    """The walk's ``_fast`` with random tie-breaks and order, stopping after ``budget`` nodes."""
    walk.nodes += 1
    if walk.nodes > budget:
        raise OutOfBudget
    if not open_groups:
        return list(chosen)
    best, fewest = [], 1 << 30
    for g in open_groups:
        c = (alive & walk.masks[g]).bit_count()
        if c == 0:
            return None
        if c < fewest:
            best, fewest = [g], c
        elif c == fewest:
            best.append(g)
    rows, order = alive & walk.masks[rng.choice(best)], []
    while rows:
        low = rows & -rows
        rows ^= low
        order.append(low.bit_length() - 1)
    rng.shuffle(order)
    for i in order:
        chosen.append(i)
        found = search(walk, alive & ~walk.conflicts[i], open_groups - walk.row_groups[i], chosen, rng, budget)
        if found:
            return found
        chosen.pop()
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("name")
    ap.add_argument("--seconds", type=float, default=600, help="CPU seconds to try (default 600)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="append the tiling found to this JSON Lines file")
    args = ap.parse_args()
    sys.setrecursionlimit(20000)
    puzzle = load(args.name)
    problem = puzzle.problem()
    walk, rng = Walk(problem), random.Random(args.seed)
    start, budget, tries, nodes = time.process_time(), 200, 0, 0
    while time.process_time() - start < args.seconds:
        walk.nodes, tries = 0, tries + 1
        try:
            found = search(walk, (1 << walk.n) - 1, frozenset(range(len(walk.masks))), [], rng, budget)
        except OutOfBudget:
            nodes, budget = nodes + walk.nodes, int(budget * 1.3)
            continue
        if found is None:
            print(f"{args.name}: no tiling (the whole tree was searched)")
            return 1
        solution = problem.decode(frozenset(i + 1 for i in found))
        puzzle.verify(solution)
        cpu = time.process_time() - start
        print(f"{args.name}: tiling found and verified after {tries} tries, {nodes + walk.nodes} nodes, "
              f"{cpu:.1f} CPU-s (seed {args.seed})")
        if args.out:
            with open(args.out, "a") as f:
                f.write(json.dumps({"puzzle": args.name, "placements": [p.to_json() for p in solution]}) + "\n")
        return 0
    print(f"{args.name}: none found in {args.seconds:.0f} CPU-s ({tries} tries, {nodes} nodes, seed {args.seed})")
    return 3


if __name__ == "__main__":
    raise SystemExit(main())
