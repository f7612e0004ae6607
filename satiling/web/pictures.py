"""The picture of one thing a run keeps, the same whether the run's process draws it as it comes
or the API draws it from the store: a solution; a maximisation's board (it may break joins: drawn
with its score, as ``satiling score`` draws it); IQ-Link's second solution of ``unique``,
captioned so; and the placements of ``forced`` and ``hint`` on the board, as ``satiling forced
--svg`` and ``satiling hint --svg`` draw them (not as a solution: they may cover part of it; the
hint outlined among the pins)."""
from __future__ import annotations

from typing import Any


def kept_svg(puzzle: Any, task: str, placements: list[Any], index: int | None = None) -> str:
    """The SVG of the run's kept ``placements`` (``index``: their number among the run's)."""
    if task == "maximise":
        from ..render.edgematch_svg import board_svg
        return board_svg(puzzle, puzzle.board_from(placements, strict=False))
    if task == "unique" and index == 1:          # IQ-Link's unique keeps its second as 1
        from ..render.iqlink_svg import second_solution_svg
        return second_solution_svg(puzzle, placements)
    if task in ("forced", "hint"):
        from ..render.pieces import placements_svg
        pins = set(puzzle.pins())         # (kept sorted: the hint is the one placement not a pin)
        return placements_svg(puzzle, placements,
                              marked=[p for p in placements if p not in pins] if task == "hint" else None)
    from ..render import to_svg
    return to_svg(puzzle, placements)
