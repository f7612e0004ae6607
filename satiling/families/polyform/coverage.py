"""What the placements can reach: pieces that fit nowhere, cells no piece covers, cut-off parts.

Three cheap arguments, from the placements alone, that a board cannot be tiled (or how much of it
a packing can fill at most):

* a piece that fits nowhere (no placement at all) can never be used;
* a cell that no placement covers stays empty in every packing;
* the cells that placements do cover fall apart into *parts* that no placement crosses (a cell cut
  off by a wall of holes, a corridor too narrow for any piece); each part holds pieces whose areas
  add up to at most its size, so a part whose size is no sum of the areas of the pieces that fit in
  it can never be filled.

``solve``, ``count`` and ``enumerate`` give these as the reason for "no solution" before any
search (with the parity argument, :mod:`.parity`); ``pack`` turns them into an upper bound on the
pieces placed or the cells covered, and names the pieces that fit nowhere.

    >>> max_sum({5: 12}, 59), most_by_area({5: 12}, 59)
    (55, 11)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Iterable

Cell = tuple[int, ...]


@dataclass(frozen=True)
class Part:
    """Cells no placement joins to the rest, and the pieces (name -> copies) with a placement
    inside; ``sizes``: area -> copies of those pieces."""

    cells: frozenset[Cell]
    pieces: dict[str, int] = field(hash=False)
    sizes: dict[int, int] = field(hash=False)

    def corner(self) -> Cell:
        return min(self.cells)

    def most_cells(self) -> int:
        """The most cells the pieces that fit here can cover (a subset sum at most the size)."""
        return max_sum(self.sizes, len(self.cells))


@dataclass(frozen=True)
class Coverage:
    """``unplaced``: pieces with no placement; ``uncovered``: region cells no placement covers;
    ``parts``: the covered cells, split where no placement crosses (largest first)."""

    unplaced: tuple[str, ...]
    uncovered: tuple[Cell, ...]
    parts: tuple[Part, ...]


def coverage(puzzle: Any) -> Coverage:
    """The coverage of a polyform puzzle's placements (cheaper than building them;
    measurements: docs/decisions/2026-11-27-models-and-encodings.md)."""
    placements = puzzle.placements()
    covered = set(chain.from_iterable(pl.cells for pl in placements))
    placed = {pl.piece for pl in placements}
    unplaced = tuple(p.name for p in puzzle.pieces if p.name not in placed)
    uncovered = tuple(sorted(puzzle.region - covered))
    if all(_connected(puzzle, p.shape) for p in puzzle.pieces):
        part_of = _lattice_parts(puzzle, covered)      # every placement lies in one part
    else:
        part_of = _placement_parts(placements, covered)
    pieces: dict[int, dict[str, int]] = {}
    count = {p.name: p.count for p in puzzle.pieces}
    area = {p.name: len(p.shape) for p in puzzle.pieces}
    for pl in placements:
        pieces.setdefault(part_of[pl.cells[0]], {})[pl.piece] = count[pl.piece]
    cells: dict[int, set[Cell]] = {}
    for cell, k in part_of.items():
        cells.setdefault(k, set()).add(cell)
    parts = []
    for k, members in cells.items():
        inside = pieces.get(k, {})
        sizes: dict[int, int] = {}
        for name, n in inside.items():
            sizes[area[name]] = sizes.get(area[name], 0) + n
        parts.append(Part(frozenset(members), inside, sizes))
    parts.sort(key=lambda p: (-len(p.cells), p.corner()))
    return Coverage(unplaced, uncovered, tuple(parts))


def coverage_obstruction(puzzle: Any) -> str | None:
    """Why the rules cannot be met, from the coverage alone, in one line (None: no such reason)."""
    cover = puzzle.coverage()
    if puzzle.pieces_rule == "exact" and cover.unplaced:
        return f"{named(cover.unplaced)} {'fits' if len(cover.unplaced) == 1 else 'fit'} nowhere on the board"
    if puzzle.cells_rule != "exact":
        placeable = sum(len(p.shape) * p.count for p in puzzle.pieces)
        room = len(puzzle.region) - len(cover.uncovered)
        if puzzle.pieces_rule == "exact" and placeable > room:
            return (f"the pieces cover {placeable} cells, but placements reach only {room} "
                    f"({cells_named(cover.uncovered)} covered by no placement)")
        return None
    if cover.uncovered:
        return f"{cells_named(cover.uncovered)} covered by no placement"
    for part in cover.parts:
        if len(cover.parts) > 1 and part.most_cells() < len(part.cells):
            return (f"the part of {len(part.cells)} cells at {part.corner()}, cut off from the rest, "
                    f"is no sum of the areas of the pieces that fit in it")
    return None


def named(pieces: Iterable[str], most: int = 6) -> str:
    """``X``, ``X and Y``, ``X, Y, Z and 4 more``: pieces for a message."""
    names = [str(n) for n in pieces]
    if len(names) > most:
        names = names[:most - 1] + [f"{len(names) - most + 1} more"]
    words = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
    return ("piece " if len(names) == 1 else "pieces ") + words


def cells_named(cells: tuple[Cell, ...], most: int = 4) -> str:
    """``cell (0, 10) is`` / ``cells (0, 9), (0, 10) and 3 more are``."""
    shown = ", ".join(str(c) for c in cells[:most])
    if len(cells) == 1:
        return f"cell {shown} is"
    more = f" and {len(cells) - most} more" if len(cells) > most else ""
    return f"cells {shown}{more} are"


# -- sums of areas ------------------------------------------------------------------------------
def max_sum(sizes: dict[int, int], limit: int) -> int:
    """The largest sum of areas (each area used at most its number of copies) not above ``limit``:
    a bit set of reachable sums, one shift per copy (copies beyond ``limit // area`` never help)."""
    reach, mask = 1, (1 << (limit + 1)) - 1
    for area, copies in sorted(sizes.items()):
        for _ in range(min(copies, limit // max(area, 1))):
            reach = (reach | (reach << area)) & mask
    return reach.bit_length() - 1


def most_by_area(sizes: dict[int, int], limit: int) -> int:
    """The most pieces whose areas add up to at most ``limit`` (the smallest first is best)."""
    n = 0
    for area, copies in sorted(sizes.items()):
        take = min(copies, limit // area) if area else copies
        n, limit = n + take, limit - take * area
        if take < copies:
            break
    return n


# -- parts --------------------------------------------------------------------------------------
def _connected(puzzle: Any, shape: Iterable[Cell]) -> bool:
    cells = {tuple(c) for c in shape}
    return len(_flood(next(iter(cells)), cells, puzzle.lattice.neighbors)) == len(cells) if cells else True


def _lattice_parts(puzzle: Any, covered: set[Cell]) -> dict[Cell, int]:
    """Covered cells by part: edge neighbours (across the seams of a wrapped board) joined."""
    neighbours = puzzle.wrap.neighbors if puzzle.wrap is not None else puzzle.lattice.neighbors
    part_of: dict[Cell, int] = {}
    k = 0
    for cell in sorted(covered):
        if cell not in part_of:
            for member in _flood(cell, covered, neighbours):
                part_of[member] = k
            k += 1
    return part_of


def _flood(start: Cell, cells: set[Cell], neighbours) -> set[Cell]:
    seen, stack = {start}, [start]
    while stack:
        for n in neighbours(stack.pop()):
            n = tuple(n)
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen


def _placement_parts(placements: list[Any], covered: set[Cell]) -> dict[Cell, int]:
    """Covered cells by part, joined by placements (pieces that are not in one piece themselves)."""
    parent = {c: c for c in covered}

    def root(c: Cell) -> Cell:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c
    for pl in placements:
        first = root(pl.cells[0])
        for c in pl.cells[1:]:
            r = root(c)
            if r != first:
                parent[r] = first
    number: dict[Cell, int] = {}
    return {c: number.setdefault(root(c), len(number)) for c in sorted(covered)}
