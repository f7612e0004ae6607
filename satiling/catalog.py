"""Finding puzzles: a bundled name (``pentomino-6x10``) or a path to an instance file.

Bundled instances are TOML files in ``instances/`` (shipped inside the wheel as ``satiling/instances``); each names
its family, and the family's loader builds the :class:`~satiling.families.base.Puzzle`.
"""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from .bundled import TAKES_SETS_OF, instances_dir, piece_set, piece_sets, read_toml as _read_toml
from .errors import SatilingError
from .families.base import Puzzle

__all__ = ["FAMILIES", "TAKES_SETS_OF", "available", "instances_dir", "load", "load_data",
           "piece_set", "piece_sets"]

#: family name -> "module:function" of its loader, called as loader(data, name, base)
FAMILIES: dict[str, str] = {
    "polyform": "satiling.families.polyform:load_instance",
    "edgematch": "satiling.families.edgematch:load_instance",
    "iqlink": "satiling.families.iqlink:load_instance",
}


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
