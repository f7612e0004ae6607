"""The four wrong answers an audit found against brute force, each re-tried on its own instance.

The expected numbers come from :mod:`brute` (plain backtracking over the pieces' geometry or
colours, no model and no engine), not from satiling.
"""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

import brute
from satiling.cli import main

TWO_DOMINOES_IN_AN_L = """\
# two free dominoes in an L of three cells, cells and pieces both optional: the empty packing and
# one domino in each of its two places, for each domino
[rules]
cells = "at-most"
pieces = "at-most"

[region]
ascii = '''
#.
##
'''

[[piece]]
name = "A"
ascii = "##"

[[piece]]
name = "B"
ascii = "##"
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def counted(*argv: str) -> tuple[int, int | None]:
    code, out, err = run("count", *argv, "--quiet")
    assert code in (0, 1), err
    m = re.search(r"(\d+) solutions? in (\d+) symmetry class(?:es)?", err)
    return int(out.split()[0]), int(m.group(2)) if m else None


def generated(tmp_path: Path, *argv: str) -> tuple[Path, dict]:
    code, out, err = run("generate-edgematch", *argv)
    assert code == 0, err
    path = tmp_path / "board.toml"
    path.write_text(out)
    import tomllib
    return path, tomllib.loads(out)


@pytest.mark.parametrize("engine", [("walk",), ("cpsat",), ("sat", "--solver", "cadical195"),
                                    ("sat", "--solver", "glucose4"), ("sat", "--solver", "kissat404")])
def test_sat_keeps_packings_that_contain_others(tmp_path: Path, engine: tuple[str, ...]) -> None:
    """1: the incremental SAT count blocked a packing by its placed pieces only (so every packing
    holding it was lost too), and its selector variable could be a placement's own number."""
    path = tmp_path / "l.toml"
    path.write_text(TWO_DOMINOES_IN_AN_L)
    from satiling import catalog
    want = len(brute.polyform_solutions(catalog.load(str(path))))
    assert want == 5
    assert counted(str(path), "--raw", "--engine", *engine)[0] == want


def test_fix_corner_raw_counts_every_solution(tmp_path: Path) -> None:
    """2: ``--fix-corner --raw`` printed the number of classes as the raw count."""
    path, data = generated(tmp_path, "4", "4", "--seed", "1")
    raw, classes = brute.edge_answer(data, hints=False)
    assert raw == 4 * classes > 0
    assert counted(str(path), "--raw", "--fix-corner") == (raw, classes)
    assert counted(str(path), "--fix-corner") == (classes, None)


def test_colours_numbered_above_48(tmp_path: Path) -> None:
    """3: colours numbered above 48 crashed the backtracker (the table was sized by the largest
    colour number, not by how many colours there are)."""
    path, data = generated(tmp_path, "4", "4", "--frame-colours", "60", "--inner-colours", "5",
                           "--seed", "1")
    assert max(x for p in data["pieces"] for x in p) > 48
    raw, classes = brute.edge_answer(data, hints=False)
    code, out, err = run("solve", str(path))
    assert code == 0 and "solved by backtrack" in err
    assert counted(str(path), "--raw") == (raw, classes)
    assert counted(str(path), "--raw", "--engine", "sat") == (raw, classes)


def test_generator_writes_only_files_satiling_reads(tmp_path: Path) -> None:
    code, _, err = run("generate-edgematch", "4", "4", "--frame-colours", "9000",
                       "--inner-colours", "1001")
    assert code == 2 and err.count("\n") == 1 and "10000" in err


@pytest.mark.parametrize("fix_corner", [(), ("--fix-corner",)])
def test_compact_encoding_raw_count(tmp_path: Path, fix_corner: tuple[str, ...]) -> None:
    """4: the board's turns moved the tiles but not the compact encoding's join colours, so
    ``--encoding compact --raw`` refused its own solutions."""
    path, data = generated(tmp_path, "4", "4", "--seed", "1")
    raw, classes = brute.edge_answer(data, hints=False)
    assert counted(str(path), "--raw", "--encoding", "compact", *fix_corner) == (raw, classes)
    assert counted(str(path), "--encoding", "compact", *fix_corner)[0] == classes


# -- crashes that are now answers or one line ----------------------------------------------------
@pytest.mark.parametrize("lattice, region", [
    ("square", 'rows = 1\ncols = 8\ntopology = "torus"'),
    ("square", 'rows = 2\ncols = 1\ntopology = "cylinder"'),
    ("hexagon", 'parallelogram = [1, 6]\ntopology = "torus"'),
])
@pytest.mark.parametrize("engine", ["walk", "sat"])
def test_a_wrapped_side_of_length_one(tmp_path: Path, lattice: str, region: str, engine: str) -> None:
    """A wrapped side of length 1 made a cell its own neighbour: count and enumerate crashed."""
    path = tmp_path / "wrapped.toml"
    path.write_text(f'lattice = "{lattice}"\n[rules]\ncells = "at-most"\npieces = "at-most"\n'
                    f'[region]\n{region}\n[[piece]]\nname = "D"\ncells = [[0, 0], [0, 1]]\ncount = 2\n')
    from satiling import catalog
    puzzle = catalog.load(str(path))
    sols = brute.polyform_solutions(puzzle)
    assert counted(str(path), "--raw", "--engine", engine) == (len(sols), brute.polyform_classes(puzzle, sols))
    code, out, err = run("enumerate", str(path), "--raw", "--quiet", "--engine", engine)
    assert code == 0 and len(out.splitlines()) == len(sols)


def test_the_walk_on_a_model_it_cannot_take_is_one_line(tmp_path: Path) -> None:
    path, _ = generated(tmp_path, "3", "3", "--seed", "2")
    code, out, err = run("count", str(path), "--engine", "walk")
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("satiling: error:")


# -- found by the slow set -----------------------------------------------------------------------
def test_a_degenerate_wrapped_board_counts_classes_of_its_whole_group(tmp_path: Path) -> None:
    """On a 2x2 hexagon cylinder every cell touches every other: the motions found from lattice
    transforms were not closed under composition, so raw counts expanded from classes were wrong
    (12 of 18).  The board's group is their closure."""
    path = tmp_path / "k4.toml"
    path.write_text('lattice = "hexagon"\n[rules]\npieces = "at-most"\n[region]\n'
                    'parallelogram = [2, 2]\ntopology = "cylinder"\nwrap = "rows"\n'
                    '[[piece]]\nname = "A"\ncells = [[0, 0], [-1, 1]]\nfreedom = "one-sided"\n'
                    '[[piece]]\nname = "B"\ncells = [[0, 0], [-1, 1]]\nfreedom = "one-sided"\n'
                    '[[piece]]\nname = "M"\ncells = [[0, 0]]\ncount = 2\n')
    from satiling import catalog
    puzzle = catalog.load(str(path))
    sols = brute.polyform_solutions(puzzle)
    assert len(sols) == 18
    for engine in ("walk", "sat", "cpsat"):
        assert counted(str(path), "--raw", "--engine", engine) == (18, brute.polyform_classes(puzzle, sols))


@pytest.mark.parametrize("encoding", ["direct", "compact"])
@pytest.mark.parametrize("engine", ["auto", "sat"])
def test_a_symmetric_piece_pinned_on_the_centre_keeps_the_turns(tmp_path: Path, encoding: str,
                                                              engine: str) -> None:
    """A hint whose piece shows one colour all round, on the centre of a 3x3 board: every turn
    keeps it, so classes hold four boards; the compact encoding pinned the piece but not its
    colours, and the backtracker counted every board as its own class."""
    data = {"family": "edgematch", "rows": 3, "cols": 3,
            "pieces": [[1009, 0, 0, 1001], [1009, 0, 0, 1009], [1204, 1009, 0, 1009],
                       [0, 0, 1009, 1001], [1204, 1204, 1204, 1204], [0, 1009, 1009, 0],
                       [0, 1009, 1204, 1009], [1009, 0, 1009, 1204], [1001, 0, 1001, 1204]],
            "hint": [{"square": "B2", "piece": 5, "rotation": 0}]}
    path = tmp_path / "centre.toml"
    path.write_text('family = "edgematch"\nrows = 3\ncols = 3\npieces = '
                    + str(data["pieces"]) + '\n[[hint]]\nsquare = "B2"\npiece = 5\nrotation = 0\n')
    raw, classes = brute.edge_answer(data, hints=True)
    assert (raw, classes) == (48, 12)
    assert counted(str(path), "--raw", "--hints", "--engine", engine, "--encoding", encoding) == (raw, classes)
