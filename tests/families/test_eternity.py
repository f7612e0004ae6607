"""The Eternity family on the drafter lattice, held to Burkardt & Garvie's figures and to the
solutions stored with the data (see instances/data/eternity/SOURCE.md).

Configuration counts are the paper's (Pram: the repository data's 108955, which Burkardt's own code
also gives; the paper printed 108049 before the tile corrections).  Solutions are counted by the
reference search of tests/brute.py, not by the project's search code.
"""
from __future__ import annotations

import json

import pytest

from satiling import load, render
from satiling.catalog import piece_set
from satiling.errors import VerificationError
from satiling.families.polyform import PolyformPlacement
from satiling.geometry import lattice
from satiling.geometry.drafter import cells_from_word
from brute import exact_covers
from eternity_data import DATA, PUZZLES, TILES, data_solution

CONFIGURATIONS = {   # Burkardt & Garvie (2021), Table of configurations; see the module docstring
    "trinity": 142, "serenity": 876, "whale": 1071, "boat": 8753, "pram": 108955,
}
SOLUTIONS = {"trinity": (1, 1), "serenity": (12, 1), "whale": (1, 1), "boat": (1, 1)}   # (raw, distinct)


def test_every_tile_is_36_elements_without_symmetry():
    """The paper: each tile is 36 elements, unique, with no symmetry (its mirror image differs)."""
    lat = lattice("drafter")
    shapes = {k: lat.normalize(cells_from_word(w)) for k, w in TILES.items()}
    assert all(len(s) == 36 and lat.connected(s) for s in shapes.values())
    eternity = [shapes[str(i)] for i in range(1, 210)]
    assert all(len(lat.orientations(s)) == 12 for s in eternity)
    assert len({min(lat.orientations(s)) for s in eternity}) == 209


def test_boards_have_36_elements_per_tile():
    for name, p in PUZZLES.items():
        puzzle = load(name)
        assert len(puzzle.region) == 36 * len(p["tile_ids"]), name
        assert sorted(q.name for q in puzzle.pieces) == sorted(str(i) for i in p["tile_ids"])
    assert len(load("eternity").region) == 7524           # 2508 drafters of three elements


def test_instance_files_carry_the_data_unchanged():
    for name, p in PUZZLES.items():
        puzzle = load(name)
        assert sorted(map(tuple, puzzle.region)) == sorted(cells_from_word(p["grid_word"]))
        lat = puzzle.lattice
        for piece in puzzle.pieces:
            assert piece.shape == lat.normalize(cells_from_word(TILES[piece.name]))
    assert [e["word"] for e in piece_set("eternity")] == [TILES[str(i)] for i in range(1, 210)]


@pytest.mark.parametrize("name", sorted(CONFIGURATIONS))
def test_configuration_counts(name):
    assert len(load(name).placements()) == CONFIGURATIONS[name]


@pytest.mark.slow      # slow (10 s; the README's 'info eternity' line checks the count in make test)
def test_full_eternity_configurations():
    """1372296 placements for the 209 pieces on the whole board (Burkardt's method, our count)."""
    puzzle = load("eternity")
    assert len(puzzle.placements()) == PUZZLES["eternity"]["our_configs"] == 1372296


@pytest.mark.parametrize("name", sorted(SOLUTIONS))
def test_all_solutions(name):
    """Every solution is found, equals the stored data (Trinity's also Burkardt's printed one),
    verifies, and draws; Serenity's 12 are one up to the board's 12 symmetries."""
    raw, distinct = SOLUTIONS[name]
    puzzle = load(name)
    found = list(exact_covers(puzzle))
    assert len(found) == raw
    assert len({puzzle.canonical(s) for s in found}) == distinct
    stored = json.loads((DATA / "solutions" / f"{name}.json").read_text())["solutions"]
    expected = {frozenset(data_solution(puzzle, s)) for s in stored}
    assert {frozenset(s) for s in found} == expected
    for s in found:
        puzzle.verify(s)
        svg = render.to_svg(puzzle, s)
        assert svg.count("<g>") == len(puzzle.pieces) and svg.count("<polygon") == len(puzzle.region)


def test_serenity_board_has_twelve_symmetries():
    assert len(load("serenity").symmetries()) == 12


def test_verifier_rejects_a_moved_or_misshapen_tile():
    puzzle = load("trinity")
    entries = json.loads((DATA / "solutions" / "trinity.json").read_text())["solutions"][0]
    good = data_solution(puzzle, entries)
    puzzle.verify(good)
    lat = puzzle.lattice
    moved = good[:3] + [PolyformPlacement(good[3].piece, tuple(sorted(lat.shift(c, (1, 0)) for c in good[3].cells)))]
    with pytest.raises(VerificationError):
        puzzle.verify(moved)
    swapped = good[:2] + [PolyformPlacement(good[3].piece, good[2].cells),
                          PolyformPlacement(good[2].piece, good[3].cells)]
    with pytest.raises(VerificationError, match="shape"):
        puzzle.verify(swapped)


def test_placements_round_trip_through_json():
    puzzle = load("trinity")
    for pl in puzzle.placements()[:10]:
        assert puzzle.placement_from_json(json.loads(json.dumps(pl.to_json()))) == pl
