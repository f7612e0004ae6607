"""IQ-Link's board and pieces: 24 pegs on a hexagonal grid, 12 pieces of three units (balls and
rings), each unit taking some of a peg's 7 slots (the occupancy rule: :mod:`satiling.families.iqlink`)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache


#: axial steps (x right, y down the board)
STEPS: dict[str, tuple[int, int]] = {
    "E": (1, 0), "W": (-1, 0), "NE": (1, -1), "NW": (0, -1), "SE": (0, 1), "SW": (-1, 1),
}
#: the six directions in clockwise order as seen on the board: one turn = one step along this list
CLOCKWISE = ("W", "NW", "NE", "E", "SE", "SW")
#: mirror in the horizontal axis (the flip of a piece)
MIRROR = {"E": "E", "W": "W", "NE": "SE", "SE": "NE", "NW": "SW", "SW": "NW"}
CENTRE = "C"

PEGS = "ABCDEFGHIJKLMNOPQRSTUVWX"
PIECES = "ABCDEFGHIJKL"
ORIENTATIONS = "ABCDEFGHIJKL"


def peg_xy(peg: str) -> tuple[int, int]:
    """Axial coordinates of a peg: (col+1, row) in rows 0-1, (col, row) in rows 2-3."""
    i = PEGS.index(peg)
    row, col = divmod(i, 6)
    return (col + 1 if row < 2 else col, row)


PEG_AT: dict[tuple[int, int], str] = {peg_xy(p): p for p in PEGS}


def step(peg: str, direction: str) -> str | None:
    """The peg one step from ``peg`` in ``direction`` (None off the board)."""
    (x, y), (dx, dy) = peg_xy(peg), STEPS[direction]
    return PEG_AT.get((x + dx, y + dy))


def turn(direction: str, orientation: int) -> str:
    """A piece-frame direction as seen on the board in orientation 0-11 (6-11 are flipped)."""
    if orientation >= 6:
        direction = MIRROR[direction]
    return CLOCKWISE[(CLOCKWISE.index(direction) + orientation) % 6]


# -- pieces ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Unit:
    """One ball or ring of a piece, in the piece's own frame (orientation A)."""

    at: str | None                 # direction from the middle unit; None = the middle unit itself
    kind: str                      # "ball" or "ring"
    dirs: tuple[str, ...]          # a ball's arms, a ring's openings

    def slots(self, orientation: int) -> frozenset[str]:
        """The peg slots this unit takes in an orientation."""
        dirs = {turn(d, orientation) for d in self.dirs}
        if self.kind == "ball":
            return frozenset({CENTRE} | dirs)
        return frozenset(d for d in CLOCKWISE if d not in dirs)


@dataclass(frozen=True)
class Piece:
    letter: str
    name: str                      # colour name (Westerbaan's model)
    family: str                    # line, vee or triangle
    units: tuple[Unit, Unit, Unit]

    @property
    def orientations(self) -> range:
        """Orientation numbers that give distinct placements (the mirror-symmetric line has 6)."""
        return range(6) if self.mirror_symmetric else range(12)

    @property
    def mirror_symmetric(self) -> bool:
        """Whether the flipped piece is the piece turned (then flipped placements repeat turned ones)."""
        flipped = self._frame(6)
        return any(self._frame(k) == flipped for k in range(6))

    def _frame(self, orientation: int) -> frozenset:
        return frozenset((u.at and turn(u.at, orientation), u.kind,
                          frozenset(turn(d, orientation) for d in u.dirs)) for u in self.units)


@lru_cache(maxsize=1)
def pieces() -> dict[str, Piece]:
    """The 12 pieces, read from the bundled ``data/iqlink/pieces.json`` (provenance there)."""
    from ...bundled import instances_dir
    path = instances_dir() / "data" / "iqlink" / "pieces.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    out = {}
    for letter, spec in data["pieces"].items():
        units = tuple(Unit(None if u["at"] == "origin" else u["at"], u["kind"],
                           tuple(u.get("arms", u.get("openings", [])))) for u in spec["units"])
        out[letter] = Piece(letter, spec["name_bwesterb"], spec["family"].split()[0], units)
    return out
