"""The bundled piece sets (``instances/sets/NAME.toml``): the pentominoes, the hexiamonds, ..."""
from __future__ import annotations

from typing import Any

from ...bundled import instances_dir, read_toml
from ...errors import SatilingError
from .format import piece_set_format


#: a set's lattice -> the other lattices that take it: a flat square-lattice piece is one layer of
#: cubes, so the pentomino set gives the solid pentominoes
TAKES_SETS_OF: dict[str, tuple[str, ...]] = {"square": ("cubic",)}


def piece_sets() -> list[str]:
    """The names of the bundled piece sets."""
    return sorted(p.stem for p in (instances_dir() / "sets").glob("*.toml"))


def piece_set(set_name: str, lattice: str | None = None) -> list[dict[str, Any]]:
    """The [[piece]] entries of a bundled piece set (``instances/sets/NAME.toml``), checked as
    pieces of ``lattice`` when one is named: a set of another lattice is refused, unless that
    lattice takes it (:data:`TAKES_SETS_OF`)."""
    known = piece_sets()
    if set_name not in known:
        raise SatilingError(f"unknown piece set {set_name!r} (known: {', '.join(known)})")
    data = read_toml(instances_dir() / "sets" / f"{set_name}.toml")
    if lattice is None:
        return list(data.get("piece", []))
    own = data.get("lattice")
    if own != lattice and lattice not in TAKES_SETS_OF.get(own, ()):
        # the ASCII of one lattice reads as cells of another: refused, not silently misread
        raise SatilingError(f"piece set {set_name} belongs to the {own} lattice, not the {lattice} "
                            f"lattice (set lattice = \"{own}\")")
    try:
        piece_set_format(lattice).check(data, "")
    except SatilingError as e:
        raise SatilingError(f"piece set {set_name} on the {lattice} lattice: {e}") from None
    return list(data["piece"])
