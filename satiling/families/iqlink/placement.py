"""IQ-Link placements: (peg of the middle unit, piece, orientation) as three letters, the units
they put on pegs, which may share the board, and the linked graph of a solution."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from ...errors import SatilingError
from .geometry import ORIENTATIONS, PEG_AT, PEGS, PIECES, Unit, peg_xy, pieces, step, turn


@dataclass(frozen=True, order=True)
class IQLinkPlacement:
    """Piece ``piece`` with its middle unit on ``peg``, in orientation ``orientation`` (0-11)."""

    piece: str
    peg: str
    orientation: int

    @property
    def code(self) -> str:
        """The three-letter form: peg, piece, orientation (``"BAA"``)."""
        return f"{self.peg}{self.piece}{ORIENTATIONS[self.orientation]}"

    def to_json(self) -> str:
        return self.code

    def sort_key(self) -> tuple:
        return (self.piece, self.peg, self.orientation)

    def __str__(self) -> str:
        return self.code

    def units(self) -> list[tuple[str, Unit, frozenset[str]]] | None:
        """(peg, unit, slots) for the three units, or None if a unit is off the board."""
        return _units(self)

    def occupancy(self) -> dict[str, frozenset[str]] | None:
        """Peg -> slots taken, or None if the placement leaves the board."""
        units = self.units()
        return None if units is None else {peg: slots for peg, _, slots in units}


@lru_cache(maxsize=None)
def _units(pl: IQLinkPlacement) -> list[tuple[str, Unit, frozenset[str]]] | None:
    out = []
    for unit in pieces()[pl.piece].units:
        peg = pl.peg if unit.at is None else step(pl.peg, turn(unit.at, pl.orientation))
        if peg is None:
            return None
        out.append((peg, unit, unit.slots(pl.orientation)))
    return out


def parse_placement(code: str) -> IQLinkPlacement:
    """``"BAA"`` -> a placement (raises SatilingError on malformed or off-board codes)."""
    if not isinstance(code, str):
        raise SatilingError(f"an IQ-Link placement is three letters like 'TFI', not {code!r}")
    # exactly as written: 'tfi' or ' TFI' is a typo to point out, not a placement to guess
    if len(code) != 3 or code[0] not in PEGS or code[1] not in PIECES or code[2] not in ORIENTATIONS:
        raise SatilingError(f"bad IQ-Link placement {code!r}: want peg A-X, piece A-L, orientation A-L")
    pl = IQLinkPlacement(code[1], code[0], ORIENTATIONS.index(code[2]))
    if pl.orientation not in pieces()[pl.piece].orientations:
        raise SatilingError(f"placement {code}: piece {pl.piece} is mirror-symmetric, use orientation A-F")
    if pl.occupancy() is None:
        raise SatilingError(f"placement {code}: piece {pl.piece} leaves the board")
    return pl


def parse_placements(text: str) -> list[IQLinkPlacement]:
    """Placements written back to back (``"BAARBE..."``) or separated by spaces or commas."""
    compact = "".join(ch for ch in text if not ch.isspace() and ch != ",")
    if len(compact) % 3:
        raise SatilingError(f"placement string {text!r} is not a multiple of 3 letters")
    return [parse_placement(compact[i:i + 3]) for i in range(0, len(compact), 3)]


@lru_cache(maxsize=None)
def legal_placements(piece: str) -> tuple[IQLinkPlacement, ...]:
    """Every placement of ``piece`` on the empty board (flip x 6 turns x 24 pegs, off-board ones
    removed; the mirror-symmetric line only unflipped)."""
    return tuple(pl for o in pieces()[piece].orientations for peg in PEGS
                 if (pl := IQLinkPlacement(piece, peg, o)).occupancy() is not None)


def compatible(a: IQLinkPlacement, b: IQLinkPlacement) -> bool:
    """Whether two placements of different pieces may lie on the board together."""
    oa, ob = a.occupancy(), b.occupancy()
    return a.piece != b.piece and all(not (oa[g] & ob[g]) for g in oa.keys() & ob.keys())


def touching(a: IQLinkPlacement, b: IQLinkPlacement) -> bool:
    """Whether two placements share a peg (on a legal board: a ball of one sits in a ring of the other)."""
    return bool(a.occupancy().keys() & b.occupancy().keys())


def rotate_180(pl: IQLinkPlacement) -> IQLinkPlacement:
    """The placement turned half way round the board's centre (the board's only symmetry)."""
    x, y = peg_xy(pl.peg)
    return IQLinkPlacement(pl.piece, PEG_AT[(6 - x, 3 - y)], (pl.orientation + 3) % 6 + 6 * (pl.orientation >= 6))


def link_components(solution: Iterable[IQLinkPlacement]) -> list[list[IQLinkPlacement]]:
    """The pieces of a solution grouped into linked components (largest first)."""
    import networkx as nx
    sol = list(solution)
    g = nx.Graph()
    g.add_nodes_from(sol)
    g.add_edges_from((a, b) for i, a in enumerate(sol) for b in sol[i + 1:] if touching(a, b))
    return sorted((sorted(c) for c in nx.connected_components(g)), key=lambda c: (-len(c), c))
