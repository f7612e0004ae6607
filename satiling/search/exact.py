"""The compiled exact-cover search over a model's placement variables: the engine searches rows,
side constraints (clauses, linear constraints) and lazy checks are tested at the leaves.  Used by
``solve`` for one solution and by the cube runner for every solution of a cube."""
from __future__ import annotations

from typing import Callable, Iterator, Sequence

from ..engines.exactcover import ExactCover
from ..engines.exactcover_ref import breaks_side_constraints

#: a cube: placement literals fixed true (positive) or false (negative)
Cube = Sequence[int]


def _row_lit(var_lit: int) -> int:
    """A problem literal (var v = row v - 1) as the engine's row literal (r in, -(r + 1) out)."""
    return var_lit - 1 if var_lit > 0 else var_lit


def engine_solutions(engine: ExactCover, cube: Cube, clauses: Sequence = (), linears: Sequence = (),
                     lazy: Sequence = (), progress: Callable[[float], None] | None = None,
                     max_nodes: int | None = None) -> Iterator[frozenset[int]]:
    """The solutions of one cube by the compiled search (placement variables), side constraints
    checked at the leaves; ``progress`` hears the part of the cube done after every batch; with
    ``max_nodes`` the search gives up after that many nodes (``engine.stats().finished``)."""
    for rows in engine.solutions([_row_lit(v) for v in cube], progress=progress, max_nodes=max_nodes):
        sol = frozenset(r + 1 for r in rows)
        if (clauses or linears) and breaks_side_constraints(clauses, linears, sol):
            continue
        if any(check(sol) for check in lazy):
            continue
        yield sol
