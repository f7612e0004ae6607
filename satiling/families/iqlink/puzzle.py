"""IQ-Link: 12 pieces of balls and rings on a board of 24 pegs; a ball may sit inside a ring.

The board is 4 rows of 6 pegs on a hexagonal grid (rows 1 and 3 shifted half a peg to the right).
Each piece is three *units* in a line, a 120-degree vee or a 60-degree triangle; a unit is a *ball*
with one or two arms (the bars to its own neighbours) or a *ring* with 0-2 openings.

The whole game is one occupancy rule.  Every peg has 7 slots, its centre and its 6 directions:

* a ball takes the centre and the directions of its arms;
* a ring takes every direction except its openings (a full ring takes all six);
* two units may share a peg iff their slots are disjoint -- so only a ball inside another piece's
  ring, and only when every arm of the ball leaves through an opening of the ring.

A *placement* is (peg of the middle unit, piece, orientation), written as three letters as in the
public test vectors, e.g. ``"BAA"``: peg A-X, piece A-L, orientation A-F (0-5 clockwise turns of 60
degrees) or G-L (mirrored, then turned).  A *challenge* pre-places some pieces; a solution places all
12 and, by the instruction booklet's rule quoted in the source paper, is *linked*: the graph whose
nodes are the pieces and whose edges are shared pegs (a ball in a ring) is connected.

The model: one Boolean per placement, exactly one per piece; the occupancy rule through one
variable per kind of unit on a peg (:func:`add_units`); the counting argument "at most 2 pegs
empty or sockets unfilled" as a redundant constraint (:func:`add_room`, the difference between
seconds and minutes); the linked rule either lazily (:func:`add_lazy_links`: solve, find the
graph's components with networkx, cut each component off, solve again) or eagerly
(:func:`add_eager_links`: layered reachability clauses).
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from ...errors import SatilingError, VerificationError
from ...problem import Problem
from ..base import Puzzle
from .geometry import PEGS, PIECES, pieces
from .model import add_eager_links, add_lazy_links, add_room, add_units
from .placement import IQLinkPlacement, compatible, legal_placements, parse_placement, rotate_180


LINK_RULES = ("lazy", "eager")


class IQLinkPuzzle(Puzzle):
    """The IQ-Link board with some pieces pre-placed (none: the empty board)."""

    family = "iqlink"
    placement_types = (IQLinkPlacement,)

    def __init__(self, name: str = "iqlink", placed: Sequence[IQLinkPlacement] = (), linked: bool = True,
                 title: str = "", source: str = "") -> None:
        self.name, self.title, self.source = name, title, source
        self.placed = tuple(sorted(placed))
        self.linked = linked
        seen: set[str] = set()
        for pl in self.placed:
            if pl.piece in seen:
                raise SatilingError(f"{name}: piece {pl.piece} is placed twice")
            seen.add(pl.piece)
        for i, a in enumerate(self.placed):
            for b in self.placed[i + 1:]:
                if not compatible(a, b):
                    raise SatilingError(f"{name}: pre-placed pieces {a} and {b} collide")
        self.free = [p for p in PIECES if p not in seen]
        self.answer: list[IQLinkPlacement] | None = None     # an answer key, when the file gives one

    # -- geometry --------------------------------------------------------------------------------
    def placements(self) -> list[IQLinkPlacement]:
        """The pre-placed pieces, then every placement of a free piece that fits beside them."""
        out = list(self.placed)
        for piece in self.free:
            out.extend(pl for pl in legal_placements(piece) if all(compatible(pl, q) for q in self.placed))
        return out

    # -- model -----------------------------------------------------------------------------------
    def exact_cover(self, **options: Any) -> bool:
        return False                  # units and empty pegs beside the placements

    def problem(self, link_rule: str | None = None, **options: Any) -> Problem:
        """The model: one primary variable per placement, exactly one per piece; units on a peg
        must not share a slot; at most 2 pegs empty or sockets unfilled (implied, see
        :func:`add_room`); the linked rule ``lazy`` (default) or ``eager``."""
        from ...options import check_known
        check_known(self.family, options, set())
        rule = link_rule or "lazy"
        if rule not in LINK_RULES:
            raise SatilingError(f"unknown link rule {rule!r} (choose from {', '.join(LINK_RULES)})")
        prob = Problem(self.name)
        by_piece: dict[str, list[int]] = {p: [] for p in PIECES}
        for pl in self.placements():
            by_piece[pl.piece].append(prob.new_var(pl, primary=True))
        for pl in self.placed:
            prob.fix(by_piece[pl.piece][0])
        for piece, lits in by_piece.items():
            prob.exactly_one(lits, name=f"piece {piece}")
        units = add_units(prob)
        add_room(prob, units)
        if self.linked:
            (add_lazy_links if rule == "lazy" else add_eager_links)(prob)
        return prob

    def file_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options of a model written for another solver: the eager link rule, whatever
        ``link_rule`` says (lazy cuts are added by satiling's own solve loop, which a solver
        reading the file does not run: without them it answers with unlinked pieces)."""
        return {**options, "link_rule": "eager"}

    # -- verification ----------------------------------------------------------------------------
    def verify(self, solution: list[Any]) -> None:
        """Re-check a full solution from the piece geometry: every piece once, on the board, the
        pre-placed pieces where they were, no two units sharing a slot, and (if linked) one
        connected graph."""
        sol = [pl if isinstance(pl, IQLinkPlacement) else self.placement_from_json(pl) for pl in solution]
        pieces_used = sorted(pl.piece for pl in sol)
        if pieces_used != list(PIECES):
            raise VerificationError(f"a solution places each of the 12 pieces once, got {''.join(pieces_used)}")
        for pl in self.placed:
            if pl not in sol:
                raise VerificationError(f"pre-placed piece {pl} was moved")
        taken: dict[tuple[str, str], str] = {}
        on_peg: dict[str, list[str]] = {}
        for pl in sol:
            if pl.orientation not in pieces()[pl.piece].orientations:
                raise VerificationError(f"{pl}: orientation not allowed for piece {pl.piece}")
            occ = pl.occupancy()
            if occ is None:
                raise VerificationError(f"{pl}: piece {pl.piece} leaves the board")
            for peg, slots in occ.items():
                on_peg.setdefault(peg, []).append(pl.piece)
                for s in slots:
                    if (peg, s) in taken:
                        raise VerificationError(f"pieces {taken[peg, s]} and {pl.piece} collide on peg {peg}")
                    taken[peg, s] = pl.piece
        if self.linked:
            reached = _linked_to(PIECES[0], on_peg)
            if len(reached) < len(PIECES):
                parts = "".join(sorted(reached)) + " | " + "".join(p for p in PIECES if p not in reached)
                raise VerificationError(f"the pieces are not linked into one graph: {parts}")

    def pins(self) -> list[IQLinkPlacement]:
        return list(self.placed)

    # -- symmetry --------------------------------------------------------------------------------
    def symmetries(self) -> list:
        """The half turn maps the empty board onto itself; pre-placed pieces break it."""
        return [lambda p: p] if self.placed else [lambda p: p, rotate_180]

    def rotations(self) -> list:
        """All of :meth:`symmetries`: the half turn is a rotation of the board's plane."""
        return self.symmetries()

    # -- input / output --------------------------------------------------------------------------
    def placement_from_json(self, data: Any) -> IQLinkPlacement:
        if isinstance(data, dict):
            if set(data) - {"peg", "piece", "orientation"}:
                raise SatilingError(f"unknown key {sorted(set(data) - {'peg', 'piece', 'orientation'})[0]!r} "
                                    "in an IQ-Link placement (its keys: orientation, peg, piece)")
            try:
                data = f"{data['peg']}{data['piece']}{data['orientation']}"
            except KeyError:
                raise SatilingError("an IQ-Link placement looks like \"BAA\" (peg, piece, orientation)") from None
        if not isinstance(data, str):
            raise SatilingError("an IQ-Link placement looks like \"BAA\" (peg, piece, orientation)")
        return parse_placement(data)

    def text(self, solution: list[Any]) -> str:
        return board_text(solution) + "\n" + LEGEND + "\n" + solution_string(solution)


    def info(self) -> dict[str, Any]:
        return {
            "pegs": len(PEGS),
            "pieces": len(PIECES),
            "pre-placed": len(self.placed),
            "to place": len(self.free),
            "placements": len(self.placements()),
            "linked rule": self.linked,
        }

    def challenge_toml(self, comment: str = "") -> str:
        """This challenge as an instance file (see :func:`load_instance`)."""
        lines = [f"# {c}" for c in comment.splitlines()] if comment else []
        lines += [f'title = "{self.title}"' if self.title else 'title = "IQ-Link challenge"',
                  'family = "iqlink"']
        if self.source:
            lines.append(f'source = "{self.source}"')
        lines.append("placed = [" + ", ".join(f'"{pl.code}"' for pl in self.placed) + "]")
        if not self.linked:
            lines.append("linked = false")
        return "\n".join(lines) + "\n"


def _linked_to(start: str, on_peg: dict[str, list[str]]) -> set[str]:
    """The pieces joined to ``start`` through shared pegs (the verifier's own search)."""
    reached, todo = {start}, [start]
    while todo:
        piece = todo.pop()
        for there in on_peg.values():
            if piece in there:
                for other in there:
                    if other not in reached:
                        reached.add(other)
                        todo.append(other)
    return reached


def solution_string(solution: Iterable[Any]) -> str:
    """The placements sorted by piece, back to back (the form of the public test vectors)."""
    return "".join(pl.code for pl in sorted(solution, key=lambda p: p.piece))


#: what the text picture's letters mean, printed under it
LEGEND = ("legend: at each peg the piece (A-L) whose ring is there in upper case, whose ball in "
          "lower case ('.' empty); the last line is the solution as placements (peg, piece, "
          "orientation)")


def board_text(solution: Iterable[IQLinkPlacement]) -> str:
    """The board as text: each peg shows the piece of its ring (upper case) and of its ball
    (lower case), ``.`` for an empty peg; odd rows are indented half a peg."""
    ring: dict[str, str] = {}
    ball: dict[str, str] = {}
    for pl in solution:
        for peg, unit, _ in pl.units():
            (ring if unit.kind == "ring" else ball)[peg] = pl.piece
    rows = []
    for r in range(4):
        cells = []
        for peg in PEGS[6 * r:6 * r + 6]:
            cell = ring.get(peg, "") + ball.get(peg, "").lower()
            cells.append(f"{cell or '.':<3}")
        rows.append(("  " if r % 2 else "") + " ".join(cells).rstrip())
    return "\n".join(rows)
