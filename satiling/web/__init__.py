"""The web app started by ``satiling serve``: pose a puzzle, see it, watch it solve, browse its
solutions.  A client of :mod:`satiling.run` like the command line: ``app`` the application and its
routes, ``views`` the endpoints by resource, ``state`` what the app holds while it serves,
``store`` the SQLite file, ``runs`` the queue of run processes and ``child`` what runs in each,
``instances`` the puzzles, ``errors`` the refusals.  The endpoints are described in ``API.md``
beside this file."""
from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def create_app(*args: Any, **kwargs: Any) -> Any:
    """:func:`satiling.web.app.create_app` (imported when called: a run's process imports this
    package for its own module, and needs none of Starlette)."""
    from .app import create_app as make
    return make(*args, **kwargs)
