"""The Eternity II workflow of the README in one piece: a board that ``solve`` (or
``--maximize-matches``) prints is read back by ``score`` and by ``render``, whose SVG carries the
score; ``decode`` of an answerless solver output answers at once."""
from __future__ import annotations

import re


def board_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if re.match(r"\s+\d+/\d", ln)]


def test_render_reads_the_board_that_solve_prints(cli, tmp_path):
    board = tmp_path / "board.txt"
    board.write_text(cli("solve", "clue1").stdout)
    scored = cli("score", "clue1", str(board))
    svg = tmp_path / "board.svg"
    drawn = cli("render", "clue1", str(board), "--svg", str(svg))
    assert scored.returncode == 0 and drawn.returncode == 0, drawn.stderr
    assert "score 60/60" in scored.stdout and "score 60/60" in drawn.stdout
    assert "score 60/60" in svg.read_text()


def test_a_board_with_broken_joins_is_drawn_with_its_score(cli, tmp_path):
    """Two squares' pieces swapped: a full board that breaks joins; the score counts them, and
    render says "not solved" with exit 1, as for a partial board."""
    text = cli("solve", "clue1").stdout
    rows = board_lines(text)
    cells = rows[2].split()
    cells[1], cells[2] = cells[2], cells[1]
    rows[2] = "  " + "  ".join(cells[:6]) + "   # C"
    out = "\n".join(rows[:2] + [rows[2]] + rows[3:]) + "\n"
    board = tmp_path / "swapped.txt"
    board.write_text(out)
    scored = cli("score", "clue1", str(board))
    svg = tmp_path / "swapped.svg"
    drawn = cli("render", "clue1", str(board), "--svg", str(svg))
    score = re.search(r"score (\d+)/60", scored.stdout).group(0)
    assert score != "score 60/60"
    assert drawn.returncode == 1 and score in drawn.stdout and score in svg.read_text()


def test_decode_of_an_answerless_output_needs_no_model(cli, tmp_path):
    """'s UNKNOWN' without a model: no answer (exit 3), without building Eternity II's formula
    (the only work is reading the file: the test would take tens of seconds otherwise)."""
    out = tmp_path / "e2.out"
    out.write_text("c the solver stopped\ns UNKNOWN\n")
    r = cli("decode", "eternity2", str(out))
    assert r.returncode == 3 and "no answer" in r.stderr
    out.write_text("s UNSATISFIABLE\n")
    r = cli("decode", "eternity2", str(out))
    assert r.returncode == 1 and r.stdout.strip() == "no solution"


def test_maximising_without_a_limit_runs_until_ctrl_c(tmp_path):
    """No --time-limit: the search goes on until Ctrl-C, then prints its best board (exit 130),
    which score reads back."""
    import signal
    import subprocess
    import sys
    import re
    p = subprocess.Popen([sys.executable, "-m", "satiling.cli", "solve", "eternity2", "--maximize-matches"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    for line in p.stderr:                          # wait for a first board ("score 441/480 ...")
        if re.search(r"score \d+/480", line):
            break
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=120)
    assert p.returncode == 130
    board = tmp_path / "best.txt"
    board.write_text(out)
    from satiling import catalog
    from satiling.families.edgematch.score import parse_board, score
    puzzle = catalog.load("eternity2")
    assert score(puzzle, parse_board(puzzle, out)).placed == 256


def test_solve_with_a_seed_is_reproducible(cli):
    """--seed randomises the backtracker's value orders with restarts: the same seed, the same
    board (verified before it is printed); another seed may find another."""
    first, again = cli("solve", "clue1", "--seed", "3"), cli("solve", "clue1", "--seed", "3")
    assert first.returncode == again.returncode == 0
    assert first.stdout == again.stdout
    assert cli("solve", "clue1", "--seed", "3", "--json").returncode == 0
