"""Polycubes: the cubic lattice, the bundled solid sets, and packing counts from the literature.

* polycubes up to rotation 1, 1, 2, 8, 29 and up to rotation and reflection 1, 1, 2, 7, 23 (OEIS
  A000162, A038119), enumerated here with this file's own rotation matrices;
* the Soma cube: 240 distinct solutions (Berlekamp, Conway & Guy, *Winning Ways*, 1982);
* the 12 solid pentominoes in 2x3x10, 2x5x6 and 3x4x5 boxes: 12, 264 and 3940 distinct
  (C. J. Bouwkamp's catalogues; Goodger's Polyform Puzzler, "Solid Pentominoes").
"""
from __future__ import annotations

from itertools import permutations, product

import pytest

from satiling import load, render
from satiling.catalog import piece_set
from satiling.errors import VerificationError
from satiling.families.polyform import PolyformPlacement
from satiling.geometry import lattice
from solutions import solutions

CUBIC = lattice("cubic")


def matrices(proper_only: bool) -> list:
    """The 48 signed permutation matrices (or the 24 with determinant +1), as functions."""
    out = []
    for perm, signs in product(permutations(range(3)), product((1, -1), repeat=3)):
        inversions = sum(perm[i] > perm[j] for i in range(3) for j in range(i + 1, 3))
        det = (-1) ** inversions * signs[0] * signs[1] * signs[2]
        if det == 1 or not proper_only:
            out.append(lambda c, p=perm, s=signs: tuple(s[i] * c[p[i]] for i in range(3)))
    return out


def canonical(cells, group) -> tuple:
    def norm(cs):
        lo = [min(c[i] for c in cs) for i in range(3)]
        return tuple(sorted(tuple(c[i] - lo[i] for i in range(3)) for c in cs))
    return min(norm([g(c) for c in cells]) for g in group)


def polycubes(n: int, group) -> set:
    shapes = {canonical([(0, 0, 0)], group)}
    for _ in range(n - 1):
        grown = set()
        for s in shapes:
            for (x, y, z) in s:
                for d in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
                    c = (x + d[0], y + d[1], z + d[2])
                    if c not in s:
                        grown.add(canonical(list(s) + [c], group))
        shapes = grown
    return shapes


def test_point_group():
    group = CUBIC.transforms()
    assert len(group) == 48 and sum(t.proper for t in group) == 24
    assert group[0].name == "identity" and all(t.proper for t in group[:24])
    probe = [(1, 2, 3), (0, 0, 1)]
    images = {tuple(t.apply(c) for c in probe) for t in group}
    assert len(images) == 48
    proper = {tuple(g(c) for c in probe) for g in matrices(True)}
    assert {tuple(t.apply(c) for c in probe) for t in group if t.proper} == proper


@pytest.mark.parametrize("n, one_sided, free", [(1, 1, 1), (2, 1, 1), (3, 2, 2), (4, 8, 7), (5, 29, 23)])
def test_polycube_counts(n, one_sided, free):
    assert len(polycubes(n, matrices(True))) == one_sided
    assert len(polycubes(n, matrices(False))) == free


@pytest.mark.parametrize("set_name, n, size", [("tetracubes", 4, 8), ("pentacubes", 5, 29)])
def test_bundled_sets_are_complete(set_name, n, size):
    rot = matrices(True)
    entries = piece_set(set_name, "cubic")
    shapes = [canonical(CUBIC.parse_layers(e["layers"]), rot) for e in entries]
    assert len(shapes) == len(set(shapes)) == size
    assert set(shapes) == polycubes(n, rot)


def test_soma_pieces():
    rot = matrices(True)
    soma = {e["name"]: canonical(CUBIC.parse_layers(e["layers"]), rot) for e in piece_set("soma", "cubic")}
    tetracubes = {e["name"]: canonical(CUBIC.parse_layers(e["layers"]), rot) for e in piece_set("tetracubes", "cubic")}
    assert set(soma) == set("VLTZABP")
    assert len(soma["V"]) == 3 and soma["V"] in polycubes(3, rot)
    assert {v for k, v in soma.items() if k != "V"} == {v for k, v in tetracubes.items() if k not in "IO"}
    assert canonical([(-x, y, z) for x, y, z in soma["A"]], rot) == soma["B"]     # mirror images


def distinct(name: str) -> list:
    puzzle = load(name)
    sols = solutions(puzzle)
    for s in sols:
        puzzle.verify(s)
    assert len({puzzle.canonical(s) for s in sols}) == len(sols)
    return sols


def test_soma_cube_240():
    puzzle = load("soma-cube")
    assert len(puzzle.symmetries()) == 48          # reflections swap the screws A and B
    assert len(distinct("soma-cube")) == 240


@pytest.mark.parametrize("name, count", [("solid-pentomino-2x3x10", 12), ("solid-pentomino-2x5x6", 264)])
def test_solid_pentominoes(name, count):
    assert len(load(name).symmetries()) == 8
    assert len(distinct(name)) == count


def _compiled_count(puzzle) -> int | None:
    """Raw solutions by the compiled exact-cover engine, when it is built (None otherwise)."""
    try:
        from satiling.engines.exactcover import ExactCover, matrix_of
        return ExactCover(matrix_of(puzzle.problem())).count()
    except (ImportError, AttributeError, TypeError):
        return None


@pytest.mark.slow                   # a minute of CPU or more
def test_solid_pentominoes_3x4x5():
    """3940 distinct (Bouwkamp): 64 CPU-s with the Python walk; the raw count, 8 x 3940, also by
    the compiled exact-cover engine when it is built."""
    puzzle = load("solid-pentomino-3x4x5")
    raw = _compiled_count(puzzle)
    if raw is not None:
        assert raw == 8 * 3940              # the box's 8 motions; no solution is symmetric
    assert len(distinct("solid-pentomino-3x4x5")) == 3940


def test_pieces_only_turn():
    """A solid cannot be mirrored: the screw A placed as its mirror image is refused."""
    puzzle = load("soma-cube")
    sol = distinct("soma-cube")[0]
    a = next(pl for pl in sol if pl.piece == "A")
    mirrored = PolyformPlacement("A", tuple(sorted((x, y, 2 - z) for x, y, z in a.cells)))
    with pytest.raises(VerificationError, match="shape"):
        puzzle.verify([pl if pl.piece != "A" else mirrored for pl in sol])


def test_pictures_layer_by_layer():
    """The layers side by side, named as people count them, from 1 at the bottom (the text and
    the SVG alike: the page read "layer 0" under a cube of layers 1 to 3)."""
    puzzle = load("soma-cube")
    sol = distinct("soma-cube")[0]
    lines = render.to_text(puzzle, sol).splitlines()
    assert lines[0].split() == ["layer", "1", "layer", "2", "layer", "3"]
    letters = "".join(lines[1:]).replace(" ", "")
    assert len(letters) == 27 and sorted(set(letters)) == sorted("VLTZABP")
    svg = render.to_svg(puzzle, sol)
    assert svg.count("<polygon") == 27 + 27 and svg.count("<g>") == 7     # layers, 3-D view
    assert all(f">layer {k}<" in svg for k in (1, 2, 3)) and ">layer 0<" not in svg
    pieces_per_layer = sum(len({pl.piece for pl in sol if any(c[0] == k for c in pl.cells)}) for k in range(3))
    assert svg.count('font-weight="bold"') == pieces_per_layer     # a piece is named in each layer


def test_cubic_checkerboard_is_proper():
    """The parity colouring of cubes gives neighbouring cubes opposite charges (so ``info`` and
    ``--parity`` work on boxes)."""
    from satiling.geometry.colourings import colourings
    charge = colourings("cubic")[0].charge
    for cell in [(0, 0, 0), (1, 2, 3), (-2, 5, 1)]:
        assert all(charge(n) == (-charge(cell)[0],) for n in CUBIC.neighbors(cell))
    assert "no obstruction" in load("soma-cube").info()["parity"]


@pytest.mark.parametrize("name", ["soma-cube", "solid-pentomino-2x5x6"])
def test_a_solid_is_drawn_in_3d_beside_its_layers(name):
    # the isometric view shows the faces a viewer above, in front and to the right sees: on a full
    # box, one per cell of its top, its front and its right side, each in its piece's colour
    import re
    from satiling.search.solve import solve
    puzzle = load(name)
    problem = puzzle.problem()
    sol = problem.decode(solve(problem).true_vars)
    layers, rows, cols = (max(c[k] for c in puzzle.region) + 1 for k in range(3))
    svg = render.to_svg(puzzle, sol)
    faces = re.findall(r'<polygon points="([^"]+)" fill="(#[0-9a-f]{6})"[^>]*class="iso"', svg)
    assert len(faces) == rows * cols + cols * layers + rows * layers
    assert ">3-D view<" in svg
    pieces = [re.search(r'<polygon points="[^"]+" fill="(#[0-9a-f]{6})"', g).group(1)
              for g in svg.split("<g>")[1:]]
    front = {fill for _, fill in faces}
    assert front & set(pieces)                 # the front faces in the pieces' own colours
