"""SVG text never clips: every renderer makes its picture wide enough for its captions and labels
(the widths are upper bounds for the usual sans-serif fonts), breaking a caption into lines
where the picture is narrow.  Before, the edge-matching caption "ue1: score 60/60 (36 of 36
squares filled)" ran past the edges of a 6x6 board's picture."""
import re
import xml.etree.ElementTree as ET

import pytest

import satiling
from satiling.render import pictures
from satiling.render.edgematch_svg import board_svg, tiles_svg
from satiling.render.iqlink_svg import challenge_svg, solution_svg as iqlink_svg
from satiling.render.pieces import pieces_svg, puzzle_svg
from satiling.render.svg import text_width, wrap_text
from svgwalk import SVG, placed

LONG = "a-puzzle-whose-name-is-far-wider-than-its-board"


def _texts(svg: str) -> tuple[float, float, list[tuple[str, float, float, float]]]:
    """The picture's width and height, and each text's (text, left, right, baseline) in the
    outermost picture's units (translations and nested pictures followed)."""
    root = ET.fromstring(svg)
    out = []

    for tag, el, dx, dy in placed(root):
        if tag == "text":
            x, y, size = float(el.get("x")) + dx, float(el.get("y")) + dy, float(el.get("font-size"))
            w = text_width(el.text, size)
            left = {"middle": x - w / 2, "end": x - w}.get(el.get("text-anchor"), x)
            out.append((el.text, left, left + w, y))
    return float(root.get("width")), float(root.get("height")), out


def _fits(svg: str) -> list[str]:
    width, height, texts = _texts(svg)
    assert texts, "a picture with no text checks nothing"
    for text, left, right, y in texts:
        # the width and height written are rounded to whole units
        assert left >= -0.5 and right <= width + 0.5, (text, left, right, width)
        assert 0 <= y <= height + 0.5, (text, y, height)
    return [t for t, *_ in texts]


def test_the_edge_matching_caption_that_was_cut_off_fits():
    puzzle = satiling.load("clue1")
    caption = "ue1: score 60/60 (36 of 36 squares filled)"
    svg = board_svg(puzzle, {}, caption=caption)
    width, _, texts = _texts(svg)
    assert width < text_width(caption, 0.33 * 40) + 20   # too narrow for one line: broken
    drawn = ET.fromstring(svg)
    said = {t.text for t in drawn.iter(f"{SVG}text") if t.get("class") in ("tile-number", "row-label", "col-label")}
    assert " ".join(t for t, *_ in texts if t not in said) == caption
    _fits(svg)


def test_a_long_named_edge_matching_board_is_as_wide_as_its_caption():
    puzzle = satiling.EdgeMatching(1, 2, [[0, 1, 0, 0], [0, 0, 0, 1]], name=LONG)
    svg = pictures.solution_svg(puzzle, [])
    width, _, texts = _texts(svg)
    assert width >= text_width(LONG + ":", 0.33 * 40)     # the one word that cannot be broken
    assert any(t.startswith(LONG) for t, *_ in texts)
    _fits(svg)
    _fits(tiles_svg(puzzle))


def test_a_solved_edge_matching_board_fits_its_score():
    puzzle = satiling.load("clue1")
    _fits(pictures.solution_svg(puzzle, puzzle.solve()))


def test_a_long_named_iqlink_challenge_is_as_wide_as_its_caption():
    puzzle = satiling.IQLink(["TFI"], name=LONG + "-and-longer-still-than-that")
    for svg in (challenge_svg(puzzle), iqlink_svg(puzzle, list(puzzle.placed))):
        width, _, _ = _texts(svg)
        assert width >= text_width(puzzle.name + ":", 0.3 * 60)
        _fits(svg)


def test_a_long_piece_name_fits_the_solution_and_the_pieces_pictures():
    name = "a-piece-with-a-long-name"
    puzzle = satiling.Polyform(["#"], {name: "#"})
    svg = pictures.solution_svg(puzzle, puzzle.solve())
    width, _, _ = _texts(svg)
    assert width >= text_width(name, 40 * 0.45 / 3)     # its label at the smallest size
    assert _fits(svg) == [name]
    assert _fits(pieces_svg(puzzle)) == [name]
    _fits(puzzle_svg(puzzle))


@pytest.mark.parametrize("name", ["soma-cube", "pentomino-6x10", "hexiamond-6x6", "serenity"])
def test_bundled_pictures_keep_their_text_inside(name):
    puzzle = satiling.load(name)
    _fits(puzzle_svg(puzzle))


def test_widths_are_upper_bounds_of_the_fonts_metrics():
    # advance widths in the fonts' hmtx tables (2048 units an em): DejaVu Sans 'W' 2025 and 'm'
    # 1995, its bold 'W' 2259 and 'm' 2134; Liberation Sans (Arial's metrics) 'W' 1933, bold 'm' 1821
    for ch, widest in (("W", 2259), ("m", 2134), ("%", 2052)):
        assert text_width(ch, 2048) >= widest
    # the caption that was cut off is wider than the 260 units of a 6x6 board's picture
    assert text_width("ue1: score 60/60 (36 of 36 squares filled)", 0.33 * 40) > 260


def test_wrapping_keeps_every_word_and_fits_where_words_allow():
    text = "clue1: score 60/60 (36 of 36 squares filled)"
    lines = wrap_text(text, 10, 120)
    assert " ".join(lines) == text and len(lines) > 1
    assert all(text_width(line, 10) <= 120 for line in lines)
    assert wrap_text(LONG, 10, 5) == [LONG]


def test_an_iqlink_puzzle_is_captioned_by_its_title(tmp_path):
    """A puzzle of one's own is named by its title, not by the file or upload id it came in."""
    from pathlib import Path
    bundled = Path(satiling.__file__).parents[1] / "instances" / "iqlink-wizard.toml"
    text = re.sub(r'(?m)^title = .*$', 'title = "Sunday\'s challenge"', bundled.read_text())
    path = tmp_path / "i-0a5fb29a52ad.toml"
    path.write_text(text)
    puzzle = satiling.load(str(path))
    solution = puzzle.solve()
    for svg in (iqlink_svg(puzzle, solution), challenge_svg(puzzle)):
        captions = [t[0] for t in _texts(svg)[2]]
        assert any(c.startswith("Sunday's challenge: ") for c in captions), captions
        assert not any("i-0a5fb29a52ad" in c for c in captions), captions


#: the kinds of text a picture carries, by class: what the web page tells apart to keep each
#: readable (a caption's words said under the picture, a piece's name in its title)
TEXT_CLASSES = {"caption", "part-caption", "label", "tile-number", "row-label", "col-label"}


@pytest.mark.parametrize("name", ["eternity2", "clue1", "iqlink-wizard", "pentomino-6x10", "soma-cube", "eternity"])
def test_every_text_of_a_puzzles_picture_says_its_kind(name):
    root = ET.fromstring(puzzle_svg(satiling.load(name)))
    kinds = [t.get("class") for t in root.iter(f"{SVG}text")]
    assert kinds and set(kinds) <= TEXT_CLASSES, set(kinds) - TEXT_CLASSES


def test_a_solid_piece_is_drawn_as_one_block():
    """The Soma cube's tray drew each piece's layers side by side, unnamed: piece A read as an L
    and a stray square. Each piece is one group now, named by its title, of its faces in 3-D."""
    puzzle = satiling.load("soma-cube")
    root = ET.fromstring(pieces_svg(puzzle))
    groups = {g.find(f"{SVG}title").text: g.findall(f"{SVG}polygon") for g in root.iter(f"{SVG}g")}
    assert sorted(groups) == sorted("VLTZABP")
    sizes = {p.name: len(p.shape) for p in puzzle.pieces}
    for piece, faces in groups.items():
        assert all(f.get("class") == "iso" for f in faces)
        # a cube's top, front and right side, less one for each neighbour there: 3n - (n - 1)
        # faces for Soma's pieces, each a tree of n cubes
        assert len(faces) == 2 * sizes[piece] + 1, (piece, len(faces))
    assert "layer" not in "".join(t.text for t in root.iter(f"{SVG}text"))
