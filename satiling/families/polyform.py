"""Polyforms on any lattice: pieces made of cells, packed into a region.

An instance is a region (a set of cells) and pieces (shapes with a multiplicity and a freedom:
``free`` may be turned over, ``one-sided`` only rotated, ``fixed`` only translated).  A placement is
one piece on one set of cells.  The model is Knuth's exact cover: one Boolean per placement, every
cell covered once (or at most once, when there is more room than pieces), every piece used its number
of times (or at most that, when there are more pieces than room).

The verifier re-derives everything from cells: it never looks at a :class:`~satiling.problem.Problem`.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable

from ..errors import SatilingError, VerificationError
from ..geometry import Cell, Lattice, Shape, lattice as make_lattice
from ..options import check_known
from ..problem import Problem
from .base import Puzzle

FREEDOMS = ("free", "one-sided", "fixed")


@dataclass(frozen=True)
class Piece:
    """A shape with a name, how many copies there are, and how it may move."""

    name: str
    shape: Shape
    count: int = 1
    freedom: str = "free"


@dataclass(frozen=True, order=True)
class PolyformPlacement:
    """Piece ``piece`` on the sorted cells ``cells``."""

    piece: str
    cells: tuple[Cell, ...]

    def to_json(self) -> dict[str, Any]:
        return {"piece": self.piece, "cells": [list(c) for c in self.cells]}

    def sort_key(self) -> tuple:
        return (self.piece, self.cells)

    def __str__(self) -> str:
        return f"{self.piece} {' '.join(','.join(map(str, c)) for c in self.cells)}"


class PolyformPuzzle(Puzzle):
    """Pieces of a lattice packed into a region."""

    family = "polyform"

    def __init__(self, name: str, lattice: Lattice, region: Iterable[Cell], pieces: list[Piece],
                 cells_rule: str = "exact", pieces_rule: str = "exact", title: str = "",
                 source: str = "") -> None:
        self.name, self.title, self.source = name, title, source
        self.lattice = lattice
        self.region = frozenset(tuple(c) for c in region)
        self.pieces = pieces
        self.by_name = {p.name: p for p in pieces}
        if len(self.by_name) != len(pieces):
            raise SatilingError(f"{name}: two pieces share a name")
        if cells_rule not in ("exact", "at-most") or pieces_rule not in ("exact", "at-most"):
            raise SatilingError(f"{name}: rules must be 'exact' or 'at-most'")
        self.cells_rule, self.pieces_rule = cells_rule, pieces_rule
        self._placements: list[PolyformPlacement] | None = None
        self._orientations: dict[str, list[Shape]] = {}
        self._symmetries: list | None = None

    # -- geometry ---------------------------------------------------------------------------
    def orientations(self, piece: Piece) -> list[Shape]:
        """The shapes a piece may take (deduplicated: the X pentomino has one)."""
        if piece.name not in self._orientations:
            if piece.freedom == "fixed":
                shapes = [self.lattice.normalize(piece.shape)]
            else:
                shapes = self.lattice.orientations(piece.shape, reflections=piece.freedom == "free")
            self._orientations[piece.name] = shapes
        return self._orientations[piece.name]

    def placements(self) -> list[PolyformPlacement]:
        """Every way to put every piece inside the region."""
        if self._placements is None:
            out = []
            for piece in self.pieces:
                for shape in self.orientations(piece):
                    out.extend(PolyformPlacement(piece.name, cells)
                               for cells in self.lattice.fits(shape, self.region))
            self._placements = out
        return self._placements

    # -- model -------------------------------------------------------------------------------
    def problem(self, **options: Any) -> Problem:
        """The exact-cover model: one primary variable per placement."""
        check_known(self.family, options, {"parity"})
        prob = Problem(self.name)
        by_cell: dict[Cell, list[int]] = {c: [] for c in sorted(self.region)}
        by_piece: dict[str, list[int]] = {p.name: [] for p in self.pieces}
        for pl in self.placements():
            v = prob.new_var(pl, primary=True)
            by_piece[pl.piece].append(v)
            for c in pl.cells:
                by_cell[c].append(v)
        for piece in self.pieces:
            lo = piece.count if self.pieces_rule == "exact" else 0
            prob.cardinality(by_piece[piece.name], lo, piece.count, name=f"piece {piece.name}")
        for cell, lits in by_cell.items():
            lo = 1 if self.cells_rule == "exact" else 0
            prob.cardinality(lits, lo, 1, name=f"cell {','.join(map(str, cell))}")
        if options.get("parity"):
            from .parity import add_parity
            add_parity(prob, self)
        return prob

    # -- verification ----------------------------------------------------------------------
    def verify(self, solution: list[Any]) -> None:
        """Check cells, shapes and counts from the geometry alone."""
        used: Counter[str] = Counter()
        covered: Counter[Cell] = Counter()
        for pl in solution:
            piece = self.by_name.get(pl.piece)
            if piece is None:
                raise VerificationError(f"unknown piece {pl.piece!r}")
            cells = [tuple(c) for c in pl.cells]
            outside = [c for c in cells if c not in self.region]
            if outside:
                raise VerificationError(f"piece {pl.piece} leaves the board at {outside[0]}")
            if self.lattice.normalize(cells) not in self.orientations(piece):
                raise VerificationError(f"cells given for piece {pl.piece} do not have its shape")
            used[pl.piece] += 1
            covered.update(cells)
        twice = [c for c, n in covered.items() if n > 1]
        if twice:
            raise VerificationError(f"cell {twice[0]} is covered {covered[twice[0]]} times")
        if self.cells_rule == "exact" and len(covered) != len(self.region):
            missing = sorted(self.region - set(covered))[0]
            raise VerificationError(f"cell {missing} is not covered")
        for piece in self.pieces:
            n = used[piece.name]
            if n > piece.count or (self.pieces_rule == "exact" and n != piece.count):
                raise VerificationError(f"piece {piece.name} used {n} times, allowed {piece.count}")

    # -- symmetry ----------------------------------------------------------------------------
    def symmetries(self) -> list:
        """Motions of the region that map the set of legal placements onto itself."""
        if self._symmetries is None:
            self._symmetries = [self._motion(tr, t)
                                for tr, t in self.lattice.region_symmetries(self.region)
                                if all(self._piece_invariant(piece, tr) for piece in self.pieces)]
        return self._symmetries

    def _piece_invariant(self, piece: Piece, tr) -> bool:
        shapes = set(self.orientations(piece))
        return {self.lattice.normalize(tr.apply(c) for c in s) for s in shapes} == shapes

    def _motion(self, tr, t):
        lat = self.lattice

        def move(pl: PolyformPlacement) -> PolyformPlacement:
            return PolyformPlacement(pl.piece, tuple(sorted(lat.shift(tr.apply(c), t) for c in pl.cells)))
        return move

    # -- input / output ------------------------------------------------------------------------
    def placement_from_json(self, data: Any) -> PolyformPlacement:
        try:
            return PolyformPlacement(str(data["piece"]),
                                     tuple(sorted(tuple(int(x) for x in c) for c in data["cells"])))
        except (KeyError, TypeError, ValueError):
            raise SatilingError("a placement must look like {\"piece\": NAME, \"cells\": [[..], ..]}") from None

    def text(self, solution: list[Any]) -> str:
        from ..render.text import polyform_text
        return polyform_text(self, solution)

    def svg(self, solution: list[Any]) -> str:
        from ..render.svg import polyform_svg
        return polyform_svg(self, solution)

    def info(self) -> dict[str, Any]:
        from .parity import parity_argument
        return {
            "lattice": self.lattice.name,
            "cells": len(self.region),
            "pieces": sum(p.count for p in self.pieces),
            "piece cells": sum(p.count * len(p.shape) for p in self.pieces),
            "placements": len(self.placements()),
            "symmetries": len(self.symmetries()),
            "parity": parity_argument(self),
        }


# -- loading -----------------------------------------------------------------------------------
def load_instance(data: dict[str, Any], name: str, base: Any = None) -> PolyformPuzzle:
    """A puzzle from a parsed instance file (see ``satiling/instances/README.md``)."""
    from ..catalog import piece_set
    lat = make_lattice(str(data.get("lattice", "square")))
    region = _cells(lat, data.get("region"), f"{name}: region")
    entries = piece_set(str(data["piece_set"])) if "piece_set" in data else []
    entries += list(data.get("piece", []))
    if not entries:
        raise SatilingError(f"{name}: no pieces")
    pieces = [_piece(lat, e, name) for e in entries]
    rules = data.get("rules", {})
    puzzle = PolyformPuzzle(name, lat, region, pieces, rules.get("cells", "exact"),
                            rules.get("pieces", "exact"), data.get("title", ""), data.get("source", ""))
    return puzzle


def _piece(lat: Lattice, entry: dict[str, Any], where: str) -> Piece:
    if not isinstance(entry, dict) or "name" not in entry:
        raise SatilingError(f"{where}: every [[piece]] needs a name")
    pname = str(entry["name"])
    cells = _cells(lat, entry, f"{where}: piece {pname}")
    freedom = entry.get("freedom", "free")
    if freedom not in FREEDOMS:
        raise SatilingError(f"{where}: piece {pname}: freedom must be one of {', '.join(FREEDOMS)}")
    count = entry.get("count", 1)
    if not isinstance(count, int) or count < 1:
        raise SatilingError(f"{where}: piece {pname}: count must be a positive integer")
    if not lat.connected(cells):
        raise SatilingError(f"{where}: piece {pname} is not connected")
    return Piece(pname, lat.normalize(cells), count, freedom)


def _cells(lat: Lattice, spec: Any, where: str) -> list[Cell]:
    """Cells from ``ascii`` art, a ``cells`` list, or ``rows``/``cols`` (square lattice)."""
    if not isinstance(spec, dict):
        raise SatilingError(f"{where}: missing")
    if "ascii" in spec:
        if not hasattr(lat, "parse_ascii"):
            raise SatilingError(f"{where}: the {lat.name} lattice takes cell lists, not ASCII art")
        cells = lat.parse_ascii(str(spec["ascii"]))
    elif "cells" in spec:
        try:
            cells = [tuple(int(x) for x in c) for c in spec["cells"]]
        except (TypeError, ValueError):
            raise SatilingError(f"{where}: cells must be lists of integers") from None
    elif "rows" in spec and "cols" in spec and lat.name == "square":
        cells = [(r, c) for r in range(int(spec["rows"])) for c in range(int(spec["cols"]))]
    elif hasattr(lat, "parse_spec"):
        cells = lat.parse_spec(spec, where)
    else:
        raise SatilingError(f"{where}: give 'ascii', 'cells' or 'rows' and 'cols'")
    if not cells:
        raise SatilingError(f"{where}: no cells")
    if len(set(cells)) != len(cells):
        raise SatilingError(f"{where}: a cell is listed twice")
    return cells
