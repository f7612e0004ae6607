"""Pictures for the terminal."""
from __future__ import annotations

from typing import Any


def letters(names: list[str]) -> dict[str, str]:
    """One character per piece name: its first letter when unique, else a free letter or digit."""
    pool = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"]
    out: dict[str, str] = {}
    for n in names:
        if len(n) == 1 and n not in out.values():
            out[n] = n
    for n in names:
        if n not in out:
            free = [c for c in ([n[0]] if n else []) + pool if c not in out.values()]
            out[n] = free[0] if free else "?"
    return out


def polyform_text(puzzle: Any, solution: list[Any]) -> str:
    """A grid of piece letters for square-lattice puzzles ('.' = empty cell, ' ' = not in region);
    other lattices get one line per placement."""
    if puzzle.lattice.name != "square":
        return "\n".join(str(p) for p in sorted(solution, key=lambda p: p.sort_key()))
    names = letters([p.name for p in puzzle.pieces])
    grid: dict[tuple[int, int], str] = {c: "." for c in puzzle.region}
    for pl in solution:
        for c in pl.cells:
            grid[tuple(c)] = names.get(pl.piece, "?")
    rows = [r for r, _ in grid]
    cols = [c for _, c in grid]
    lines = []
    for r in range(min(rows), max(rows) + 1):
        lines.append("".join(grid.get((r, c), " ") for c in range(min(cols), max(cols) + 1)).rstrip())
    return "\n".join(lines)
