"""What every view needs: the app's state, the request's JSON body (capped and checked), whole
numbers from a query, a stored run, a stored solution drawn."""
from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

from ...errors import SatilingError
from ...schema import check_depth
from ..errors import FieldError, NotFound, TooLarge
from ..instances import source_of
from ..state import Web
from ..store import placements_of

#: the largest request body (an instance file, a painted board)
MAX_BODY = 1 << 20
#: the deepest a request's JSON is nested (a painted piece's cells: 4)
MAX_DEPTH = 8
#: the largest offset or solution number a request may name (SQLite's integers are 64-bit)
MAX_INDEX = (1 << 63) - 1


def web(request: Request) -> Web:
    return request.app.state.web


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, refused beyond :data:`MAX_BODY` bytes (counted as it comes, so a
    body without a length is capped too), nested deeper than :data:`MAX_DEPTH`, or holding
    something that is not text."""
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
        raise FieldError(f"the request is not JSON: {e}") from None
    except RecursionError:
        raise FieldError("the request is nested too deep to be a form's JSON") from None
    if not isinstance(body, dict):
        raise FieldError("the request is a JSON object")
    try:
        check_depth(body, MAX_DEPTH)
    except SatilingError as e:
        raise FieldError(f"the request is not a form's JSON: {e}") from None
    try:      # JSON's \ud800 escapes a lone surrogate, which is no text: refused here, once
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as e:
        raise FieldError(f"the request holds a character that is not text ({e.object[e.start]!r})") from None
    return body


def whole(text: str, field: str) -> int:
    """A query's whole number: ASCII digits only ('²' is a digit to isdigit, not to int), at most
    :data:`MAX_INDEX`."""
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or int(text) > MAX_INDEX:
        raise FieldError(f"{field} is a whole number up to {MAX_INDEX}, not {text[:20]!r}", field)
    return int(text)


def run_row(web_: Web, run_id: str) -> dict[str, Any]:
    row = web_.store.run(run_id)
    if row is None:
        raise NotFound(f"unknown run {run_id!r}")
    return row


def draw(web_: Web, row: dict[str, Any], line: str, index: int = 0) -> str:
    """The picture of the run's stored solution ``index`` (:func:`..pictures.kept_svg`)."""
    from ..pictures import kept_svg
    puzzle = web_.puzzles.load(source_of(web_.store, row["puzzle"]))
    return kept_svg(puzzle, row["task"], [puzzle.placement_from_json(p) for p in placements_of(line)], index)
