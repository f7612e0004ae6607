"""The web app: a Starlette application over the store, the run manager and satiling itself.

``create_app(store_path, token=None)`` builds it; ``satiling serve`` runs it under uvicorn.  The
endpoints are those of ``satiling/web/API.md``.  Every error is one line of JSON,
``{"error": ..., "field": ...}``, with satiling's own message; request bodies are capped at 1 MB;
with a token (a server listening beyond this machine) every ``/api`` request must carry it.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import json
import secrets
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, AsyncIterator, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import SatilingError
from ..schema import check_depth
from .instances import (LATTICES, FieldError, NotFound, add_instance, bundled, choice, export, facts,
                        generate_toml, paint_toml, piece_sets as sets_of_lattice, source_of, stem,
                        toml_of)
from .child import Spec, start
from .runs import FINAL_STATES, RunManager, as_json
from .store import RUN_FIELDS, Store, StoreLock, placements_of

STATIC = Path(__file__).parent / "static"
#: the largest request body (an instance file, a painted board)
MAX_BODY = 1 << 20
#: how long a puzzle's page waits for its facts before answering without them
FACTS_WAIT = 2.0
#: puzzles kept loaded for drawing solutions
PUZZLE_CACHE = 16
#: the most solutions one gallery page draws
MAX_PAGE = 100
#: the largest offset or solution number a request may name (SQLite's integers are 64-bit)
MAX_INDEX = (1 << 63) - 1
RUN_TASKS = ("solve", "count", "enumerate", "maximise")
#: the deepest a request's JSON is nested (a painted piece's cells: 4)
MAX_DEPTH = 8


class TooLarge(SatilingError):
    """A request body over :data:`MAX_BODY`: HTTP 413."""


class Forbidden(SatilingError):
    """A missing or wrong token: HTTP 403."""


def error(status: int, message: str, field: str | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "field": field}, status_code=status)


# -- what the app holds ----------------------------------------------------------------------------
class Puzzles:
    """Loaded puzzles by source (a few, most recently used) and their facts (``info``, computed
    once each in a process of its own: the largest take a minute, and a server that stops ends
    that process at once instead of waiting for it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded: OrderedDict[str, Any] = OrderedDict()
        self._facts: dict[str, concurrent.futures.Future] = {}
        self._worker: Any = None
        self._jobs: Any = None
        self._closed = threading.Event()

    def load(self, source: str) -> Any:
        from .. import catalog
        with self._lock:
            if source in self._loaded:
                self._loaded.move_to_end(source)
                return self._loaded[source]
        puzzle = catalog.load(source)
        with self._lock:
            self._loaded[source] = puzzle
            while len(self._loaded) > PUZZLE_CACHE:
                self._loaded.popitem(last=False)
        return puzzle

    def facts(self, source: str) -> concurrent.futures.Future:
        """The facts of ``source``, asked of the facts process once (a failure other than
        satiling's own message is asked again next time)."""
        with self._lock:
            future = self._facts.get(source)
            if future is not None and not (future.done() and future.exception() is not None
                                           and not isinstance(future.exception(), SatilingError)):
                return future
            future = self._facts[source] = concurrent.futures.Future()
            if self._worker is None or not self._worker.is_alive():
                self._start()
            self._jobs.put(source)
            return future

    def _start(self) -> None:
        from .child import queue
        self._jobs, results = queue(), queue()
        self._worker = start(facts_loop, (self._jobs, results), "satiling-facts")
        threading.Thread(target=self._read, args=(results,), daemon=True).start()

    def _read(self, results: Any) -> None:
        import queue
        while not self._closed.is_set():
            try:
                source, ok, value = results.get(timeout=0.5)
            except queue.Empty:
                continue
            except (EOFError, OSError):
                return
            with self._lock:
                future = self._facts.get(source)
            if future is not None and not future.done():
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(SatilingError(value))

    def close(self) -> None:
        self._closed.set()
        if self._worker is not None and self._worker.is_alive():
            self._worker.terminate()
            self._worker.join(2.0)


def facts_loop(jobs: Any, results: Any) -> None:
    """The facts process: measure each puzzle asked for, in turn."""
    import signal
    from .child import ready
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # the server ends it
    ready()
    while True:
        source = jobs.get()
        try:
            results.put((source, True, facts(source)))
        except SatilingError as e:
            results.put((source, False, str(e)))
        except Exception as e:            # noqa: BLE001 -- one line for the page, never a trace
            results.put((source, False, f"{type(e).__name__}: {e}"))


class Web:
    """The app's state: the store, the runs, the puzzles."""

    def __init__(self, store_path: str | Path, token: str | None, lock: StoreLock | None = None) -> None:
        self.store = Store(store_path, lock)
        self.closing = threading.Event()
        self.runs = RunManager(self.store)
        self.puzzles = Puzzles()
        self.token = token

    def close(self) -> None:
        self.closing.set()
        self.runs.close()
        self.puzzles.close()
        self.store.close()


# -- helpers ---------------------------------------------------------------------------------------
async def json_body(request: Request) -> Any:
    """The request's JSON body, refused beyond :data:`MAX_BODY` bytes (counted as it comes, so a
    body without a length is capped too)."""
    length = request.headers.get("content-length")
    if length is not None and length.isascii() and length.isdigit() and int(length) > MAX_BODY:
        raise TooLarge(f"the request is larger than {MAX_BODY >> 20} MB")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise TooLarge(f"the request is larger than {MAX_BODY >> 20} MB")
        chunks.append(chunk)
    try:
        body = json.loads(b"".join(chunks).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise FieldError(f"the request is not JSON: {e}", None) from None
    except RecursionError:
        raise FieldError("the request is nested too deep to be a form's JSON", None) from None
    if not isinstance(body, dict):
        raise FieldError("the request is a JSON object", None)
    try:
        check_depth(body, MAX_DEPTH)
    except SatilingError as e:
        raise FieldError(f"the request is not a form's JSON: {e}", None) from None
    try:      # JSON's \ud800 escapes a lone surrogate, which is no text: refused here, once
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as e:
        raise FieldError(f"the request holds a character that is not text ({e.object[e.start]!r})",
                         None) from None
    return body


def web(request: Request) -> Web:
    return request.app.state.web


def run_row(web_: Web, run_id: str) -> dict[str, Any]:
    row = web_.store.run(run_id)
    if row is None:
        raise NotFound(f"unknown run {run_id!r}")
    return row


def run_json(row: dict[str, Any]) -> dict[str, Any]:
    out = {k: row[k] for k in RUN_FIELDS}
    if row["state"] == "running" and row["started"]:
        out["seconds"] = round(time.time() - row["started"], 3)
    out["time_limit"], out["raw"], out["symmetry"] = row["time_limit"], bool(row["raw"]), row["symmetry"]
    return out


# -- puzzles ---------------------------------------------------------------------------------------
async def list_puzzles(request: Request) -> Response:
    return JSONResponse(await run_in_threadpool(bundled))


async def show_puzzle(request: Request) -> Response:
    with_facts = request.query_params.get("facts", "1") != "0"
    return JSONResponse(await describe(web(request), request.path_params["name"], with_facts))


async def describe(web_: Web, name: str, with_facts: bool = True) -> dict[str, Any]:
    """A puzzle's page: its file, its drawing, its facts (those not ready within
    :data:`FACTS_WAIT` seconds say so, ``pending``: ask again; none with ``with_facts`` False,
    for the gallery's cards)."""
    from ..render import to_svg

    def drawn() -> dict[str, Any]:
        source = source_of(web_.store, name)
        puzzle = web_.puzzles.load(source)
        return {"name": name, "title": puzzle.title or "", "family": puzzle.family,
                "toml": toml_of(web_.store, name), "svg": to_svg(puzzle, []),
                "source": source}

    out = await run_in_threadpool(drawn)
    source = out.pop("source")
    if not with_facts:
        out.update(info={}, obstruction=None, pending=False)
        return out
    future = web_.puzzles.facts(source)
    try:
        known = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), FACTS_WAIT)
        out.update(known, pending=False)
    except asyncio.TimeoutError:
        out.update(info={"model": "still being measured: reload in a moment"}, obstruction=None,
                   pending=True)
    except SatilingError as e:
        out.update(info={"model": f"cannot be measured: {e}"}, obstruction=None, pending=False)
    return out


async def export_puzzle(request: Request) -> Response:
    web_ = web(request)
    name, fmt = request.path_params["name"], request.query_params.get("format", "dimacs")
    source = source_of(web_.store, name)
    data = await run_in_threadpool(export, source, fmt)
    filename = f"{stem(source)}.{_SUFFIX.get(fmt, fmt)}"
    return Response(data, media_type="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


_SUFFIX = {"dimacs": "cnf", "cpsat": "pbtxt", "lpsolve": "lp", "xcsp3": "xml"}


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
    def store() -> str:
        return add_instance(web_.store, make_toml())
    inst_id = await run_in_threadpool(store)
    return JSONResponse(await describe(web_, inst_id))


async def piece_sets(request: Request) -> Response:
    lattice = request.query_params.get("lattice", "square")
    choice(lattice, LATTICES, "lattice")
    return JSONResponse(await run_in_threadpool(sets_of_lattice, lattice))


# -- runs ------------------------------------------------------------------------------------------
async def post_run(request: Request) -> Response:
    web_ = web(request)
    body = await json_body(request)
    spec = await run_in_threadpool(checked_spec, web_, body)
    return JSONResponse({"id": web_.runs.submit(spec)})


#: the fields of a run's request (POST /api/runs)
REQUEST_FIELDS = ("puzzle", "task", "engine", "time_limit", "raw", "symmetry")


def checked_spec(web_: Web, body: dict[str, Any]) -> Spec:
    """The run asked for, checked by :class:`satiling.run.Request` here (a bad argument is a 400
    before anything is queued) and again in the child that runs it."""
    from ..run import Request as RunRequest
    unknown = sorted(set(body) - set(REQUEST_FIELDS))
    if unknown:
        raise FieldError(f"unknown field {unknown[0]!r} (a run takes {', '.join(REQUEST_FIELDS)})", unknown[0])
    name = body.get("puzzle")
    source = source_of(web_.store, name)
    task = body.get("task", "solve")
    if task not in RUN_TASKS:
        raise FieldError(f"unknown task {task!r} (choose from {', '.join(RUN_TASKS)})", "task")
    for field, unset in (("raw", False), ("symmetry", None)):
        if task not in ("count", "enumerate") and body.get(field, unset) != unset:
            raise FieldError(f"{field} applies to count and enumerate, not {task}", field)
    time_limit = body.get("time_limit")
    spec = Spec(puzzle=name, source=source, task=task, engine=body.get("engine", "auto"),
                time_limit=time_limit, raw=body.get("raw", False), symmetry=body.get("symmetry"))
    puzzle = web_.puzzles.load(source)
    try:
        from ..run.engines import choose
        req = RunRequest(puzzle, task, engine=spec.engine, time_limit=time_limit, raw=spec.raw,
                         symmetry=spec.symmetry, source=source)
        if task != "maximise":          # an engine that cannot take the model (maximise: below)
            choose(req)
    except SatilingError as e:
        raise FieldError(str(e), _field_of(str(e))) from None
    if task == "maximise" and not hasattr(puzzle, "match_problem"):
        raise FieldError("maximising matching joins applies to edge-matching puzzles only", "task")
    return spec


def _field_of(message: str) -> str | None:
    for field in ("engine", "symmetry", "raw", "time_limit", "task"):
        if field.replace("_", " ") in message or field in message:
            return field
    return "time_limit" if "second" in message else None


async def list_runs(request: Request) -> Response:
    rows = await run_in_threadpool(web(request).store.runs)
    return JSONResponse([run_json(r) for r in rows])


async def show_run(request: Request) -> Response:
    web_ = web(request)

    def get() -> dict[str, Any]:
        row = run_row(web_, request.path_params["run_id"])
        out = run_json(row)
        out["error"], out["note"], out["best_svg"] = row["error"], row["note"], None
        if row["task"] == "maximise":
            first = web_.store.solutions(row["id"], 0, 1)
            if first:
                out["best_svg"] = draw(web_, row, first[0][1])
        return out
    return JSONResponse(await run_in_threadpool(get))


def draw(web_: Web, row: dict[str, Any], line: str) -> str:
    """The picture of a stored solution (a maximisation's board may break joins: drawn with its
    score, as ``satiling score`` draws it)."""
    from ..render import to_svg
    puzzle = web_.puzzles.load(source_of(web_.store, row["puzzle"]))
    placements = [puzzle.placement_from_json(p) for p in placements_of(line)]
    if row["task"] == "maximise":
        from ..render.edgematch_svg import board_svg
        return board_svg(puzzle, puzzle.board_from(placements, strict=False))
    return to_svg(puzzle, placements)


async def stop_run(request: Request) -> Response:
    web_ = web(request)
    row = await run_in_threadpool(run_row, web_, request.path_params["run_id"])
    if row["state"] not in FINAL_STATES:
        web_.runs.stop(row["id"])
    return JSONResponse({"id": row["id"], "state": row["state"]})


async def run_events(request: Request) -> Response:
    web_ = web(request)
    row = await run_in_threadpool(run_row, web_, request.path_params["run_id"])
    return StreamingResponse(_events(web_, row, request), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


async def _events(web_: Web, row: dict[str, Any], request: Request) -> AsyncIterator[str]:
    """The run's events as server-sent events: the current state first, then each event as it
    comes, ending with ``end``."""
    live = web_.runs.live(row["id"])
    if live is None:                      # a run of an earlier server: ended, all in the store
        yield _sse({"type": "end", "state": row["state"], "stop": row["stop"], "found": row["found"],
                    "score": row["score"]})
        return
    first, seq = live.snapshot()
    for event in first:
        yield _sse(event)
    if any(e["type"] == "end" for e in first):
        return
    quiet = time.monotonic()
    while not web_.closing.is_set():
        events, seq = live.since(seq)
        for event in events:
            yield _sse(event)
            if event["type"] == "end":
                return
        if events:
            quiet = time.monotonic()
        elif time.monotonic() - quiet > 15:
            quiet = time.monotonic()
            yield ": still running\n\n"   # keeps proxies from closing an idle stream
            if await request.is_disconnected():
                return
        await asyncio.sleep(0.05)


def _sse(event: dict[str, Any]) -> str:
    return f"data: {as_json(event)}\n\n"


async def run_solutions(request: Request) -> Response:
    web_ = web(request)
    offset = _whole(request.query_params.get("offset", "0"), "offset")
    limit = min(_whole(request.query_params.get("limit", "24"), "limit"), MAX_PAGE)

    def page() -> dict[str, Any]:
        row = run_row(web_, request.path_params["run_id"])
        items = [{"index": k, "svg": draw(web_, row, line)}
                 for k, line in web_.store.solutions(row["id"], offset, limit)]
        return {"total": web_.store.solution_count(row["id"]), "items": items}
    return JSONResponse(await run_in_threadpool(page))


def _whole(text: str, field: str) -> int:
    # ASCII digits only ('²' is a digit to isdigit, not to int), at most MAX_INDEX (SQLite's
    # integers are 64-bit)
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or int(text) > MAX_INDEX:
        raise FieldError(f"{field} is a whole number up to {MAX_INDEX}, not {text[:20]!r}", field)
    return int(text)


async def one_solution(request: Request) -> Response:
    web_ = web(request)
    number, kind = request.path_params["k"], request.path_params["kind"]
    try:
        k = _whole(number, "k")
    except FieldError:
        k = -1
    if kind not in ("svg", "json") or k < 0:
        raise NotFound(f"no such file: solutions/{number[:20]}.{kind[:10]}")

    def get() -> tuple[str, str]:
        row = run_row(web_, request.path_params["run_id"])
        rows = web_.store.solutions(row["id"], k, 1)
        if not rows or rows[0][0] != k:
            raise NotFound(f"run {row['id']} has no solution {k}")
        return row["id"], draw(web_, row, rows[0][1]) if kind == "svg" else rows[0][1] + "\n"
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


# -- the page --------------------------------------------------------------------------------------
async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html",
                        headers={"Cache-Control": "no-cache"})


# -- errors and the token --------------------------------------------------------------------------
async def on_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, TooLarge):
        return error(413, str(exc))
    if isinstance(exc, Forbidden):
        return error(403, str(exc))
    if isinstance(exc, NotFound):
        return error(404, str(exc))
    if isinstance(exc, SatilingError):
        return error(400, str(exc), getattr(exc, "field", None))
    if isinstance(exc, HTTPException):
        return error(exc.status_code, str(exc.detail))
    return error(500, f"internal error ({type(exc).__name__}): {str(exc).splitlines()[0][:200] if str(exc) else ''}")


class TokenCheck:
    """ASGI middleware: every ``/api`` request carries the token (``?token=`` or the
    ``X-Satiling-Token`` header), else 403.  The page and its static files need none (the page
    reads the token from its own address and sends it)."""

    def __init__(self, app: Any, token: str) -> None:
        self.app, self.token = app, token

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api"):
            request = Request(scope)
            given = request.headers.get("x-satiling-token") or request.query_params.get("token") or ""
            if not secrets.compare_digest(given.encode(), self.token.encode()):
                response = error(403, "this server needs its token: open the address it printed "
                                      "(…?token=…)")
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(store_path: str | Path, token: str | None = None, lock: StoreLock | None = None) -> Starlette:
    """The web app over the store at ``store_path`` (``lock``: the store's, taken already); with
    ``token``, every API request needs it."""
    state = Web(store_path, token, lock)
    api = "/api"
    routes = [
        Route("/", index),
        Route(f"{api}/puzzles", list_puzzles),
        Route(f"{api}/puzzles/{{name}}", show_puzzle),
        Route(f"{api}/puzzles/{{name}}/export", export_puzzle),
        Route(f"{api}/instances", post_instance, methods=["POST"]),
        Route(f"{api}/paint", post_paint, methods=["POST"]),
        Route(f"{api}/generate", post_generate, methods=["POST"]),
        Route(f"{api}/piece-sets", piece_sets),
        Route(f"{api}/runs", list_runs, methods=["GET"]),
        Route(f"{api}/runs", post_run, methods=["POST"]),
        Route(f"{api}/runs/{{run_id}}", show_run),
        Route(f"{api}/runs/{{run_id}}/events", run_events),
        Route(f"{api}/runs/{{run_id}}/stop", stop_run, methods=["POST"]),
        Route(f"{api}/runs/{{run_id}}/solutions", run_solutions),
        Route(f"{api}/runs/{{run_id}}/solutions.jsonl", all_solutions),
        Route(f"{api}/runs/{{run_id}}/solutions/{{k}}.{{kind}}", one_solution),
        Route(f"{api}/runs/{{run_id}}/scores", run_scores),
        Mount("/static", app=StaticFiles(directory=str(STATIC), check_dir=False), name="static"),
    ]

    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await run_in_threadpool(state.close)

    app = Starlette(routes=routes, exception_handlers={SatilingError: on_error, HTTPException: on_error,
                                                      Exception: on_error},
                    lifespan=_context(lifespan))
    app.state.web = state
    if token:
        app.add_middleware(TokenCheck, token=token)
    return app


def _context(gen: Callable) -> Callable:
    from contextlib import asynccontextmanager
    return asynccontextmanager(gen)
