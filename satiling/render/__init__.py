"""Pictures of solutions: ``to_text(puzzle, solution)`` for the terminal and
``to_svg(puzzle, solution)`` for a file, for every family (see :mod:`satiling.render.pictures`)."""
from .pictures import solution_svg as to_svg, solution_text as to_text

__all__ = ["to_svg", "to_text"]
