"""The edge-matching backtracker of :mod:`satiling.engines.edgematch` in plain Python, for tests.

Same squares in the same order, same piece types and rotations tried in the same order, so it
finds the same solutions in the same order and places the same number of pieces (nodes).  Where
the compiled search looks its candidates up in a table, this one checks every entry against the
board: a side on the rim must be grey, a side facing a filled square must show that square's
colour, a side facing an empty square must not be grey.  With the "tight" value order it counts,
for each candidate, the entries (used or not) that would fit the next square, as the table's range
does, and tries the smallest counts first.
"""
from __future__ import annotations

from .edgematch import STEP, EdgeBoard, Edges, Placed, Plan, on_rim


class Reference:
    """Depth-first search over ``Plan.of(board)``; ``nodes`` counts the pieces placed."""

    def __init__(self, board: EdgeBoard) -> None:
        self.plan = Plan.of(board)
        self.nodes = 0

    def fits(self, filled: dict[tuple[int, int], Edges], square: tuple[int, int], edges: Edges) -> bool:
        b = self.plan.board
        r, c = square
        for d in range(4):
            if on_rim(b.rows, b.cols, r, c, d):
                if edges[d] != 0:
                    return False
                continue
            other = filled.get((r + STEP[d][0], c + STEP[d][1]))
            if other is None:
                if edges[d] == 0:
                    return False
            elif other[(d + 2) % 4] != edges[d]:
                return False
        return True

    def _fixed_fits(self, others: dict[tuple[int, int], Edges], square: tuple[int, int],
                    edges: Edges) -> bool:
        """Like :meth:`fits`, and no grey side inside the board even against a filled square."""
        b, (r, c) = self.plan.board, square
        return self.fits(others, square, edges) and all(
            edges[d] != 0 for d in range(4) if not on_rim(b.rows, b.cols, r, c, d))

    def next_choices(self, filled: dict[tuple[int, int], Edges], depth: int, edges: Edges) -> int:
        """Entries, used or not, fitting the next square once ``edges`` is on step ``depth``."""
        steps = self.plan.steps
        if depth + 1 == len(steps):
            return 0
        filled[steps[depth]] = edges
        n = sum(self.fits(filled, steps[depth + 1], other) for _, _, other in self.plan.entries)
        del filled[steps[depth]]
        return n

    def solutions(self, limit: int = 0) -> list[list[Placed]]:
        """Every solution (the first ``limit`` when it is positive), each as sorted placements."""
        plan = self.plan
        filled = plan.fixed_colours()
        left = [len(t) for t in plan.types]
        for square, edges in filled.items():       # fixed pieces: against the frame and each other
            others = {sq: e for sq, e in filled.items() if sq != square}
            if not self._fixed_fits(others, square, edges):
                return []
        choice: list[int] = []
        out: list[list[Placed]] = []

        def descend(depth: int) -> bool:            # False: stop, enough solutions
            if depth == len(plan.steps):
                out.append(plan.board_of(choice))
                return not (limit and len(out) >= limit)
            square = plan.steps[depth]
            fit = [e for e, (t, _, edges) in enumerate(plan.entries)
                   if left[t] and self.fits(filled, square, edges)]
            if plan.board.values == "tight":        # stable: ties stay in entry order
                fit.sort(key=lambda e: self.next_choices(filled, depth, plan.entries[e][2]))
            for e in fit:
                t, _, edges = plan.entries[e]
                self.nodes += 1
                left[t] -= 1
                filled[square] = edges
                choice.append(e)
                go_on = descend(depth + 1)
                choice.pop()
                del filled[square]
                left[t] += 1
                if not go_on:
                    return False
            return True

        descend(0)
        return out
