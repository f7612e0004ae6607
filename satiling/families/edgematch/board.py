"""Edge-matching boards as text: the ``piece/rotation`` grid that ``solve`` prints and ``score``
reads, the e2.bucas.name URL that Eternity II solvers use to share boards, JSON placements; and
the checks a board read from anywhere must pass.

Grid: one line per row of ``piece/rotation`` tokens, ``---/-`` (or ``.``) for an empty square,
``#`` comments (the ``.et2`` style).

URL (read from the viewer's source, jfbucas/eternityII-viewer, ``puzzle.js``):
``https://e2.bucas.name/#puzzle=NAME&board_w=W&board_h=H&board_edges=...&board_pieces=...`` where
``board_edges`` has four letters per square, row by row from the top left, in the order up, right,
down, left, ``a`` being grey and ``b``, ``c``, ... the colours 1, 2, ...; ``board_pieces`` has three
digits per square (the 1-based piece number, ``000`` for an empty square).  The viewer's default
motif order is the numbering of our Eternity II data (checked: the 256 pieces map onto the viewer's
built-in piece list with colour ``k`` -> letter ``chr(97 + k)``), so its pictures show the real
patterns and it recognises the puzzle.
"""
from __future__ import annotations

import re
from typing import Any, Iterable
from urllib.parse import parse_qs

from ...errors import SatilingError
from ..base import Puzzle          # an edge-matching puzzle (the class imports this module)
from .geometry import (GREY, Board, Square, Tile, canonical_rotation, distinct_rotations,
                                 rotate, row_name, shape_key, square_name)

BUCAS = "https://e2.bucas.name/#"
#: the viewer's other colour orders (``motifs_order=...``): the letter of each of our colours 0..22,
#: found by matching our 256 pieces against the viewer's piece list for that order (a unique match)
MOTIF_ORDERS = {"jblackwood": "abjrfncksgodlthpemuiqvw", "marie": "abjrfncksgodlthpemuiqvw"}


# -- writing boards ----------------------------------------------------------------------------
def board_text(puzzle: Any, board: dict) -> str:
    """One line per row of ``piece/rotation`` tokens (``---/-`` for an empty square), with a
    comment line of column numbers; :func:`satiling.families.edgematch.score.parse_board` reads it
    back."""
    width = max(3, len(str(len(puzzle.pieces))))
    cell = width + 2
    head = "# " + "".join(f"{c + 1:>{cell}}" for c in range(puzzle.cols))
    lines = [head]
    for r in range(puzzle.rows):
        toks = []
        for c in range(puzzle.cols):
            if (r, c) in board:
                p, rot = board[r, c]
                toks.append(f"{p:>{width}}/{rot}")
            else:
                toks.append(f"{'-' * width}/-")
        lines.append(" " + " ".join(toks) + f"   # {row_name(r)}")
    return "\n".join(lines)


def bucas_url(puzzle: Any, board: dict, name: str | None = None) -> str:
    """The e2.bucas.name viewer URL of a (partial) board."""
    top = max((x for p in puzzle.pieces for x in p), default=0)
    if top > 25:
        raise SatilingError("the e2.bucas.name viewer has letters for 25 colours only")
    letters, ids = [], []
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            if (r, c) in board:
                p, rot = board[r, c]
                letters.extend(chr(97 + x) for x in puzzle.edges(p, rot))
                ids.append(p)
            else:
                letters.append("aaaa")
                ids.append(0)
    label = re.sub(r"[^A-Za-z0-9_]+", "_", name or puzzle.name) or "satiling"
    url = (f"{BUCAS}puzzle={label}&board_w={puzzle.cols}&board_h={puzzle.rows}"
           f"&board_edges={''.join(letters)}")
    if len(puzzle.pieces) <= 999:
        url += "&board_pieces=" + "".join(f"{p:03d}" for p in ids)
    return url


# -- checking boards --------------------------------------------------------------------------
def check_board(puzzle: Puzzle, board: Board) -> None:
    """SatilingError unless every piece exists, is used at most once and sits on the board."""
    seen: dict[int, str] = {}
    for (r, c), (p, _) in sorted(board.items()):
        if not 1 <= p <= len(puzzle.pieces):
            raise SatilingError(f"square {square_name(r, c)}: {puzzle.name} has no piece {p}")
        if not (0 <= r < puzzle.rows and 0 <= c < puzzle.cols):
            raise SatilingError(f"piece {p}: square {square_name(r, c)} is off the board")
        if p in seen:
            raise SatilingError(f"piece {p} is on both {seen[p]} and {square_name(r, c)}")
        seen[p] = square_name(r, c)


def partial_board(puzzle: Puzzle, solution: Iterable[Any], model: bool = True) -> Board:
    """The board of a partial solution (decoded placements), checked from the pieces alone, not
    the encoding: no square holds two pieces, no piece is used twice, no fixed piece is displaced
    and, for a solver's ``model`` (every model places pieces as the frame allows), every piece is
    legal for its square (SatilingError otherwise).  A board given as a file (``model`` False) may
    turn a piece against the frame: it is drawn and scored as it is.  Compact-encoding tiles whose
    rotation the given join colours do not settle are left out of the board."""
    solution = list(solution)
    said = "contradictory model: " if model else ""
    on_square = _one_piece_per_square((t for t in solution if isinstance(t, Tile)), said)
    board = puzzle.board_from(solution, strict=False)       # checks piece numbers and squares
    turn = {sq: canonical_rotation(puzzle.pieces[p - 1], r) for sq, (p, r) in board.items()}
    for sq, piece in on_square.items() if model else ():
        legal = puzzle.legal_rotations(piece, sq)
        if not legal or turn.get(sq, legal[0]) not in legal:
            raise SatilingError(f"{said}piece {piece} does not fit the frame on {square_name(*sq)}")
    for t in puzzle.fixed:
        sq = (t.row, t.col)
        moved = any(p == t.piece and s != sq for s, p in on_square.items())
        if moved or on_square.get(sq, t.piece) != t.piece or turn.get(sq, t.rotation) != t.rotation:
            raise SatilingError(f"{said}fixed piece {t.piece} belongs on {t.square} at rotation {t.rotation}")
    return board


def _one_piece_per_square(tiles: Iterable[Tile], said: str) -> dict[Square, int]:
    """Square -> piece; SatilingError (starting with ``said``) when a square or a piece is used
    twice (checked before ``board_from``, whose own message names only the square)."""
    on_square: dict[Square, int] = {}
    square_of: dict[int, str] = {}
    for t in tiles:
        if (t.row, t.col) in on_square:
            raise SatilingError(f"{said}square {t.square} holds pieces {on_square[t.row, t.col]} and {t.piece}")
        if t.piece in square_of:
            raise SatilingError(f"{said}piece {t.piece} is on both {square_of[t.piece]} and {t.square}")
        on_square[t.row, t.col], square_of[t.piece] = t.piece, t.square
    return on_square


# -- reading boards --------------------------------------------------------------------------
def parse_board(puzzle: Puzzle, text: str) -> Board:
    """A board from token-grid text, an e2.bucas.name URL, or JSON placements.

    Lines starting with ``#`` are comments and are never read: ``solve`` prints the viewer URL of
    its board as such a comment, and an edited grid must score as the grid, not as the old URL."""
    stripped = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("#")).strip()
    if not stripped:
        raise SatilingError("the board is empty")
    if "board_edges=" in stripped:
        board = _from_url(puzzle, stripped)
    elif stripped[0] in "[{":
        board = _from_json(puzzle, stripped)
    else:
        board = _from_grid(puzzle, stripped)
    check_board(puzzle, board)
    return board


_EMPTY = {"---/-", ".", "-", "---"}
_TOKEN = re.compile(r"(\d{1,9})/(\d)")


def _from_grid(puzzle: Puzzle, text: str) -> Board:
    rows = [ln.split("#")[0].split() for ln in text.splitlines()]
    rows = [r for r in rows if r]
    if len(rows) != puzzle.rows or any(len(r) != puzzle.cols for r in rows):
        raise SatilingError(f"a board for {puzzle.name} is {puzzle.rows} lines of {puzzle.cols} "
                            "'piece/rotation' tokens ('---/-' for an empty square)")
    board: Board = {}
    for r, line in enumerate(rows):
        for c, tok in enumerate(line):
            if tok in _EMPTY:
                continue
            m = _TOKEN.fullmatch(tok)
            if not m or int(m.group(2)) > 3:
                raise SatilingError(f"square {square_name(r, c)}: {tok!r} is not 'piece/rotation' "
                                    "(rotation 0-3) or '---/-'")
            board[r, c] = (int(m.group(1)), int(m.group(2)))
    return board


def _from_json(puzzle: Puzzle, text: str) -> Board:
    from ...fileio import loads_json
    data = loads_json(text, "the board")
    if isinstance(data, dict):
        named = data.get("puzzle", puzzle.name)
        if named != puzzle.name:          # a board of another puzzle may fit this one by chance
            raise SatilingError(f"the board names puzzle {str(named)[:60]!r}, not {puzzle.name!r}: "
                                "a board of another puzzle")
        data = data.get("solution", data.get("placements"))
    if not isinstance(data, list):
        raise SatilingError("a JSON board is a list of placements (or {\"solution\": [...]})")
    from ...errors import VerificationError
    try:
        return puzzle.board_from(data, strict=False)
    except VerificationError as e:
        raise SatilingError(str(e)) from None


def _from_url(puzzle: Puzzle, text: str) -> Board:
    """Pieces from an e2.bucas.name URL: four letters per square (N E S W, 'a' = grey), row by row
    from the top left; piece numbers from ``board_pieces`` when given, else from the colours."""
    query = text.split("#", 1)[-1] if "#" in text else text.split("?", 1)[-1]
    params = {k: v[0] for k, v in parse_qs(query.replace("?", "&")).items()}
    w = int(params.get("board_w", puzzle.cols))
    h = int(params.get("board_h", puzzle.rows))
    edges = params.get("board_edges", "")
    if (h, w) != (puzzle.rows, puzzle.cols):
        raise SatilingError(f"the URL is for a {h}x{w} board, {puzzle.name} is {puzzle.rows}x{puzzle.cols}")
    if len(edges) != 4 * w * h or not edges.isalpha():
        raise SatilingError(f"board_edges must be {4 * w * h} letters (4 per square)")
    ids = params.get("board_pieces", "")
    ids_list = [int(ids[i:i + 3]) for i in range(0, len(ids), 3)] if len(ids) == 3 * w * h else None
    order = params.get("motifs_order")
    if order is not None:           # another colour numbering of the Eternity II palette
        if order not in MOTIF_ORDERS:
            raise SatilingError(f"unknown motifs_order {order!r} (known: {', '.join(MOTIF_ORDERS)})")
        ours = {letter: chr(97 + k) for k, letter in enumerate(MOTIF_ORDERS[order])}
        if any(ch not in ours for ch in edges):
            raise SatilingError(f"board_edges has a letter outside the {order} colour order")
        edges = "".join(ours[ch] for ch in edges)
    by_shape: dict[tuple, list[int]] = {}
    for p, e in enumerate(puzzle.pieces, 1):
        by_shape.setdefault(shape_key(e), []).append(p)
    board: Board = {}
    for s in range(w * h):
        colours = tuple(ord(ch) - 97 for ch in edges[4 * s:4 * s + 4].lower())
        if colours == (GREY,) * 4:
            continue
        sq = divmod(s, w)
        candidates = by_shape.get(shape_key(colours), [])
        if ids_list and ids_list[s] in candidates:
            p = ids_list[s]
        elif candidates:
            p = candidates.pop(0)      # equal pieces: any unused copy
        else:
            raise SatilingError(f"square {square_name(*sq)}: no piece of {puzzle.name} has the "
                                f"colours {edges[4 * s:4 * s + 4]}")
        if p in by_shape.get(shape_key(colours), []):
            by_shape[shape_key(colours)].remove(p)
        rot = next(r for r in distinct_rotations(puzzle.pieces[p - 1]) if rotate(puzzle.pieces[p - 1], r) == colours)
        board[sq] = (p, rot)
    return board
