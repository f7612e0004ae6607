"""Finding puzzles: a bundled name (``pentomino-6x10``), a path to an instance file, or a share text
(``satiling:...``: the instance itself, :mod:`satiling.share`).

Bundled instances are TOML files in ``instances/`` (shipped inside the wheel as ``satiling/instances``), and
in the folders registered families bring; each file names its family, and the family's loader (its
:class:`~satiling.registry.Family` record) builds the :class:`~satiling.families.base.Puzzle`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .share import decode as _decode_share, encode as _encode_share, is_share, self_contained
from .bundled import instances_dir, read_toml as _read_toml
from .errors import SatilingError
from .families.base import Puzzle
from .families.polyform.sets import TAKES_SETS_OF, piece_set, piece_sets
from .registry import families, instance_folders, resolve
from .schema import is_name

__all__ = ["TAKES_SETS_OF", "available", "instance_data", "instances_dir", "load", "load_data", "piece_set",
           "piece_sets", "share_text"]


def available() -> list[tuple[str, str]]:
    """(name, title) of every bundled instance, sorted by name."""
    out = {}
    for folder in instance_folders():
        for path in folder.glob("*.toml"):
            out.setdefault(path.stem, str(_read_toml(path).get("title", "")))
    return sorted(out.items())


def load(name_or_path: str) -> Puzzle:
    """The puzzle called ``name_or_path``: a bundled name, a path to an instance file, or a share
    text (``satiling:...``, :mod:`satiling.share`)."""
    data, name, base = instance_data(name_or_path)
    return load_data(data, name, base)


def instance_data(name_or_path: str | Path) -> tuple[dict[str, Any], str, Path]:
    """(the instance data, its name, the folder its relative file names resolve against) of a
    bundled name, an instance file or a share text."""
    if not isinstance(name_or_path, (str, Path)):
        raise SatilingError(f"a puzzle is named by a string or a Path, not {type(name_or_path).__name__}")
    if is_share(name_or_path):
        data = _decode_share(str(name_or_path))
        name = data.get("name")
        return data, name if is_name(name) and name else "shared", Path.cwd()
    path = Path(name_or_path)
    if not _is_file(path):
        path = next((p for p in (f / f"{name_or_path}.toml" for f in instance_folders()) if _is_file(p)),
                    None)
        if path is None:
            raise SatilingError(f"unknown puzzle {name_or_path!r}{_suggestion(str(name_or_path))}")
    return _read_toml(path), path.stem, path.parent


def share_text(name_or_path: str | Path) -> str:
    """The share text of a puzzle (:mod:`satiling.share`): its instance, with the files it names
    read in and its name kept, checked first by loading it."""
    data, name, base = instance_data(name_or_path)
    load_data(data, name, base)
    return _encode_share({"name": name, **self_contained(data, base)})


def _suggestion(name: str) -> str:
    """'did you mean' the closest bundled names (difflib, as for misspelt keys), else the hint."""
    import difflib
    if "/" in name or name.endswith(".toml"):
        return " (no such instance file)"
    names = {p.stem for folder in instance_folders() for p in folder.glob("*.toml")}
    close = difflib.get_close_matches(name, sorted(names), n=3, cutoff=0.6)
    if not close:
        return " (see 'satiling list'; a path must exist)"
    return f": did you mean {' or '.join(repr(c) for c in close)}? (see 'satiling list')"


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):        # a name too long for the file system, a NUL byte
        return False


def load_data(data: dict[str, Any], name: str, base: Path) -> Puzzle:
    """A puzzle from parsed instance data; relative file names resolve against ``base``."""
    family = data.get("family", "polyform")
    known = families()
    record = known.get(family) if isinstance(family, str) else None
    if record is None:
        raise SatilingError(f"{name}: unknown family {family!r} (known: {', '.join(sorted(known))})")
    loader = resolve(record.load)
    label = data.get("name", name)
    label = label if is_name(label) else name    # a bad one: refused by the format, as the file's
    try:
        return loader(data, label, base)
    except SatilingError as e:            # every message about the file names it
        if str(e).startswith(f"{label}:"):
            raise
        raise SatilingError(f"{label}: {e}") from None
