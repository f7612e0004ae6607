"""Finding puzzles: a bundled name (``pentomino-6x10``) or a path to an instance file.

Bundled instances are TOML files in ``satiling/instances/`` (shipped inside the wheel); each names
its family, and the family's loader builds the :class:`~satiling.families.base.Puzzle`.
"""
from __future__ import annotations

import importlib
import tomllib
from pathlib import Path
from typing import Any

from .errors import SatilingError
from .families.base import Puzzle

#: family name -> "module:function" of its loader, called as loader(data, name, base)
FAMILIES: dict[str, str] = {
    "polyform": "satiling.families.polyform:load_instance",
    "edgematch": "satiling.families.edgematch:load_instance",
    "iqlink": "satiling.families.iqlink:load_instance",
}


def instances_dir() -> Path:
    """The folder of bundled instance files."""
    return Path(__file__).parent / "instances"


def available() -> list[tuple[str, str]]:
    """(name, title) of every bundled instance, sorted by name."""
    out = []
    for path in sorted(instances_dir().glob("*.toml")):
        data = _read_toml(path)
        out.append((path.stem, str(data.get("title", ""))))
    return out


def load(name_or_path: str) -> Puzzle:
    """The puzzle called ``name_or_path``: a bundled name, or a path to an instance file."""
    path = Path(name_or_path)
    if not path.is_file():
        bundled = instances_dir() / f"{name_or_path}.toml"
        if not bundled.is_file():
            raise SatilingError(f"unknown puzzle {name_or_path!r} (see 'satiling list'; a path must exist)")
        path = bundled
    return load_data(_read_toml(path), path.stem, path.parent)


def load_data(data: dict[str, Any], name: str, base: Path) -> Puzzle:
    """A puzzle from parsed instance data; relative file names resolve against ``base``."""
    family = data.get("family", "polyform")
    target = FAMILIES.get(family)
    if target is None:
        raise SatilingError(f"{name}: unknown family {family!r} (known: {', '.join(sorted(FAMILIES))})")
    module, func = target.split(":")
    loader = getattr(importlib.import_module(module), func)
    return loader(data, str(data.get("name", name)), base)


def piece_set(set_name: str) -> list[dict[str, Any]]:
    """The [[piece]] entries of a bundled piece set (``instances/sets/NAME.toml``)."""
    path = instances_dir() / "sets" / f"{set_name}.toml"
    if not path.is_file():
        raise SatilingError(f"unknown piece set {set_name!r}")
    return list(_read_toml(path).get("piece", []))


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise SatilingError(f"{path.name}: not a valid instance file: {e}") from None
    except OSError as e:
        raise SatilingError(f"{path}: cannot read: {e.strerror}") from None
