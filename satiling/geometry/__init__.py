"""Lattices and their symmetry groups."""
from __future__ import annotations

from ..errors import SatilingError
from .lattice import Cell, Lattice, Shape, Transform
from .cubic import CubicLattice
from .drafter import DrafterLattice
from .hexagon import HexagonLattice
from .square import SquareLattice
from .triangle import TriangleLattice

_LATTICES: dict[str, type[Lattice]] = {
    "square": SquareLattice,
    "triangle": TriangleLattice,
    "hexagon": HexagonLattice,
    "drafter": DrafterLattice,
    "cubic": CubicLattice,
}


def lattice(name: str) -> Lattice:
    """The lattice called ``name`` (``square``, ``triangle``, ``hexagon``, ``drafter``, ``cubic``)."""
    try:
        return _LATTICES[name]()
    except KeyError:
        raise SatilingError(f"unknown lattice {name!r} (known: {', '.join(sorted(_LATTICES))})") from None


__all__ = ["Cell", "Lattice", "Shape", "Transform", "SquareLattice", "TriangleLattice",
           "HexagonLattice", "DrafterLattice", "CubicLattice", "lattice"]
