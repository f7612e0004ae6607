"""The web app: a Starlette application over the store, the run manager and satiling itself.

``create_app(store_path, token=None)`` builds it; ``satiling serve`` runs it under uvicorn.  The
endpoints are those of ``satiling/web/API.md``, the views by resource in :mod:`.views`.  The
app's state (:class:`.state.Web`: the store, the runs, the puzzles) is made when the server
starts (Starlette's lifespan) and closed when it stops.  Every error is one line of JSON,
``{"error": ..., "field": ...}``, with satiling's own message, answered by one handler from what
the error carries (:mod:`.errors`); with a token (a server listening beyond this machine) every
``/api`` request must carry it.
"""
from __future__ import annotations

import contextlib
import secrets
import threading
from pathlib import Path
from typing import Any, AsyncIterator, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import SatilingError
from .errors import WebError
from .state import Web
from .store import StoreLock
from .views import events, puzzles, runs, workbench

STATIC = Path(__file__).parent / "static"


def error(status: int, message: str, field: str | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "field": field}, status_code=status)


# -- errors --------------------------------------------------------------------------------------------
async def refused(request: Request, exc: Exception) -> Response:
    """A request the app refuses: its status and field are the error's own; satiling's own
    errors (a puzzle that does not load, a bad value) are the client's: 400."""
    if isinstance(exc, WebError):
        return error(exc.status, str(exc), exc.field)
    return error(400, str(exc))


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return error(exc.status_code, str(exc.detail))


async def fault(request: Request, exc: Exception) -> Response:
    """A fault of the server (a bug): 500, one line, never a trace."""
    first = str(exc).splitlines()[0][:200] if str(exc) else ""
    return error(500, f"internal error ({type(exc).__name__}): {first}")


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


# -- the app -------------------------------------------------------------------------------------------
async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html",
                        headers={"Cache-Control": "no-cache"})


def routes() -> list[Any]:
    api = "/api"
    run = f"{api}/runs/{{run_id}}"
    return [
        Route("/", index),
        *workbench.routes(api),
        Route(f"{api}/meta", puzzles.meta),
        Route(f"{api}/puzzles", puzzles.list_puzzles),
        Route(f"{api}/puzzles/{{name}}", puzzles.show_puzzle),
        Route(f"{api}/puzzles/{{name}}/export", puzzles.export_puzzle),
        Route(f"{api}/puzzles/{{name}}/score", puzzles.score_board, methods=["POST"]),
        Route(f"{api}/puzzles/{{name}}/check", puzzles.check_solution, methods=["POST"]),
        Route(f"{api}/data/{{path:path}}", puzzles.bundled_data),
        Route(f"{api}/instances", puzzles.list_instances, methods=["GET"]),
        Route(f"{api}/instances", puzzles.post_instance, methods=["POST"]),
        Route(f"{api}/paint", puzzles.post_paint, methods=["POST"]),
        Route(f"{api}/generate", puzzles.post_generate, methods=["POST"]),
        Route(f"{api}/piece-sets", puzzles.piece_sets),
        Route(f"{api}/piece-sets/{{set_name}}", puzzles.piece_set),
        Route(f"{api}/runs", runs.list_runs, methods=["GET"]),
        Route(f"{api}/runs", runs.post_run, methods=["POST"]),
        Route(run, runs.show_run),
        Route(f"{run}/events", events.run_events),
        Route(f"{run}/stop", runs.stop_run, methods=["POST"]),
        Route(f"{run}/solutions", runs.run_solutions),
        Route(f"{run}/solutions.jsonl", runs.all_solutions),
        Route(f"{run}/solutions/{{k}}.{{kind}}", runs.one_solution),
        Route(f"{run}/scores", runs.run_scores),
        Mount("/static", app=StaticFiles(directory=str(STATIC), check_dir=False), name="static"),
    ]


def create_app(store_path: str | Path, token: str | None = None, lock: StoreLock | None = None,
               dask: str | None = None) -> Starlette:
    """The web app over the store at ``store_path`` (``lock``: the store's, taken already; else
    the app takes it when it starts, and a store another server holds is refused then); with
    ``token``, every API request needs it.  ``app.state.closing`` is set when the server begins
    to stop (``satiling serve`` sets it at the first Ctrl-C).  ``dask``: a Dask scheduler's
    address, where the maximisations run (one search per worker thread)."""
    closing = threading.Event()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        app.state.web = await run_in_threadpool(Web, store_path, closing, lock, dask)
        try:
            yield
        finally:
            await run_in_threadpool(app.state.web.close)

    app = Starlette(routes=routes(), lifespan=lifespan, exception_handlers={
        SatilingError: refused, HTTPException: http_error, Exception: fault})
    app.state.closing = closing
    if token:
        app.add_middleware(TokenCheck, token=token)
    return app
