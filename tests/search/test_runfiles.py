"""Reading a solutions file for a resume: a line as satiling writes it is cut into its placements'
objects, each read once per file; any other line is read whole as JSON.  Both readings must give
the same placements, and a line that only looks cut cleanly (a piece named with the text where two
objects meet) must be read whole."""
import itertools
import json

import pytest

import satiling
from satiling.run import Request
from satiling.limits import NO_DEADLINE
from satiling.run.tasks import _run_of
from satiling.search.runfiles import _Placements, _solution_vars, solution_json
from satiling.errors import SatilingError

ODD = """family = "polyform"
lattice = "square"
title = "pieces with awkward names"
[region]
ascii = \"\"\"
######
######
\"\"\"
[[piece]]
name = '},{'
cells = [[0, 0], [0, 1], [0, 2]]
[[piece]]
name = 'a"},{"b'
cells = [[0, 0], [0, 1], [1, 0]]
[[piece]]
name = "L"
cells = [[0, 0], [1, 0], [1, 1]]
[[piece]]
name = "I2"
cells = [[0, 0], [0, 1]]
[[piece]]
name = "O1"
cells = [[0, 0]]
"""


def _space(puzzle):
    return _run_of(Request(puzzle, "enumerate", raw=True), None, NO_DEADLINE).space


@pytest.mark.parametrize("name", ["pentomino-3x20", "clue1", "odd"])
def test_cut_and_whole_readings_agree(name, tmp_path):
    if name == "odd":
        path = tmp_path / "odd.toml"
        path.write_text(ODD)
        name = str(path)
    puzzle = satiling.load(name)
    space = _space(puzzle)
    reader = _Placements(space)
    solutions = list(itertools.islice(puzzle.solutions(raw=True), 4))
    assert solutions
    for sol in solutions:
        line = solution_json(puzzle, sol)
        spaced = json.dumps(json.loads(line))            # the same JSON, not as satiling writes it
        want = _solution_vars(space, reader.var_of, line, "here")
        assert reader.vars(line, "here") == want == reader.vars(spaced, "here")
        assert {space.problem.meanings[v] for v in want} == set(sol)


def test_a_placement_the_model_lacks_is_refused_either_way(tmp_path):
    puzzle = satiling.load("pentomino-3x20")
    space = _space(puzzle)
    line = solution_json(puzzle, puzzle.solve())
    moved = line.replace('"cells":[[0,', '"cells":[[7,', 1)
    for text in (moved, json.dumps(json.loads(moved))):
        with pytest.raises(SatilingError, match="is not a solution of pentomino-3x20"):
            _Placements(space).vars(text, "here")


def test_verify_reads_a_file_as_satiling_writes_it_and_any_other_alike(tmp_path):
    from satiling.commands.common import read_solutions
    puzzle = satiling.load("pentomino-3x20")
    lines = [solution_json(puzzle, s) for s in itertools.islice(puzzle.solutions(raw=True), 4)]
    (tmp_path / "cut.jsonl").write_text("".join(line + "\n" for line in lines))
    (tmp_path / "whole.jsonl").write_text("".join(json.dumps(json.loads(line)) + "\r\n" for line in lines))
    cut = list(read_solutions(puzzle, str(tmp_path / "cut.jsonl")))
    assert cut == list(read_solutions(puzzle, str(tmp_path / "whole.jsonl"))) and len(cut) == 4
    other = lines[0].replace('"puzzle":"pentomino-3x20"', '"puzzle":"pentomino-6x10"')
    (tmp_path / "other.jsonl").write_text(other + "\n")
    with pytest.raises(SatilingError, match="a file of another puzzle"):
        list(read_solutions(puzzle, str(tmp_path / "other.jsonl")))
