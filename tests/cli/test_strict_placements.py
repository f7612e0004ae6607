"""A solution file is read exactly as written: an unknown key, a square written 'a1', 'A01' or
' A1 ' is an error naming it (exit 2), never a placement guessed; a piece named "" is refused."""
import json

import pytest

from clirun import run_cli

BOARD = """family = "edgematch"
rows = 2
cols = 2
pieces = [[0, 100, 60, 0], [0, 0, 70, 100], [60, 80, 0, 0], [70, 0, 0, 80]]
"""


@pytest.fixture
def solved(tmp_path):
    (tmp_path / "b.toml").write_text(BOARD)
    result = run_cli("solve", "b.toml", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return tmp_path, json.loads(result.stdout)


def test_the_solution_as_written_verifies(solved):
    folder, line = solved
    (folder / "s.json").write_text(json.dumps(line))
    assert run_cli("verify", "b.toml", "s.json", cwd=folder).returncode == 0


@pytest.mark.parametrize("change", [
    {"square": "a1"}, {"square": "A01"}, {"square": " A1 "}, {"x": 1}, {"square": 11},
], ids=["lower", "leading-zero", "spaces", "unknown-key", "number"])
def test_a_misspelt_placement_is_refused(solved, change):
    folder, line = solved
    first = next(p for p in line["placements"] if p["square"] == "A1")
    first.update(change)
    (folder / "s.json").write_text(json.dumps(line))
    result = run_cli("verify", "b.toml", "s.json", cwd=folder)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_polyform_placement_with_an_unknown_key_is_refused(tmp_path):
    result = run_cli("solve", "pentomino-3x20", "--json", cwd=tmp_path)
    line = json.loads(result.stdout)
    line["placements"][0]["colour"] = "red"
    (tmp_path / "s.json").write_text(json.dumps(line))
    result = run_cli("verify", "pentomino-3x20", "s.json", cwd=tmp_path)
    assert result.returncode == 2 and "unknown key 'colour'" in result.stderr


def test_a_piece_named_nothing_is_refused(tmp_path):
    (tmp_path / "e.toml").write_text('family = "polyform"\n[region]\nrows = 1\ncols = 2\n'
                                     '[[piece]]\nname = ""\nascii = "##"\n')
    result = run_cli("solve", "e.toml", cwd=tmp_path)
    assert result.returncode == 2 and "name" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("command", ["verify", "render"])
def test_a_solution_line_with_an_unknown_key_is_refused(solved, command):
    """As an unknown key in a placement: a misspelt or foreign key at the top is one line, exit 2."""
    folder, line = solved
    line["score"] = 4
    (folder / "s.json").write_text(json.dumps(line))
    result = run_cli(command, "b.toml", "s.json", cwd=folder)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        "satiling: error: s.json: line 1 has the unknown key 'score' (a solution line has "
        "'puzzle' and 'placements')"]
