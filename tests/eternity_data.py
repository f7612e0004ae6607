"""The Eternity data's own solutions, read in the data's (tile, rotate, reflect, base_ij) convention
(a helper of the tests, not a test module; see instances/data/eternity/SOURCE.md)."""
from __future__ import annotations

import json
from pathlib import Path

from satiling.catalog import instances_dir
from satiling.families.polyform import PolyformPlacement
from satiling.errors import SatilingError
from satiling.geometry.drafter import cells_from_word


def corner_ab(i: int, j: int) -> tuple[int, int]:
    """The hexagon ``(a, b)`` centred at the corner with Burkardt coordinates ``(i, j)``."""
    if j % 6 or (i - j // 3) % 4:
        raise SatilingError(f"({i}, {j}) is not a corner of the unit-triangle grid")
    return ((i - j // 3) // 4, j // 6)


DATA = Path(instances_dir()) / "data" / "eternity"
TILES = json.loads((DATA / "tiles_boundary_words.json").read_text())["tiles"]
PUZZLES = json.loads((DATA / "puzzles.json").read_text())["puzzles"]


def data_solution(puzzle, entries) -> list[PolyformPlacement]:
    """A solution from the data's (tile, rotate, reflect, base_ij) convention: draw the tile's word
    from the corner (0, 0), rotate by 60 degrees * rotate, then mirror (i, j) -> (i, -j), then move
    the base point to base_ij."""
    lat = puzzle.lattice
    by_name = {t.name: t for t in lat.transforms()}
    out = []
    for e in entries:
        cells = cells_from_word(TILES[str(e["tile"])])
        turn = by_name["identity" if e["rotate"] == 0 else f"rot{60 * e['rotate']}"]
        cells = [turn.apply(c) for c in cells]
        if e["reflect"]:
            cells = [by_name["mirror-rot0"].apply(c) for c in cells]
        t = corner_ab(*e["base_ij"])
        out.append(PolyformPlacement(str(e["tile"]), tuple(sorted(lat.shift(c, t) for c in cells))))
    return out
