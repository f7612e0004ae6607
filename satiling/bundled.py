"""The files bundled with satiling: instance files, piece sets and puzzle data.

Below the families (a family reads its piece sets and data here) and below :mod:`satiling.catalog`,
which finds puzzles by name and builds them through the families.
"""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .errors import SatilingError
from .schema import MAX_FILE_BYTES, check_depth, piece_set_format


#: a set's lattice -> the other lattices that take it: a flat square-lattice piece is one layer of
#: cubes, so the pentomino set gives the solid pentominoes
TAKES_SETS_OF: dict[str, tuple[str, ...]] = {"square": ("cubic",)}


def instances_dir() -> Path:
    """The folder of bundled instance files: ``satiling/instances`` in an installed wheel,
    ``instances/`` beside the package in a source tree (``setup.py`` maps the one onto the other)."""
    here = Path(__file__).parent
    installed = here / "instances"
    return installed if installed.is_dir() else here.parent / "instances"


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


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file, refused in one line if too big, not UTF-8, malformed or nested too deep."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            raise SatilingError(f"{path.name}: larger than {MAX_FILE_BYTES >> 20} MB: not an instance file")
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise SatilingError(f"{path.name}: not UTF-8 text (byte {e.start + 1})") from None
    except tomllib.TOMLDecodeError as e:
        raise SatilingError(f"{path.name}: not a valid instance file: {e}") from None
    except RecursionError:
        raise SatilingError(f"{path.name}: values nested too deep") from None
    except OSError as e:
        raise SatilingError(f"{path}: cannot read: {e.strerror}") from None
    try:
        check_depth(data)
    except SatilingError as e:
        raise SatilingError(f"{path.name}: {e}") from None
    return data
