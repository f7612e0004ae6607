"""The pictures of a solution, whatever its family: text for the terminal, SVG for a file.

Families never import the renderers (the data flows one way); a family's record
(:class:`~satiling.registry.Family`) names its pictures, and this module draws with them:
:mod:`satiling.render.text` and :mod:`satiling.render.svg` for polyforms,
:mod:`satiling.render.edgematch_svg` and :mod:`satiling.render.iqlink_svg` for the others, whose
text form (a board ``satiling score`` reads, a challenge string) is their puzzle's own
``puzzle.text``.

    >>> import satiling
    >>> puzzle = satiling.load("tetromino-4x5")
    >>> satiling.render.to_text(puzzle, [])[:4]
    '....'
"""
from __future__ import annotations

import inspect
from functools import partial
from typing import Any, Callable

from ..families.base import checked
from ..registry import picture, resolve


@partial(checked, takes_solution=True)       # a bad solution: one SatilingError, as in verify
def solution_text(puzzle: Any, solution: list[Any], colour: str | None = None) -> str:
    """A picture of ``solution`` for the terminal (a partial one too: empty cells are dots);
    ``colour`` ("truecolor" or "256") where the family's picture has colours (polyforms)."""
    draw = _drawer(puzzle, "text")
    if draw is None:
        return puzzle.text(solution)
    if colour and "colour" in inspect.signature(draw).parameters:
        return draw(puzzle, solution, colour=colour)
    return draw(puzzle, solution)


@partial(checked, takes_solution=True)
def solution_svg(puzzle: Any, solution: list[Any], marked: list[Any] | None = None) -> str:
    """The SVG of a verified solution of ``puzzle``; ``marked``: placements of it the picture
    points at (a hint among the pins), outlined in orange where the family's picture can (polyforms, edge
    matching, IQ-Link: on an orange halo)."""
    draw = _drawer(puzzle, "svg")
    if draw is None:
        return puzzle.svg(solution)
    if marked and "marked" in inspect.signature(draw).parameters:
        return draw(puzzle, solution, marked=marked)
    return draw(puzzle, solution)


def _drawer(puzzle: Any, kind: str) -> Callable[[Any, list[Any]], str] | None:
    """The family's picture of this ``kind`` ("text" or "svg"), or None for the puzzle's own."""
    target = picture(puzzle.family, kind)
    return resolve(target) if target else None
