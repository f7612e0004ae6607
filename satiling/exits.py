"""The exit codes of the command line, in one place.

0 a solution (or the work asked for) was found; 1 there is none (proved, or a complete search);
2 bad input or an error; 3 a time limit ended the run without an answer (``decode``: the solver's
output holds no answer -- empty, only comments, UNKNOWN -- as when its own time limit or a kill
ended it first); 128 + the signal when SIGINT (130) or SIGTERM (143) stopped it, after printing
what was found.
"""
from __future__ import annotations

EXIT_FOUND, EXIT_NONE, EXIT_ERROR, EXIT_TIMEOUT = 0, 1, 2, 3


def signal_exit(signum: int) -> int:
    """The exit code after signal ``signum``: 130 for SIGINT, 143 for SIGTERM."""
    return 128 + int(signum)
