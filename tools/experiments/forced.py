"""The placements in every solution, three ways, on bundled boards and pinned ones.

For each board: the backbone by the compiled exact-cover search under assumptions (``exact``), by
one incremental CaDiCaL under assumptions (``sat``), and by intersecting every solution of the
exact search until the intersection is empty (``enumerate``); the forced placements found (all
three must agree), the questions asked, the solutions met and the seconds (model built, the least
of ``--repeat`` runs).  Then a hint on each board for five seeds: the seconds (model built) and
how many different placements the five revealed.  docs/decisions/2026-11-28-forced-and-hint.md
reads it.

    python tools/experiments/forced.py [--repeat 3] [--limit 120]
"""
from __future__ import annotations

import argparse
import time
from typing import Any

from satiling import catalog
from satiling.families.polyform import PolyformPuzzle
from satiling.search.backbone import Backbone, backbone, backbone_by_enumeration, oracle
from satiling.signals import stop_on

#: (board, pins: how many placements of its first solution are pinned, or the pins themselves)
BOARDS = [("pentomino-6x10", 0), ("pentomino-6x10", 1), ("pentomino-6x10", 3),
          ("pentomino-6x10", [("Z", [(0, 6), (1, 6), (1, 7), (1, 8), (2, 8)])]),
          ("lone-cell", 0), ("pentomino-3x20", 0), ("pentomino-8x8-centre", 0), ("hexiamond-6x6", 0),
          ("hexiamond-6x6", 2), ("tetrahex-4x7", 0), ("soma-cube", 1), ("serenity", 0),
          ("tetromino-cylinder-4x5", 1), ("clue1", 0), ("iqlink-wizard", 0)]


def board(name: str, pins: Any) -> Any:
    if name == "lone-cell":       # the 6x10 and a cell apart, a monomino more: it is forced there
        import satiling
        cells = [(r, c) for r in range(6) for c in range(10)] + [(7, 0)]
        return satiling.Polyform(cells, ["pentominoes", {"name": "M", "cells": [[0, 0]]}], name=name)
    puzzle = catalog.load(name)
    if not pins:
        return puzzle
    if isinstance(pins, list):
        import satiling
        return satiling.Polyform((6, 10), "pentominoes", placed=pins, name=f"{name}+{pins[0][0]}")
    first = puzzle.problem().decode(oracle(puzzle.problem()).first())
    p = puzzle
    return PolyformPuzzle(f"{name}+{pins}", p.lattice, p.region, p.pieces, p.cells_rule, p.pieces_rule,
                          p.title, p.source, p.wrap, sorted(first)[:pins])


def run(puzzle: Any, method: str, limit: float) -> tuple[Backbone, float]:
    start = time.perf_counter()
    problem = puzzle.problem()
    board_ = puzzle.cover_board(problem)
    known = Backbone(method)
    ask = oracle(problem, board_, "sat" if method == "sat" else "exact")
    try:
        with stop_on(limit) as stop:
            stop.arm()
            find = backbone_by_enumeration if method == "enumerate" else backbone
            find(problem, ask, known, lambda sol: puzzle.verify(problem.decode(sol)))
    finally:
        ask.close()
    if stop.reason:
        known.method += f" (stopped: {stop.reason})"
    return known, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--limit", type=float, default=120.0)
    args = ap.parse_args()
    print("| board | method | forced | questions | solutions met | seconds |")
    print("|---|---|---|---|---|---|")
    for name, pins in BOARDS:
        puzzle = board(name, pins)
        answers = {}
        for method in ("exact", "sat", "enumerate"):
            if method != "sat" and oracle(puzzle.problem()).name != "exact":
                continue
            runs = [run(puzzle, method, args.limit) for _ in range(args.repeat)]
            known, seconds = runs[0][0], min(s for _, s in runs)
            answers[method] = sorted(known.forced) if known.complete else None
            print(f"| {puzzle.name} | {known.method} | {len(known.forced)}{'' if known.complete else '+?'} | "
                  f"{known.questions} | {known.solutions} | {seconds:.3f} |", flush=True)
        done = [a for a in answers.values() if a is not None]
        assert all(a == done[0] for a in done), (name, answers)
    print("\n| board | hint seconds (5 seeds) | different placements |")
    print("|---|---|---|")
    from satiling.run.forced import hint
    for name, pins in BOARDS:
        puzzle = board(name, pins)
        shown, times = set(), []
        for seed in range(5):
            start = time.perf_counter()
            shown.add(hint(puzzle, seed).placement)
            times.append(time.perf_counter() - start)
        print(f"| {puzzle.name} | {' '.join(f'{t:.2f}' for t in times)} | {len(shown)} |", flush=True)


if __name__ == "__main__":
    main()
