"""The files bundled with satiling: where the instance files and puzzle data are, and how a TOML
file is read safely.

Below the families (a family reads its data here) and below :mod:`satiling.catalog`,
which finds puzzles by name and builds them through the families.
"""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .errors import SatilingError
from .schema import MAX_FILE_BYTES, check_depth


def instances_dir() -> Path:
    """The folder of bundled instance files: ``satiling/instances`` in an installed wheel,
    ``instances/`` beside the package in a source tree (``setup.py`` maps the one onto the other)."""
    here = Path(__file__).parent
    installed = here / "instances"
    return installed if installed.is_dir() else here.parent / "instances"


def data_file(cited: str) -> Path:
    """The bundled data file an instance file cites (``data/eternity2/pieces.txt``, a path in the
    instances folder), as its real path: a file inside the instances' ``data`` folder and nothing
    else, so that it may be handed to anyone who asks.  A path that leaves the folder (by ``..``,
    as an absolute path or through a symbolic link), a folder, or no such file: refused in one
    line."""
    refused = SatilingError(f"{cited[:200]!r} is not a file of the bundled puzzles' data (data/...)")
    folder = (instances_dir() / "data").resolve()
    try:
        path = (instances_dir() / cited).resolve(strict=True)
    except (OSError, ValueError, RuntimeError):     # no such file, a NUL byte, a loop of links
        raise refused from None
    if not (path.is_relative_to(folder) and path.is_file()):
        raise refused
    return path


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file, refused in one line if too big, not UTF-8, malformed or nested too deep."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            raise SatilingError(f"{path.name}: larger than {MAX_FILE_BYTES >> 20} MB: not an instance file")
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SatilingError(f"{path.name}: not UTF-8 text (byte {e.start + 1})") from None
    except OSError as e:
        raise SatilingError(f"{path}: cannot read: {e.strerror}") from None
    return parse_toml(text, path.name)


def parse_toml(text: str, name: str) -> dict[str, Any]:
    """An instance file's text as data, refused in one line if malformed or nested too deep."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SatilingError(f"{name}: not a valid instance file: {e}") from None
    except ValueError:      # an integer of thousands of digits, beyond what int() reads from text
        raise SatilingError(f"{name}: not a valid instance file: a number too long to read") from None
    except RecursionError:
        raise SatilingError(f"{name}: values nested too deep") from None
    try:
        check_depth(data)
    except SatilingError as e:
        raise SatilingError(f"{name}: {e}") from None
    return data
