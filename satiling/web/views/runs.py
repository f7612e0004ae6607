"""The runs: start one (checked first, field by field), list them, stop one, read its solutions and
its scores."""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Mapping

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from ... import share
from ...errors import SatilingError
from ..child import Spec
from ..errors import FieldError, NotFound
from ..instances import source_of
from ..runs import FINAL_STATES
from ..state import Web
from ..store import RUN_FIELDS, options_of
from .common import draw, json_body, run_row, web, whole

#: the fields of a run's request (POST /api/runs), in the order they are checked
REQUEST_FIELDS = ("puzzle", "task", "engine", "time_limit", "raw", "symmetry", "options")
#: the tasks that take the family's model options, as their commands do, and which (None: every
#: option of the family): solve, count and enumerate every one, maximise (``solve
#: --maximize-matches``) the hint pieces alone (the others are the SAT model's: the run refuses
#: them), unique IQ-Link's (``iqlink unique --link-rule``); pack, forced and hint none (their
#: commands have no such flag).  tests/web hold this to the command line's parser and the run.
OPTION_TASKS: dict[str, tuple[str, ...] | None] = {
    "solve": None, "count": None, "enumerate": None, "maximise": ("hints",), "unique": None}
#: the most solutions one gallery page draws
MAX_PAGE = 100


async def post_run(request: Request) -> Response:
    web_ = web(request)
    body = await json_body(request)
    spec, title = await run_in_threadpool(checked_spec, web_, body)
    return JSONResponse({"id": web_.runs.submit(spec, title)})


def checked_spec(web_: Web, body: dict[str, Any]) -> tuple[Spec, str]:
    """The run asked for and its puzzle's title, checked by :class:`satiling.run.Request` (a
    bad argument is a 400 before anything is queued; the run's process checks it again).  The
    request is built a field at a time, so a refusal names the field that caused it."""
    unknown = sorted(set(body) - set(REQUEST_FIELDS))
    if unknown:
        raise FieldError(f"unknown field {unknown[0]!r} (a run takes {', '.join(REQUEST_FIELDS)})",
                         unknown[0])
    name = share.canonical(body.get("puzzle"))
    source = source_of(web_.store, name)
    task = body.get("task", "solve")
    for field, unset in (("raw", False), ("symmetry", None)):
        if task not in ("count", "enumerate") and body.get(field, unset) != unset:
            raise FieldError(f"{field} applies to count and enumerate, not {task}", field)
    options = _options_field(body.get("options"))
    puzzle = web_.puzzles.load(source)
    given = {"engine": body.get("engine", "auto"), "time_limit": body.get("time_limit"),
             "raw": body.get("raw", False), "symmetry": body.get("symmetry"), "options": options}
    if task in OWN_TASKS:
        return _own_spec(puzzle, name, source, task, given), puzzle.title or ""
    request = _checked(puzzle, task, source, given)
    _engine_checked(request)
    spec = Spec(puzzle=name, source=source, task=task, engine=request.engine,
                time_limit=request.time_limit, raw=request.raw, symmetry=request.symmetry,
                dask=_cluster(web_, request), options=in_family_order(puzzle, request.options))
    return spec, puzzle.title or ""


def _options_field(options: Any) -> dict[str, Any]:
    """The request's ``options`` as given, a JSON object: its keys and values are checked with
    the puzzle, by :func:`satiling.run.request.checked_options`."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise FieldError("options is an object of the puzzle family's model options "
                         f"(e.g. {{\"hints\": true}}), not {type(options).__name__}", "options")
    return options


def in_family_order(puzzle: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options set, in the order the family lists them (the CLI's help, the page's form)."""
    from ...registry import family
    return {opt.key: options[opt.key] for opt in family(puzzle.family).options if opt.key in options}


#: the tasks the command line has as commands of their own: each's family, what it is there, and
#: what its "auto" runs (forced also takes the CLI's other --method choices: :func:`own_engines`)
OWN_TASKS = {"pack": ("polyform", "satiling pack: the most pieces that fit",
                      "CP-SAT, after a short exact-cover search"),
             "unique": ("iqlink", "satiling iqlink unique: is the solution the only one",
                        "SAT: a solution, then a second one"),
             "forced": (None, "satiling forced: the placements every solution holds",
                        "the exact-cover search or SAT under assumptions"),
             "hint": (None, "satiling hint: one placement of some solution",
                      "the exact-cover search or SAT under assumptions")}


def own_engines(task: str) -> list[dict[str, Any]]:
    """The engine menu of a task the CLI has as a command of its own: ``forced``'s are the
    methods ``satiling forced --method`` takes (:data:`satiling.search.backbone.METHODS`, which
    the run is given as they are), each named as the CLI names it; the others run one engine,
    ``auto``.  Each with the families it takes (empty: every one)."""
    from ...engines.table import WALK, row
    from ...run.forced import METHOD_NAMES
    from ...search.backbone import METHODS
    auto = {"name": "auto", "label": f"auto ({OWN_TASKS[task][2]})", "families": []}
    if task != "forced":
        return [auto]
    # exact is the walk engine's exact-cover search (under assumptions): the models walk takes
    takes = {"exact": list(row(WALK).families)}
    return [auto] + [{"name": m, "label": f"{m} ({METHOD_NAMES[m]})", "families": takes.get(m, [])}
                     for m in METHODS if m != "auto"]


def _own_spec(puzzle: Any, name: str, source: str, task: str, given: dict[str, Any]) -> Spec:
    """``pack`` (polyform boards; a time limit as a solve's), ``unique`` (IQ-Link; no time
    limit: it is two SAT calls), ``forced`` and ``hint``, each with its own engines."""
    family, what, _ = OWN_TASKS[task]
    if family is not None and puzzle.family != family:
        raise FieldError(f"{task} ({what}) applies to {family} puzzles, not {puzzle.family}", "task")
    engine = "auto" if given["engine"] is None else given["engine"]
    offered = {e["name"]: e["families"] for e in own_engines(task)}
    if engine not in offered:
        raise FieldError(f"{task} runs its own engine: choose auto" if len(offered) == 1 else
                         f"unknown engine {engine!r} for {task} (choose from {', '.join(offered)})",
                         "engine")
    if offered[engine] and puzzle.family not in offered[engine]:
        raise FieldError(f"the {engine} method of {task} takes {' and '.join(offered[engine])} "
                         f"puzzles (an exact cover), not {puzzle.family}", "engine")
    asked = any(v is not None and v is not False for v in given["options"].values())
    if asked and task not in OPTION_TASKS:                  # refused, not dropped: never ignored
        raise FieldError(f"{task} takes no model options ({what.split(':')[0]} has none): drop "
                         "options", "options")
    if task == "unique" and given["time_limit"] is not None:
        raise FieldError("unique takes no time limit (two SAT calls, each short)", "time_limit")
    checked = _checked(puzzle, "solve", source, {"time_limit": given["time_limit"],
                                                  "options": given["options"]})
    return Spec(puzzle=name, source=source, task=task, engine=engine, time_limit=checked.time_limit,
                options=in_family_order(puzzle, checked.options))


def _checked(puzzle: Any, task: Any, source: str, given: dict[str, Any]) -> Any:
    """The run's :class:`~satiling.run.Request`, its fields added one at a time: the first whose
    value is refused is the field named."""
    from ...run import Request
    if task not in ("solve", "count", "enumerate", "maximise"):
        raise FieldError(f"unknown task {task!r} (choose from solve, count, enumerate, maximise, "
                         f"{', '.join(OWN_TASKS)})", "task")
    settings: dict[str, Any] = {}
    for field in ("task", *given):
        if field != "task":
            settings[field] = given[field]
        try:
            request = Request(puzzle, task, source=source, **settings)
        except SatilingError as e:
            raise FieldError(str(e), field) from None
    return request


def _cluster(web_: Web, request: Any) -> str | None:
    """The Dask scheduler a run goes to (``satiling serve --dask``): a maximisation by the engine
    that runs there (the backtracker, which ``auto`` picks when a cluster is given); any other
    run, or an engine asked for by name that runs only here, stays on this machine."""
    from ...engines.table import row
    from ...search.router import maximise_engine
    if web_.dask is None or request.task != "maximise":
        return None
    engine = maximise_engine(request.puzzle, request.engine, True)
    return web_.dask if row(engine).dask is not None else None


def _engine_checked(request: Any) -> None:
    """The engine chosen (or asked for) can take this puzzle's model, first without the model
    options (a refusal names the engine), then with them (it names the options: maximise takes
    ``hints`` alone, the walk engine no model beyond an exact cover); maximise is for edge
    matching."""
    from ...run.engines import settled
    from ...run.tasks import check_maximise
    if request.task == "maximise" and not hasattr(request.puzzle, "match_problem"):
        raise FieldError("maximising matching joins applies to edge-matching puzzles only", "task")
    check = check_maximise if request.task == "maximise" else settled
    for asked, field in ((replace(request, options={}), "engine"), (request, "options")):
        try:
            check(asked)
        except SatilingError as e:
            raise FieldError(str(e), field) from None


def run_json(row: dict[str, Any]) -> dict[str, Any]:
    """A run as the API lists it (``stored``: its solutions in the store)."""
    out = {k: row[k] for k in RUN_FIELDS}
    out["title"] = out["title"] or ""
    if row["state"] == "running" and row["started"]:
        out["seconds"] = round(time.time() - row["started"], 3)
    limit = row["time_limit"]
    out.update(time_limit=limit, raw=bool(row["raw"]), symmetry=row["symmetry"],
               options=options_of(row), stored=row["stored"], limit_fraction=None)
    if limit and out["seconds"] is not None:
        out["limit_fraction"] = round(min(1.0, out["seconds"] / limit), 4)
    return out


async def list_runs(request: Request) -> Response:
    rows = await run_in_threadpool(web(request).store.runs)
    return JSONResponse([run_json(r) for r in rows])


async def show_run(request: Request) -> Response:
    web_ = web(request)

    def get() -> dict[str, Any]:
        row = run_row(web_, request.path_params["run_id"])
        out = run_json(row)
        out.update(error=row["error"], note=row["note"], best_svg=None)
        if row["task"] == "maximise":
            first = web_.store.solutions(row["id"], 0, 1)
            if first:
                out["best_svg"] = draw(web_, row, first[0][1])
        return out
    return JSONResponse(await run_in_threadpool(get))


async def stop_run(request: Request) -> Response:
    web_ = web(request)
    row = await run_in_threadpool(run_row, web_, request.path_params["run_id"])
    if row["state"] not in FINAL_STATES:
        web_.runs.stop(row["id"])
    return JSONResponse({"id": row["id"], "state": row["state"]})


async def run_solutions(request: Request) -> Response:
    web_ = web(request)
    offset = whole(request.query_params.get("offset", "0"), "offset")
    limit = min(whole(request.query_params.get("limit", "24"), "limit"), MAX_PAGE)

    def page() -> dict[str, Any]:
        row = run_row(web_, request.path_params["run_id"])
        items = [{"index": k, "svg": draw(web_, row, line, k)}
                 for k, line in web_.store.solutions(row["id"], offset, limit)]
        return {"total": web_.store.solution_count(row["id"]), "items": items}
    return JSONResponse(await run_in_threadpool(page))


async def one_solution(request: Request) -> Response:
    web_ = web(request)
    number, kind = request.path_params["k"], request.path_params["kind"]
    try:
        k = whole(number, "k")
    except FieldError:
        k = -1
    if kind not in ("svg", "json") or k < 0:
        raise NotFound(f"no such file: solutions/{number[:20]}.{kind[:10]}")

    def get() -> tuple[str, str]:
        row = run_row(web_, request.path_params["run_id"])
        rows = web_.store.solutions(row["id"], k, 1)
        if not rows or rows[0][0] != k:
            raise NotFound(f"run {row['id']} has no solution {k}")
        return row["id"], draw(web_, row, rows[0][1], k) if kind == "svg" else rows[0][1] + "\n"
    run_id, text = await run_in_threadpool(get)
    media = "image/svg+xml" if kind == "svg" else "application/json"
    return Response(text, media_type=media, headers={
        "Content-Disposition": f'attachment; filename="{run_id}-{k}.{kind}"'})


async def all_solutions(request: Request) -> Response:
    web_ = web(request)
    row = await run_in_threadpool(run_row, web_, request.path_params["run_id"])

    def lines() -> Any:
        for line in web_.store.iter_solutions(row["id"]):
            yield line + "\n"
    return StreamingResponse(lines(), media_type="application/jsonl", headers={
        "Content-Disposition": f'attachment; filename="{row["id"]}.jsonl"'})


async def run_scores(request: Request) -> Response:
    web_ = web(request)

    def get() -> list[list[float]]:
        return web_.store.scores(run_row(web_, request.path_params["run_id"])["id"])
    return JSONResponse(await run_in_threadpool(get))
