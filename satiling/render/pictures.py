"""The pictures of a solution, whatever its family: text for the terminal, SVG for a file.

Families never import the renderers (the data flows one way); this module picks the one for a
puzzle's family: :mod:`satiling.render.text` and :mod:`satiling.render.svg` for polyforms,
:mod:`satiling.render.edgematch_svg` and :mod:`satiling.render.iqlink_svg` for the others, whose
text form (a board ``satiling score`` reads, a challenge string) is their family's own
``puzzle.text``.

    >>> import satiling
    >>> puzzle = satiling.load("tetromino-4x5")
    >>> satiling.render.to_text(puzzle, [])[:4]
    '....'
"""
from __future__ import annotations

from functools import partial
from typing import Any

from ..families.base import checked


@partial(checked, takes_solution=True)       # a bad solution: one SatilingError, as in verify
def solution_text(puzzle: Any, solution: list[Any]) -> str:
    """A picture of ``solution`` for the terminal (a partial one too: empty cells are dots)."""
    if puzzle.family == "polyform":
        from .text import polyform_text
        return polyform_text(puzzle, solution)
    return puzzle.text(solution)


@partial(checked, takes_solution=True)
def solution_svg(puzzle: Any, solution: list[Any]) -> str:
    """The SVG of a verified solution of ``puzzle``."""
    if puzzle.family == "polyform":
        from .svg import polyform_svg
        return polyform_svg(puzzle, solution)
    if puzzle.family == "edgematch":
        from .edgematch_svg import solution_svg as edgematch_svg
        return edgematch_svg(puzzle, solution)
    if puzzle.family == "iqlink":
        from .iqlink_svg import solution_svg as iqlink_svg
        return iqlink_svg(puzzle, solution)
    return puzzle.svg(solution)
