"""Pinned pieces as units of the whole model, or as units with the clashing placements left out.

For a few bundled boards with pins taken from one of their solutions, builds both models and
prints their sizes (placement variables, DIMACS clauses with the pairwise at-most-one) and the
work of a raw count by the compiled exact-cover search (nodes, seconds) and of one solve by
CaDiCaL (seconds, the least of three runs: the CNF built and solved).  satiling builds the
second: docs/decisions/2026-11-28-forced-and-hint.md ("Pins").

    python tools/experiments/pins_model.py
"""
from __future__ import annotations

import time

from satiling import catalog
from satiling.backends.cnf import to_cnf
from satiling.engines.exactcover import ExactCover, matrix_of
from satiling.families.polyform import PolyformPuzzle
from satiling.search.solve import solve

#: (board, how many of its first solution's placements are pinned)
CASES = [("pentomino-6x10", 1), ("pentomino-6x10", 3), ("hexiamond-6x6", 1), ("soma-cube", 1),
         ("pentomino-8x8-centre", 2), ("tetromino-cylinder-4x5", 1)]


def pinned(name: str, k: int) -> tuple[PolyformPuzzle, PolyformPuzzle]:
    """(the board with its first solution's first k placements pinned, the same board unpinned)."""
    free = catalog.load(name)
    first = solve(free.problem(), "cadical")
    pins = sorted(free.problem().decode(first.true_vars))[:k]
    p = free
    return PolyformPuzzle(p.name, p.lattice, p.region, p.pieces, p.cells_rule, p.pieces_rule,
                          p.title, p.source, p.wrap, pins), free


def units_only(pinned_puzzle: PolyformPuzzle, free: PolyformPuzzle):
    """The whole model of the unpinned board, each pin a unit."""
    prob = free.problem()
    var_of = {prob.meanings[v]: v for v in prob.primary_vars()}
    for pl in pinned_puzzle.placed:
        prob.fix(var_of[pl])
    return prob


def measure(puzzle: PolyformPuzzle, prob) -> dict[str, float]:
    cnf = to_cnf(prob)
    matrix = matrix_of(prob, puzzle.cover_board(prob))
    engine = ExactCover(matrix)
    t = time.perf_counter()
    n = engine.count()
    count_s = time.perf_counter() - t
    times = []
    for _ in range(3):                        # the least of three: the machine is shared
        t = time.perf_counter()
        result = solve(prob, "cadical")
        times.append(time.perf_counter() - t)
    solve_s = min(times)
    return {"vars": prob.num_vars, "clauses": len(cnf.clauses), "count": n,
            "nodes": engine.stats().nodes, "count_s": count_s, "solve_s": solve_s,
            "status": result.status}


def main() -> None:
    print("| board | pins | model | placements | clauses | raw count | nodes | count s | CaDiCaL s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, k in CASES:
        puzzle, free = pinned(name, k)
        for label, prob in (("units only", units_only(puzzle, free)), ("units, clashes out", puzzle.problem())):
            m = measure(puzzle, prob)
            print(f"| {name} | {k} | {label} | {m['vars']} | {m['clauses']} | {m['count']} | {m['nodes']} | "
                  f"{m['count_s']:.3f} | {m['solve_s']:.3f} |")


if __name__ == "__main__":
    main()
