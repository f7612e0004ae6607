"""What every command prints and reads: a verified solution as a picture or a JSON line, and
solution files read back (the exit codes, from :mod:`satiling.exits`, are re-exported here).  The CLI and the family commands share these, so they live
below both."""
from __future__ import annotations

import os
import sys
from typing import Any, Iterable, Iterator

from ..errors import SatilingError
from ..exits import EXIT_ERROR, EXIT_FOUND, EXIT_NONE, EXIT_TIMEOUT
from ..fileio import PlacementTexts, iter_lines, loads_json, write_file
from ..search.runfiles import (DONE_MARK, header_mismatch, is_done_mark, is_header, reader_header,
                               solution_json)

__all__ = ["EXIT_ERROR", "EXIT_FOUND", "EXIT_NONE", "EXIT_TIMEOUT", "NAME_HELP", "name_argument",
           "read_solutions", "show", "solutions_of_text", "solution_json", "write_pictures"]

#: what every command's NAME may be: whatever ``catalog.load`` reads
NAME_HELP = ("a bundled puzzle ('satiling list'), an instance file (TOML) or a share text "
             "('satiling:...', from 'satiling share')")


def name_argument(parser: Any) -> None:
    """The puzzle a command works on, its first argument, said alike by every command."""
    parser.add_argument("name", metavar="NAME", help=NAME_HELP)


def show(puzzle, solution: list[Any], svg: str | None = None, as_json: bool = False,
         png: str | None = None) -> None:
    """Print a verified solution (picture or JSON) and optionally write its SVG and its PNG."""
    from ..render import pictures
    out = text_out(svg, png)
    print(solution_json(puzzle, solution) if as_json
          else pictures.solution_text(puzzle, solution, colour=terminal_colour(out)), file=out)
    if svg or png:
        write_pictures(pictures.solution_svg(puzzle, solution), svg, png)


def text_out(svg: str | None = None, png: str | None = None) -> Any:
    """Where a command prints its text picture: stdout, unless a picture file is stdout ('-'):
    then that picture is the data on stdout, and the text goes to stderr."""
    return sys.stderr if "-" in (svg, png) else sys.stdout


def write_pictures(picture: str, svg: str | None = None, png: str | None = None) -> None:
    """Write an SVG picture to ``svg`` and as PNG (:func:`satiling.render.png.to_png`) to
    ``png``, each where given, saying so on stderr."""
    if svg:
        write_file(svg, picture)
        print(f"satiling: wrote {'the SVG to stdout' if svg == '-' else svg}", file=sys.stderr)
    if png:
        from ..fileio import write_bytes
        write_bytes(png, png_of(picture))
        print(f"satiling: wrote {'the PNG to stdout' if png == '-' else png}", file=sys.stderr)


def png_of(picture: str) -> bytes:
    """An SVG picture as PNG (:func:`satiling.render.png.to_png`), drawn in a child process: a page
    of many solutions takes resvg seconds in one call that no signal interrupts, and Ctrl-C or
    SIGTERM must end the command at once (the child is killed; nothing is written)."""
    from ..children import run_in_child
    from ..render.png import to_png
    return run_in_child(to_png, picture)


def terminal_colour(stream: Any) -> str | None:
    """How a picture on ``stream`` may be coloured: None unless it is a terminal (a pipe or a
    file gets the plain text tests and scripts compare), and never under ``NO_COLOR``
    (no-color.org) or ``TERM=dumb``; "truecolor" where ``COLORTERM`` says so, else "256"."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        return None
    if not tty or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return None
    return "truecolor" if os.environ.get("COLORTERM") in ("truecolor", "24bit") else "256"




def _same_puzzle(puzzle, data: Any, path: str, n: int) -> None:
    """A header or solution that names its puzzle must name this one: solutions of another
    puzzle might pass its verifier by accident (two boards of the same pieces) and say nothing."""
    named = data.get("puzzle") if isinstance(data, dict) else None
    if isinstance(named, str) and named != puzzle.name:
        what = "the header" if n == 1 and "placements" not in data else f"line {n}"
        raise SatilingError(f"{path}: {what} names puzzle {named[:60]!r}, not {puzzle.name!r}: "
                            "a file of another puzzle")


#: the keys of a solution line: a run file's records add their number and checksum
SOLUTION_KEYS = ("puzzle", "placements", "n", "sum")


def _known_keys(data: Any, path: str, n: int) -> None:
    """A solution line has only the keys satiling writes: another key is a mistake (a misspelt
    ``placements``) or a file of another program, refused as an unknown key in a placement is."""
    extra = sorted(k for k in data if k not in SOLUTION_KEYS) if isinstance(data, dict) else []
    if extra:
        raise SatilingError(f"{path}: line {n} has the unknown key {extra[0][:40]!r} (a solution "
                            "line has 'puzzle' and 'placements')")


def read_solutions(puzzle, path: str) -> Iterator[list[Any]]:
    """Solutions from a JSON or JSON-lines file (objects with a 'placements' list).  A file with
    no line holds no solution: what ``enumerate`` prints for a puzzle with none."""
    return solutions_of_lines(puzzle, iter_lines(path, 16 << 20, what="solution file"), path)


def solutions_of_text(puzzle, text: str, name: str) -> Iterator[list[Any]]:
    """The solutions of a solution file's whole ``text`` (the web app's pasted box), read as
    :func:`read_solutions` reads the file; ``name`` stands for its path in each message."""
    return solutions_of_lines(puzzle, enumerate(text.split("\n"), 1), name)


def solutions_of_lines(puzzle, lines: Iterable[tuple[int, str]], path: str) -> Iterator[list[Any]]:
    """The solutions of a solution file's numbered lines: the one reader of every solution file."""
    texts = PlacementTexts(puzzle.placement_from_json)     # each distinct placement read once
    for n, line in lines:
        if not line.strip():
            continue
        solution = _solution(puzzle, texts, line, path, n)
        if solution is not None:
            yield solution


def _solution(puzzle, texts: PlacementTexts, line: str, path: str, n: int) -> list[Any] | None:
    """The placements of one line; None for a run file's header or mark of the cubes done."""
    cut = texts.placements(line)
    if cut is not None and cut[0] == puzzle.name:
        return cut[1]
    data = loads_json(line, f"{path}: line {n}")
    _same_puzzle(puzzle, data, path, n)
    if is_header(data):
        _run_line(puzzle, data, path, n)
        return None
    _known_keys(data, path, n)
    try:
        placements = data["placements"] if isinstance(data, dict) else data
        return [puzzle.placement_from_json(p) for p in placements]
    except (KeyError, TypeError, ValueError, AttributeError):
        raise SatilingError(f"{path}: line {n} is not a solution in JSON") from None


def _run_line(puzzle, data: dict[str, Any], path: str, n: int) -> None:
    """A run file's line that is no solution: a mark of the cubes done, or a header, held to the
    rule ``--resume`` applies (:func:`~satiling.search.runfiles.header_mismatch`) as far as a
    reader knows the run (:func:`~satiling.search.runfiles.reader_header`)."""
    if data.get("satiling") == DONE_MARK:
        record = {k: v for k, v in data.items() if k not in ("n", "sum")}   # its number and checksum aside
        if not is_done_mark(record):
            raise SatilingError(f"{path}: line {n} is neither a solution nor a mark of the cubes done")
        return
    why = header_mismatch(data, reader_header(puzzle.name))
    if why:
        raise SatilingError(f"{path}: {why}" if n == 1 else f"{path}: line {n}: {why}")
