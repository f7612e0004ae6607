"""Edge-matching instance files: a ``pieces_file`` (``rows cols`` then one ``N E S W`` line per
piece, ``#`` comments) or inline ``rows``, ``cols`` and ``pieces``, with optional ``[[fixed]]``
and ``[[hint]]`` tables.  Read into plain :class:`Instance` data; the puzzle is built from it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import SatilingError
from ...fileio import read_text
from ...schema import COMMON, MAX_BOARD_SIDE, MAX_COLOUR, MAX_FILE_BYTES, Int, List, Str, Table, Tables, check_instance
from .geometry import Edges, Tile, check_edges, parse_square


#: the keys of an edge-matching instance file
_TILE = Table({"square": Str(max_len=10), "piece": Int(1, 100_000), "rotation": Int(0, 3)},
              required=("square", "piece"))
EDGEMATCH = Table({
    **COMMON,
    "pieces_file": Str(max_len=4096),
    "rows": Int(1, MAX_BOARD_SIDE), "cols": Int(1, MAX_BOARD_SIDE),
    "pieces": List(List(Int(0, MAX_COLOUR), 4, 4), 1, MAX_BOARD_SIDE ** 2),
    "fixed": Tables(_TILE), "hint": Tables(_TILE),
    "planted": Str(),
}, one_of=(("pieces_file",), ("rows", "cols", "pieces")))


@dataclass
class Instance:
    """What an instance file says about a puzzle."""

    rows: int
    cols: int
    pieces: list[Edges]
    fixed: list[Tile] = field(default_factory=list)
    hints: list[Tile] = field(default_factory=list)
    title: str = ""
    source: str = ""
    planted: str = ""


def read_pieces_file(path: Path) -> tuple[int, int, list[Edges]]:
    """A pieces file: ``#`` comments, a ``rows cols`` line, then one ``N E S W`` line per piece.
    Held to the instance file's limits: UTF-8 text, a regular file of at most ``MAX_FILE_BYTES``."""
    text = read_text(str(path), MAX_FILE_BYTES, what="pieces file", regular=True)
    return parse_pieces(text, path.name)


def parse_pieces(text: str, where: str) -> tuple[int, int, list[Edges]]:
    lines = [(n, ln.split("#")[0].split()) for n, ln in enumerate(text.splitlines(), 1)]
    lines = [(n, f) for n, f in lines if f]
    if not lines or len(lines[0][1]) != 2:
        raise SatilingError(f"{where}: the first data line must be 'rows cols'")
    try:
        rows, cols = (int(x) for x in lines[0][1])
    except ValueError:
        raise SatilingError(f"{where}: the first data line must be 'rows cols'") from None
    pieces = [check_edges(f, f"{where} line {n}") for n, f in lines[1:]]
    return rows, cols, pieces


def _tile_entries(entries: Any, rows: int, cols: int, where: str) -> list[Tile]:
    out = []
    for e in entries or []:
        try:
            r, c = parse_square(e["square"], rows, cols)
            out.append(Tile(r, c, int(e["piece"]), int(e.get("rotation", 0))))
        except (KeyError, TypeError, ValueError):
            raise SatilingError(f"{where}: entries look like {{square = \"I8\", piece = 139, rotation = 2}}") from None
    return out


def read_instance(data: dict[str, Any], name: str, base: Any = None) -> Instance:
    """The instance data: ``pieces_file`` (relative to the instance) or ``rows``, ``cols`` and
    ``pieces = [[N, E, S, W], ...]``; optional ``[[fixed]]`` and ``[[hint]]`` tables."""
    check_instance(EDGEMATCH, data, name)
    if "pieces_file" in data:
        rows, cols, pieces = read_pieces_file(Path(base or ".") / str(data["pieces_file"]))
    elif "pieces" in data:
        try:
            rows, cols = int(data["rows"]), int(data["cols"])
        except (KeyError, TypeError, ValueError):
            raise SatilingError(f"{name}: inline pieces need integer 'rows' and 'cols'") from None
        pieces = [check_edges(p, f"{name}: piece {i}") for i, p in enumerate(data["pieces"], 1)]
    else:
        raise SatilingError(f"{name}: give 'pieces_file' or 'rows', 'cols' and 'pieces'")
    fixed = _tile_entries(data.get("fixed"), rows, cols, f"{name}: [[fixed]]")
    hints = _tile_entries(data.get("hint"), rows, cols, f"{name}: [[hint]]")
    return Instance(rows, cols, pieces, fixed, hints, str(data.get("title", "")),
                    str(data.get("source", "")), str(data.get("planted", "")))
