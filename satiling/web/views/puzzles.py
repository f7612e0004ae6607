"""The puzzles: the gallery (bundled and the user's own), a puzzle's page (drawn as ``satiling
show`` draws it, its facts apart from its model's), exports, posted, painted and generated
instances, and the menus a run is asked with."""
from __future__ import annotations

import asyncio
from itertools import islice
from typing import Any, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ... import share
from ...bundled import data_file
from ...errors import SatilingError
from ..instances import (LATTICES, about, add_instance, bundled, choice, export, generate_toml,
                         FREEDOMS, paint_toml, piece_sets as sets_of_lattice, set_pieces, source_of, stem,
                         toml_of)
from ..errors import FieldError, NotFound
from ..state import Web
from .common import json_body, web

#: how long a puzzle's page waits for its facts before answering without them
FACTS_WAIT = 2.0
#: the file suffix of each export format whose suffix is not its name
SUFFIX = {"dimacs": "cnf", "cpsat": "pbtxt", "lpsolve": "lp", "xcsp3": "xml"}
#: the content type of a bundled data file, by its suffix (any other: bytes to download)
TEXT = "text/plain; charset=utf-8"
DATA_TYPES = {".txt": TEXT, ".md": TEXT, ".toml": TEXT, ".json": "application/json"}


async def list_puzzles(request: Request) -> Response:
    return JSONResponse(await run_in_threadpool(bundled))


async def list_instances(request: Request) -> Response:
    """The user's own puzzles (posted, painted, generated), newest first."""
    rows = await run_in_threadpool(web(request).store.instances)
    return JSONResponse([{"name": r["id"], "title": r["title"] or "", "family": r["family"]}
                         for r in rows])


async def show_puzzle(request: Request) -> Response:
    with_facts = request.query_params.get("facts", "1") != "0"
    return JSONResponse(await describe(web(request), share.canonical(request.path_params["name"]), with_facts))


async def describe(web_: Web, name: str, with_facts: bool = True) -> dict[str, Any]:
    """A puzzle's page: its file, its picture (``satiling show``'s: the board with its fixed or
    pre-placed pieces, and every piece to place), what its instance file says of it, and its
    facts and model's sizes, measured once in the facts process (those not ready within
    :data:`FACTS_WAIT` seconds say so, ``pending``: ask again; none with ``with_facts`` False,
    for the gallery's cards)."""
    from ...render.pieces import puzzle_svg

    def drawn() -> dict[str, Any]:
        source = source_of(web_.store, name)
        puzzle = web_.puzzles.load(source)
        toml = toml_of(web_.store, name)
        return {"name": name, "title": puzzle.title or "", "family": puzzle.family, "toml": toml,
                "svg": puzzle_svg(puzzle), "facts": about(puzzle, toml), "model": {},
                "obstruction": None, "pending": False, "source": source}

    out = await run_in_threadpool(drawn)
    source = out.pop("source")
    if with_facts:
        try:
            known = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(web_.puzzles.facts(source))),
                                           FACTS_WAIT)
            out["facts"].update(known["facts"])
            out.update(model=known["model"], obstruction=known["obstruction"])
        except asyncio.TimeoutError:
            out.update(model={"model": "still being measured: ask again in a moment"}, pending=True)
        except SatilingError as e:
            out.update(model={"model": f"cannot be measured: {e}"})
    return out


async def score_board(request: Request) -> Response:
    """``satiling score NAME BOARD --svg``, for a board pasted on the puzzle's page."""
    web_ = web(request)
    name = share.canonical(request.path_params["name"])
    body = await json_body(request)
    return JSONResponse(await run_in_threadpool(scored, web_, name, body.get("board")))


def scored(web_: Web, name: str, text: Any) -> dict[str, Any]:
    """The board ``text`` of puzzle ``name`` read, scored and drawn by the functions ``satiling
    score`` calls, and each pinned piece (fixed, then hint) with what the board holds there."""
    from ...families.edgematch import EdgeMatchPuzzle
    from ...families.edgematch.score import parse_board, pins_held, score
    from ...render.edgematch_svg import board_svg
    puzzle = web_.puzzles.load(source_of(web_.store, name))
    if not isinstance(puzzle, EdgeMatchPuzzle):
        raise FieldError(f"a {puzzle.family} puzzle has no board to score: only edge-matching "
                         "puzzles do", "puzzle")
    if not isinstance(text, str):
        raise FieldError("board is the board's text: rows of piece/rotation, an e2.bucas.name "
                         "link or JSON placements", "board")
    try:
        board = parse_board(puzzle, text)
    except SatilingError as e:
        raise FieldError(str(e), "board") from None
    s = score(puzzle, board)
    pins = [{"square": t.square, "piece": t.piece, "rotation": t.rotation,
             "kind": "fixed" if t in puzzle.fixed else "hint", "in_place": held == (t.piece, t.rotation),
             "holds": None if held is None else {"piece": held[0], "rotation": held[1]}}
            for t, held in pins_held(puzzle, board)]
    return {"score": s.matched, "joins": s.joins, "filled": s.placed, "squares": s.squares,
            "misfits": s.misfits, "svg": board_svg(puzzle, board), "pins": pins}


#: the most solutions one pasted text may hold (``satiling verify`` takes a file of any size)
MAX_CHECKED = 1000
#: what the pasted text is called in the reader's messages, where the command line names its file
PASTED = "the pasted solution"


async def check_solution(request: Request) -> Response:
    """``satiling verify NAME FILE`` and ``satiling render NAME FILE --svg``, for a solution file
    pasted on the puzzle's page."""
    web_ = web(request)
    name = share.canonical(request.path_params["name"])
    body = await json_body(request)
    return JSONResponse(await run_in_threadpool(checked, web_, name, body.get("solution")))


def checked(web_: Web, name: str, text: Any) -> dict[str, Any]:
    """The solutions of ``text`` read by the command line's reader, each checked by the puzzle's
    verifier: how many, how many pass, the first that fails (from 1) with the verifier's words,
    and, when none fails, the first drawn as ``render --svg`` draws it."""
    from ...errors import VerificationError
    from ...render.pictures import solution_svg
    puzzle = web_.puzzles.load(source_of(web_.store, name))
    solutions, wrong = pasted_solutions(puzzle, text), []
    for n, solution in enumerate(solutions, 1):
        try:
            puzzle.verify(solution)
        except VerificationError as e:
            wrong.append({"index": n, "error": str(e)})
        except SatilingError as e:          # no solution to verify: verify's own refusal
            raise FieldError(f"{PASTED}: solution {n}: {e}", "solution") from None
    return {"solutions": len(solutions), "verified": len(solutions) - len(wrong),
            "different": len({frozenset(s) for s in solutions}), "wrong": wrong[0] if wrong else None,
            "svg": solution_svg(puzzle, solutions[0]) if solutions and not wrong else None}


def pasted_solutions(puzzle: Any, text: Any) -> list[list[Any]]:
    """Every solution of the pasted ``text``, read whole before any is checked, as ``verify``
    reads its file (a bad line anywhere is refused), and at most :data:`MAX_CHECKED`."""
    from ...commands.common import solutions_of_text
    if not isinstance(text, str):
        raise FieldError("solution is the text of a solution file: one JSON object, or JSON lines", "solution")
    try:
        solutions = list(islice(solutions_of_text(puzzle, text, PASTED), MAX_CHECKED + 1))
    except SatilingError as e:
        raise FieldError(str(e), "solution") from None
    if len(solutions) > MAX_CHECKED:
        raise FieldError(f"{PASTED} holds more than {MAX_CHECKED} solutions: check at most "
                         f"{MAX_CHECKED} at a time (satiling verify takes a file of any size)", "solution")
    return solutions


async def export_puzzle(request: Request) -> Response:
    web_ = web(request)
    name, fmt = request.path_params["name"], request.query_params.get("format", "dimacs")
    source = source_of(web_.store, name)
    data = await run_in_threadpool(export, source, fmt)
    filename = f"{stem(source)}.{SUFFIX.get(fmt, fmt)}"
    return Response(data, media_type="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


async def bundled_data(request: Request) -> Response:
    """A bundled data file the puzzles' words cite (``data/eternity2/SOURCE.md``), read-only; any
    other path is an unknown file."""
    cited = f"data/{request.path_params['path']}"
    try:
        path = data_file(cited)
    except SatilingError as e:
        raise NotFound(str(e)) from None
    content = await run_in_threadpool(path.read_bytes)
    return Response(content, media_type=DATA_TYPES.get(path.suffix.lower(), "application/octet-stream"),
                    headers={"X-Content-Type-Options": "nosniff"})


async def post_instance(request: Request) -> Response:
    body = await json_body(request)
    return await _stored(web(request), lambda: body.get("toml"))


async def post_paint(request: Request) -> Response:
    body = await json_body(request)
    return await _stored(web(request), lambda: paint_toml(body))


async def post_generate(request: Request) -> Response:
    body = await json_body(request)
    return await _stored(web(request), lambda: generate_toml(body))


async def _stored(web_: Web, make_toml: Callable[[], Any]) -> Response:
    inst_id = await run_in_threadpool(lambda: add_instance(web_.store, make_toml()))
    return JSONResponse(await describe(web_, inst_id))


async def piece_sets(request: Request) -> Response:
    lattice = choice(request.query_params.get("lattice", "square"), LATTICES, "lattice")
    return JSONResponse(await run_in_threadpool(sets_of_lattice, lattice))


async def piece_set(request: Request) -> Response:
    """A bundled set's pieces as the painter offers them: with ``freedom`` one-sided or fixed,
    the pieces the loader makes of it (each ``{"name", "cells"}``)."""
    query = request.query_params
    lattice = choice(query.get("lattice", "square"), LATTICES, "lattice")
    freedom = choice(query.get("freedom", "free"), FREEDOMS, "freedom")
    name = request.path_params["set_name"]

    def get() -> dict[str, Any]:
        if name not in sets_of_lattice(lattice):
            raise NotFound(f"no piece set {name[:40]!r} for the {lattice} lattice")
        return {"name": name, "lattice": lattice, "freedom": freedom,
                "pieces": [{"name": p.name, "cells": [list(c) for c in p.shape]}
                           for p in set_pieces(lattice, name, freedom)]}
    return JSONResponse(await run_in_threadpool(get))


async def meta(request: Request) -> Response:
    """The tasks a run can be asked for, and each task's engines, from the engine table (the
    CLI's own commands': their own, :func:`.runs.own_engines`): each with the families it takes
    (empty: every one); and each family's model options, from the registry, with the tasks that
    take them."""
    return JSONResponse(menus())


def menus() -> dict[str, Any]:
    from ...engines.table import ALL, AUTO, names, row
    from .runs import OPTION_TASKS, OWN_TASKS, own_engines
    engines = {task: [{"name": name, "label": _label(name, "" if name == AUTO else row(name).help),
                       "families": [] if name == AUTO else list(row(name).families)}
                      for name in names(task)] for task in ALL}
    engines.update((task, own_engines(task)) for task in OWN_TASKS)
    return {"tasks": [*ALL, *OWN_TASKS], "engines": engines, "families": model_options(),
            "option_tasks": {task: None if keys is None else list(keys)
                             for task, keys in OPTION_TASKS.items()}}


def model_options() -> dict[str, dict[str, Any]]:
    """Each family's model options as its registry record lists them, under the family's title
    (the command line's flags and their help groups come from the same records): the one table
    the page's run form is built from."""
    from ...registry import families
    return {name: {"title": record.title,
                   "options": [{"key": o.key, "flag": o.flag, "help": o.help, "label": o.label,
                                 "kind": o.kind,
                                "choices": list(o.choices)} for o in record.options]}
            for name, record in families().items()}


def _label(name: str, help_text: str) -> str:
    """An engine in a menu: its name and what it is, in the table's first words."""
    if name == "auto":
        return "auto (satiling chooses for the puzzle)"
    words = help_text.split(":")[0].split(" (")[0].split(";")[0]
    return f"{name} ({words.removeprefix('the ')})"
