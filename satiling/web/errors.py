"""The web app's errors: each carries its HTTP status and the form field it concerns, so the app's
one exception handler answers ``{"error", "field"}`` without reading the message.  (A missing
token, 403, is answered before any view, by the app's token check.)"""
from __future__ import annotations

from ..errors import SatilingError


class WebError(SatilingError):
    """A request the app refuses: HTTP :attr:`status`, naming :attr:`field` (or None)."""

    status = 400

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class FieldError(WebError):
    """A bad value in a request, with the name of the form field it concerns (None: the request
    as a whole)."""


class NotFound(WebError):
    """An unknown puzzle, run or file."""

    status = 404


class TooLarge(WebError):
    """A request body over the app's cap."""

    status = 413
