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

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Sequence

from ...errors import SatilingError, VerificationError
from ...problem import Problem
from ...schema import COMMON, Bool, Either, List, Str, Table, check_instance
from ..base import Puzzle

# -- the hexagonal grid ---------------------------------------------------------------------------
#: axial steps (x right, y down the board)
STEPS: dict[str, tuple[int, int]] = {
    "E": (1, 0), "W": (-1, 0), "NE": (1, -1), "NW": (0, -1), "SE": (0, 1), "SW": (-1, 1),
}
#: the six directions in clockwise order as seen on the board: one turn = one step along this list
CLOCKWISE = ("W", "NW", "NE", "E", "SE", "SW")
#: mirror in the horizontal axis (the flip of a piece)
MIRROR = {"E": "E", "W": "W", "NE": "SE", "SE": "NE", "NW": "SW", "SW": "NW"}
OPPOSITE = {"E": "W", "W": "E", "NE": "SW", "SW": "NE", "NW": "SE", "SE": "NW"}
CENTRE = "C"
SLOTS = (CENTRE,) + CLOCKWISE

PEGS = "ABCDEFGHIJKLMNOPQRSTUVWX"
PIECES = "ABCDEFGHIJKL"
ORIENTATIONS = "ABCDEFGHIJKL"


def peg_xy(peg: str) -> tuple[int, int]:
    """Axial coordinates of a peg: (col+1, row) in rows 0-1, (col, row) in rows 2-3."""
    i = PEGS.index(peg)
    row, col = divmod(i, 6)
    return (col + 1 if row < 2 else col, row)


PEG_AT: dict[tuple[int, int], str] = {peg_xy(p): p for p in PEGS}


def step(peg: str, direction: str) -> str | None:
    """The peg one step from ``peg`` in ``direction`` (None off the board)."""
    (x, y), (dx, dy) = peg_xy(peg), STEPS[direction]
    return PEG_AT.get((x + dx, y + dy))


def turn(direction: str, orientation: int) -> str:
    """A piece-frame direction as seen on the board in orientation 0-11 (6-11 are flipped)."""
    if orientation >= 6:
        direction = MIRROR[direction]
    return CLOCKWISE[(CLOCKWISE.index(direction) + orientation) % 6]


# -- pieces ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Unit:
    """One ball or ring of a piece, in the piece's own frame (orientation A)."""

    at: str | None                 # direction from the middle unit; None = the middle unit itself
    kind: str                      # "ball" or "ring"
    dirs: tuple[str, ...]          # a ball's arms, a ring's openings

    def slots(self, orientation: int) -> frozenset[str]:
        """The peg slots this unit takes in an orientation."""
        dirs = {turn(d, orientation) for d in self.dirs}
        if self.kind == "ball":
            return frozenset({CENTRE} | dirs)
        return frozenset(d for d in CLOCKWISE if d not in dirs)


@dataclass(frozen=True)
class Piece:
    letter: str
    name: str                      # colour name (Westerbaan's model)
    family: str                    # line, vee or triangle
    units: tuple[Unit, Unit, Unit]

    @property
    def orientations(self) -> range:
        """Orientation numbers that give distinct placements (the mirror-symmetric line has 6)."""
        return range(6) if self.mirror_symmetric else range(12)

    @property
    def mirror_symmetric(self) -> bool:
        """Whether the flipped piece is the piece turned (then flipped placements repeat turned ones)."""
        flipped = self._frame(6)
        return any(self._frame(k) == flipped for k in range(6))

    def _frame(self, orientation: int) -> frozenset:
        return frozenset((u.at and turn(u.at, orientation), u.kind,
                          frozenset(turn(d, orientation) for d in u.dirs)) for u in self.units)


@lru_cache(maxsize=1)
def pieces() -> dict[str, Piece]:
    """The 12 pieces, read from the bundled ``data/iqlink/pieces.json`` (provenance there)."""
    from ...bundled import instances_dir
    path = instances_dir() / "data" / "iqlink" / "pieces.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    out = {}
    for letter, spec in data["pieces"].items():
        units = tuple(Unit(None if u["at"] == "origin" else u["at"], u["kind"],
                           tuple(u.get("arms", u.get("openings", [])))) for u in spec["units"])
        out[letter] = Piece(letter, spec["name_bwesterb"], spec["family"].split()[0], units)
    return out


# -- placements -----------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class IQLinkPlacement:
    """Piece ``piece`` with its middle unit on ``peg``, in orientation ``orientation`` (0-11)."""

    piece: str
    peg: str
    orientation: int

    @property
    def code(self) -> str:
        """The three-letter form: peg, piece, orientation (``"BAA"``)."""
        return f"{self.peg}{self.piece}{ORIENTATIONS[self.orientation]}"

    def to_json(self) -> str:
        return self.code

    def sort_key(self) -> tuple:
        return (self.piece, self.peg, self.orientation)

    def __str__(self) -> str:
        return self.code

    def units(self) -> list[tuple[str, Unit, frozenset[str]]] | None:
        """(peg, unit, slots) for the three units, or None if a unit is off the board."""
        return _units(self)

    def occupancy(self) -> dict[str, frozenset[str]] | None:
        """Peg -> slots taken, or None if the placement leaves the board."""
        units = self.units()
        return None if units is None else {peg: slots for peg, _, slots in units}


@lru_cache(maxsize=None)
def _units(pl: IQLinkPlacement) -> list[tuple[str, Unit, frozenset[str]]] | None:
    out = []
    for unit in pieces()[pl.piece].units:
        peg = pl.peg if unit.at is None else step(pl.peg, turn(unit.at, pl.orientation))
        if peg is None:
            return None
        out.append((peg, unit, unit.slots(pl.orientation)))
    return out


def parse_placement(code: str) -> IQLinkPlacement:
    """``"BAA"`` -> a placement (raises SatilingError on malformed or off-board codes)."""
    if not isinstance(code, str):
        raise SatilingError(f"an IQ-Link placement is three letters like 'TFI', not {code!r}")
    # exactly as written: 'tfi' or ' TFI' is a typo to point out, not a placement to guess
    if len(code) != 3 or code[0] not in PEGS or code[1] not in PIECES or code[2] not in ORIENTATIONS:
        raise SatilingError(f"bad IQ-Link placement {code!r}: want peg A-X, piece A-L, orientation A-L")
    pl = IQLinkPlacement(code[1], code[0], ORIENTATIONS.index(code[2]))
    if pl.orientation not in pieces()[pl.piece].orientations:
        raise SatilingError(f"placement {code}: piece {pl.piece} is mirror-symmetric, use orientation A-F")
    if pl.occupancy() is None:
        raise SatilingError(f"placement {code}: piece {pl.piece} leaves the board")
    return pl


def parse_placements(text: str) -> list[IQLinkPlacement]:
    """Placements written back to back (``"BAARBE..."``) or separated by spaces or commas."""
    compact = "".join(ch for ch in text if not ch.isspace() and ch != ",")
    if len(compact) % 3:
        raise SatilingError(f"placement string {text!r} is not a multiple of 3 letters")
    return [parse_placement(compact[i:i + 3]) for i in range(0, len(compact), 3)]


@lru_cache(maxsize=None)
def legal_placements(piece: str) -> tuple[IQLinkPlacement, ...]:
    """Every placement of ``piece`` on the empty board (flip x 6 turns x 24 pegs, off-board ones
    removed; the mirror-symmetric line only unflipped)."""
    return tuple(pl for o in pieces()[piece].orientations for peg in PEGS
                 if (pl := IQLinkPlacement(piece, peg, o)).occupancy() is not None)


def compatible(a: IQLinkPlacement, b: IQLinkPlacement) -> bool:
    """Whether two placements of different pieces may lie on the board together."""
    oa, ob = a.occupancy(), b.occupancy()
    return a.piece != b.piece and all(not (oa[g] & ob[g]) for g in oa.keys() & ob.keys())


def touching(a: IQLinkPlacement, b: IQLinkPlacement) -> bool:
    """Whether two placements share a peg (on a legal board: a ball of one sits in a ring of the other)."""
    return bool(a.occupancy().keys() & b.occupancy().keys())


def rotate_180(pl: IQLinkPlacement) -> IQLinkPlacement:
    """The placement turned half way round the board's centre (the board's only symmetry)."""
    x, y = peg_xy(pl.peg)
    return IQLinkPlacement(pl.piece, PEG_AT[(6 - x, 3 - y)], (pl.orientation + 3) % 6 + 6 * (pl.orientation >= 6))


def link_components(solution: Iterable[IQLinkPlacement]) -> list[list[IQLinkPlacement]]:
    """The pieces of a solution grouped into linked components (largest first)."""
    import networkx as nx
    sol = list(solution)
    g = nx.Graph()
    g.add_nodes_from(sol)
    g.add_edges_from((a, b) for i, a in enumerate(sol) for b in sol[i + 1:] if touching(a, b))
    return sorted((sorted(c) for c in nx.connected_components(g)), key=lambda c: (-len(c), c))


# -- the model: units on pegs ------------------------------------------------------------------
def add_units(prob: Problem) -> dict[tuple[str, frozenset[str]], int]:
    """Occupancy through *unit* variables, one per (peg, slots taken): ``u[g,S]`` is true iff some
    placement puts a unit taking slots S on peg g.  Two units on a peg clash iff their slot sets
    meet, so the rule becomes "at most one placement per unit variable" plus one binary clause per
    clashing pair of unit variables on a peg.

    The direct form -- at most one placement per peg slot -- is the same constraint but needs
    1.8 million pairwise clauses on the empty board (a third of all placement pairs clash); this
    one needs about 75 thousand and propagates the same.  Returns the unit variables.
    """
    groups: dict[tuple[str, frozenset[str]], list[int]] = {}
    for v in prob.primary_vars():
        for peg, slots in prob.meanings[v].occupancy().items():
            groups.setdefault((peg, slots), []).append(v)
    unit: dict[tuple[str, frozenset[str]], int] = {}
    for (peg, slots), lits in sorted(groups.items(), key=lambda kv: (kv[0][0], sorted(kv[0][1]))):
        u = unit[peg, slots] = prob.new_var(("unit", peg, "".join(sorted(slots))))
        prob.add_clause([-u] + lits)
        for v in lits:
            prob.add_clause([-v, u])
        if len(lits) > 1:
            prob.at_most_one(lits, name=f"peg {peg} unit {''.join(sorted(slots))}")
    keys = list(unit)
    for i, (peg, slots) in enumerate(keys):
        for other, slots2 in keys[i + 1:]:
            if other == peg and slots & slots2:
                prob.add_clause([-unit[peg, slots], -unit[peg, slots2]])
    return unit


def add_room(prob: Problem, unit: dict[tuple[str, frozenset[str]], int]) -> None:
    """The counting argument, as two redundant cardinality constraints.

    The 12 pieces have 36 units: 16 balls, 6 full rings and 14 sockets (rings with openings).  A
    peg holds at most one ring and one ball, and a ball can only sit in a socket.  With p balls in
    sockets the units stand on 36 - p of the 24 pegs, so p >= 12, and in every solution

    * (empty pegs) + (sockets without a ball) = 24 - (36 - p) + (14 - p) = 2;
    * (empty pegs) + (balls outside a ring)   = 24 - (36 - p) + (16 - p) = 4.

    A solver cannot derive these counts by itself (they are pigeonhole arguments); stated as
    "at most 2" and "at most 4", they let the search see early that the pieces left cannot fill
    the holes left (measurements: docs/decisions/2026-11-27-models-and-encodings.md).
    """
    empty_pegs, unfilled, lone = [], [], []
    for peg in PEGS:
        here = {slots: u for (g, slots), u in unit.items() if g == peg}
        empty = prob.new_var(("empty", peg))
        prob.add_clause([empty] + list(here.values()))
        empty_pegs.append(empty)
        balls = {slots: u for slots, u in here.items() if CENTRE in slots}
        sockets = {slots: u for slots, u in here.items() if CENTRE not in slots and len(slots) < 6}
        for slots, u in sockets.items():          # a socket is filled by a ball its openings let in
            x = prob.new_var(("unfilled", peg, "".join(sorted(slots))))
            prob.add_clause([-u, x] + [b for bs, b in balls.items() if not bs & slots])
            unfilled.append(x)
        for slots, u in balls.items():            # a ball is held by a socket whose openings fit it
            x = prob.new_var(("lone ball", peg, "".join(sorted(slots))))
            prob.add_clause([-u, x] + [r for rs, r in sockets.items() if not rs & slots])
            lone.append(x)
    prob.cardinality(empty_pegs + unfilled, 0, 2, name="empty pegs + unfilled sockets")
    prob.cardinality(empty_pegs + lone, 0, 4, name="empty pegs + lone balls")


# -- the linked-graph rule ------------------------------------------------------------------------
def _piece_vars(prob: Problem) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {p: [] for p in PIECES}
    for v in prob.primary_vars():
        out[prob.meanings[v].piece].append(v)
    return out


def add_lazy_links(prob: Problem) -> None:
    """The linked rule as a lazy check: a candidate whose pieces fall into several components gets
    one cut per component C -- "not all of C's placements, or some other piece touches C".

    The cut holds in every linked solution: if all of C is placed, C is not all 12 pieces, so some
    other piece must share a peg with C; the literals listed are exactly those placements (of the
    pieces outside C, fitting beside all of C).
    """
    var_of = {prob.meanings[v]: v for v in prob.primary_vars()}
    by_peg: dict[str, list[IQLinkPlacement]] = {}
    for pl in var_of:
        for peg in pl.occupancy():
            by_peg.setdefault(peg, []).append(pl)

    def check(true_vars: frozenset[int]) -> list[list[int]]:
        chosen = [prob.meanings[v] for v in true_vars]
        parts = link_components(chosen)
        if len(parts) < 2:
            return []
        cuts = []
        for part in parts:
            inside = {pl.piece for pl in part}
            near = {q for pl in part for peg in pl.occupancy() for q in by_peg[peg]
                    if q.piece not in inside and all(compatible(q, r) for r in part)}
            cuts.append([-var_of[pl] for pl in part] + sorted(var_of[q] for q in near))
        return cuts

    prob.add_lazy(check)


def add_eager_links(prob: Problem) -> None:
    """The linked rule as clauses: a layered reachability encoding over the 12 pieces.

    Auxiliary variables (none primary):

    * ``at[q,g]``: piece q has a unit on peg g  (at -> some placement of q covering g);
    * ``link[p,q]``: pieces p and q share a peg (link -> some ``both[p,q,g]``; both -> at[p,g], at[q,g]);
    * ``reach[q,i]``: q is joined to the root piece by a path of at most i links
      (reach[q,i] -> reach[q,i-1] or some ``via[p,q,i]``; via -> reach[p,i-1], via -> link[p,q]).

    The root is piece A (every piece is on the board, so any would do); every piece must be reached
    within 11 links.  Only the "needs a reason" direction is encoded: a true auxiliary variable is
    always backed by true placements, so the clauses admit exactly the linked solutions.
    """
    by_piece = _piece_vars(prob)
    at: dict[tuple[str, str], int] = {}
    for q, vs in by_piece.items():
        cover: dict[str, list[int]] = {}
        for v in vs:
            for peg in prob.meanings[v].occupancy():
                cover.setdefault(peg, []).append(v)
        for peg, lits in cover.items():
            at[q, peg] = a = prob.new_var(("at", q, peg))
            prob.add_clause([-a] + lits)
    link: dict[tuple[str, str], int] = {}
    for i, p in enumerate(PIECES):
        for q in PIECES[i + 1:]:
            both = []
            for peg in PEGS:
                if (p, peg) in at and (q, peg) in at:
                    b = prob.new_var(("both", p, q, peg))
                    prob.add_clause([-b, at[p, peg]])
                    prob.add_clause([-b, at[q, peg]])
                    both.append(b)
            if both:
                link[p, q] = link[q, p] = lk = prob.new_var(("link", p, q))
                prob.add_clause([-lk] + both)
    root, TRUE = PIECES[0], 0                  # TRUE: a constant, not a variable
    reach: dict[str, int] = {root: TRUE}       # layer 0: only the root; absent = unreachable
    for layer in range(1, len(PIECES)):
        nxt = {root: TRUE}
        for q in PIECES:
            if q == root:
                continue
            reasons = [reach[q]] if q in reach else []
            for p, rp in reach.items():
                if p == q or (p, q) not in link:
                    continue
                if rp == TRUE:
                    reasons.append(link[p, q])
                    continue
                via = prob.new_var(("via", p, q, layer))
                prob.add_clause([-via, link[p, q]])
                prob.add_clause([-via, rp])
                reasons.append(via)
            if reasons:
                nxt[q] = r = prob.new_var(("reach", q, layer))
                prob.add_clause([-r] + reasons)
        reach = nxt
    for q in PIECES:
        if q not in reach:
            prob.add_clause([])                # q can never be linked: no solution
        elif reach[q] != TRUE:
            prob.fix(reach[q])


# -- the puzzle -----------------------------------------------------------------------------------
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


# -- loading --------------------------------------------------------------------------------------
#: the keys of an IQ-Link instance file
IQLINK = Table({
    **COMMON,
    "placed": Either((Str(max_len=200), List(Str(max_len=200), 0, 12))),
    "linked": Bool(),
    "answer": Str(max_len=200),
})


def load_instance(data: dict[str, Any], name: str, base: Any = None) -> IQLinkPuzzle:
    """A challenge from a parsed instance file: ``placed`` lists pre-placed pieces as three-letter
    placements (a list, or one string written back to back); ``linked = false`` drops the
    linked-graph rule; ``answer`` (optional) is the solution as one placement string."""
    check_instance(IQLINK, data, name)
    placed = data.get("placed", [])
    if isinstance(placed, str):
        placed = [placed]
    if not isinstance(placed, list) or not all(isinstance(p, str) for p in placed):
        raise SatilingError(f"{name}: 'placed' must be a list of placements like \"BAA\"")
    linked = data.get("linked", True)
    if not isinstance(linked, bool):
        raise SatilingError(f"{name}: 'linked' must be true or false")
    pls = [pl for chunk in placed for pl in parse_placements(chunk)]
    puzzle = IQLinkPuzzle(name, pls, linked, str(data.get("title", "")), str(data.get("source", "")))
    if "answer" in data:            # the answer key, if the file has one: it must be a solution
        puzzle.answer = parse_placements(str(data["answer"]))
        try:
            puzzle.verify(puzzle.answer)
        except VerificationError as e:
            raise SatilingError(f"{name}: the answer given is not a solution: {e}") from None
    return puzzle


def challenge(text: str, name: str = "challenge", linked: bool = True) -> IQLinkPuzzle:
    """A challenge written as a placement string (``"GAEWBABCDJDA"``); empty: the empty board."""
    return IQLinkPuzzle(name, parse_placements(text), linked)
