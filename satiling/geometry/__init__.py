"""Lattices and their symmetry groups."""
from __future__ import annotations

from ..errors import SatilingError
from .lattice import Cell, Lattice, Shape, Transform
from .square import SquareLattice

_LATTICES: dict[str, type[Lattice]] = {"square": SquareLattice}


def lattice(name: str) -> Lattice:
    """The lattice called ``name`` (``square``, ...)."""
    try:
        return _LATTICES[name]()
    except KeyError:
        raise SatilingError(f"unknown lattice {name!r} (known: {', '.join(sorted(_LATTICES))})") from None


__all__ = ["Cell", "Lattice", "Shape", "Transform", "SquareLattice", "lattice"]
