"""The edge-matching backtracker without symmetry breaking (issue 38): the owner rule looks up each
image of a solution in the engine's cubes, and the engine renumbers a file's colours 1, 2, ...
(its candidate table grows with the largest colour).  The lookup once read the engine's colours
against the file's and raised KeyError on any board whose colours were not already 1..n (colours
numbered far apart, or a colour the pieces never show).  The answers here come from the brute
force (``tests/brute.py``), never from the engine under test."""
from __future__ import annotations

import contextlib
import io
import json
import tomllib
from pathlib import Path

import pytest

import brute
from satiling import catalog
from satiling.cli import main
from satiling.families.edgematch.generate import generate, instance_toml
from satiling.search.edgespace import EdgeSpace

#: the issue's 2x2 board: colours 60-100, one solution up to the board's four turns
FAR_APART = """family = "edgematch"
rows = 2
cols = 2
pieces = [[0, 100, 60, 0], [0, 0, 70, 100], [60, 80, 0, 0], [70, 0, 0, 80]]
"""


def far_apart(tmp_path: Path) -> Path:
    path = tmp_path / "far.toml"
    path.write_text(FAR_APART)
    return path


def gapped(tmp_path: Path) -> Path:
    """The issue's 2x5 board (``generate-edgematch 2 5 --seed 12 --frame-colours 3
    --inner-colours 3 --symmetric --random-counts``): no piece shows colour 4."""
    path = tmp_path / "gapped.toml"
    path.write_text(instance_toml(generate(2, 5, 3, 3, 12, symmetric=True, even=False)))
    return path


def answer(path: Path) -> tuple[int, int]:
    """(raw solutions, classes) by brute force."""
    return brute.edge_answer(tomllib.loads(path.read_text()), hints=False)


def cli(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    assert code in (0, 1), (argv, code, err.getvalue())
    return code, out.getvalue()


def counted(path: Path, *options: str) -> int:
    return int(cli("count", str(path), "--quiet", "--engine", "backtrack", *options)[1].split()[0])


@pytest.mark.parametrize("make", [far_apart, gapped])
def test_colours_not_numbered_from_one_count_without_symmetry_breaking(tmp_path, make):
    path = make(tmp_path)
    raw, classes = answer(path)
    assert raw > classes > 0
    for breaking in ((), ("--no-symmetry-breaking",)):
        assert counted(path, *breaking) == classes
        assert counted(path, "--raw", *breaking) == raw
        assert counted(path, "--symmetry", "none", *breaking) == raw
        assert counted(path, "--symmetry", "rotations", *breaking) == classes
        assert counted(path, "--symmetry", "full", *breaking) == classes


@pytest.mark.parametrize("make", [far_apart, gapped])
def test_colours_not_numbered_from_one_enumerate_without_symmetry_breaking(tmp_path, make):
    path = make(tmp_path)
    raw, classes = answer(path)
    for options, want in ((("--raw",), raw), ((), classes)):
        _, out = cli("enumerate", str(path), "--quiet", "--engine", "backtrack",
                     "--no-symmetry-breaking", *options)
        sols = [json.dumps(json.loads(line)["placements"], sort_keys=True) for line in out.splitlines()]
        assert len(sols) == len(set(sols)) == want


@pytest.mark.parametrize("make", [far_apart, gapped])
def test_every_image_of_a_solution_has_its_cube(tmp_path, make):
    """The owner rule's lookup, directly: each solution a cube finds lies in that cube, and each of
    its images under the board's turns (also solutions, the whole board being searched) in some
    cube."""
    path = make(tmp_path)
    puzzle = catalog.load(str(path))
    space = EdgeSpace(puzzle, puzzle.problem(), hints=False, break_symmetry_=False)
    assert not space.pinned and space.group.order > 1
    seen = 0
    for cube in range(len(space.cubes)):
        for sol in space.solutions(cube):
            assert space.cube_of(sol) == cube
            assert all(space.cube_of(image) is not None for image in space.group.images(sol))
            seen += 1
    assert seen == answer(path)[0]
