"""The workbench: pictures as PNG, a puzzle's share text, pieces pinned by hand, and the forced
placements and a hint of a puzzle with its pins.

A puzzle with pins travels as its share text (:mod:`satiling.share`): the page posts the pins,
gets the text back, and names the puzzle by it wherever a name goes (See, a run, a link), so no
server needs to have seen it.  ``forced`` and ``hint`` run the CLI's commands in a process of
their own, with a time limit, and answer their JSON and the CLI's picture.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...errors import SatilingError
from ..errors import FieldError, NotFound
from ..instances import source_of
from .common import draw, json_body, run_row, web, whole

#: the most placements the workbench lists for one puzzle (the page holds them all)
MAX_PLACEMENTS = 60_000
#: the longest a forced or hint question runs, and its default
MAX_SECONDS, DEFAULT_SECONDS = 120.0, 20.0
#: the most pins one request places
MAX_PINS = 1000


def routes(api: str = "/api") -> list[Route]:
    """The workbench's routes: before the app's own (``{k}.png`` would be read as ``{k}.{kind}``)."""
    return [
        Route(f"{api}/runs/{{run_id}}/solutions/{{k}}.png", solution_png),
        Route(f"{api}/puzzles/{{name}}/picture.{{kind}}", puzzle_picture),
        Route(f"{api}/puzzles/{{name}}/share", puzzle_share),
        Route(f"{api}/puzzles/{{name}}/workbench", puzzle_workbench),
        Route(f"{api}/pinned", post_pinned, methods=["POST"]),
        Route(f"{api}/forced", post_forced, methods=["POST"]),
        Route(f"{api}/hint", post_hint, methods=["POST"]),
    ]


# -- pictures -----------------------------------------------------------------------------------------
def png(svg: str) -> bytes:
    from ...render.png import to_png
    return to_png(svg)


async def solution_png(request: Request) -> Response:
    web_ = web(request)
    number = request.path_params["k"]
    try:
        k = whole(number, "k")
    except FieldError:
        raise NotFound(f"no such file: solutions/{number[:20]}.png") from None

    def get() -> tuple[str, bytes]:
        row = run_row(web_, request.path_params["run_id"])
        rows = web_.store.solutions(row["id"], k, 1)
        if not rows or rows[0][0] != k:
            raise NotFound(f"run {row['id']} has no solution {k}")
        return row["id"], png(draw(web_, row, rows[0][1], k))
    run_id, data = await run_in_threadpool(get)
    return Response(data, media_type="image/png", headers={
        "Content-Disposition": f'attachment; filename="{run_id}-{k}.png"'})


async def puzzle_picture(request: Request) -> Response:
    """The puzzle as ``satiling show --svg`` / ``--png`` draws it."""
    web_ = web(request)
    name, kind = request.path_params["name"], request.path_params["kind"]
    if kind not in ("svg", "png"):
        raise NotFound(f"no such file: picture.{kind[:10]}")

    def get() -> tuple[str, bytes | str]:
        from ...render.pieces import puzzle_svg
        puzzle = web_.puzzles.load(source_of(web_.store, name))
        svg = puzzle_svg(puzzle)
        return puzzle.name, png(svg) if kind == "png" else svg
    stem, data = await run_in_threadpool(get)
    media = "image/png" if kind == "png" else "image/svg+xml"
    return Response(data, media_type=media, headers={
        "Content-Disposition": f'attachment; filename="{_file_stem(stem)}.{kind}"'})


def _file_stem(name: str) -> str:
    keep = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in name)[:60].strip(".")
    return keep or "puzzle"


# -- share texts --------------------------------------------------------------------------------------
async def puzzle_share(request: Request) -> Response:
    """``{"text"}``: the puzzle's share text (what ``satiling share NAME`` prints)."""
    web_ = web(request)
    name = request.path_params["name"]

    def get() -> str:
        from ... import catalog
        return catalog.share_text(source_of(web_.store, name))
    return JSONResponse({"name": name, "text": await run_in_threadpool(get)})


# -- pins ---------------------------------------------------------------------------------------------
async def puzzle_workbench(request: Request) -> Response:
    """What the page needs to pin pieces by hand on a flat polyform board: each cell of the board
    with its polygon (the picture's coordinates), each piece with its orientations, and every
    placement of each piece (its cells, its orientation, the cell it is held by), the pins aside;
    and the pins the puzzle has already."""
    web_ = web(request)
    name = request.path_params["name"]
    return JSONResponse(await run_in_threadpool(lambda: bench(web_.puzzles.load(source_of(web_.store, name)), name)))


def bench(puzzle: Any, name: str) -> dict[str, Any]:
    if puzzle.family != "polyform" or puzzle.lattice.name not in ("square", "triangle", "hexagon"):
        raise FieldError("pieces are pinned by hand on flat polyform boards (square, triangle, "
                         "hexagon); put [[placed]] tables in the instance file for the others", "puzzle")
    lat = puzzle.lattice
    every = puzzle.unpinned_placements()
    if len(every) > MAX_PLACEMENTS:
        raise FieldError(f"{len(every)} placements are too many to pin by hand here (at most "
                         f"{MAX_PLACEMENTS}): use [[placed]] in the instance file", "puzzle")
    from ...render.pieces import _colours
    shapes = {p.name: puzzle.orientations(p) for p in puzzle.pieces}
    index = {(p, s): i for p, ss in shapes.items() for i, s in enumerate(ss)}
    placements = []
    for pl in every:
        orientation = index.get((pl.piece, lat.normalize(pl.cells)), -1)
        if orientation < 0 and puzzle.wrap is not None:       # across a seam: its cells reduced
            orientation = next((i for i, s in enumerate(shapes[pl.piece])
                                if puzzle.wrap.is_placement(list(pl.cells), [s])), -1)
        placements.append({"piece": pl.piece, "o": orientation, "cells": [list(c) for c in pl.cells],
                           "at": list(_anchor(pl.cells))})
    return {"name": name, "lattice": lat.name,
            "cells": [{"cell": list(c), "points": [[round(x, 2), round(y, 2)] for x, y in lat.polygon(c)]}
                      for c in sorted(puzzle.region)],
            "pieces": [{"name": p.name, "count": p.count, "size": len(p.shape), "colour": colour,
                        "orientations": [[list(c) for c in s] for s in shapes[p.name]]}
                       for p, colour in zip(puzzle.pieces, _colours(puzzle))],
            "placements": placements,
            "placed": [pl.to_json() for pl in puzzle.placed]}


def _anchor(cells: tuple) -> tuple:
    """The cell a placement is held by on the page: the one nearest the middle of its cells (in
    the lattice's coordinates), so the piece sits around the pointer."""
    n = len(cells)
    mid = [sum(c[i] for c in cells) / n for i in range(len(cells[0]))]
    return min(cells, key=lambda c: (sum((c[i] - mid[i]) ** 2 for i in range(len(c))), c))


async def post_pinned(request: Request) -> Response:
    """``{"puzzle", "placed": [{"piece", "cells"}]}``: the puzzle with those pins (in place of
    its own), checked by satiling's loader (a refused pin: 400, ``field: "placed"``), as
    ``{"text"}``, its share text."""
    web_ = web(request)
    body = await json_body(request)
    return JSONResponse({"text": await run_in_threadpool(pinned_text, web_, body)})


def pinned_text(web_: Any, body: dict[str, Any]) -> str:
    from ... import catalog, share
    unknown = sorted(set(body) - {"puzzle", "placed", "title"})
    if unknown:
        raise FieldError(f"unknown field {unknown[0]!r} (pins take puzzle, placed, title)", unknown[0])
    source = source_of(web_.store, body.get("puzzle"))
    placed = body.get("placed", [])
    if not isinstance(placed, list) or len(placed) > MAX_PINS:
        raise FieldError(f"placed is a list of pins (at most {MAX_PINS}), each {{piece, cells}}", "placed")
    data, name, base = catalog.instance_data(source)
    data = {"name": name, **share.self_contained(data, base)}
    if data.get("family", "polyform") != "polyform":
        raise FieldError("pieces are pinned by hand on polyform boards", "puzzle")
    data.pop("placed", None)
    if placed:
        data["placed"] = placed
    title = body.get("title")
    if title is not None:
        if not isinstance(title, str) or len(title) > 200:
            raise FieldError("the title is text (at most 200 characters)", "title")
        data["title"] = title
    try:
        catalog.load_data(data, name, base)
    except SatilingError as e:
        raise FieldError(str(e), "placed") from None
    return share.encode(data)


# -- forced placements and a hint ---------------------------------------------------------------------
async def post_forced(request: Request) -> Response:
    """``{"puzzle", "time_limit"}``: ``satiling forced`` of the puzzle (a name or a share text):
    its JSON (``forced``, ``complete``, ``undecided``), the CLI's note, and ``svg``, its picture."""
    body = await json_body(request)
    return JSONResponse(await run_in_threadpool(ask_cli, web(request), body, "forced"))


async def post_hint(request: Request) -> Response:
    """``{"puzzle", "time_limit", "seed"}``: ``satiling hint``: ``hint`` (a placement, or null),
    ``seed``, the CLI's note and ``svg``, the pins and the hint drawn."""
    body = await json_body(request)
    return JSONResponse(await run_in_threadpool(ask_cli, web(request), body, "hint"))


def ask_cli(web_: Any, body: dict[str, Any], command: str) -> dict[str, Any]:
    allowed = {"puzzle", "time_limit"} | ({"seed"} if command == "hint" else set())
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise FieldError(f"unknown field {unknown[0]!r} ({command} takes {', '.join(sorted(allowed))})",
                         unknown[0])
    source = source_of(web_.store, body.get("puzzle"))
    web_.puzzles.load(source)                      # a puzzle that does not load: its own message
    limit = body.get("time_limit", DEFAULT_SECONDS)
    if limit is None:
        limit = DEFAULT_SECONDS
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not 0 < limit <= MAX_SECONDS:
        raise FieldError(f"time_limit is a number of seconds above 0, at most {MAX_SECONDS:g}", "time_limit")
    args = [command, source, "--json", "--time-limit", f"{float(limit):g}"]
    seed = body.get("seed")
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 31:
            raise FieldError("seed is a whole number from 0 below 2**31", "seed")
        args += ["--seed", str(seed)]
    with tempfile.TemporaryDirectory(prefix="satiling-") as folder:
        picture = Path(folder) / "board.svg"
        code = "import sys; from satiling.cli import main; sys.exit(main(sys.argv[1:]))"
        try:
            done = subprocess.run([sys.executable, "-c", code, *args, "--svg", str(picture)],
                                  capture_output=True, timeout=limit + 30, check=False)
        except subprocess.TimeoutExpired:
            raise SatilingError(f"{command} did not end within {limit + 30:g} s") from None
        note = done.stderr.decode("utf-8", "replace").strip().splitlines()
        out = done.stdout.decode("utf-8", "replace").strip().splitlines()
        if done.returncode == 2 or not out:
            raise FieldError((note[-1] if note else f"{command} failed (exit {done.returncode})")
                             .removeprefix("satiling: error: "), "puzzle")
        answer = json.loads(out[-1])
        answer["note"] = note[-1].removeprefix("satiling: ") if note else ""
        answer["svg"] = picture.read_text(encoding="utf-8") if picture.is_file() else None
    return answer
