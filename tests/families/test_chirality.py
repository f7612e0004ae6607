"""One-sided and fixed piece sets: mirror partners, and "distinct" as Polyform Puzzler counts it.

Published numbers checked here:

* 18 one-sided pentominoes, 19 one-sided hexiamonds, 19 fixed tetrominoes, 63 fixed pentominoes
  (Golomb, *Polyominoes*; OEIS A000988 one-sided polyominoes 1, 1, 2, 7, 18; A001168 fixed 1, 2, 6,
  19, 63; A006534 one-sided polyiamonds 1, 1, 1, 3, 4, 19);
* the 18 one-sided pentominoes fill a 3x30 box in 46 distinct ways (David Goodger, Polyform
  Puzzler, "Pentominoes: Puzzles & Solutions", one-sided pentominoes), a reflection of the box
  counting when it swaps the hands of the six chiral pairs.
"""
from __future__ import annotations

import tomllib

import pytest

from satiling import load
from satiling.catalog import load_data
from solutions import solutions


def puzzle_from(text: str, name: str = "t"):
    return load_data(tomllib.loads(text), name, None)


def one_sided(set_name: str, region: str, lattice: str = "square", freedom: str = "one-sided"):
    return puzzle_from(f'lattice = "{lattice}"\npiece_set = {{ name = "{set_name}", freedom = "{freedom}" }}\n'
                       f"[rules]\ncells = \"at-most\"\npieces = \"at-most\"\n[region]\n{region}\n")


@pytest.mark.parametrize("set_name, lattice, freedom, count, chiral_pairs", [
    ("pentominoes", "square", "one-sided", 18, 6),
    ("tetrominoes", "square", "one-sided", 7, 2),
    ("hexiamonds", "triangle", "one-sided", 19, 7),
    ("tetrominoes", "square", "fixed", 19, None),
    ("pentominoes", "square", "fixed", 63, None),
])
def test_set_sizes(set_name, lattice, freedom, count, chiral_pairs):
    region = "rows = 9\ncols = 9" if lattice == "square" else "parallelogram = [9, 9]"
    puzzle = one_sided(set_name, region, lattice, freedom)
    assert len(puzzle.pieces) == count
    lat = puzzle.lattice
    shapes = [frozenset(puzzle.orientations(p)) for p in puzzle.pieces]
    assert len(set(shapes)) == count                      # no two pieces move alike
    assert all(p.freedom == freedom for p in puzzle.pieces)
    if chiral_pairs is None:
        return
    pairs = [(p, q) for p in puzzle.pieces for q in puzzle.pieces
             if p.name < q.name and lat.mirror(p.shape) in puzzle.orientations(q)]
    assert len(pairs) == chiral_pairs


def test_mirror_partners_are_named_and_shaped():
    puzzle = one_sided("pentominoes", "rows = 9\ncols = 9")
    names = {p.name for p in puzzle.pieces}
    assert {"F", "f", "L", "l", "N", "n", "P", "p", "Y", "y", "Z", "z"} <= names
    assert not {"i", "t", "u", "v", "w", "x"} & names     # the six achiral pieces stay single
    lat = puzzle.lattice
    assert lat.mirror(puzzle.by_name["F"].shape) in puzzle.orientations(puzzle.by_name["f"])


def test_reflections_count_only_with_both_hands():
    """A 3x30 box has four motions; with both hands of each chiral piece all four are symmetries
    (a reflection swaps the hands); with one hand only, the reflections are not."""
    both = one_sided("pentominoes", "rows = 3\ncols = 30")
    assert len(both.symmetries()) == 4
    one_hand = "\n".join(f'[[piece]]\nname = "{p.name}"\nfreedom = "one-sided"\ncells = '
                         f"{[list(c) for c in p.shape]}" for p in both.pieces if p.name.isupper())
    single = puzzle_from('[rules]\ncells = "at-most"\n[region]\nrows = 3\ncols = 30\n' + one_hand)
    assert len(single.symmetries()) == 2
    # a reflection maps a placement of F to one of f
    flip = both.symmetries()[2]
    pl = next(p for p in both.placements() if p.piece == "F")
    assert flip(pl).piece == "f"
    assert flip(pl) in set(both.placements())


def test_one_sided_pentominoes_3x30():
    """46 distinct (Polyform Puzzler); every one verifies, and the family's canonical form agrees."""
    puzzle = load("pentomino-one-sided-3x30")
    sols = solutions(puzzle)
    for s in sols:
        puzzle.verify(s)
    assert len(sols) == 46
    assert len({puzzle.canonical(s) for s in sols}) == 46


def test_obeirne_hexagon_instance():
    """O'Beirne's hexagon: 19 small hexagons of 6 triangles, the 19 one-sided hexiamonds, the
    hexagon's 12 symmetries all kept (reflections swap the hands)."""
    puzzle = load("obeirne-hexagon")
    assert len(puzzle.region) == 114 == sum(len(p.shape) for p in puzzle.pieces)
    assert len(puzzle.pieces) == 19
    assert len(puzzle.lattice.region_symmetries(puzzle.region)) == 12
    assert len(puzzle.symmetries()) == 12


def test_a_set_holding_both_hands_is_not_doubled():
    """The 29 pentacubes already hold both hands of their six chiral pairs."""
    puzzle = puzzle_from('lattice = "cubic"\npiece_set = { name = "pentacubes", freedom = "one-sided" }\n'
                         '[rules]\npieces = "at-most"\n[region]\nbox = [5, 5, 5]\n')
    assert len(puzzle.pieces) == 29
