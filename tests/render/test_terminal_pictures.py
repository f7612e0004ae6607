"""Terminal pictures keep the board's shape (a square is two characters wide in colour, one in
plain text so the picture reads back as an instance's ASCII art), and IQ-Link's has a legend."""
import re

import satiling
from satiling.render import to_text
from satiling.render.text import polyform_text

ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def test_a_square_is_two_characters_in_colour_and_one_in_plain_text():
    puzzle = satiling.load("pentomino-6x10")
    solution = list(puzzle.solve())
    plain = polyform_text(puzzle, solution).splitlines()
    coloured = [ESCAPE.sub("", line) for line in polyform_text(puzzle, solution, "256").splitlines()]
    assert [len(line) for line in plain] == [10] * 6
    assert [len(line.rstrip()) for line in coloured] == [19] * 6       # "A " ten times, trimmed
    assert [line[::2] for line in coloured] == plain                  # the same letters


def test_the_iqlink_picture_has_a_legend():
    puzzle = satiling.load("iqlink-wizard")
    text = to_text(puzzle, list(puzzle.solve()))
    assert "legend:" in text and "upper case" in text and "lower case" in text
