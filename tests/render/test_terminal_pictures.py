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


def test_solve_shows_its_time_on_a_terminal_and_nothing_in_a_pipe(tmp_path):
    """A solver's search has no measure of its own: a terminal sees the seconds go by."""
    import os
    import subprocess
    import sys
    script = ("import fcntl, os, pty, struct, subprocess, sys, termios\n"
              "m, s = pty.openpty()\n"
              "fcntl.ioctl(s, termios.TIOCSWINSZ, struct.pack('HHHH', 40, 120, 0, 0))\n"
              "p = subprocess.Popen([sys.executable, '-m', 'satiling.cli', 'solve', 'eternity2',"
              " '--engine', 'sat', '--time-limit', '1.5'], stdout=subprocess.DEVNULL, stderr=s)\n"
              "os.close(s)\n"
              "out = b''\n"
              "while True:\n"
              "    try:\n"
              "        d = os.read(m, 4096)\n"
              "    except OSError:\n"
              "        break\n"
              "    if not d:\n"
              "        break\n"
              "    out += d\n"
              "p.wait()\n"
              "sys.stdout.write(out.decode())\n")
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           timeout=120, env={**os.environ, "NO_COLOR": "1"}).stdout
    assert "solving eternity2: 00:0" in shown and "no answer within the time limit" in shown
    piped = subprocess.run([sys.executable, "-m", "satiling.cli", "solve", "eternity2", "--engine",
                            "sat", "--time-limit", "0.3"], capture_output=True, text=True, timeout=120)
    assert "solving" not in piped.stderr and piped.returncode == 3


def test_pieces_named_dot_or_space_do_not_draw_as_holes():
    """'.' draws an empty cell and a space a cell off the board: pieces with those names get
    letters of their own, and the legend quotes a name with a space in it."""
    puzzle = satiling.Polyform((1, 6), [{"name": ".", "cells": [[0, 0], [0, 1]]},
                                        {"name": " ", "cells": [[0, 0], [0, 1]]},
                                        {"name": "a b", "cells": [[0, 0], [0, 1]]}])
    text = satiling.render.to_text(puzzle, puzzle.solve())
    board, legend = text.split("\n")[0], text.split("legend:")[1]
    assert len(board) == 6 and "." not in board and " " not in board
    assert "=." in legend and "=' '" in legend and "='a b'" in legend
