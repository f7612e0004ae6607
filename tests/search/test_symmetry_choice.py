"""Counting up to a chosen group: ``--symmetry full|rotations|none`` (``count``, ``enumerate``, the
library's ``count(symmetry=...)``).

Published counts: Piet Hein's Soma cube has 240 solutions up to the cube's 48 motions, 480 up to
its 24 rotations, 11520 in all (Berlekamp, Conway & Guy, *Winning Ways*, 1982); the 8 tetracubes
fill a 2x2x8 box in 224 ways up to the box's rotations (Goodger's Polyform Puzzler).  Beside them:
brute force over small generated boards of every lattice (classes as orbits of the rotations,
computed here from the raw solutions), and the rotations checked from the geometry (a rotation
keeps the orientation of three cell centres, a reflection reverses it).
"""
from __future__ import annotations

import itertools

import pytest

from brute import TooMany, load_or_none, polyform_data, polyform_solutions
from satiling import catalog
from satiling.cli import main
from satiling.errors import SatilingError
from satiling.families.base import Puzzle
from satiling.families.polyform import PolyformPlacement
from satiling.search.stream import Run, Settings


def count(capsys, *args: str) -> tuple[int, str]:
    """(the count on stdout, stderr) of ``satiling count ARGS``, in this process."""
    assert main(["count", *args, "--quiet"]) == 0
    out, err = capsys.readouterr()
    return int(out.split()[0]), err


# -- published counts -------------------------------------------------------------------------------
@pytest.mark.parametrize("name, full, rotations, raw, order", [
    ("soma-cube", 240, 480, 11520, 24),         # Winning Ways
    ("tetracube-2x2x8", 112, 224, 1792, 8),     # Polyform Puzzler: 224 up to rotations
])
def test_published_counts_up_to_rotations(capsys, name, full, rotations, raw, order):
    n, err = count(capsys, name, "--symmetry", "rotations")
    assert n == rotations and f"up to rotations ({order})" in err
    assert count(capsys, name)[0] == full
    n, err = count(capsys, name, "--symmetry", "none")
    assert n == raw == rotations * order          # no solution is kept by a rotation
    assert "no symmetry" in err
    if name != "soma-cube":               # (the whole tree of Soma's cube: a second)
        assert count(capsys, name, "--symmetry", "rotations", "--no-symmetry-breaking")[0] == rotations


def test_raw_and_a_group_contradict(capsys):
    assert main(["count", "soma-cube", "--raw", "--symmetry", "rotations"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("satiling: error:")
    assert main(["count", "pentomino-3x20", "--raw", "--symmetry", "none", "--quiet"]) == 0
    assert capsys.readouterr().out.split() == ["8"]


def test_enumerate_up_to_rotations(capsys):
    """3x20: 2 classes of the box's 4 motions, 4 of its 2 rotations, each line a verified solution."""
    puzzle = catalog.load("pentomino-3x20")
    assert main(["enumerate", "pentomino-3x20", "--symmetry", "rotations", "--quiet"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 4 and "up to rotations (2)" in err
    classes = {_orbit_key(puzzle.rotations(), _placements(line)) for line in lines}
    assert len(classes) == 4


def test_edge_matching_symmetries_are_rotations(capsys, tmp_path):
    """A board is only turned: up to rotations is up to all its symmetries, for every engine."""
    assert main(["generate-edgematch", "4", "4", "--seed", "3"]) == 0
    board = tmp_path / "b.toml"
    board.write_text(capsys.readouterr().out)
    board = str(board)
    full = count(capsys, board)[0]
    assert count(capsys, board, "--symmetry", "rotations")[0] == full
    assert count(capsys, board, "--symmetry", "rotations", "--engine", "sat")[0] == full
    assert count(capsys, board, "--symmetry", "none")[0] == count(capsys, board, "--raw")[0] == 4 * full


def test_a_family_that_cannot_tell_its_rotations_is_refused():
    class Strip(Puzzle):
        family = "strip"

        def problem(self, **options):
            raise NotImplementedError

        def verify(self, solution):
            pass

        def placement_from_json(self, data):
            return data

        def symmetries(self):
            return [lambda p: p, lambda p: -p]

    with pytest.raises(SatilingError, match="rotations"):
        Strip().rotations()


# -- the rotations, from the geometry ------------------------------------------------------------
@pytest.mark.parametrize("name, full, rotations", [
    ("pentomino-6x10", 4, 2), ("hexiamond-6x6", 4, 2), ("tetrahex-triangle7", 6, 3),
    ("pentomino-8x8-centre", 8, 4), ("soma-cube", 48, 24), ("serenity", 12, 6),
])
def test_rotations_keep_orientation(name, full, rotations):
    """Every symmetry that keeps the orientation of cell centres is a rotation, and no other."""
    puzzle = catalog.load(name)
    lat = puzzle.lattice
    piece = puzzle.pieces[0].name
    cells = sorted(puzzle.region)
    probe = _spanning(lat, cells)
    kept = []
    for g in puzzle.symmetries():
        image = [g(PolyformPlacement(piece, (c,))).cells[0] for c in probe]
        kept.append(_orientation(lat, image) == _orientation(lat, probe))
    assert (len(kept), sum(kept)) == (full, rotations)
    assert len(puzzle.rotations()) == rotations
    moved = {tuple(g(PolyformPlacement(piece, (c,))).cells[0] for c in cells) for g in puzzle.rotations()}
    assert moved == {tuple(g(PolyformPlacement(piece, (c,))).cells[0] for c in cells)
                     for g, k in zip(puzzle.symmetries(), kept) if k}


def _centre(lat, cell) -> tuple[float, ...]:
    if lat.name == "cubic":
        return tuple(float(x) for x in cell)
    pts = lat.polygon(cell)
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def _det(rows: list[list[float]]) -> float:
    if len(rows) == 2:
        return rows[0][0] * rows[1][1] - rows[0][1] * rows[1][0]
    a, b, c = rows
    return (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
            + a[2] * (b[0] * c[1] - b[1] * c[0]))


def _orientation(lat, cells) -> int:
    """The sign of the simplex spanned by the cells' centres."""
    pts = [_centre(lat, c) for c in cells]
    d = _det([[p[i] - pts[0][i] for i in range(len(pts[0]))] for p in pts[1:]])
    return (d > 1e-9) - (d < -1e-9)


def _spanning(lat, cells) -> list:
    """Cells whose centres span the space (three in the plane, four in space)."""
    k = 4 if lat.name == "cubic" else 3
    for probe in itertools.combinations(cells, k):
        if _orientation(lat, probe):
            return list(probe)
    raise AssertionError("a flat region")


# -- brute force ---------------------------------------------------------------------------------
def _orbit_key(group, solution) -> tuple:
    return min(tuple(sorted(g(p) for p in solution)) for g in group)


def _placements(line: str) -> list:
    import json
    return [PolyformPlacement(p["piece"], tuple(sorted(tuple(c) for c in p["cells"])))
            for p in json.loads(line)["placements"]]


def test_counts_up_to_rotations_agree_with_brute_force(tmp_path):
    """Small boards of every lattice, wrapped ones, holes, copies, freedoms and rules: the count up
    to rotations is the number of orbits of the raw solutions under the rotations, with and without
    the symmetry restriction, by the exact-cover search and by SAT."""
    checked = 0
    for seed in range(400):
        puzzle = load_or_none(polyform_data(seed), f"r{seed}", tmp_path)
        if puzzle is None:
            continue
        try:
            raw = polyform_solutions(puzzle)
        except TooMany:
            continue
        rotations = puzzle.rotations()
        want = len({_orbit_key(rotations, s) for s in raw})
        engine = ("walk", "sat")[seed % 2]
        for breaking in (True, False):
            settings = Settings(engine=engine, break_symmetry=breaking, symmetry="rotations")
            run = Run(f"r{seed}", puzzle, puzzle.problem(), {}, settings)
            assert run.count().total == want, (seed, engine, breaking)
        checked += 1
        if checked == 40:
            break
    assert checked == 40



def test_workers_rebuild_the_chosen_group(capsys):
    """Workers that rebuild the model (SAT cubes) build the same group: the model's fingerprint,
    which holds the group's order, would refuse another."""
    n, err = count(capsys, "tetracube-2x2x8", "--symmetry", "rotations", "--engine", "sat",
                   "--workers", "2")
    assert n == 224 and "up to rotations (8)" in err
