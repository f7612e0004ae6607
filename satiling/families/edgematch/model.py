"""The SAT models of an edge-matching puzzle: the ``direct`` and ``compact`` encodings with their
redundant constraints (see :mod:`satiling.families.edgematch`), and the score model in which
joins may disagree (for maximising the matches).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from itertools import product
from typing import Any, Iterable, Sequence

from ...errors import SatilingError
from ...problem import Problem
from ..base import Puzzle          # an edge-matching puzzle (the class imports this module)
from .geometry import (E, GREY, N, S, SIDE_NAMES, W, Board, Edges, JoinColour, Square, Tile,
                                 rotate, square_name)

ENCODINGS = ("direct", "compact")


class EdgeModel:
    """Builds the Problem for one encoding; the option methods add redundant constraints."""

    def __init__(self, puzzle: Puzzle, encoding: str, hints: bool) -> None:
        self.pz, self.encoding = puzzle, encoding
        self.prob = Problem(puzzle.name)
        self.joins = puzzle.joins()
        # (square, side) -> join index, for both ends of every join
        self.join_at: dict[tuple[Square, int], int] = {}
        for i, j in enumerate(self.joins):
            for end in j.ends():
                self.join_at[end] = i
        self.pinned = puzzle.fixed + (puzzle.hints if hints else [])
        self.tiles = self._pruned(puzzle.placements(hints))
        self.colour: list[dict[int, int]] = []      # join -> colour -> variable
        if encoding == "direct":
            self._direct()
        else:
            self._compact()

    # -- shared ------------------------------------------------------------------------------
    def _pruned(self, tiles: list[Tile]) -> list[Tile]:
        """Drop placements showing a colour the square across a join can never show (to a fixpoint).

        Sets ``self.sides``: per kept tile, its sides off the rim in side order, each the number
        ``side_key(join, colour, end)`` (``end`` 0 or 1 of the join), so that the sets here are of
        integers and each test is one set operation; and ``self.domain``: per join, its colours."""
        self.K = 1 + max(max(e) for e in self.pz.pieces)
        ends = self._join_ends()
        sides = [self._sides(t, ends) for t in tiles]
        while True:
            shows = set().union(*sides)
            both = {x for x in shows if x ^ 1 in shows}         # shown at both ends of its join
            keep = [n for n, ts in enumerate(sides) if both.issuperset(ts)]
            if len(keep) == len(tiles):
                break
            tiles, sides = [tiles[n] for n in keep], [sides[n] for n in keep]
        self.domain = [set() for _ in self.joins]
        for x in both:
            if not x & 1:
                i, k = divmod(x >> 1, self.K)
                self.domain[i].add(k)
        self.sides = sides
        return tiles

    def side_key(self, join: int, colour: int, end: int) -> int:
        return (join * self.K + colour) * 2 + end

    def _join_ends(self) -> dict[Square, list[tuple[int, int, int]]]:
        """Per square, (side, side_key(join, 0, end)) for each side that is not on the rim."""
        return {sq: [(d, self.side_key(self.join_at[sq, d], 0, 0 if d in (E, S) else 1))
                     for d in range(4) if (sq, d) in self.join_at]
                for sq in self.pz.squares()}

    def _sides(self, t: Tile, ends: dict) -> tuple[int, ...]:
        """The side keys of ``t`` (see :meth:`_pruned`)."""
        e, two = self.pz.edges(t.piece, t.rotation), 2
        return tuple(base + two * e[d] for d, base in ends[t.row, t.col])

    def _colour_vars(self, primary: bool) -> None:
        for i, j in enumerate(self.joins):
            vs = {k: self.prob.new_var(JoinColour(j.a[0], j.a[1], j.side, k), primary=primary)
                  for k in sorted(self.domain[i])}
            self.colour.append(vs)
            self.prob.exactly_one(list(vs.values()), name=f"join {square_name(*j.a)}{SIDE_NAMES[j.side]}")

    def side_lit(self, square: Square, side: int, colour: int) -> int | bool:
        """The literal 'side ``side`` of ``square`` has ``colour``': a variable, or a constant on
        the rim (grey) and for colours the join cannot take."""
        i = self.join_at.get((square, side))
        if i is None:
            return colour == GREY
        return self.colour[i].get(colour, False)

    def add(self, lits: Iterable[int | bool]) -> None:
        """Add a clause whose literals may be constants (True satisfies it, False is dropped)."""
        out = []
        for lit in lits:
            if lit is True:
                return
            if lit is not False:
                out.append(lit)
        self.prob.add_clause(out)

    def _pin(self, var_of: dict) -> None:
        for t in self.pinned:
            key = t if self.encoding == "direct" else (t.piece, (t.row, t.col))
            if key in var_of:
                self.prob.fix(var_of[key])
            else:                      # pruned: the pinned piece clashes with its neighbourhood
                self.prob.add_clause([])
            if self.encoding == "compact":
                self._pin_colours(t)

    def _pin_colours(self, t: Tile) -> None:
        """The compact encoding's tile has no rotation: the pinned rotation is also the colours
        of its joins, as units, so that the board's symmetries must keep them (a pin on the centre
        square keeps its piece under every turn, not its rotation)."""
        edges = self.pz.edges(t.piece, t.rotation or 0)
        for d in range(4):
            lit = self.side_lit((t.row, t.col), d, edges[d])
            if lit is False:
                self.prob.add_clause([])
            elif lit is not True:
                self.prob.fix(lit)

    # -- direct ------------------------------------------------------------------------------
    def _direct(self) -> None:
        prob = self.prob
        self.var_of: dict[Any, int] = {}
        by_square: dict[Square, list[int]] = defaultdict(list)
        by_piece: dict[int, list[int]] = defaultdict(list)
        for t in self.tiles:
            v = prob.new_var(t, primary=True)
            self.var_of[t] = v
            by_square[t.row, t.col].append(v)
            by_piece[t.piece].append(v)
        for sq in self.pz.squares():
            prob.exactly_one(by_square[sq], name=f"square {square_name(*sq)}")
        for p in range(1, len(self.pz.pieces) + 1):
            prob.exactly_one(by_piece[p], name=f"piece {p}")
        self._colour_vars(primary=False)
        # placement -> its join colours; join colour -> some placement showing it, on both sides
        support: dict[int, list[int]] = defaultdict(list)                   # side key -> tiles
        K = self.K
        for v, ts in zip(self.var_of.values(), self.sides):
            for key in ts:
                i, k = divmod(key >> 1, K)
                prob.add_clause((-v, self.colour[i][k]))
                support[key].append(v)
        for i in range(len(self.joins)):
            for end in (0, 1):
                for k, x in self.colour[i].items():
                    prob.add_clause([-x] + support[self.side_key(i, k, end)])
        self._pin(self.var_of)

    # -- compact (Heule) -----------------------------------------------------------------------
    def _compact(self) -> None:
        prob = self.prob
        self._colour_vars(primary=True)
        rots: dict[tuple[int, Square], list[int]] = defaultdict(list)
        for t in self.tiles:
            rots[t.piece, (t.row, t.col)].append(t.rotation)
        self.var_of = {}
        by_square: dict[Square, list[int]] = defaultdict(list)
        by_piece: dict[int, list[int]] = defaultdict(list)
        for (p, sq), rs in rots.items():
            y = prob.new_var(Tile(sq[0], sq[1], p, None), primary=True)
            self.var_of[p, sq] = y
            by_square[sq].append(y)
            by_piece[p].append(y)
            self._rotation_clauses(y, p, sq, rs)
        # at least one each; with equal pieces, one piece could sit on a square twice over
        exact = self.pz.has_equal_pieces()
        for sq in self.pz.squares():
            prob.add_clause(by_square[sq])
        for p in range(1, len(self.pz.pieces) + 1):
            if exact:
                prob.exactly_one(by_piece[p], name=f"piece {p}")
            else:
                prob.add_clause(by_piece[p])
        self._pin(self.var_of)
        self.rots = rots

    def _rotation_clauses(self, y: int, p: int, sq: Square, rs: list[int]) -> None:
        """Clauses 'y -> the colours around sq are a rotation of piece p'."""
        if len(rs) == 1:
            e = self.pz.edges(p, rs[0])
            for d in range(4):
                self.add([-y, self.side_lit(sq, d, e[d])])
            return
        # per side: the join's colour variables, or None on the rim (constant grey)
        around = [self.join_at.get((sq, d)) for d in range(4)]
        around = [None if i is None else self.colour[i] for i in around]
        for clause in rotation_pattern(self.pz.pieces[p - 1]):
            out = [-y]
            for d, k, pos in clause:
                var = (k == GREY) if around[d] is None else around[d].get(k, False)
                if var is True or var is False:
                    if var == pos:         # a constant that satisfies the clause
                        break
                    continue               # a constant that cannot: drop the literal
                out.append(var if pos else -var)
            else:
                self.prob.add_clause(out)

    # -- redundant constraints ------------------------------------------------------------------
    def colour_counts(self) -> None:
        """Each colour sits on exactly half as many joins as the pieces have half-edges of it."""
        half = Counter(x for e in self.pz.pieces for x in e if x != GREY)
        for k, n in sorted(half.items()):
            lits = [vs[k] for vs in self.colour if k in vs]
            self.prob.cardinality(lits, n // 2, n // 2, name=f"colour {k} count")
        self.prob.assume("the colour counts (--colour-counts)")

    def rotation_balance(self, balanced: bool, parity: bool) -> None:
        """Variables 'piece p has rotation r (on a square of parity b)' and the balance constraints
        over them: per colour and axis, as many half-edges face one way as the other."""
        cls = self._rotation_classes(parity)
        pz = self.pz
        if balanced:
            self.prob.assume("the rotation balance (--balanced-rotation)")
        if parity:
            self.prob.assume("the checkerboard balance (--checkerboard-parity)")
        colours = sorted({x for e in pz.pieces for x in e})

        def count(d: int, k: int, b: int | None) -> list[int]:
            return [v for (p, r, bb), v in cls.items() if pz.edges(p, r)[d] == k and (b is None or bb == b)]

        rim = {d: [sq for sq in pz.squares() if pz.on_rim(sq, d)] for d in range(4)}
        for k in colours:
            for d, opp in ((E, W), (S, N)) if k != GREY else ():     # grey faces the rim, not a join
                if balanced:
                    self._balance(count(d, k, None), count(opp, k, None), f"balance {k} {SIDE_NAMES[d]}")
                if parity:
                    for b in (0, 1):
                        self._balance(count(d, k, b), count(opp, k, 1 - b),
                                      f"parity {k} {SIDE_NAMES[d]} {b}")
            if k == GREY:      # grey half-edges: exactly the rim squares on each side
                for d in range(4):
                    for b in ((0, 1) if parity else (None,)):
                        n = sum(1 for sq in rim[d] if b is None or (sq[0] + sq[1]) % 2 == b)
                        self.prob.cardinality(count(d, GREY, b), n, n, name=f"grey {SIDE_NAMES[d]} {b}")
        if parity:
            for b in (0, 1):
                n = sum(1 for sq in pz.squares() if (sq[0] + sq[1]) % 2 == b)
                lits = [v for (p, r, bb), v in cls.items() if bb == b]
                self.prob.cardinality(lits, n, n, name=f"pieces on parity {b}")

    def _balance(self, plus: list[int], minus: list[int], name: str) -> None:
        """sum(plus) == sum(minus), as 'plus and the negations of minus: exactly |minus| true'."""
        both = set(plus) & set(minus)
        plus = [v for v in plus if v not in both]
        minus = [v for v in minus if v not in both]
        if plus or minus:
            self.prob.cardinality(plus + [-v for v in minus], len(minus), len(minus), name=name)

    def _rotation_classes(self, parity: bool) -> dict[tuple[int, int, int | None], int]:
        """One variable per (piece, rotation[, square parity]) that occurs, exactly one per piece,
        implied by the placements."""
        def key(p: int, r: int, sq: Square) -> tuple[int, int, int | None]:
            return (p, r, (sq[0] + sq[1]) % 2 if parity else None)

        cls: dict[tuple[int, int, int | None], int] = {}

        def var(k: tuple) -> int:
            if k not in cls:
                cls[k] = self.prob.new_var(("rotation class",) + k)
            return cls[k]

        if self.encoding == "direct":
            for t, v in self.var_of.items():
                self.prob.add_clause((-v, var(key(t.piece, t.rotation, (t.row, t.col)))))
        else:
            for (p, sq), rs in self.rots.items():
                y = self.var_of[p, sq]
                for r in rs:
                    c = var(key(p, r, sq))
                    if len(rs) == 1:
                        self.prob.add_clause((-y, c))
                        continue
                    e = self.pz.edges(p, r)
                    self.add([-y] + [_neg(self.side_lit(sq, d, e[d])) for d in range(4)] + [c])
        by_piece: dict[int, list[int]] = defaultdict(list)
        for (p, _, _), v in cls.items():
            by_piece[p].append(v)
        for p, vs in sorted(by_piece.items()):
            self.prob.exactly_one(vs, name=f"rotation of piece {p}")
        return cls

    def fix_corner(self) -> None:
        """Pin the lowest-numbered corner piece: to the top-left corner on a square board (its four
        rotations are symmetries), to the top row on a rectangle (the half-turn is)."""
        pz = self.pz
        corners = [p for p in range(1, len(pz.pieces) + 1)
                   if sum(1 for x in pz.pieces[p - 1] if x == GREY) == 2]
        if not corners or pz.rows < 2 or pz.cols < 2:
            return
        p = corners[0]
        allowed = {(0, 0)} if pz.rows == pz.cols else {(0, 0), (0, pz.cols - 1)}
        for key, v in self.var_of.items():
            piece, sq = (key.piece, (key.row, key.col)) if isinstance(key, Tile) else key
            if piece == p and sq not in allowed:
                self.prob.restrict(-v)


def _neg(lit: int | bool) -> int | bool:
    return (not lit) if isinstance(lit, bool) else -lit


# -- rotation clauses of the compact encoding ---------------------------------------------------
#: a clause over side literals: (side, colour, positive?)
PatternClause = tuple[tuple[int, int, bool], ...]


def rotation_pattern(edges: Sequence[int]) -> list[PatternClause]:
    """Clauses over 'side d has colour k' that hold exactly for the rotations of ``edges``.

    Families, added only while the ones before still admit a colouring that is not a rotation
    (checked by trying every colouring): every colour of the piece appears on some side; a side of
    colour k is followed clockwise by a colour that follows k on the piece; every side has one of
    the piece's colours; the side opposite a side of colour k has a colour opposite k on the piece.
    """
    return list(_pattern(tuple(edges)))


def _pattern(edges: Edges) -> tuple[PatternClause, ...]:
    if edges not in _PATTERN_CACHE:
        _PATTERN_CACHE[edges] = _build_pattern(edges)
    return _PATTERN_CACHE[edges]


_PATTERN_CACHE: dict[Edges, tuple[PatternClause, ...]] = {}


def _build_pattern(edges: Edges) -> tuple[PatternClause, ...]:
    colours = sorted(set(edges))
    present = [tuple((d, k, True) for d in range(4)) for k in colours]

    def follow(step: int) -> list[PatternClause]:
        out = []
        for d in range(4):
            for k in colours:
                nxt = sorted({edges[(i + step) % 4] for i in range(4) if edges[i] == k})
                out.append(((d, k, False),) + tuple(((d + step) % 4, n, True) for n in nxt))
        return out

    inside = [tuple((d, k, True) for k in colours) for d in range(4)]
    families = [present, follow(1), inside, follow(2)]
    clauses: list[PatternClause] = []
    for fam in families:
        clauses.extend(fam)
        if _exact(edges, clauses):
            return tuple(clauses)
    raise AssertionError(f"no exact rotation clauses for {edges}")   # cannot happen: see tests


def _exact(edges: Edges, clauses: list[PatternClause]) -> bool:
    """True when the colourings (over the piece's colours and one other) that satisfy ``clauses``
    are exactly the rotations of ``edges``."""
    other = -1
    alphabet = sorted(set(edges)) + [other]
    rotations = {rotate(edges, r) for r in range(4)}
    for col in product(alphabet, repeat=4):
        ok = all(any((col[d] == k) == pos for d, k, pos in c) for c in clauses)
        if ok != (col in rotations):
            return False
    return True


# -- the score model -------------------------------------------------------------------------
def match_model(pz: Puzzle, hints: bool, region: set[Square] | None,
                 board: Board | None) -> tuple[Problem, list[int]]:
    prob = Problem(f"{pz.name} (max matches)")
    if region is None:
        squares, tiles = pz.squares(), pz.placements(hints)
        pinned = {(t.row, t.col) for t in pz.fixed + (pz.hints if hints else [])}
    else:
        if board is None or any(sq not in board for sq in region):
            raise SatilingError("a region needs a board that fills it")
        squares, pinned = sorted(region), set()
        moving = sorted(board[sq][0] for sq in squares)
        tiles = [Tile(sq[0], sq[1], p, r) for sq in squares for p in moving
                 for r in pz.legal_rotations(p, sq)]
    by_square: dict[Square, list[int]] = defaultdict(list)
    by_piece: dict[int, list[int]] = defaultdict(list)
    shows: dict[tuple[Square, int, int], list[int]] = defaultdict(list)
    for t in tiles:
        v = prob.new_var(t, primary=True)
        if (t.row, t.col) in pinned:
            prob.fix(v)
        by_square[t.row, t.col].append(v)
        by_piece[t.piece].append(v)
        e = pz.edges(t.piece, t.rotation)
        for d in range(4):
            if not pz.on_rim((t.row, t.col), d):
                shows[(t.row, t.col), d, e[d]].append(v)
    for sq in squares:
        prob.exactly_one(by_square[sq], name=f"square {square_name(*sq)}")
    for p, vs in sorted(by_piece.items()):
        prob.exactly_one(vs, name=f"piece {p}")
    side_vars: dict[tuple[Square, int], dict[int, int]] = defaultdict(dict)
    for (sq, d, k), vs in sorted(shows.items()):
        h = prob.new_var(("side colour", sq, d, k))
        side_vars[sq, d][k] = h
        for v in vs:
            prob.add_clause((-v, h))
        prob.add_clause([-h] + vs)
    for (sq, d), vs in sorted(side_vars.items()):
        prob.exactly_one(list(vs.values()), name=f"side {square_name(*sq)}{SIDE_NAMES[d]}")
    matched = []
    for j in pz.joins():
        (a, da), (b, db) = j.ends()
        if region is not None and a not in region and b not in region:
            continue
        if region is not None and a not in region:      # keep the moving end as a
            (a, da), (b, db) = (b, db), (a, da)
        m = prob.new_var(("match", j.a, j.side))
        matched.append(m)
        if region is not None and b not in region:       # the other end is a fixed colour
            fixed = pz.edges(*board[b])[db]
            prob.add_clause((-m, side_vars[a, da][fixed]) if fixed in side_vars[a, da] else (-m,))
            continue
        hb = side_vars[b, db]
        for k, ha in side_vars[a, da].items():
            prob.add_clause((-m, -ha, hb[k]) if k in hb else (-m, -ha))
    return prob, matched
