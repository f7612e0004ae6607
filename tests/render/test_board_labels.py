"""An edge-matching board's picture names its squares as the text board, ``hint`` and the instance
files do: row letters beside the board, column numbers above it (and on the far sides of a long
board).  Each check reads the SVG as a viewer would: where a square is comes from the tiles drawn
on it (their triangles' corners), never from the renderer's constants."""
import re
import xml.etree.ElementTree as ET

import pytest

import satiling
from satiling.families.edgematch.generate import generate
from satiling.render import pictures
from satiling.render.edgematch_svg import board_svg, board_text
from satiling.render.pieces import placements_svg, puzzle_svg
from satiling.render.svg import text_width
from svgwalk import SVG, placed

TILE = re.compile(r"tile (\d+) on ([A-Z]+)(\d+), rotation \d: ")


def _drawn(svg: str) -> tuple[dict, list, list, tuple[float, float]]:
    """The outermost picture's view of ``svg``: each square with a tile, its box (x0, y0, x1, y1);
    every text as (class, text, x, centre y, font size); the orange frames as boxes; and the
    picture's width and height.  Nested pictures and translations are followed."""
    root = ET.fromstring(svg)
    squares: dict[str, list[float]] = {}
    texts, frames = [], []

    for tag, el, dx, dy in placed(root):
        if tag == "polygon" and el.find(f"{SVG}title") is not None:
            said = TILE.match(el.find(f"{SVG}title").text)
            if said:
                pts = [tuple(map(float, p.split(","))) for p in el.get("points").split()]
                box = squares.setdefault(said.group(2) + said.group(3), [1e9, 1e9, -1e9, -1e9])
                for x, y in pts:
                    box[:] = [min(box[0], x + dx), min(box[1], y + dy), max(box[2], x + dx), max(box[3], y + dy)]
        if tag == "text":
            size = float(el.get("font-size"))
            y = float(el.get("y")) + dy
            # the y of a text is its baseline unless it says it is its middle
            middle = y if el.get("dominant-baseline") == "central" else y - 0.35 * size
            texts.append((el.get("class"), el.text, float(el.get("x")) + dx, middle, size))
        if tag == "rect" and el.get("class") == "marked":
            x, y = float(el.get("x")) + dx, float(el.get("y")) + dy
            frames.append((x, y, x + float(el.get("width")), y + float(el.get("height"))))
    return ({k: tuple(v) for k, v in squares.items()}, texts, frames,
            (float(root.get("width")), float(root.get("height"))))


def _labels_of(svg: str, square: str) -> tuple[list[str], list[str]]:
    """The labels in the row of ``square`` outside the board (left and right of its tiles' span)
    and in its column (above and below), each checked to sit on the square's row or column
    middle."""
    squares, texts, _, _ = _drawn(svg)
    x0, y0, x1, y1 = squares[square]
    left = min(b[0] for b in squares.values())
    right = max(b[2] for b in squares.values())
    top = min(b[1] for b in squares.values())
    bottom = max(b[3] for b in squares.values())
    labels = [(t, x, y) for kind, t, x, y, _ in texts if kind in ("row-label", "col-label")]
    in_row = [(t, x, y) for t, x, y in labels if y0 < y < y1 and not left <= x <= right]
    in_col = [(t, x, y) for t, x, y in labels if x0 < x < x1 and not top <= y <= bottom]
    for _, _, y in in_row:
        assert abs(y - (y0 + y1) / 2) < 0.5, (square, y, y0, y1)
    for _, x, _ in in_col:
        assert abs(x - (x0 + x1) / 2) < 0.5, (square, x, x0, x1)
    return [t for t, _, _ in in_row], [t for t, _, _ in in_col]


def _eternity_clues() -> tuple:
    """Eternity II with its starter piece and the four clue pieces on their squares."""
    puzzle = satiling.load("eternity2")
    return puzzle, list(puzzle.pins()) + list(puzzle.hints)


def test_eternity_iis_starter_square_i8_is_named_by_its_row_and_column():
    puzzle, _ = _eternity_clues()
    svg = puzzle_svg(puzzle)                    # satiling show --svg: the board above the tiles
    rows, cols = _labels_of(svg, "I8")
    assert rows == ["I", "I"] and cols == ["8", "8"], (rows, cols)      # 16 squares: both sides


@pytest.mark.parametrize("square", ["I8", "C3", "C14", "N3", "N14"])
def test_eternity_iis_clue_squares_are_named_by_their_rows_and_columns(square):
    puzzle, tiles = _eternity_clues()
    svg = pictures.solution_svg(puzzle, tiles)
    letters, digits = re.fullmatch(r"([A-Z]+)(\d+)", square).groups()
    assert _labels_of(svg, square) == ([letters] * 2, [digits] * 2)


def test_a_non_square_board_has_a_label_on_every_row_and_column():
    """A generated 4x7 board, solved as planted: each of its 28 squares is named beside and
    above it (7 and 4 squares: the labels on one side only)."""
    made = generate(4, 7, seed=3)
    puzzle = made.puzzle()
    svg = board_svg(puzzle, made.planted)
    squares, texts, _, (width, height) = _drawn(svg)
    assert len(squares) == 28
    for r in range(4):
        for c in range(7):
            name = f"{'ABCD'[r]}{c + 1}"
            assert _labels_of(svg, name) == ([name[0]], [name[1:]]), name
    labels = [t for t in texts if t[0] in ("row-label", "col-label")]
    assert sorted(t[1] for t in labels) == sorted([*"ABCD", *map(str, range(1, 8))])
    # outside the board, inside the picture, and none over another
    box = (min(b[0] for b in squares.values()), min(b[1] for b in squares.values()),
           max(b[2] for b in squares.values()), max(b[3] for b in squares.values()))
    drawn = [_box(t) for t in labels]
    for (a0, b0, a1, b1), t in zip(drawn, labels):
        assert a1 <= box[0] or a0 >= box[2] or b1 <= box[1] or b0 >= box[3], t
        assert 0 <= a0 and a1 <= width and 0 <= b0 and b1 <= height, t
    assert not any(_overlap(p, q) for i, p in enumerate(drawn) for q in drawn[i + 1:])
    caption = [t for t in texts if t[0] == "caption"]
    assert caption and min(t[3] for t in caption) > box[3]                   # under the board


def _box(text: tuple) -> tuple[float, float, float, float]:
    _, t, x, y, size = text
    half = text_width(t, size) / 2
    return (x - half, y - 0.5 * size, x + half, y + 0.5 * size)


def _overlap(p: tuple, q: tuple) -> bool:
    return p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]


def test_rows_beyond_z_are_named_as_the_text_board_and_hint_name_them():
    """A 30-row board: rows 27 to 30 are AA to AD, the names ``satiling solve`` writes after its
    rows and ``hint`` reads."""
    made = generate(30, 3, seed=1)
    puzzle = made.puzzle()
    svg = board_svg(puzzle, made.planted)
    written = [line.rsplit("# ", 1)[1] for line in board_text(puzzle, made.planted).splitlines()[1:]]
    assert written[26:] == ["AA", "AB", "AC", "AD"]
    for r, name in enumerate(written):
        rows, cols = _labels_of(svg, f"{name}2")
        assert rows == [name] and cols == ["2", "2"], (r, rows, cols)     # 30 rows: numbers at both ends


def test_the_hints_orange_frame_is_on_the_hinted_square():
    """``satiling hint clue1 --svg``'s picture: the frame lands on the tile the hint placed, whose
    square the labels name as ``hint`` does."""
    puzzle = satiling.load("clue1")
    tile = puzzle.hint(seed=0)
    svg = placements_svg(puzzle, [*puzzle.pins(), tile], marked=[tile])
    squares, _, frames, _ = _drawn(svg)
    name = tile.square          # C5: the hint's own name for it
    assert frames == [squares[name]], (frames, squares[name])
    assert _labels_of(svg, name) == ([name[0]], [name[1:]])


def test_a_board_drawn_too_small_for_its_labels_has_none():
    """At 10 px a square the labels would be 4 px high: none drawn, and no room kept for them."""
    made = generate(4, 7, seed=3)
    puzzle = made.puzzle()
    small = board_svg(puzzle, made.planted, scale=10.0, caption="")
    _, texts, _, (width, _) = _drawn(small)
    assert not [t for t in texts if t[0] in ("row-label", "col-label")]
    squares, _, _, _ = _drawn(small)
    board = max(b[2] for b in squares.values()) - min(b[0] for b in squares.values())
    assert board == pytest.approx(70) and width < board + 10       # a quarter square's margin each side
