"""The rules by which ``auto`` becomes an engine, as networkx's ``maximum_flow`` picks its
``flow_func``: :func:`satiling.run.engines.choose` applies them for every command and every
library call (the search layer's own functions, which take a model and no request, apply
:func:`settle` to it).

    task               the model                                          auto runs
    -----------------  -------------------------------------------------  -------------------------
    solve, count,      --solver named without --engine (no --proof for    that solver's engine: sat,
    enumerate          count and enumerate)                               race, cpsat, mip, walk
    solve              edge matching the backtracker takes (below)        backtrack
    solve              placements only, no clauses (an exact cover,       walk: the compiled exact
                       side constraints at the leaves)                    cover, else the Python walk
    solve              anything else (IQ-Link, SAT-model options, ...)    sat (the default SAT
                                                                          solver)
    count, enumerate   edge matching the backtracker takes, all pieces    backtrack (its prefix
                       different, no --proof                              jobs as the run's cubes)
    count, enumerate   placements only, no clauses                        walk
    count, enumerate   anything else                                      sat (the default SAT
                                                                          solver, incremental,
                                                                          blocking clauses)
    maximise           a board of at most WHOLE_BOARD_LIMIT squares       cpsat (proves the optimum)
    maximise           a larger board                                     backtrack (the scoring
                                                                          search)

The backtracker takes an edge-matching board of at least 2x2 with at most ``MAX_COLOURS - 1``
colours besides grey, and no model option but ``--hints`` (the others are constraints of the SAT
model).  It counts boards of different pieces only: with equal pieces the SAT model counts their
permutations, and the counts must not depend on the engine.

Why these: on exact covers the compiled search counts far faster than the Python walk, and SAT with
blocking clauses restarts once per solution; on hard edge-matching boards the backtracker meets
first solutions SAT and CP-SAT do not (measurements: docs/decisions/2026-11-27-router-defaults.md).
The walk checks clauses only at its
leaves, so a model made of clauses (the compact edge-matching encoding, whose join colours are
placements too) goes to SAT, which propagates them.
"""
from __future__ import annotations

from typing import Any

from ..errors import Option, SatilingError
from ..problem import Problem
from ..engines.exactcover_ref import supports
from ..engines.table import AUTO, BACKTRACK, DEFAULT_SAT_ALIAS, WALK, solver as solver_row
#: below this many squares ``--maximize-matches`` proves the optimum with CP-SAT
WHOLE_BOARD_LIMIT = 100


def backtrack_refusal(puzzle: Any, options: dict[str, Any], counting: bool) -> str | SatilingError | None:
    """Why the edge-matching backtracker cannot answer for this model (None: it can)."""
    from ..families.edgematch import EdgeMatchPuzzle
    if not isinstance(puzzle, EdgeMatchPuzzle):
        return f"{puzzle.name} is not an edge-matching puzzle"
    from ..engines.edgematch import MAX_COLOURS, colours_needed     # numpy: edge matching only
    extra = sorted(set(options) - {"hints"})
    if extra:
        return SatilingError("{option} is an option of the SAT model", option=Option(extra[0]))
    if puzzle.rows < 2 or puzzle.cols < 2:
        return "a board of one row or one column"
    if colours_needed(puzzle.pieces) > MAX_COLOURS:
        return f"more than {MAX_COLOURS - 1} colours besides grey"
    if counting and puzzle.has_equal_pieces():
        return "equal pieces (the SAT model counts their permutations)"
    pinned = puzzle.fixed or (options.get("hints") and puzzle.hints)
    if counting and pinned and len(puzzle.kept_turns(bool(options.get("hints")))) > 1:
        return "a pinned piece that the board's turns keep (the SAT model counts its classes)"
    return None


def use_backtrack(puzzle: Any, options: dict[str, Any], asked: str | None,
                  counting: bool = False) -> bool:
    """Whether the backtracker runs: by default where it applies, always when asked for by name
    (then a model it cannot take is an error naming why)."""
    if asked not in (None, "auto", BACKTRACK):
        return False
    why = backtrack_refusal(puzzle, options, counting)
    if why and asked == BACKTRACK:
        raise SatilingError("the {engine} engine cannot take this model: {why}", engine=BACKTRACK, why=why)
    return why is None


def backtrack_answers(puzzle: Any, options: dict[str, Any], asked: str | None, counting: bool = False,
                      proof: bool = False) -> bool:
    """Whether a command runs the backtracker: :func:`use_backtrack`, except that it writes no
    proof (a run with ``--proof`` takes the SAT model)."""
    return not proof and use_backtrack(puzzle, options, asked, counting)


def prover(asked: str | None) -> str:
    """The SAT solver that writes a proof of "no solution" (``proof``): the default unless named."""
    return DEFAULT_SAT_ALIAS if asked in (None, "auto") else asked


def walk_suits(problem: Problem) -> bool:
    """Whether the exact-cover walk is the engine for this model (see the module doc)."""
    return supports(problem) and not problem.clauses


def settle(problem: Problem) -> str:
    """The engine of a model when no rule before it applies: the exact-cover search on a model
    of placements only (no clauses), else ``sat``."""
    return WALK if walk_suits(problem) else "sat"


def solver_engine(task: str, asked: str, solver: str, proof: bool) -> str | None:
    """The engine a solver named without an engine asks for (None: none named, or an engine
    named): a solver is named to run, so the backtracker and the exact-cover search, which take
    none, step aside.  solve runs it by the engine of its row in the solver table (a race of
    SAT solvers by ``race``; a name no row has by ``sat``, which refuses it by name); count and
    enumerate by the ``sat`` engine (or ``cpsat``).  With a proof to write, a count's solver writes
    it and the count's engine stays as below."""
    if asked != AUTO or solver in (AUTO, BACKTRACK, WALK):
        return None
    if task == "solve":
        if solver == "race" or "+" in solver:
            return "race"
        named = solver_row(solver)
        return "sat" if named is None else named.engine
    if proof:
        return None
    return "cpsat" if solver == "cpsat" else "sat"


def maximise_engine(puzzle: Any, asked: str = "auto", dask: bool = False) -> str:
    """The engine of ``--maximize-matches`` (on a Dask cluster: the backtracker, which runs there)."""
    if asked != "auto":
        return asked
    return "cpsat" if puzzle.rows * puzzle.cols <= WHOLE_BOARD_LIMIT and not dask else BACKTRACK
