"""A polyform board as the exact-cover engine's items, for its pocket cut: every cell an item of
the problem, with its neighbours, and the pieces' areas (the search cuts a branch that leaves a
pocket of cells no set of the remaining pieces can fill)."""
from __future__ import annotations

from typing import Any, Sequence

from ...engines.exactcover import Board
from ...problem import Problem


def cover_board(puzzle: Any, problem: Problem) -> Board | None:
    """The cells of a polyform board as items of the problem, with their neighbours and the pieces'
    areas, for the pocket cut (None: not a board whose every cell must be covered).

    Cells are numbered along the board's longer side first, so that the search fills the short
    side: 6x10 column by column (de Bruijn's order; row by row visits more nodes:
    docs/decisions/2026-11-29-figures-from-the-code.md)."""
    lattice, region = puzzle.lattice, puzzle.region
    if puzzle.cells_rule != "exact":
        return None
    lits_of: dict[Any, list[int]] = {c: [] for c in region}
    for v in problem.primary_vars():
        for c in getattr(problem.meanings[v], "cells", ()):
            if c in lits_of:
                lits_of[c].append(v)
    items_of: dict[frozenset[int], list[int]] = {}     # two cells may have the same placements
    for i, g in enumerate(problem.groups):
        if g.lo == g.hi == 1:
            items_of.setdefault(frozenset(g.lits), []).append(i)
    centre = {c: _centroid(lattice.polygon(c)) for c in region}
    xs, ys = [x for x, _ in centre.values()], [y for _, y in centre.values()]
    long_x = max(xs) - min(xs) >= max(ys) - min(ys)
    cells = sorted(region, key=lambda c: centre[c] if long_x else centre[c][::-1])
    items = [(items_of.get(frozenset(lits_of[c])) or [None]).pop() for c in cells]
    if any(i is None for i in items) or len(set(items)) != len(items):
        return None
    pos = {c: k for k, c in enumerate(cells)}
    areas: dict[int, int] = {}
    for piece in puzzle.pieces:
        areas[len(piece.shape)] = areas.get(len(piece.shape), 0) + piece.count
    glued = puzzle.wrap                            # a cylinder or torus: neighbours across the seam
    neighbours = glued.neighbors if glued is not None else lattice.neighbors
    # (a wrapped side of length 1 makes a cell its own neighbour, or the same neighbour twice)
    near = [sorted({pos[n] for n in neighbours(c) if n in pos} - {pos[c]}) for c in cells]
    return Board(items, near, areas)


def _centroid(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return (round(sum(p[0] for p in points) / len(points), 6),
            round(sum(p[1] for p in points) / len(points), 6))
