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

from collections import Counter
from typing import Any, Callable, Iterable, Sequence

from ...errors import Option, SatilingError, VerificationError
from ...problem import Problem
from ..base import Puzzle
from .board import bucas_url, board_text, partial_board
from .geometry import (E, GREY, N, S, SIDE_NAMES, STEP, W, Board, Edges, Join, JoinColour,
                                 Square, Tile, canonical_rotation, check_edges, distinct_rotations,
                                 parse_square, rotate, row_name, shape_key, square_name)
from .io import read_instance
from .model import ENCODINGS, EdgeModel, match_model, rotation_pattern
from .score import score

__all__ = ["E", "GREY", "N", "S", "SIDE_NAMES", "STEP", "W", "Board", "Edges", "EdgeMatchPuzzle",
           "ENCODINGS", "Join", "JoinColour", "OPTION_KEYS", "Square", "Tile", "canonical_rotation",
           "distinct_rotations", "load_instance", "parse_square", "rotate", "rotation_pattern",
           "row_name", "shape_key", "square_name"]

OPTION_KEYS = {"encoding", "hints", "colour_counts", "balanced_rotation", "checkerboard_parity",
               "fix_corner"}


class EdgeMatchPuzzle(Puzzle):
    """Square pieces with coloured sides on a rows x cols board."""

    family = "edgematch"
    placement_types = (Tile, JoinColour)

    def __init__(self, name: str, rows: int, cols: int, pieces: Sequence[Sequence[int]],
                 fixed: Iterable[Tile] = (), hints: Iterable[Tile] = (), title: str = "",
                 source: str = "") -> None:
        self.name, self.title, self.source = name, title, source
        if rows < 1 or cols < 1:
            raise SatilingError(f"{name}: a board needs at least one row and one column")
        self.rows, self.cols = rows, cols
        self.pieces: list[Edges] = [check_edges(p, f"{name}: piece {i}") for i, p in enumerate(pieces, 1)]
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
    def check_hints(self, hints: bool) -> None:
        """SatilingError when the hint pieces are asked for and the puzzle has none (the model,
        the backtracker's boards and ``score`` ask it here)."""
        if hints and not self.hints:
            raise SatilingError("{hints}: {name} has no hint pieces", hints=Option("hints"), name=self.name)

    def check_options(self, **options: Any) -> None:
        """The hint pieces asked of a puzzle that has them; a corner pinned against the board's
        symmetry only where no fixed or hint piece has broken it."""
        hints = bool(options.get("hints"))
        self.check_hints(hints)
        if options.get("fix_corner") and (self.fixed or hints):
            raise SatilingError("{fix_corner}: the fixed pieces of {name} already break the "
                                "board's symmetry", fix_corner=Option("fix_corner"), name=self.name)

    def exact_cover(self, **options: Any) -> bool | None:
        """The direct encoding has colour variables beside the placements; the compact one's
        side colours are placements of their own (the exact-cover search takes it)."""
        return False if (options.get("encoding") or "direct") == "direct" else None

    def problem(self, encoding: str | None = None, hints: bool = False, colour_counts: bool = False,
                balanced_rotation: bool = False, checkerboard_parity: bool = False,
                fix_corner: bool = False, **options: Any) -> Problem:
        """The SAT model (see the module docstring for the encodings and options)."""
        from ...options import check_known
        check_known(self.family, options, set())
        encoding = encoding or "direct"
        if encoding not in ENCODINGS:
            raise SatilingError(f"unknown encoding {encoding!r} for edge matching (choose from "
                                f"{', '.join(ENCODINGS)})")
        self.check_options(hints=hints, fix_corner=fix_corner)
        model = EdgeModel(self, encoding, hints)
        if hints:      # not the puzzle's rules: a proof of "no solution" is of the puzzle with them
            model.prob.assume(f"the {len(self.hints)} hint pieces in place (--hints)")
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
        return match_model(self, hints, None if region is None else set(region), board)

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

    def misplaced(self, placement: Any) -> str | None:
        row, col = getattr(placement, "row", None), getattr(placement, "col", None)
        if not (isinstance(row, int) and 0 <= row < self.rows and isinstance(col, int) and 0 <= col < self.cols):
            return f"{placement} is off the {self.rows}x{self.cols} board"
        return None

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
        self._check_pinned(board, self.fixed, "fixed piece")
        for j in self.joins():
            (a, da), (b, db) = j.ends()
            ca, cb = self.edges(*board[a])[da], self.edges(*board[b])[db]
            if ca != cb:
                raise VerificationError(f"join {square_name(*a)}-{square_name(*b)} does not match "
                                        f"({ca} against {cb})")
        self._check_join_entries(solution, board)

    def verify_hints(self, solution: list[Any]) -> None:
        """:meth:`verify`, and the hint pieces in place too: a solution of the puzzle that
        ``--hints`` pins them in (SatilingError for a puzzle without hint pieces)."""
        self.check_hints(True)
        self.verify(solution)
        self._check_pinned(self.board_from(solution), self.hints, "hint piece")

    def _check_pinned(self, board: Board, tiles: list[Any], what: str) -> None:
        for t in tiles:
            got = board.get((t.row, t.col))
            if got is None or got[0] != t.piece or canonical_rotation(self.pieces[t.piece - 1], got[1]) != t.rotation:
                raise VerificationError(f"{what} {t.piece} is not on {t.square} at rotation {t.rotation}")

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
        partial_board(self, problem.decode(true_vars))
        super().check_partial(problem, true_vars)

    def placement_from_json(self, data: Any) -> Tile | JoinColour:
        def whole(x: Any) -> int:           # exact: 2.5 or "2" is not read as 2
            if type(x) is not int:
                raise TypeError
            return x
        keys = {"join", "colour"} if isinstance(data, dict) and "join" in data else {"square", "piece", "rotation"}
        if isinstance(data, dict) and set(data) - keys:
            raise SatilingError(f"unknown key {sorted(set(data) - keys)[0]!r} in an edge-matching placement "
                                f"(its keys: {', '.join(sorted(keys))})")
        try:
            if "join" in data:
                name = str(data["join"])
                side = SIDE_NAMES.index(name[-1].upper())
                r, c = parse_square(name[:-1], self.rows, self.cols)
                return JoinColour(r, c, side, whole(data["colour"]))
            r, c = parse_square(data["square"], self.rows, self.cols)
            rot = data.get("rotation")
            if rot is not None and whole(rot) not in range(4):     # 5 is not read as 1
                raise SatilingError(f"an edge-matching rotation is 0 to 3 quarter turns, not {rot}")
            return Tile(r, c, whole(data["piece"]), None if rot is None else rot)
        except (KeyError, TypeError, ValueError, AttributeError):
            raise SatilingError('an edge-matching placement looks like {"square": "I8", "piece": 139, '
                                '"rotation": 2}') from None

    def pins(self) -> list[Tile]:
        """The ``[[fixed]]`` tiles; the ``[[hint]]`` ones are pinned only by the ``hints``
        option of a model, not by the puzzle."""
        return list(self.fixed)

    # -- symmetry ----------------------------------------------------------------------------
    def symmetries(self) -> list:
        """Board rotations (4 for a square board, 2 for a rectangle) that keep every fixed piece
        where it is, as it shows (a symmetric piece fixed on the centre square keeps them all)."""
        return [self._turn(k) for k in self.kept_turns(hints=False)]

    def rotations(self) -> list:
        """All of :meth:`symmetries`: a board is only turned (a piece is never turned over)."""
        return self.symmetries()

    def kept_turns(self, hints: bool) -> list[int]:
        """The quarter turns of the board (0 first) that map every pinned piece -- the fixed ones,
        and the hints with ``hints`` -- onto itself: same square, same colours."""
        turns = (0, 1, 2, 3) if self.rows == self.cols else (0, 2)
        pinned = list(self.fixed) + (list(self.hints) if hints else [])
        out = []
        for k in turns:
            move = self._turn(k)
            if all(self._same_tile(move(t), t) for t in pinned):
                out.append(k)
        return out

    def _same_tile(self, a: Tile, b: Tile) -> bool:
        return (a.row, a.col, a.piece) == (b.row, b.col, b.piece) and \
            self.edges(a.piece, a.rotation or 0) == self.edges(b.piece, b.rotation or 0)

    def _turn(self, k: int):
        """The board turned ``k`` clockwise quarter turns (k = 2 only, on a rectangle)."""
        R, C = self.rows, self.cols

        def square(r: int, c: int) -> Square:
            if k == 2:                     # the half-turn, on any rectangle
                return R - 1 - r, C - 1 - c
            for _ in range(k):             # quarter turns exist on square boards only
                r, c = c, R - 1 - r        # one clockwise quarter turn
            return r, c

        def move(t: Any) -> Any:
            if isinstance(t, JoinColour):  # the compact encoding's join colours turn with the board
                return _turned_join(t, square, k)
            if not isinstance(t, Tile):
                return t
            r, c = square(t.row, t.col)
            rot = None if t.rotation is None else canonical_rotation(self.pieces[t.piece - 1], t.rotation + k)
            return Tile(r, c, t.piece, rot)
        return move

    # -- text --------------------------------------------------------------------------------
    def text(self, solution: list[Any]) -> str:
        """The board as ``piece/rotation`` tokens (what ``satiling score`` reads), its score and
        its e2.bucas.name URL; the SVG picture is drawn by :mod:`satiling.render.edgematch_svg`."""
        board = self.board_from(solution, strict=False)
        s = score(self, board)
        try:
            url = bucas_url(self, board)
        except SatilingError as e:       # more colours than the viewer has letters: no URL
            url = f"(no viewer URL: {e})"
        return "\n".join([board_text(self, board), f"# score {s.matched}/{s.joins}", f"# {url}"])

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


def load_instance(data: dict[str, Any], name: str, base: Any = None) -> EdgeMatchPuzzle:
    """A puzzle from an instance file (see :mod:`satiling.families.edgematch.io`)."""
    inst = read_instance(data, name, base)
    puzzle = EdgeMatchPuzzle(name, inst.rows, inst.cols, inst.pieces, inst.fixed, inst.hints,
                             inst.title, inst.source)
    puzzle.planted = inst.planted       # a generator's planted board, if any
    return puzzle


def _turned_join(j: JoinColour, square: Callable[[int, int], Square], k: int) -> JoinColour:
    """A join colour after ``k`` clockwise quarter turns of the board: its side turns with it and,
    landing on a W or N side, is named from the neighbour's E or S side (the join's own name)."""
    side = (j.side + k) % 4
    r, c = square(j.row, j.col)
    if side in (E, S):
        return JoinColour(r, c, side, j.colour)
    dr, dc = STEP[side]
    return JoinColour(r + dr, c + dc, (side + 2) % 4, j.colour)
