"""Finding puzzles: a bundled name (``pentomino-6x10``) or a path to an instance file.

Bundled instances are TOML files in ``instances/`` (shipped inside the wheel as ``satiling/instances``); each names
its family, and the family's loader builds the :class:`~satiling.families.base.Puzzle`.
"""
from __future__ import annotations

import importlib
import tomllib
from pathlib import Path
from typing import Any

from .errors import SatilingError
from .families.base import Puzzle
from .schema import MAX_FILE_BYTES, check_depth, piece_set_format

#: family name -> "module:function" of its loader, called as loader(data, name, base)
FAMILIES: dict[str, str] = {
    "polyform": "satiling.families.polyform:load_instance",
    "edgematch": "satiling.families.edgematch:load_instance",
    "iqlink": "satiling.families.iqlink:load_instance",
}


def instances_dir() -> Path:
    """The folder of bundled instance files: ``satiling/instances`` in an installed wheel,
    ``instances/`` beside the package in a source tree (``setup.py`` maps the one onto the other)."""
    here = Path(__file__).parent
    installed = here / "instances"
    return installed if installed.is_dir() else here.parent / "instances"


def available() -> list[tuple[str, str]]:
    """(name, title) of every bundled instance, sorted by name."""
    out = []
    for path in sorted(instances_dir().glob("*.toml")):
        data = _read_toml(path)
        out.append((path.stem, str(data.get("title", ""))))
    return out


def load(name_or_path: str) -> Puzzle:
    """The puzzle called ``name_or_path``: a bundled name, or a path to an instance file."""
    if not isinstance(name_or_path, (str, Path)):
        raise SatilingError(f"a puzzle is named by a string or a Path, not {type(name_or_path).__name__}")
    path = Path(name_or_path)
    if not _is_file(path):
        bundled = instances_dir() / f"{name_or_path}.toml"
        if not _is_file(bundled):
            raise SatilingError(f"unknown puzzle {name_or_path!r} (see 'satiling list'; a path must exist)")
        path = bundled
    return load_data(_read_toml(path), path.stem, path.parent)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):        # a name too long for the file system, a NUL byte
        return False


def load_data(data: dict[str, Any], name: str, base: Path) -> Puzzle:
    """A puzzle from parsed instance data; relative file names resolve against ``base``."""
    family = data.get("family", "polyform")
    target = FAMILIES.get(family) if isinstance(family, str) else None
    if target is None:
        raise SatilingError(f"{name}: unknown family {family!r} (known: {', '.join(sorted(FAMILIES))})")
    module, func = target.split(":")
    loader = getattr(importlib.import_module(module), func)
    label = data.get("name", name)
    return loader(data, label if isinstance(label, str) else name, base)


def piece_sets() -> list[str]:
    """The names of the bundled piece sets."""
    return sorted(p.stem for p in (instances_dir() / "sets").glob("*.toml"))


def piece_set(set_name: str, lattice: str | None = None) -> list[dict[str, Any]]:
    """The [[piece]] entries of a bundled piece set (``instances/sets/NAME.toml``), checked as
    pieces of ``lattice`` when one is named."""
    known = piece_sets()
    if set_name not in known:
        raise SatilingError(f"unknown piece set {set_name!r} (known: {', '.join(known)})")
    data = _read_toml(instances_dir() / "sets" / f"{set_name}.toml")
    if lattice is None:
        return list(data.get("piece", []))
    try:
        piece_set_format(lattice).check(data, "")
    except SatilingError as e:
        raise SatilingError(f"piece set {set_name} on the {lattice} lattice: {e}") from None
    return list(data["piece"])


def _read_toml(path: Path) -> dict[str, Any]:
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
