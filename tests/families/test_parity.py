"""Parity constraints (``--parity``): colourings from geometry, impossibility from the literature,
and never a solution lost.

Facts checked, with their sources:
* the checkerboard, the up/down colouring of triangles, the 3-colouring of hexagons and the red/black
  colouring of drafter elements are proper colourings; a whole unit triangle of the drafter grid
  balances in red/black (Burkardt & Garvie 2021) and in every six-fold coordinate;
* a T tetromino covers 3 + 1 squares of a checkerboard, every other tetromino 2 + 2 (Golomb);
* an odd number of sets of free tetrominoes cannot fill a 4 x 5k box, nor the seven one-sided
  tetrominoes a 4x7 box (Wikipedia, "Tetromino"); the 19 fixed tetrominoes cannot fill 4x19 either,
  but by exhaustive search, not by parity (same source);
* published solution counts are unchanged by the constraint.
"""
from collections import defaultdict

import pytest

from satiling import catalog, load
from satiling.families.polyform.parity import _pack, _unpack, parity_argument
from satiling.geometry import lattice
from satiling.geometry.colourings import colourings
from satiling.geometry.drafter import STEPS, element_ij
from solutions import solutions
from satiling.search.solve import solve

ODD_BOXES = ["tetromino-4x5", "tetromino-4x15", "tetromino-4x25", "tetromino-4x35", "tetromino-4x45"]


# -- colourings -----------------------------------------------------------------------------------
PATCHES = {
    "square": [(r, c) for r in range(-3, 4) for c in range(-3, 4)],
    "triangle": [(r, c) for r in range(-3, 4) for c in range(-6, 7)],
    "hexagon": [(q, r) for q in range(-3, 4) for r in range(-3, 4)],
    "drafter": [(a, b, t) for a in range(-2, 3) for b in range(-2, 3) for t in range(12)],
}
PROPER = {"square": "checkerboard", "triangle": "up/down", "hexagon": "3-colouring",
          "drafter": "red/black"}


@pytest.mark.parametrize("name", sorted(PATCHES))
def test_colouring_is_proper(name):
    """Cells sharing an edge never carry the same charge."""
    lat = lattice(name)
    colouring = next(c for c in colourings(name) if c.name == PROPER[name])
    for cell in PATCHES[name]:
        for other in lat.neighbors(cell):
            assert colouring.charge(cell) != colouring.charge(other), (cell, other)


def test_hexagon_colouring_has_three_colours_each_balanced():
    """Any 3-colouring-balanced set (one hexagon of each colour) has imbalance (0, 0)."""
    colouring = colourings("hexagon")[0]
    assert colouring.imbalance([(0, 0), (1, 0), (2, 0)]) == (0, 0)
    assert len({colouring.charge(c) for c in PATCHES["hexagon"]}) == 3


def _centroid(cell):
    """The vertex of a drafter element at the centre of its unit triangle (an odd step)."""
    centre, p1, p2 = element_ij(cell)
    odd = p2 if cell[2] % 2 == 0 else p1
    assert (odd[0] - centre[0], odd[1] - centre[1]) in STEPS[1::2]
    return odd


def test_whole_unit_triangles_balance_on_the_drafter_grid():
    """Six elements meet at the centroid of each unit triangle: red/black and six-fold vanish there,
    up/down is +-6 (the triangle points up or down)."""
    by_triangle = defaultdict(list)
    for cell in PATCHES["drafter"]:
        by_triangle[_centroid(cell)].append(cell)
    whole = [cells for cells in by_triangle.values() if len(cells) == 6]
    assert len(whole) > 20
    cols = {c.name: c for c in colourings("drafter")}
    for cells in whole:
        assert cols["red/black"].imbalance(cells) == (0,)
        assert cols["six-fold"].imbalance(cells) == (0,) * 6
        assert cols["up/down"].imbalance(cells) in ((6,), (-6,))


def test_t_tetromino_is_the_only_unbalanced_tetromino():
    puzzle = load("tetromino-4x10")
    checkerboard = colourings("square")[0]
    for pl in puzzle.placements():
        expected = {(2,), (-2,)} if pl.piece == "T" else {(0,)}
        assert checkerboard.imbalance(pl.cells) in expected


@pytest.mark.parametrize("vector", [(0,), (-5, 7), (3, -1, 0, -2, 9, -9), (-(2 ** 29), 2 ** 29)])
def test_packing_keeps_signed_vectors(vector):
    assert _unpack(_pack(vector), len(vector)) == vector
    assert _unpack(_pack(vector) + _pack(vector), len(vector)) == tuple(2 * x for x in vector)


# -- impossibility ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ODD_BOXES + ["tetromino-one-sided-4x7"])
def test_parity_rules_out_odd_tetromino_boxes(name):
    puzzle = load(name)
    assert "no tiling" in parity_argument(puzzle)
    problem = puzzle.problem(parity=True)
    for solver in ("cadical", "cpsat"):
        assert solve(problem, solver=solver).status == "UNSAT"


def test_fixed_tetrominoes_are_beyond_parity():
    """4x19 has no solution, but not for a parity reason: the constraint is satisfiable."""
    puzzle = load("tetromino-fixed-4x19")
    assert parity_argument(puzzle).startswith("no obstruction")
    problem = puzzle.problem(parity=True)
    assert problem.linears and all(lin.lo <= lin.hi for lin in problem.linears)
    assert not any(c == () for c in problem.clauses)


# -- parity never removes a solution -------------------------------------------------------------------
#: small bundled instances with solutions: distinct counts from the literature / the data
SMALL = {
    "pentomino-3x20": 2,        # Haselgrove; Knuth
    "tetrahex-4x7": 9,          # Goodger, Polyform Puzzler
    "trinity": 1,               # Burkardt & Garvie
    "whale": 1,                 # Burkardt & Garvie
    "serenity": 1,              # Burkardt & Garvie: 12 solutions, one up to the board's symmetry
    "tetromino-4x10": None,     # no published count: compared with the plain model only
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_parity_keeps_every_solution(name):
    puzzle = load(name)
    assert puzzle.problem(parity=True).linears
    n_plain, n_parity = len(solutions(puzzle)), len(solutions(puzzle, parity=True))
    assert n_plain == n_parity > 0
    if SMALL[name] is not None:
        assert n_parity == SMALL[name]


@pytest.mark.parametrize("name", ["tetrahex-4x7", "trinity"])
def test_cnf_pseudo_boolean_encoding_keeps_every_solution(name):
    """Through CaDiCaL (PySAT's PB encoding of the constraints: two for the hexagon 3-colouring,
    eight for the drafter colourings), not only the walk's leaf check."""
    puzzle = load(name)
    found = solutions(puzzle, engine="sat", parity=True)
    assert len(found) == SMALL[name]


def test_every_bundled_parity_claim_is_checked():
    """Every bundled polyform instance that parity rules out is one the literature rules out."""
    small = [name for name, _ in catalog.available()
             if name.startswith(("tetromino", "pentomino", "hexiamond", "tetrahex"))]
    ruled_out = {name for name in small if "no tiling" in parity_argument(load(name))}
    assert ruled_out == set(ODD_BOXES) | {"tetromino-one-sided-4x7"}


# -- the command line ---------------------------------------------------------------------------------
def test_cli_solve_and_info(cli):
    r = cli("solve", "tetromino-4x45", "--parity")
    assert r.returncode == 1 and r.stdout.strip() == "no solution"
    r = cli("info", "tetromino-4x15")
    assert r.returncode == 0 and "no tiling" in r.stdout


def test_cli_rejects_parity_with_optional_cells(cli, tmp_path):
    path = tmp_path / "pack.toml"
    path.write_text('family = "polyform"\npiece_set = "tetrominoes"\n[region]\nrows = 4\ncols = 6\n'
                    '[rules]\ncells = "at-most"\n')
    r = cli("solve", str(path), "--parity")
    assert r.returncode == 2 and "--parity" in r.stderr and "Traceback" not in r.stderr
