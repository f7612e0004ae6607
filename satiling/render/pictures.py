"""The SVG picture of a solution, whatever its family.

Edge-matching boards are drawn by :mod:`satiling.render.edgematch_svg` and IQ-Link boards by
:mod:`satiling.render.iqlink_svg` (families never import those renderers); polyform puzzles draw
themselves through ``puzzle.svg``.
"""
from __future__ import annotations

from typing import Any


def solution_svg(puzzle: Any, solution: list[Any]) -> str:
    """The SVG of a verified solution of ``puzzle``."""
    if puzzle.family == "edgematch":
        from .edgematch_svg import solution_svg as edgematch_svg
        return edgematch_svg(puzzle, solution)
    if puzzle.family == "iqlink":
        from .iqlink_svg import solution_svg as iqlink_svg
        return iqlink_svg(puzzle, solution)
    return puzzle.svg(solution)
