"""A run's events as server-sent events: the latest of each kind first, then each as it comes,
ending with ``end`` (a run of an earlier server: its end alone, from the store)."""
from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any, AsyncIterator

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from ..runs import as_json, end_event
from ..state import Web
from .common import run_row, web

#: the longest a stream waits for a run's next event before it looks whether the server stops
LOOK = 0.5
#: a quiet stream says it is alive this often (proxies close idle streams)
KEEPALIVE = 15.0


async def run_events(request: Request) -> Response:
    web_ = web(request)
    row = await run_in_threadpool(run_row, web_, request.path_params["run_id"])
    return StreamingResponse(_events(web_, row, request), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


async def _events(web_: Web, row: dict[str, Any], request: Request) -> AsyncIterator[str]:
    live = web_.runs.live(row["id"])
    if live is None:                      # a run of an earlier server: ended, all in the store
        yield _sse(end_event(row["state"], row["stop"], row["found"], row["seconds"] or 0.0,
                             row["score"], row["engine"], row["error"]))
        return
    loop, added = asyncio.get_running_loop(), asyncio.Event()

    def wake() -> None:
        loop.call_soon_threadsafe(added.set)
    live.listen(wake)
    try:
        first, seq = live.snapshot()
        for event in first:
            yield _sse(event)
        if any(e["type"] == "end" for e in first):
            return
        quiet = time.monotonic()
        while not web_.closing.is_set():      # a server that stops ends its streams first
            added.clear()                     # before reading: an event added after it wakes us
            events, seq = live.since(seq)
            for event in events:
                yield _sse(event)
                if event["type"] == "end":
                    return
            if events:
                quiet = time.monotonic()
            elif time.monotonic() - quiet > KEEPALIVE:
                quiet = time.monotonic()
                yield ": still running\n\n"
                if await request.is_disconnected():
                    return
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(added.wait(), LOOK)
    finally:
        live.unlisten(wake)


def _sse(event: dict[str, Any]) -> str:
    return f"data: {as_json(event)}\n\n"
