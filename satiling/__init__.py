"""satiling: tiling, packing and edge-matching puzzles as SAT and CP-SAT problems.

The data flows one way::

    instance -> Puzzle (family) -> Problem (model) -> backend -> solver -> solution -> verify -> render

The library (:mod:`satiling.api`)::

    import satiling
    puzzle = satiling.Polyform((6, 10), "pentominoes")   # or satiling.load("pentomino-6x10")
    puzzle.count(raw=True)                              # 9356, as 'satiling count --raw'
    solution = puzzle.solve()                           # verified placements
    print(solution)                                     # the picture; solution.to_svg(), Jupyter
    for s in puzzle.solutions(): ...                    # one per symmetry class, verified

``satiling.Polyform``, ``EdgeMatching`` and ``IQLink`` build puzzles from Python values;
``satiling.load`` reads a bundled puzzle or an instance file.
"""
from __future__ import annotations

from .errors import SatilingError, VerificationError


def solve_puzzle(puzzle, solver: str | None = "auto", time_limit: float | None = None, **options):
    """One verified solution of ``puzzle`` (a list of placements), or None if there is none: the
    same run as ``satiling solve`` and ``puzzle.solve()``.  ``solver`` None is the default, ``auto``.

    Raises SatilingError when the time limit ran out before an answer.
    """
    from .api import _adopt
    from .families.base import Puzzle
    if not isinstance(puzzle, Puzzle):
        raise SatilingError(f"solve_puzzle takes a puzzle from satiling.load, not {type(puzzle).__name__}")
    solution = _adopt(puzzle).solve(solver=solver, time_limit=time_limit, **options)
    return None if solution is None else list(solution)


def load(name_or_path):
    """A bundled puzzle (``satiling list``) or an instance file, ready to ``solve()``, ``count()``,
    list its ``solutions()`` and draw itself: see :func:`satiling.api.load`."""
    from .api import load as api_load
    return api_load(name_or_path)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:                              # pyproject.toml is the one place the version is written
        return version("satiling")
    except PackageNotFoundError:      # a source tree that was never installed
        return "0+unknown"


#: the library's classes, imported on first use (``import satiling`` stays light for the CLI)
_API = ("Polyform", "EdgeMatching", "IQLink", "Solution", "Solvable", "Terminated")


def __getattr__(name: str):
    # read on first use: importlib.metadata and the renderers would slow every command down
    if name in _API:
        from . import api
        return getattr(api, name)
    if name == "render":
        import importlib
        return importlib.import_module(".render", __name__)
    if name == "__version__":
        return _version()
    if name == "available":           # the catalog reads every family: the program's first
        from .catalog import available     # step (satiling.launch) comes before it
        return available
    if name == "Problem":
        from .problem import Problem
        return Problem
    raise AttributeError(f"module 'satiling' has no attribute {name!r}")


__all__ = ["EdgeMatching", "IQLink", "Polyform", "Problem", "SatilingError", "Solution", "Solvable",
           "Terminated", "VerificationError", "available", "load", "render", "solve_puzzle"]
