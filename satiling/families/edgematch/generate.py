"""Random edge-matching boards with a planted solution (Eternity II style by default).

The board is coloured first, then cut into pieces: every join along the rim between two frame
squares gets one of the *frame* colours, every other interior join one of the *inner* colours, the
rim is grey.  Colours are dealt as evenly as possible (like Eternity II's 48-50 half-edges per
colour), then swapped between joins until every piece is different from every other under rotation
and, by default, no piece equals one of its own rotations (both true of Eternity II).  Pieces are
listed like Eternity II's: corners, then edge pieces, then inner pieces, each group shuffled; frame
pieces turned so their grey sides point down (and left), inner pieces turned at random.

Default colour counts are Eternity2Puzzles.jl's table of the hardest frame/inner colour counts for
each board size from 3x3 to 20x20 (flat colour distribution, no equal or symmetric pieces; from the
eternity2 groups.io discussion): 6x6 3 + 5, 7x7 3 + 6, 8x8 3 + 8, 10x10 4 + 10, 16x16 5 + 17.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ...errors import SatilingError
from ...schema import MAX_BOARD_SIDE, MAX_COLOUR
from .puzzle import GREY, STEP, Board, EdgeMatchPuzzle, Edges, S, W, rotate, shape_key

# Eternity2Puzzles.jl (MIT, (c) 2024 Janos Wortmann), src/core.jl `_get_number_of_colors`:
# row = rows - 3, column = cols - 3, for 3..20 rows and columns.
_FRAME = """
2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 5 6 6
2 2 2 3 3 3 3 3 4 4 4 4 4 4 5 5 5 5
2 2 3 3 3 3 3 3 3 4 4 4 4 4 5 5 5 5
2 3 3 3 3 3 3 3 3 4 4 4 4 4 4 5 5 5
3 3 3 3 3 3 3 3 4 4 4 4 4 4 4 5 5 5
3 3 3 3 3 3 3 4 4 4 4 4 4 4 4 5 5 5
3 3 3 3 3 3 4 4 4 4 4 4 4 4 4 5 5 5
3 3 3 3 3 4 4 4 4 4 4 4 4 4 5 5 5 5
4 4 3 3 4 4 4 4 4 4 4 4 4 5 5 5 5 5
4 4 4 4 4 4 4 4 4 4 4 4 5 5 5 5 5 5
4 4 4 4 4 4 4 4 4 4 4 5 5 5 5 5 5 5
4 4 4 4 4 4 4 4 4 4 5 5 5 5 5 5 5 5
5 4 4 4 4 4 4 4 4 5 5 5 5 5 5 5 5 5
5 4 4 4 4 4 4 4 5 5 5 5 5 5 5 5 5 5
5 5 5 4 4 4 4 5 5 5 5 5 5 5 5 5 5 5
5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5
6 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 6
6 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 6 6
"""
_INNER = """
2 2 3 3 3 3 4 4 4 4 4 5 5 5 5 5 5 5
2 3 3 4 4 5 5 5 5 6 6 6 6 7 7 7 7 8
3 3 4 5 5 5 6 6 7 7 7 8 8 8 8 9 9 9
3 4 5 5 6 6 7 7 8 8 8 9 9 9 10 10 10 11
3 4 5 6 6 7 7 8 8 9 9 10 10 10 11 11 11 12
3 5 5 6 7 8 8 9 9 10 10 11 11 11 12 12 12 13
4 5 6 7 7 8 9 9 10 10 11 11 12 12 13 13 13 14
4 5 6 7 8 9 9 10 11 11 12 12 13 13 13 14 14 15
4 5 7 8 8 9 10 11 11 12 12 13 13 14 14 15 15 16
4 6 7 8 9 10 10 11 12 12 13 13 14 15 15 16 16 16
4 6 7 8 9 10 11 12 12 13 14 14 15 15 16 16 17 17
5 6 8 9 10 11 11 12 13 13 14 15 15 16 16 17 17 18
5 6 8 9 10 11 12 13 13 14 15 15 16 17 17 18 18 19
5 7 8 9 10 11 12 13 14 15 15 16 17 17 18 18 19 19
5 7 8 10 11 12 13 13 14 15 16 16 17 18 18 19 20 20
5 7 9 10 11 12 13 14 15 16 16 17 18 18 19 20 20 21
5 7 9 10 11 12 13 14 15 16 17 17 18 19 20 20 21 21
5 8 9 11 12 13 14 15 16 16 17 18 19 19 20 21 21 22
"""


def _table(text: str) -> list[list[int]]:
    return [[int(x) for x in line.split()] for line in text.strip().splitlines()]


def e2_like_colours(rows: int, cols: int) -> tuple[int, int]:
    """Frame and inner colour counts for a rows x cols board, Eternity II-like (the table above;
    sizes outside 3..20 use the nearest entry)."""
    r, c = min(max(rows, 3), 20) - 3, min(max(cols, 3), 20) - 3
    return _table(_FRAME)[r][c], _table(_INNER)[r][c]


@dataclass
class Generated:
    """A generated puzzle: pieces (N E S W), the planted board, and how it was made."""

    rows: int
    cols: int
    frame_colours: int
    inner_colours: int
    seed: int
    pieces: list[Edges]
    planted: Board

    def puzzle(self, name: str = "generated") -> EdgeMatchPuzzle:
        return EdgeMatchPuzzle(name, self.rows, self.cols, self.pieces, title=self.title(),
                               source="satiling generate-edgematch")

    def title(self) -> str:
        return (f"random {self.rows}x{self.cols} board, {self.frame_colours} frame + "
                f"{self.inner_colours} inner colours, seed {self.seed}")


def generate(rows: int, cols: int, frame_colours: int | None = None, inner_colours: int | None = None,
             seed: int = 0, symmetric: bool = False, even: bool = True, tries: int = 20000) -> Generated:
    """A random board with a planted solution; all pieces distinct under rotation and, unless
    ``symmetric``, none equal to its own rotation.  Frame colours are 1..F, inner F+1..F+I."""
    if rows < 2 or cols < 2:
        raise SatilingError("generated boards need at least 2 rows and 2 columns")
    if rows > MAX_BOARD_SIDE or cols > MAX_BOARD_SIDE:
        raise SatilingError(f"an instance file's board has at most {MAX_BOARD_SIDE} rows and columns")
    df, di = e2_like_colours(rows, cols)
    frame = df if frame_colours is None else frame_colours
    inner = di if inner_colours is None else inner_colours
    if frame < 1 or inner < 1:
        raise SatilingError("a board needs at least one frame colour and one inner colour")
    if frame + inner > MAX_COLOUR:
        raise SatilingError(f"{frame} frame + {inner} inner colours: an instance file numbers its "
                            f"colours up to {MAX_COLOUR}")
    _check_room(rows, cols, frame, inner, symmetric)
    rng = random.Random(seed)
    colours = _deal(rows, cols, frame, inner, rng, even)
    _make_distinct(rows, cols, colours, symmetric, rng, tries)
    pieces, planted = _cut(rows, cols, colours, rng)
    return Generated(rows, cols, frame, inner, seed, pieces, planted)


def _check_room(rows: int, cols: int, frame: int, inner: int, symmetric: bool) -> None:
    """Refuse colour counts too few for that many different pieces of each kind."""
    edges = 2 * (rows - 2) + 2 * (cols - 2)
    inners = (rows - 2) * (cols - 2)
    necklaces = (inner ** 4 + inner ** 2 + 2 * inner) // 4 if symmetric else (inner ** 4 - inner ** 2) // 4
    if frame * frame < 4 or frame * frame * inner < edges or necklaces < inners:
        raise SatilingError(f"{frame} frame + {inner} inner colours cannot make {rows * cols} "
                            "distinct pieces; use more colours")


# -- colouring the joins ---------------------------------------------------------------------
Joins = dict[tuple[tuple[int, int], int], int]     # (square, side E or S) -> colour


def _is_frame_join(rows: int, cols: int, a: tuple[int, int], side: int) -> bool:
    """A join along the rim: both squares on the same outer side of the board."""
    b = (a[0] + STEP[side][0], a[1] + STEP[side][1])
    if side == 1:      # E: a horizontal neighbour; along the top or bottom row
        return a[0] in (0, rows - 1) and b[0] == a[0]
    return a[1] in (0, cols - 1) and b[1] == a[1]


def _deal(rows: int, cols: int, frame: int, inner: int, rng: random.Random, even: bool) -> Joins:
    frame_joins, inner_joins = [], []
    for r in range(rows):
        for c in range(cols):
            for side, ok in ((1, c + 1 < cols), (2, r + 1 < rows)):
                if ok:
                    (frame_joins if _is_frame_join(rows, cols, (r, c), side) else inner_joins).append(((r, c), side))
    out: Joins = {}
    for joins, first, count in ((frame_joins, 1, frame), (inner_joins, frame + 1, inner)):
        if even:                     # every colour on as nearly the same number of joins as possible
            deck = [first + i % count for i in range(len(joins))]
            rng.shuffle(deck)
        else:                        # each join independently
            deck = [first + rng.randrange(count) for _ in joins]
        out.update(zip(joins, deck))
    return out


def _piece_at(rows: int, cols: int, colours: Joins, r: int, c: int) -> Edges:
    n = colours.get(((r - 1, c), 2), GREY) if r > 0 else GREY
    e = colours.get(((r, c), 1), GREY) if c + 1 < cols else GREY
    s = colours.get(((r, c), 2), GREY) if r + 1 < rows else GREY
    w = colours.get(((r, c - 1), 1), GREY) if c > 0 else GREY
    return (n, e, s, w)


class _Pieces:
    """The shape key of every square's piece, and whether the piece equals one of its own turns
    (unless ``symmetric`` allows that), kept as joins swap colours: a swap changes the pieces of
    the four squares on its two joins only, and a key costs four turns of a piece."""

    def __init__(self, rows: int, cols: int, colours: Joins, symmetric: bool) -> None:
        self.rows, self.cols, self.colours, self.symmetric = rows, cols, colours, symmetric
        self.keys: dict[tuple[int, int], Edges] = {}        # in row order, as the squares are read
        self.own_turn: dict[tuple[int, int], bool] = {}
        for r in range(rows):
            for c in range(cols):
                self._read((r, c))

    def _read(self, sq: tuple[int, int]) -> None:
        p = _piece_at(self.rows, self.cols, self.colours, *sq)
        self.keys[sq] = shape_key(p)
        self.own_turn[sq] = not self.symmetric and any(rotate(p, k) == p for k in (1, 2, 3))

    def changed(self, *joins: tuple[tuple[int, int], int]) -> None:
        """The joins' colours changed: read the pieces on both sides of each again."""
        for (r, c), side in joins:
            self._read((r, c))
            self._read((r + STEP[side][0], c + STEP[side][1]))

    def bad(self) -> list[tuple[int, int]]:
        """Squares whose piece equals another piece (both named, at each repeat), or one of its
        own turns, in row order."""
        seen: dict[Edges, tuple[int, int]] = {}
        bad = []
        for sq, key in self.keys.items():
            first = seen.setdefault(key, sq)
            if first != sq:
                bad.extend([first, sq])
            if self.own_turn[sq]:
                bad.append(sq)
        return bad


def _make_distinct(rows: int, cols: int, colours: Joins, symmetric: bool, rng: random.Random,
                   tries: int) -> None:
    """Swap the colours of two joins of the same kind (keeping the counts) until all pieces are
    distinct; keep a swap only when it does not add offending squares."""
    kinds: dict[bool, list] = {True: [], False: []}
    for (a, side) in colours:
        kinds[_is_frame_join(rows, cols, a, side)].append((a, side))
    pieces = _Pieces(rows, cols, colours, symmetric)
    bad = pieces.bad()
    for _ in range(tries):
        if not bad:
            return
        r, c = rng.choice(bad)
        mine = [((r, c), 1), ((r, c), 2), ((r - 1, c), 2), ((r, c - 1), 1)]
        mine = [j for j in mine if j in colours]
        j1 = rng.choice(mine)
        j2 = rng.choice(kinds[_is_frame_join(rows, cols, *j1)])
        colours[j1], colours[j2] = colours[j2], colours[j1]
        pieces.changed(j1, j2)
        new_bad = pieces.bad()
        if len(new_bad) <= len(bad):
            bad = new_bad
        else:
            colours[j1], colours[j2] = colours[j2], colours[j1]
            pieces.changed(j1, j2)
    raise SatilingError(f"could not make all {rows * cols} pieces distinct with these colour counts "
                        "(use more colours, or allow symmetric pieces)")


# -- cutting into pieces -----------------------------------------------------------------------
def _cut(rows: int, cols: int, colours: Joins, rng: random.Random) -> tuple[list[Edges], Board]:
    """Pieces in Eternity II order and the planted board (square -> piece id, rotation)."""
    groups: dict[int, list[tuple[tuple[int, int], Edges]]] = {2: [], 1: [], 0: []}
    for r in range(rows):
        for c in range(cols):
            on_board = _piece_at(rows, cols, colours, r, c)
            greys = sum(1 for x in on_board if x == GREY)
            groups[min(greys, 2)].append(((r, c), on_board))
    pieces: list[Edges] = []
    planted: Board = {}
    for greys in (2, 1, 0):
        members = groups[greys]
        rng.shuffle(members)
        for sq, on_board in members:
            turn = _listing_turn(on_board, rng)
            listed = rotate(on_board, turn)           # how the piece is written in the list
            pieces.append(listed)
            planted[sq] = (len(pieces), (4 - turn) % 4)   # turning it back gives the board
    return pieces, planted


def _listing_turn(on_board: Edges, rng: random.Random) -> int:
    """The turn that lists a frame piece grey-side down (corners: grey down and left), an inner
    piece at random."""
    for k in range(4):
        t = rotate(on_board, k)
        if t[S] == GREY and (t[W] == GREY) == (sum(1 for x in on_board if x == GREY) >= 2):
            return k
    return rng.randrange(4)


# -- instance files ---------------------------------------------------------------------------
def instance_toml(gen: Generated, command: str = "") -> str:
    """The generated puzzle as an instance file, the planted solution included."""
    from .board import board_text
    pz = gen.puzzle()
    lines = [
        f"# Generated by satiling{(' ' + command) if command else ''}.",
        f"# A random {gen.rows}x{gen.cols} edge-matching board with a planted solution ('planted',",
        "# piece/rotation per square, rows from the top). Colours: 0 grey border, "
        f"1-{gen.frame_colours} frame, {gen.frame_colours + 1}-{gen.frame_colours + gen.inner_colours} inner.",
        f'title = "{gen.title()}"',
        'source = "satiling generate-edgematch"',
        'family = "edgematch"',
        f"rows = {gen.rows}",
        f"cols = {gen.cols}",
        "pieces = [",
    ]
    lines += [f"  [{', '.join(map(str, p))}],   # {i}" for i, p in enumerate(gen.pieces, 1)]
    lines += ["]", 'planted = """', board_text(pz, gen.planted), '"""', ""]
    return "\n".join(lines)
