"""Puzzles for the web app: the bundled ones, instances posted as TOML (kept in the store and as
files beside it), boards painted cell by cell and edge-matching boards generated -- each turned
into an instance file's text and read by satiling's own loader, so a bad one gets satiling's own
one-line message.
"""
from __future__ import annotations

import json
import re
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

from .. import catalog, share
from ..bundled import parse_toml, read_toml
from ..errors import SatilingError
from ..schema import CONTROL, MAX_FILE_BYTES
from .errors import FieldError, NotFound
from .store import Store

INSTANCE_ID = re.compile(r"i-[0-9a-f]{12}")
LATTICES = ("square", "triangle", "hexagon")
TOPOLOGIES = ("plane", "cylinder", "torus")
FREEDOMS = ("free", "one-sided", "fixed")
#: how long an export may take (a model of millions of placements takes tens of seconds)
EXPORT_SECONDS = 300


#: the gallery's groups, in its order, as puzzle people name them: a polyform puzzle's by its
#: lattice, the others' by their family (a family without a row here: its own name, last)
KINDS = {("polyform", "square"): "polyominoes", ("polyform", "triangle"): "polyiamonds",
         ("polyform", "hexagon"): "polyhexes", ("polyform", "cubic"): "polycubes",
         ("polyform", "drafter"): "polydrafters", ("edgematch", None): "edge matching",
         ("iqlink", None): "IQ-Link"}


def bundled() -> list[dict[str, str]]:
    """Every bundled puzzle: name, title, family and kind (:data:`KINDS`), kind by kind."""
    out = []
    for folder_name, title in catalog.available():
        family, kind = _kind_of(folder_name)
        out.append({"name": folder_name, "title": title, "family": family, "kind": kind})
    rank = {kind: k for k, kind in enumerate(KINDS.values())}
    return sorted(out, key=lambda p: rank.get(p["kind"], len(rank)))       # stable: by name within


def _kind_of(name: str) -> tuple[str, str]:
    """A bundled puzzle's family and kind, read from its instance file's keys."""
    from ..registry import instance_folders
    data: dict = {}
    for folder in instance_folders():
        path = folder / f"{name}.toml"
        if path.is_file():
            data = read_toml(path)
            break
    family = data.get("family", "polyform")
    family = family if isinstance(family, str) else "polyform"
    lattice = data.get("lattice", "square") if family == "polyform" else None
    return family, KINDS.get((family, lattice), family)


def source_of(store: Store, name: str) -> str:
    """What a worker process loads ``name`` from: a bundled name, or the path of a stored
    instance.  Anything else (a path on the server in particular) is an unknown puzzle."""
    if name is None:
        raise FieldError("a run names its puzzle (a bundled name or a stored instance's id)", "puzzle")
    if not isinstance(name, str):          # malformed, not missing: a 400 naming the field
        raise FieldError(f"a puzzle is named by a string (a bundled name, a stored instance's id "
                         f"or a share text), not {type(name).__name__}", "puzzle")
    if share.is_share(name):
        return shared(name)
    if INSTANCE_ID.fullmatch(name):
        path = store.instances_dir / f"{name}.toml"
        if store.instance(name) is None:
            raise NotFound(f"unknown instance {name!r}")
        if not path.is_file():             # the store outlived its folder: write it again
            path.write_text(store.instance(name)["toml"], encoding="utf-8")
        return str(path)
    if name in {n for n, _ in catalog.available()}:
        return name
    raise NotFound(f"unknown puzzle {name!r} (see the gallery)")


def shared(text: str) -> str:
    """A share text (``satiling:...``, :mod:`satiling.share`) as a puzzle's source: one that
    does not read, or names a file (which would be read on the server), is refused naming the
    puzzle field."""
    try:
        data = share.decode(text)
    except SatilingError as e:
        raise FieldError(str(e), "puzzle") from None
    if "pieces_file" in data:
        raise FieldError("a shared puzzle gives its pieces inline ('pieces'), not as pieces_file", "puzzle")
    return text


def toml_of(store: Store, name: str) -> str:
    """The instance file's text of a bundled puzzle, a stored instance or a share text."""
    source = source_of(store, name)
    if share.is_share(name):
        from .toml_text import toml_text
        return toml_text(share.decode(name))
    if INSTANCE_ID.fullmatch(name):
        return store.instance(name)["toml"]
    from ..registry import instance_folders
    for folder in instance_folders():
        path = folder / f"{source}.toml"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise NotFound(f"unknown puzzle {name!r}")


# -- posted instances -----------------------------------------------------------------------------
def add_instance(store: Store, text: Any) -> str:
    """Check ``text`` as an instance file (satiling's loader, all of it) and store it; return
    its id.  Nothing is stored unless the puzzle loads."""
    if text is not None and not isinstance(text, str):
        raise FieldError(f"toml is the instance file's text, not {type(text).__name__}", "toml")
    if not text or not text.strip():
        raise FieldError("the instance file is empty: paste or upload a TOML instance file", "toml")
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        raise FieldError(f"larger than {MAX_FILE_BYTES >> 20} MB: not an instance file", "toml")
    inst_id = "i-" + secrets.token_hex(6)
    try:
        data = _parsed(text, "instance")
        puzzle = catalog.load_data(data, "instance", store.instances_dir)
    except SatilingError as e:
        raise FieldError(str(e), "toml") from None
    path = store.instances_dir / f"{inst_id}.toml"
    path.write_text(text, encoding="utf-8")
    store.add_instance(inst_id, text, puzzle.title or "", puzzle.family)
    return inst_id


def _parsed(text: str, name: str) -> dict[str, Any]:
    data = parse_toml(text, name)
    if "pieces_file" in data:
        # a file name is read on the server: an instance posted to it carries its data inline
        raise SatilingError(f"{name}: a posted instance gives its pieces inline ('pieces'), "
                            "not as pieces_file")
    return data


# -- painted boards -------------------------------------------------------------------------------
def paint_toml(body: dict[str, Any]) -> str:
    """The instance file of a painted board (``POST /api/paint``): a bundled set (``pieces``)
    with ``copies`` of each piece or a ``counts`` per piece, and pieces drawn by hand
    (``drawn``), each checked by satiling's own loader and refused naming its field."""
    lattice = choice(body.get("lattice", "square"), LATTICES, "lattice")
    topology = choice(body.get("topology", "plane"), TOPOLOGIES, "topology")
    freedom = choice(body.get("freedom", "free"), FREEDOMS, "freedom")
    cells = _cells(body.get("cells"), "cells")
    if not cells:
        raise FieldError("paint the board first: no cell is painted", "cells")
    title = body.get("title") or "a painted board"
    if not isinstance(title, str):
        raise FieldError("the title is text", "title")
    chosen, drawn, field = body.get("pieces"), body.get("drawn", []), "drawn"
    if isinstance(chosen, list):           # the older form: the drawn pieces in place of a set
        chosen, drawn, field = None, chosen, "pieces"
    if chosen == "":
        chosen = None
    if chosen is not None and (not isinstance(chosen, str) or chosen not in piece_sets(lattice)):
        raise FieldError(f"unknown piece set {chosen!r} for the {lattice} lattice "
                         f"(choose from {', '.join(piece_sets(lattice))})", "pieces")
    if not isinstance(drawn, list):
        raise FieldError(f"{field} is a list of pieces, each {{name, cells, count}}", field)
    if chosen is None and not drawn:
        raise FieldError("choose a piece set or draw pieces", "pieces")
    own = _drawn_entries(drawn, field)
    _check_drawn(lattice, chosen, freedom, own, field)
    lines = [f"title = {_toml_str(title[:200], 'title')}", 'family = "polyform"',
             f'lattice = "{lattice}"']
    counted = _set_counts(lattice, chosen, freedom, body) if chosen else None
    if chosen and counted is None:
        lines.append(f'piece_set = {{ name = "{chosen}", freedom = "{freedom}" }}')
    lines += ["", "[region]", *_region_lines(lattice, topology, cells)]
    if counted:
        lines += ["", f"# the pieces of the bundled set {chosen} ({freedom}), as many of each as chosen"]
        lines += _piece_lines(counted, freedom, "counts")
    if own:
        lines += _piece_lines(own, freedom, field)
    return "\n".join(lines) + "\n"


def _whole(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise FieldError(f"{field} is a whole number from {low} to {high}, not {json.dumps(value)[:20]}", field)
    return value


def set_pieces(lattice: str, set_name: str, freedom: str) -> list[Any]:
    """The pieces of a bundled set as the loader makes them with ``freedom`` (one-sided adds
    the mirror partners, fixed one piece per orientation), read by satiling's own loader."""
    data = {"lattice": lattice, "piece_set": {"name": set_name, "freedom": freedom}, **_PROBE}
    try:
        return list(catalog.load_data(data, set_name, Path(".")).pieces)
    except SatilingError as e:
        raise FieldError(str(e), "pieces") from None


#: a board that takes any pieces: the loader reads and checks them, and nothing else is asked
_PROBE = {"region": {"cells": [[0, 0]]}, "rules": {"cells": "at-most", "pieces": "at-most"}}


def _set_counts(lattice: str, set_name: str, freedom: str, body: dict[str, Any]) -> list[dict] | None:
    """The set's pieces with their counts (``copies`` of each, or ``counts`` by name; 0 leaves
    a piece out), or None where every piece is there once (the set is named as it is)."""
    copies = _whole(body.get("copies", 1), "copies", 0, 100)
    counts = body.get("counts") or {}
    if not isinstance(counts, dict):
        raise FieldError("counts maps a piece's name to how many of it there are", "counts")
    pieces = set_pieces(lattice, set_name, freedom)
    names = {p.name for p in pieces}
    for name, n in counts.items():
        if name not in names:
            raise FieldError(f"counts: the set {set_name} ({freedom}) has no piece {name[:40]!r}", "counts")
        _whole(n, "counts", 0, 100)
    chosen = [{"name": p.name, "cells": [list(c) for c in p.shape], "count": counts.get(p.name, copies),
               "freedom": p.freedom} for p in pieces]
    if all(p["count"] == 1 for p in chosen):
        return None
    kept = [p for p in chosen if p["count"] > 0]
    if not kept:
        raise FieldError("every count is 0: keep at least one piece of the set", "counts")
    return kept


def _drawn_entries(drawn: list[Any], field: str) -> list[dict[str, Any]]:
    if len(drawn) > 100:
        raise FieldError("at most 100 drawn pieces", field)
    out = []
    for i, piece in enumerate(drawn, 1):
        if not isinstance(piece, dict) or set(piece) - {"name", "cells", "count"}:
            raise FieldError(f"drawn piece {i} is an object with name, cells and count", field)
        name = piece.get("name") or str(i)
        if not isinstance(name, str) or len(name) > 40:
            raise FieldError(f"drawn piece {i}: its name is text (at most 40 characters)", field)
        out.append({"name": name, "cells": [list(c) for c in _cells(piece.get("cells"), field)],
                    "count": _whole(piece.get("count", 1), field, 1, 100)})
    return out


def _check_drawn(lattice: str, set_name: str | None, freedom: str, own: list[dict[str, Any]],
                 field: str) -> None:
    """The drawn pieces read by satiling's loader beside the set (connected, not too large,
    named apart from the set's): a refusal names ``field``, in the loader's words."""
    if not own:
        return
    data: dict[str, Any] = {"lattice": lattice, **_PROBE,
                            "piece": [{**p, "freedom": freedom} for p in own]}
    if set_name:
        data["piece_set"] = {"name": set_name, "freedom": freedom}
    try:
        catalog.load_data(data, "drawn", Path("."))
    except SatilingError as e:
        message = re.sub(r"^drawn: (\[\[piece\]\] \d+: )?", "", str(e))
        raise FieldError(f"your pieces: {message}", field) from None


def choice(value: Any, choices: tuple[str, ...], field: str) -> str:
    if value not in choices:
        raise FieldError(f"{field} is one of {', '.join(choices)}, not {value!r}", field)
    return value


def _cells(value: Any, field: str) -> list[tuple[int, int]]:
    if not isinstance(value, list) or len(value) > 20000:
        raise FieldError(f"{field} is a list of [row, col] pairs (at most 20000)", field)
    out = []
    for cell in value:
        if (not isinstance(cell, list) or len(cell) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) and abs(x) <= 10000 for x in cell)):
            raise FieldError(f"{field}: {json.dumps(cell)[:40]} is not a [row, col] pair of whole numbers", field)
        out.append((cell[0], cell[1]))
    if len(set(out)) != len(out):
        raise FieldError(f"{field}: a cell is given twice", field)
    return out


def _region_lines(lattice: str, topology: str, cells: list[tuple[int, int]]) -> list[str]:
    """A plane region as its cells; a wrapped one as the rectangle (square lattice, moved to
    [0, 0]) or the lattice's own parallelogram (triangle, hexagon) it must be, cell for cell."""
    if topology == "plane":
        return [f"cells = {json.dumps([list(c) for c in sorted(cells)])}"]
    if lattice == "square":
        r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
        rows = max(r for r, _ in cells) - r0 + 1
        cols = max(c for _, c in cells) - c0 + 1
        whole = {(r - r0, c - c0) for r, c in cells} == {(r, c) for r in range(rows) for c in range(cols)}
        size, shape = [f"rows = {rows}", f"cols = {cols}"], "rectangle"
    else:
        from ..geometry import hexagon, triangle
        geometry = triangle if lattice == "triangle" else hexagon
        # triangle cells are [row, col] (2 * cols per row); hexagon cells are axial [q, r]
        rows = len({c[0] if lattice == "triangle" else c[1] for c in cells})
        cols = len(cells) // (2 * rows) if lattice == "triangle" else len({c[0] for c in cells})
        whole = set(cells) == set(geometry.parallelogram(rows, cols))
        size, shape = [f"parallelogram = [{rows}, {cols}]"], "parallelogram (as the lattice draws it from its origin)"
    if not whole:
        raise FieldError(f"a {topology} is glued from a whole {shape}: paint every cell of it", "cells")
    return size + [f'topology = "{topology}"']


def _piece_lines(pieces: list[dict[str, Any]], freedom: str, field: str) -> list[str]:
    """[[piece]] tables of checked pieces (name, cells, count; a set's own freedom if given)."""
    lines = []
    for piece in pieces:
        lines += ["", "[[piece]]", f"name = {_toml_str(piece['name'], field)}",
                  f"cells = {json.dumps(piece['cells'])}", f"count = {piece['count']}",
                  f'freedom = "{piece.get("freedom", freedom)}"']
    return lines


def _toml_str(text: str, field: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's); a control character, which an instance
    file may not hold (:data:`satiling.schema.CONTROL`), is refused naming the field."""
    bad = CONTROL.search(text)
    if bad:
        raise FieldError(f"{field}: a control character ({bad.group()!r}) is not text", field)
    return json.dumps(text, ensure_ascii=False)


def piece_sets(lattice: str) -> list[str]:
    """The bundled piece sets drawn on ``lattice`` (or taken by it, as the cubic takes the square's)."""
    from ..bundled import instances_dir
    out = []
    for name in catalog.piece_sets():
        own = read_toml(instances_dir() / "sets" / f"{name}.toml").get("lattice")
        if own == lattice or lattice in catalog.TAKES_SETS_OF.get(own, ()):
            out.append(name)
    return out


# -- generated boards -----------------------------------------------------------------------------
def generate_toml(body: dict[str, Any]) -> str:
    """The instance file of a random edge-matching board (``POST /api/generate``)."""
    from ..families.edgematch.generate import generate, instance_toml
    values = {}
    for key, default in (("rows", None), ("cols", None), ("frame_colours", None),
                         ("inner_colours", None), ("seed", 0)):
        value = body.get(key, default)
        if value is None and default is None and key in ("rows", "cols"):
            raise FieldError(f"{key} is needed", key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise FieldError(f"{key} is a whole number, not {value!r}", key)
        values[key] = value
    for key in ("rows", "cols"):
        if not 2 <= values[key] <= 32:
            raise FieldError("a generated board has 2 to 32 rows and columns", key)
    try:
        gen = generate(values["rows"], values["cols"], values["frame_colours"],
                       values["inner_colours"], values["seed"])
    except SatilingError as e:         # the rows and columns are checked above: the colours
        field = "frame_colours" if body.get("frame_colours") is not None else "inner_colours"
        raise FieldError(str(e), field) from None
    flags = (f"--frame-colours {gen.frame_colours} --inner-colours {gen.inner_colours} "
             f"--seed {gen.seed}")
    return instance_toml(gen, f"generate-edgematch {gen.rows} {gen.cols} {flags}")


# -- exports --------------------------------------------------------------------------------------
def export(source: str, fmt: str) -> bytes:
    """The model file ``satiling encode NAME --format FMT`` writes, by that command in a process
    of its own (a large model takes a while; the server goes on serving)."""
    from ..backends.formats import FORMATS
    if fmt not in FORMATS:
        raise FieldError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})", "format")
    code = "import sys; from satiling.cli import main; sys.exit(main(sys.argv[1:]))"
    try:
        done = subprocess.run([sys.executable, "-c", code, "encode", source, "--format", fmt],
                              capture_output=True, timeout=EXPORT_SECONDS, check=False)
    except subprocess.TimeoutExpired:
        raise SatilingError(f"the {fmt} model took longer than {EXPORT_SECONDS} s to write: "
                            f"use satiling encode") from None
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        message = lines[-1] if lines else f"encode failed (exit {done.returncode})"
        raise FieldError(message.removeprefix("satiling: error: "), "format")
    return done.stdout


def stem(source: str) -> str:
    """A file name for downloads: the puzzle's name, never the server's path."""
    return Path(source).stem


# -- what is known before any search --------------------------------------------------------------
#: what ``puzzle.info()`` says of the model built for the search rather than of the puzzle
MODEL_KEYS = ("placements", "legal placements", "linked rule")


def _prose(lines: Any) -> str:
    """Comment lines as text: a sentence wrapped over lines is joined with a space, but the line
    that names the command a file was generated by stands on its own (the page shows its line
    ends: "--seed 11" ran into "3 pieces to place ...")."""
    out: list[str] = []
    for line in lines:
        own = line.lower().startswith("generated by")
        if out and not own and not out[-1].endswith("\n"):
            out.append(" ")
        elif out and own:
            out.append("\n")
        out.append(line + ("\n" if own else ""))
    return "".join(out).strip()


def about(puzzle: Any, toml: str) -> dict[str, Any]:
    """What the instance file says of its puzzle, at once: its opening comment (known solution
    counts and where they come from, in the file's own words) and its ``source``."""
    lines = []
    for line in toml.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
    out: dict[str, Any] = {}
    if lines:
        out["about"] = _prose(line for line in lines if line)
    source = getattr(puzzle, "source", "")
    if isinstance(source, str) and source:
        out["source"] = source
    return out


def facts(source: str) -> dict[str, Any]:
    """What ``satiling info`` says of the puzzle, its facts (cells, pieces, symmetries, ...)
    apart from its model's sizes (placements, variables, clauses, ...), and the argument that
    settles it before a search, if any.  Slow on the largest puzzles (Eternity's 1.4 million
    placements): the app runs it in a process of its own."""
    puzzle = catalog.load(source)
    info = dict(puzzle.info())
    model = {k: info.pop(k) for k in MODEL_KEYS if k in info}
    shape = puzzle.model_shape()
    model.update((shape if shape is not None else puzzle.problem()).stats())
    obstruction = puzzle.obstruction()
    if obstruction:
        info["obstruction"] = obstruction
    return {"facts": _plain(info), "model": _plain(model), "obstruction": obstruction}


def _plain(info: dict[str, Any]) -> dict[str, Any]:
    """The facts as JSON values (numbers and text)."""
    return {str(k): v if isinstance(v, (int, float, str, bool)) or v is None else str(v)
            for k, v in info.items()}
