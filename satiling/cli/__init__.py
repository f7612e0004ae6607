"""The ``satiling`` command line (``main``): the parser (:mod:`.parser`), the commands that run
puzzles through :mod:`satiling.run` (:mod:`.solving`), the commands around files (:mod:`.files`)
and what a terminal sees meanwhile (:mod:`.progress`)."""
from .main import main
from .parser import MAXIMISE_ENGINES, SOLVE_ENGINES, build_parser, maximize_flag

__all__ = ["MAXIMISE_ENGINES", "SOLVE_ENGINES", "build_parser", "main", "maximize_flag"]
