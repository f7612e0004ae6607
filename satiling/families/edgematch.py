"""Edge matching: square pieces with a colour on each side (Eternity II, its clue puzzles, generated
boards).

A piece is four colours ``(N, E, S, W)`` clockwise from the top; colour 0 is the grey border.  A
placement puts piece ``p`` on square ``(row, col)`` turned ``rotation`` clockwise quarter turns
(row 0 is the top row, named ``A``; column 0 is named ``1``; Eternity II's starter is piece 139 on
I8 at rotation 2).  A placement is *legal* when its grey sides are exactly the sides on the board's
rim: corner pieces go on corners, edge pieces on the frame, inner pieces inside.  A board is solved
when every square holds one piece, every piece is used once, and the two sides of every join agree.

Two models (``problem(encoding=...)``):

* ``direct`` -- one primary Boolean per legal (piece, square, rotation); exactly one per square and
  per piece; one colour variable per (join, colour) with exactly one colour per join; a placement
  implies the colours of its joins, and a join colour implies one of the placements showing it on
  each side (support clauses).
* ``compact`` (after Heule, "Solving edge-matching problems with satisfiability solvers", 2008) --
  one primary Boolean per legal (piece, square) with no rotation variables; at least one piece per
  square and one square per piece (exactly one when the set has equal pieces); exactly one colour per
  join; for every (piece, square) a few clauses that force the four join colours around the square
  to be some rotation of the piece (side colours among the piece's, every colour present, each
  colour followed clockwise by a colour that follows it on the piece, and opposite-side clauses for
  the patterns that need them).  The join colours are primary too, because they carry the rotation.

Redundant constraints (each an option, sound for every solution): ``colour_counts`` (each colour on
exactly half its half-edges' number of joins), ``balanced_rotation`` (per colour as many E- as
W-facing half-edges and as many N- as S-facing, over variables "piece p has rotation r"),
``checkerboard_parity`` (the signed form: per colour, E-facing half-edges on dark squares equal
W-facing ones on light squares, and so on), ``fix_corner`` (one corner piece pinned against the
board's rotations).  The verifier re-checks a board from the pieces alone.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..errors import SatilingError, VerificationError
from ..problem import Problem
from ..schema import check_instance
from .base import Puzzle

N, E, S, W = range(4)
SIDE_NAMES = "NESW"
GREY = 0
#: row/column step from a square to its neighbour on each side
STEP = ((-1, 0), (0, 1), (1, 0), (0, -1))
ENCODINGS = ("direct", "compact")
OPTION_KEYS = {"encoding", "hints", "colour_counts", "balanced_rotation", "checkerboard_parity",
               "fix_corner"}

Edges = tuple[int, int, int, int]
Square = tuple[int, int]


# -- pieces and squares ------------------------------------------------------------------------
def rotate(edges: Sequence[int], r: int) -> Edges:
    """``edges`` turned ``r`` clockwise quarter turns: the old N side becomes E, and so on."""
    return tuple(edges[(d - r) % 4] for d in range(4))  # type: ignore[return-value]


def distinct_rotations(edges: Sequence[int]) -> list[int]:
    """The rotations giving different colourings (a symmetric piece has fewer than four); each is
    the smallest rotation with its colouring."""
    seen: dict[Edges, int] = {}
    for r in range(4):
        seen.setdefault(rotate(edges, r), r)
    return sorted(seen.values())


def canonical_rotation(edges: Sequence[int], r: int) -> int:
    """The smallest rotation with the same colouring as rotation ``r``."""
    target = rotate(edges, r)
    return next(q for q in range(4) if rotate(edges, q) == target)


def shape_key(edges: Sequence[int]) -> Edges:
    """The same for a piece and its rotations: equal keys mean equal pieces."""
    return min(rotate(edges, r) for r in range(4))


def row_name(row: int) -> str:
    """A, B, ..., Z, AA, AB, ... (row 0 = A, the top row)."""
    out, n = "", row + 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return out


def square_name(row: int, col: int) -> str:
    """``I8`` = row I (9th from the top), column 8 (8th from the left)."""
    return f"{row_name(row)}{col + 1}"


def parse_square(text: str, rows: int, cols: int) -> Square:
    """(row, col) of a square name such as ``I8``; SatilingError when malformed or off the board."""
    t = str(text).strip().upper()
    letters = "".join(ch for ch in t if ch.isalpha())
    digits = t[len(letters):]
    if not letters or not digits.isdigit() or t != letters + digits:
        raise SatilingError(f"{text!r} is not a square name like I8")
    row = 0
    for ch in letters:
        row = row * 26 + ord(ch) - 64
    row, col = row - 1, int(digits) - 1
    if not (0 <= row < rows and 0 <= col < cols):
        raise SatilingError(f"square {text} is not on the {rows}x{cols} board")
    return row, col


# -- placements ------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Tile:
    """Piece ``piece`` (1-based id) on square (``row``, ``col``) turned ``rotation`` clockwise
    quarter turns.  The compact encoding leaves ``rotation`` None: the join colours carry it."""

    row: int
    col: int
    piece: int
    rotation: int | None = None

    @property
    def square(self) -> str:
        return square_name(self.row, self.col)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"square": self.square, "piece": self.piece}
        if self.rotation is not None:
            out["rotation"] = self.rotation
        return out

    def sort_key(self) -> tuple:
        return (0, self.row, self.col, self.piece, -1 if self.rotation is None else self.rotation)

    def __str__(self) -> str:
        return f"{self.square} {self.piece}/{'-' if self.rotation is None else self.rotation}"


@dataclass(frozen=True, order=True)
class JoinColour:
    """The join on side ``side`` (E or S) of square (``row``, ``col``) has colour ``colour``."""

    row: int
    col: int
    side: int
    colour: int

    def to_json(self) -> dict[str, Any]:
        return {"join": f"{square_name(self.row, self.col)}{SIDE_NAMES[self.side]}", "colour": self.colour}

    def sort_key(self) -> tuple:
        return (1, self.row, self.col, self.side, self.colour)

    def __str__(self) -> str:
        return f"{square_name(self.row, self.col)}{SIDE_NAMES[self.side]}={self.colour}"


@dataclass(frozen=True)
class Join:
    """Two squares sharing a side: ``a`` and the square on its side ``side`` (E or S)."""

    a: Square
    side: int

    @property
    def b(self) -> Square:
        dr, dc = STEP[self.side]
        return (self.a[0] + dr, self.a[1] + dc)

    def ends(self) -> tuple[tuple[Square, int], tuple[Square, int]]:
        """(square, side facing the join) for both squares."""
        return (self.a, self.side), (self.b, (self.side + 2) % 4)


#: A board: square -> (piece, rotation)
Board = dict[Square, tuple[int, int]]


class EdgeMatchPuzzle(Puzzle):
    """Square pieces with coloured sides on a rows x cols board."""

    family = "edgematch"

    def __init__(self, name: str, rows: int, cols: int, pieces: Sequence[Sequence[int]],
                 fixed: Iterable[Tile] = (), hints: Iterable[Tile] = (), title: str = "",
                 source: str = "") -> None:
        self.name, self.title, self.source = name, title, source
        if rows < 1 or cols < 1:
            raise SatilingError(f"{name}: a board needs at least one row and one column")
        self.rows, self.cols = rows, cols
        self.pieces: list[Edges] = [_edges(p, f"{name}: piece {i}") for i, p in enumerate(pieces, 1)]
        if len(self.pieces) != rows * cols:
            raise SatilingError(f"{name}: {len(self.pieces)} pieces for a {rows}x{cols} board "
                                f"({rows * cols} squares)")
        # every rotation of every piece, and the legal rotations per (piece, rim sides of a square)
        self._turned = [[rotate(e, r) for r in range(4)] for e in self.pieces]
        self._legal: dict[tuple[int, tuple[bool, ...]], list[int]] = {}
        self.fixed = [self._check_fixed(t, "fixed piece") for t in fixed]
        self.hints = [self._check_fixed(t, "hint") for t in hints]
        self.planted = ""              # a generated board's planted solution (board text)

    # -- geometry ---------------------------------------------------------------------------
    def edges(self, piece: int, rotation: int) -> Edges:
        """The colours of piece ``piece`` (1-based) turned ``rotation`` times."""
        return self._turned[piece - 1][rotation]

    def squares(self) -> list[Square]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols)]

    def on_rim(self, square: Square, side: int) -> bool:
        """True when side ``side`` of ``square`` lies on the board's outer border."""
        dr, dc = STEP[side]
        r, c = square[0] + dr, square[1] + dc
        return not (0 <= r < self.rows and 0 <= c < self.cols)

    def neighbour(self, square: Square, side: int) -> Square | None:
        if self.on_rim(square, side):
            return None
        return (square[0] + STEP[side][0], square[1] + STEP[side][1])

    def joins(self) -> list[Join]:
        """Every interior join, row by row: the E join then the S join of each square."""
        out = []
        for sq in self.squares():
            for side in (E, S):
                if not self.on_rim(sq, side):
                    out.append(Join(sq, side))
        return out

    def fits(self, edges: Sequence[int], square: Square) -> bool:
        """Frame legality: grey exactly on the sides that lie on the rim."""
        return all((edges[d] == GREY) == self.on_rim(square, d) for d in range(4))

    def legal_rotations(self, piece: int, square: Square) -> list[int]:
        """The distinct rotations of ``piece`` that are legal on ``square``."""
        rim = tuple(self.on_rim(square, d) for d in range(4))
        key = (piece, rim)
        if key not in self._legal:
            turned = self._turned[piece - 1]
            self._legal[key] = [r for r in distinct_rotations(self.pieces[piece - 1])
                                if all((turned[r][d] == GREY) == rim[d] for d in range(4))]
        return self._legal[key]

    def has_equal_pieces(self) -> bool:
        return len({shape_key(p) for p in self.pieces}) < len(self.pieces)

    def placements(self, hints: bool = False) -> list[Tile]:
        """Every legal placement, after pinning the fixed pieces (and the hints, if asked)."""
        pinned = self.fixed + (self.hints if hints else [])
        by_piece = {t.piece: t for t in pinned}
        by_square = {(t.row, t.col): t for t in pinned}
        if len(by_piece) != len(pinned) or len(by_square) != len(pinned):
            raise SatilingError(f"{self.name}: two pinned pieces share a piece or a square")
        out = []
        for sq in self.squares():
            if sq in by_square:
                out.append(by_square[sq])
                continue
            for p in range(1, len(self.pieces) + 1):
                if p in by_piece:
                    continue
                out.extend(Tile(sq[0], sq[1], p, r) for r in self.legal_rotations(p, sq))
        return out

    def _check_fixed(self, t: Tile, what: str) -> Tile:
        if not 1 <= t.piece <= len(self.pieces):
            raise SatilingError(f"{self.name}: {what} {t}: no piece {t.piece}")
        if not (0 <= t.row < self.rows and 0 <= t.col < self.cols):
            raise SatilingError(f"{self.name}: {what} {t}: square not on the board")
        rot = canonical_rotation(self.pieces[t.piece - 1], t.rotation or 0)
        if rot not in self.legal_rotations(t.piece, (t.row, t.col)):
            raise SatilingError(f"{self.name}: {what} {t}: piece does not fit there at that rotation")
        return Tile(t.row, t.col, t.piece, rot)

    # -- model -------------------------------------------------------------------------------
    def problem(self, encoding: str | None = None, hints: bool = False, colour_counts: bool = False,
                balanced_rotation: bool = False, checkerboard_parity: bool = False,
                fix_corner: bool = False, **options: Any) -> Problem:
        """The SAT model (see the module docstring for the encodings and options)."""
        from ..options import check_known
        check_known(self.family, options, set())
        encoding = encoding or "direct"
        if encoding not in ENCODINGS:
            raise SatilingError(f"unknown encoding {encoding!r} for edge matching (choose from "
                                f"{', '.join(ENCODINGS)})")
        if hints and not self.hints:
            raise SatilingError(f"--hints: {self.name} has no hint pieces")
        if fix_corner and (self.fixed or hints):
            raise SatilingError(f"--fix-corner: the fixed pieces of {self.name} already break the "
                                "board's symmetry")
        model = _Model(self, encoding, hints)
        if colour_counts:
            model.colour_counts()
        if balanced_rotation or checkerboard_parity:
            model.rotation_balance(balanced_rotation, checkerboard_parity)
        if fix_corner:
            model.fix_corner()
        return model.prob

    def match_problem(self, hints: bool = False, region: Iterable[Square] | None = None,
                      board: Board | None = None) -> tuple[Problem, list[int]]:
        """A model where joins may disagree, for maximising the score: the placements' exact cover
        (hard), a colour per (square, side), and one variable per interior join that may be true
        only if the join matches.  Returns the problem and those join variables.

        With ``region`` (squares of a full ``board``), only the pieces now on those squares move,
        among those squares; the rest of the board is fixed, so the joins counted are the ones
        touching the region (a neighbourhood for local search)."""
        return _match_model(self, hints, None if region is None else set(region), board)

    # -- solutions ---------------------------------------------------------------------------
    def board_from(self, solution: Iterable[Any], strict: bool = True) -> Board:
        """The board of a solution: square -> (piece, rotation).

        Tiles without a rotation (compact encoding) take the rotation that shows the solution's
        join colours; ``strict`` raises VerificationError when that is impossible (otherwise the
        tile is left out, as in a partial model).
        """
        tiles, colours = [], {}
        for item in solution:
            item = item if isinstance(item, (Tile, JoinColour)) else self.placement_from_json(item)
            if isinstance(item, JoinColour):
                colours[(item.row, item.col), item.side] = item.colour
            else:
                tiles.append(item)
        board: Board = {}
        for t in tiles:
            if not 1 <= t.piece <= len(self.pieces):
                raise VerificationError(f"{t}: there is no piece {t.piece}")
            if not (0 <= t.row < self.rows and 0 <= t.col < self.cols):
                raise VerificationError(f"{t}: square not on the {self.rows}x{self.cols} board")
            rot = t.rotation
            if rot is None:
                rot = self._rotation_from_joins(t, colours)
                if rot is None:
                    if strict:
                        raise VerificationError(f"piece {t.piece} on {t.square} does not fit its join colours")
                    continue
            sq = (t.row, t.col)
            if sq in board:
                raise VerificationError(f"square {t.square} holds two pieces")
            board[sq] = (t.piece, rot % 4)
        return board

    def _rotation_from_joins(self, t: Tile, colours: dict) -> int | None:
        sq = (t.row, t.col)
        want = []
        for d in range(4):
            if self.on_rim(sq, d):
                want.append(GREY)
            elif d in (E, S):
                want.append(colours.get((sq, d)))
            else:
                want.append(colours.get((self.neighbour(sq, d), (d + 2) % 4)))
        for r in distinct_rotations(self.pieces[t.piece - 1]):
            if list(self.edges(t.piece, r)) == want:
                return r
        return None

    def tiles(self, board: Board) -> list[Tile]:
        return [Tile(r, c, p, rot) for (r, c), (p, rot) in sorted(board.items())]

    def verify(self, solution: list[Any]) -> None:
        """Every square one legal piece, every piece once, the fixed pieces in place, all joins
        matching -- checked from the pieces' colours alone."""
        board = self.board_from(solution)
        missing = [sq for sq in self.squares() if sq not in board]
        if missing:
            raise VerificationError(f"square {square_name(*missing[0])} is empty")
        used = Counter(p for p, _ in board.values())
        twice = [p for p, n in used.items() if n > 1]
        if twice:
            raise VerificationError(f"piece {twice[0]} is used {used[twice[0]]} times")
        for sq, (p, rot) in board.items():
            if not self.fits(self.edges(p, rot), sq):
                raise VerificationError(f"piece {p} at rotation {rot} does not fit the frame at "
                                        f"{square_name(*sq)}")
        for t in self.fixed:
            got = board.get((t.row, t.col))
            if got is None or got[0] != t.piece or canonical_rotation(self.pieces[t.piece - 1], got[1]) != t.rotation:
                raise VerificationError(f"fixed piece {t.piece} is not on {t.square} at rotation {t.rotation}")
        for j in self.joins():
            (a, da), (b, db) = j.ends()
            ca, cb = self.edges(*board[a])[da], self.edges(*board[b])[db]
            if ca != cb:
                raise VerificationError(f"join {square_name(*a)}-{square_name(*b)} does not match "
                                        f"({ca} against {cb})")
        self._check_join_entries(solution, board)

    def _check_join_entries(self, solution: list[Any], board: Board) -> None:
        """A join colour listed in a solution must be the colour its pieces show there."""
        for item in solution:
            item = item if isinstance(item, (Tile, JoinColour)) else self.placement_from_json(item)
            if not isinstance(item, JoinColour):
                continue
            sq, name = (item.row, item.col), item.to_json()["join"]
            if self.on_rim(sq, item.side):
                raise VerificationError(f"join {name} is on the rim, not between two squares")
            shown = self.edges(*board[sq])[item.side]
            if item.colour != shown:
                raise VerificationError(f"join {name} is given colour {item.colour}, but its pieces "
                                        f"show colour {shown}")

    def check_partial(self, problem: Problem, true_vars: frozenset[int]) -> None:
        """The board checked from the pieces alone first (clear square/piece messages), then the
        model's own bounds (which also catch a join given two colours)."""
        from .edgematch_score import partial_board
        partial_board(self, problem.decode(true_vars))
        super().check_partial(problem, true_vars)

    def placement_from_json(self, data: Any) -> Tile | JoinColour:
        try:
            if "join" in data:
                name = str(data["join"])
                side = SIDE_NAMES.index(name[-1].upper())
                r, c = parse_square(name[:-1], self.rows, self.cols)
                return JoinColour(r, c, side, int(data["colour"]))
            r, c = parse_square(data["square"], self.rows, self.cols)
            rot = data.get("rotation")
            return Tile(r, c, int(data["piece"]), None if rot is None else int(rot))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise SatilingError('an edge-matching placement looks like {"square": "I8", "piece": 139, '
                                '"rotation": 2}') from None

    # -- symmetry ----------------------------------------------------------------------------
    def symmetries(self) -> list:
        """Board rotations (4 for a square board, 2 for a rectangle) unless pinned pieces break them."""
        if self.fixed:
            return [lambda t: t]
        turns = (0, 1, 2, 3) if self.rows == self.cols else (0, 2)
        return [self._turn(k) for k in turns]

    def _turn(self, k: int):
        """The board turned ``k`` clockwise quarter turns (k = 2 only, on a rectangle)."""
        R, C = self.rows, self.cols

        def move(t: Any) -> Any:
            if not isinstance(t, Tile):
                return t
            if k == 2:                     # the half-turn, on any rectangle
                r, c = R - 1 - t.row, C - 1 - t.col
            else:                          # quarter turns exist on square boards only
                r, c = t.row, t.col
                for _ in range(k):
                    r, c = c, R - 1 - r    # one clockwise quarter turn
            rot = None if t.rotation is None else canonical_rotation(self.pieces[t.piece - 1], t.rotation + k)
            return Tile(r, c, t.piece, rot)
        return move

    # -- pictures ----------------------------------------------------------------------------
    def text(self, solution: list[Any]) -> str:
        from ..render.edgematch_svg import board_text, bucas_url
        from .edgematch_score import score
        board = self.board_from(solution, strict=False)
        s = score(self, board)
        try:
            url = bucas_url(self, board)
        except SatilingError as e:       # more colours than the viewer has letters: no URL
            url = f"(no viewer URL: {e})"
        return "\n".join([board_text(self, board), f"# score {s.matched}/{s.joins}", f"# {url}"])

    def svg(self, solution: list[Any]) -> str:
        from ..render.edgematch_svg import board_svg
        return board_svg(self, self.board_from(solution, strict=False))

    def info(self) -> dict[str, Any]:
        kinds = Counter(sum(1 for x in p if x == GREY) for p in self.pieces)
        half = Counter(x for p in self.pieces for x in p if x != GREY)
        return {
            "board": f"{self.rows}x{self.cols}",
            "pieces": len(self.pieces),
            "corner / edge / inner pieces": f"{kinds[2]} / {kinds[1]} / {kinds[0]}",
            "colours": len(half),
            "joins": len(self.joins()),
            "equal pieces": len(self.pieces) - len({shape_key(p) for p in self.pieces}),
            "fixed pieces": ", ".join(str(t) for t in self.fixed) or "none",
            "hint pieces (--hints)": ", ".join(str(t) for t in self.hints) or "none",
            "legal placements": len(self.placements()),
        }


def _edges(p: Sequence[int], where: str) -> Edges:
    try:
        vals = tuple(int(x) for x in p)
    except (TypeError, ValueError):
        raise SatilingError(f"{where}: colours must be integers") from None
    if len(vals) != 4 or min(vals) < 0:
        raise SatilingError(f"{where}: a piece is four colours N E S W, 0 for grey, others positive")
    return vals  # type: ignore[return-value]


# -- the SAT models ----------------------------------------------------------------------------
class _Model:
    """Builds the Problem for one encoding; the option methods add redundant constraints."""

    def __init__(self, puzzle: EdgeMatchPuzzle, encoding: str, hints: bool) -> None:
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

        Sets ``self.sides``: per kept tile, its (join, colour) pairs, used by the encodings."""
        sides = [self._sides(t) for t in tiles]
        while True:
            shows: dict[tuple[int, int], set[int]] = defaultdict(set)    # (join, end) -> colours
            for ts in sides:
                for i, k, end in ts:
                    shows[i, end].add(k)
            domain = [shows[i, 0] & shows[i, 1] for i in range(len(self.joins))]
            keep = [n for n, ts in enumerate(sides) if all(k in domain[i] for i, k, _ in ts)]
            if len(keep) == len(tiles):
                self.domain, self.sides = domain, sides
                return tiles
            tiles, sides = [tiles[n] for n in keep], [sides[n] for n in keep]

    def _sides(self, t: Tile) -> list[tuple[int, int, int]]:
        """(join, colour, end 0 or 1 of the join) for each side of ``t`` that is not on the rim."""
        e, sq = self.pz.edges(t.piece, t.rotation), (t.row, t.col)
        out = []
        for d in range(4):
            i = self.join_at.get((sq, d))
            if i is not None:
                out.append((i, e[d], 0 if d in (E, S) else 1))
        return out

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
        support: dict[tuple[int, int, int], list[int]] = defaultdict(list)   # (join, end, colour)
        for v, ts in zip(self.var_of.values(), self.sides):
            for i, k, end in ts:
                prob.add_clause((-v, self.colour[i][k]))
                support[i, end, k].append(v)
        for i in range(len(self.joins)):
            for end in (0, 1):
                for k, x in self.colour[i].items():
                    prob.add_clause([-x] + support[i, end, k])
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

    def rotation_balance(self, balanced: bool, parity: bool) -> None:
        """Variables 'piece p has rotation r (on a square of parity b)' and the balance constraints
        over them: per colour and axis, as many half-edges face one way as the other."""
        cls = self._rotation_classes(parity)
        pz = self.pz
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
                self.prob.fix(-v)


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
def _match_model(pz: EdgeMatchPuzzle, hints: bool, region: set[Square] | None,
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


# -- loading ---------------------------------------------------------------------------------
def read_pieces_file(path: Path) -> tuple[int, int, list[Edges]]:
    """A pieces file: ``#`` comments, a ``rows cols`` line, then one ``N E S W`` line per piece."""
    try:
        text = path.read_text()
    except OSError as e:
        raise SatilingError(f"{path.name}: cannot read: {e.strerror}") from None
    return parse_pieces(text, path.name)


def parse_pieces(text: str, where: str) -> tuple[int, int, list[Edges]]:
    lines = [(n, ln.split("#")[0].split()) for n, ln in enumerate(text.splitlines(), 1)]
    lines = [(n, f) for n, f in lines if f]
    if not lines or len(lines[0][1]) != 2:
        raise SatilingError(f"{where}: the first data line must be 'rows cols'")
    try:
        rows, cols = (int(x) for x in lines[0][1])
    except ValueError:
        raise SatilingError(f"{where}: the first data line must be 'rows cols'") from None
    pieces = [_edges(f, f"{where} line {n}") for n, f in lines[1:]]
    return rows, cols, pieces


def _tile_entries(entries: Any, rows: int, cols: int, where: str) -> list[Tile]:
    out = []
    for e in entries or []:
        try:
            r, c = parse_square(e["square"], rows, cols)
            out.append(Tile(r, c, int(e["piece"]), int(e.get("rotation", 0))))
        except (KeyError, TypeError, ValueError):
            raise SatilingError(f"{where}: entries look like {{square = \"I8\", piece = 139, rotation = 2}}") from None
    return out


def load_instance(data: dict[str, Any], name: str, base: Any = None) -> EdgeMatchPuzzle:
    """A puzzle from an instance file: ``pieces_file`` (relative to the instance) or ``rows``,
    ``cols`` and ``pieces = [[N, E, S, W], ...]``; optional ``[[fixed]]`` and ``[[hint]]`` tables."""
    check_instance("edgematch", data, name)
    if "pieces_file" in data:
        rows, cols, pieces = read_pieces_file(Path(base or ".") / str(data["pieces_file"]))
    elif "pieces" in data:
        try:
            rows, cols = int(data["rows"]), int(data["cols"])
        except (KeyError, TypeError, ValueError):
            raise SatilingError(f"{name}: inline pieces need integer 'rows' and 'cols'") from None
        pieces = [_edges(p, f"{name}: piece {i}") for i, p in enumerate(data["pieces"], 1)]
    else:
        raise SatilingError(f"{name}: give 'pieces_file' or 'rows', 'cols' and 'pieces'")
    fixed = _tile_entries(data.get("fixed"), rows, cols, f"{name}: [[fixed]]")
    hints = _tile_entries(data.get("hint"), rows, cols, f"{name}: [[hint]]")
    puzzle = EdgeMatchPuzzle(name, rows, cols, pieces, fixed, hints, str(data.get("title", "")),
                             str(data.get("source", "")))
    puzzle.planted = str(data.get("planted", ""))     # a generator's planted board, if any
    return puzzle
