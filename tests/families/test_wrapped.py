"""Wrapped regions: cylinders and tori on the square, triangle and hexagon lattices.

Published counts checked here:

* the five free tetrominoes tile a cylinder 4 high and 5 round in 7 distinct ways (Edo Timmermans,
  quoted in puzzlezapper.com, "A Polyformist's Toolkit: Practical Topology", 2013), and neither the
  cylinder 5 high and 4 round nor the flat 4x5 box (the same page, by the checkerboard argument);
* domino tilings of the m x n square torus, from Kasteleyn's formula (P. W. Kasteleyn, "The
  statistics of dimers on a lattice I", Physica 27, 1961): Z = (-P00 + P01 + P10 + P11) / 2 with
  P_ab = prod over j < m, k < n of (4 sin^2(pi (2j + a) / m) + 4 sin^2(pi (2k + b) / n))^(1/4).

On the triangle and hexagon lattices the placements and counts are checked against a test-local
model that glues the board in the plane (centroids reduced modulo the period vectors), sharing no
code with ``satiling/geometry/wrap.py``.
"""
from __future__ import annotations

import math
import re
import tomllib

import pytest

from satiling import load, render
from satiling.catalog import load_data
from satiling.errors import SatilingError, VerificationError
from satiling.families.polyform import PolyformPlacement
from solutions import solutions

TIMMERMANS = ('piece_set = "tetrominoes"\n[region]\nrows = {rows}\ncols = {cols}\n'
              'topology = "cylinder"\nwrap = "cols"\n')


def puzzle_from(text: str, name: str = "t"):
    return load_data(tomllib.loads(text), name, None)


def raw_solutions(puzzle) -> list:
    return solutions(puzzle, raw=True)


def test_tetrominoes_on_a_cylinder_5_round():
    puzzle = load("tetromino-cylinder-4x5")
    sols = raw_solutions(puzzle)
    for s in sols:
        puzzle.verify(s)
    assert len(puzzle.symmetries()) == 20               # 5 turns about the axis x 4 flips
    assert len({puzzle.canonical(s) for s in sols}) == 7
    assert len(solutions(puzzle)) == 7
    assert any(max(c[1] for c in pl.cells) - min(c[1] for c in pl.cells) > 3
               for s in sols for pl in s)             # some piece crosses the seam


def test_tetrominoes_on_a_cylinder_4_round_and_the_flat_box():
    assert raw_solutions(puzzle_from(TIMMERMANS.format(rows=5, cols=4))) == []
    flat = TIMMERMANS.format(rows=4, cols=5).replace('topology = "cylinder"\nwrap = "cols"\n', "")
    assert raw_solutions(puzzle_from(flat)) == []


def kasteleyn(m: int, n: int) -> int:
    def p(a: int, b: int) -> float:
        out = 1.0
        for j in range(m):
            for k in range(n):
                out *= (4 * math.sin(math.pi * (2 * j + a) / m) ** 2
                        + 4 * math.sin(math.pi * (2 * k + b) / n) ** 2) ** 0.25
        return out
    return round((-p(0, 0) + p(0, 1) + p(1, 0) + p(1, 1)) / 2)


@pytest.mark.parametrize("m, n", [(4, 4), (4, 6), (6, 4)])
def test_dominoes_on_a_torus_match_kasteleyn(m, n):
    puzzle = puzzle_from(f'[[piece]]\nname = "D"\nascii = "##"\ncount = {m * n // 2}\n'
                         f'[region]\nrows = {m}\ncols = {n}\ntopology = "torus"\n')
    assert len(puzzle.placements()) == 2 * m * n
    sols = raw_solutions(puzzle)
    assert len(sols) == kasteleyn(m, n)                 # 272, 3108, 3108
    puzzle.verify(sols[0])


@pytest.mark.parametrize("spec, symmetries", [
    ('rows = 6\ncols = 10\ntopology = "torus"', 4 * 60),
    ('rows = 6\ncols = 6\ntopology = "torus"', 8 * 36),
    ('rows = 6\ncols = 10\ntopology = "cylinder"\nwrap = "rows"', 4 * 6),
])
def test_square_symmetries(spec, symmetries):
    puzzle = puzzle_from('[[piece]]\nname = "O"\nascii = "#"\ncount = 60\n'
                         f'[rules]\npieces = "at-most"\n[region]\n{spec}\n')
    assert len(puzzle.symmetries()) == symmetries


# -- triangle and hexagon: the board glued in the plane, independently -------------------------------
ROOT3 = math.sqrt(3)


def periods_in_plane(lattice: str, rows: int, cols: int) -> dict[str, tuple[float, float]]:
    """The gluing vectors of a parallelogram in the plane (x right, y down; unit side)."""
    if lattice == "triangle":      # strips of height sqrt(3)/2, each half a side left of the one above
        return {"rows": (-rows / 2, rows * ROOT3 / 2), "cols": (float(cols), 0.0)}
    return {"rows": (rows / 2, rows * ROOT3 / 2), "cols": (float(cols), 0.0)}    # hexagon rows


def glued_placements(puzzle, vectors: dict[str, tuple[float, float]], wrapped: tuple[str, ...]) -> set:
    """(piece, cells) of every placement, found by moving centroids in the plane."""
    lat = puzzle.lattice
    (ax, ay), (bx, by) = vectors["rows"], vectors["cols"]
    det = ax * by - ay * bx

    def key(x: float, y: float) -> tuple[int, int]:
        s, t = (x * by - y * bx) / det, (ax * y - ay * x) / det     # x, y = s*rows + t*cols
        s = s % 1.0 if "rows" in wrapped else s
        t = t % 1.0 if "cols" in wrapped else t
        return (round(s * 10_000) % 10_000 if "rows" in wrapped else round(s * 10_000),
                round(t * 10_000) % 10_000 if "cols" in wrapped else round(t * 10_000))

    def centre(cell):
        poly = lat.polygon(cell)
        return (sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly))
    at = {key(*centre(c)): c for c in puzzle.region}
    out = set()
    for piece in puzzle.pieces:
        for shape in puzzle.orientations(piece):
            sx, sy = centre(shape[0])
            for anchor in puzzle.region:
                if lat.translation(shape[0], anchor) is None:
                    continue
                dx, dy = (lambda p: (p[0] - sx, p[1] - sy))(centre(anchor))
                cells = [at.get(key(x + dx, y + dy)) for x, y in map(centre, shape)]
                if None not in cells and len(set(cells)) == len(cells):
                    out.add((piece.name, tuple(sorted(cells))))
    return out


def count_covers(region, placements, counts: dict[str, int]) -> int:
    """Exact covers of ``region`` by ``placements`` using each piece ``counts`` times (tiny boards)."""
    cells = sorted(region)
    bit = {c: 1 << i for i, c in enumerate(cells)}
    by_first: dict[int, list] = {}
    for name, pcells in placements:
        mask = sum(bit[c] for c in pcells)
        by_first.setdefault(mask & -mask, []).append((name, mask))
    full = (1 << len(cells)) - 1

    def search(covered: int, left: dict[str, int]) -> int:
        if covered == full:
            return 1
        free = ~covered & full
        total = 0
        for name, mask in by_first.get(free & -free, ()):
            if not mask & covered and left[name]:
                left[name] -= 1
                total += search(covered | mask, left)
                left[name] += 1
        return total
    return search(0, dict(counts))


@pytest.mark.parametrize("lattice, size, topology, piece", [
    ("triangle", (2, 3), "torus", "##"),
    ("triangle", (2, 3), "cylinder", "###"),
    ("triangle", (3, 2), "torus", "####"),
    ("hexagon", (3, 4), "torus", "o o"),
    ("hexagon", (2, 6), "cylinder", "o o o"),
])
def test_triangle_and_hexagon_wraps_match_a_plane_model(lattice, size, topology, piece):
    rows, cols = size
    cells = 2 * rows * cols if lattice == "triangle" else rows * cols
    n = cells // len(piece.replace(" ", ""))
    puzzle = puzzle_from(f'lattice = "{lattice}"\n[[piece]]\nname = "A"\nascii = "{piece}"\ncount = {n}\n'
                         f'[region]\nparallelogram = [{rows}, {cols}]\ntopology = "{topology}"\n')
    wrapped = ("rows", "cols") if topology == "torus" else ("cols",)
    expected = glued_placements(puzzle, periods_in_plane(lattice, rows, cols), wrapped)
    assert {(p.piece, p.cells) for p in puzzle.placements()} == expected
    sols = raw_solutions(puzzle)
    assert len(sols) == count_covers(puzzle.region, expected, {"A": n}) > 0
    for s in sols[:20]:
        puzzle.verify(s)


def test_hexagon_torus_keeps_all_twelve_motions():
    puzzle = puzzle_from('lattice = "hexagon"\n[[piece]]\nname = "A"\nascii = "o"\ncount = 16\n'
                         '[region]\nparallelogram = [4, 4]\ntopology = "torus"\n')
    assert len(puzzle.symmetries()) == 12 * 16


def test_verify_follows_the_seam():
    puzzle = puzzle_from(TIMMERMANS.format(rows=4, cols=5))
    sol = next(s for s in raw_solutions(puzzle)
               if any(max(c[1] for c in pl.cells) - min(c[1] for c in pl.cells) > 3 for pl in s))
    puzzle.verify(sol)
    # the same cells, unglued: a piece torn in two is refused
    torn = [PolyformPlacement(pl.piece, tuple(sorted((r, (c + 2) % 7) for r, c in pl.cells))) for pl in sol]
    with pytest.raises(VerificationError):
        puzzle.verify(torn)


def test_pictures_show_the_seam():
    puzzle = puzzle_from(TIMMERMANS.format(rows=4, cols=5))
    sol = raw_solutions(puzzle)[0]
    lines = render.to_text(puzzle, sol).splitlines()
    assert len(lines) == 4 and all(line[5] == ":" and line[6:] == line[:len(line) - 6] for line in lines)
    svg = render.to_svg(puzzle, sol)
    assert svg.count('fill-opacity="0.35"') == 4      # the first column again, past the seam


@pytest.mark.parametrize("body, message", [
    ('lattice = "drafter"\n[region]\nword = "AAGG"\ntopology = "torus"\n', "unknown key 'topology'"),
    ('lattice = "triangle"\n[region]\nhexagon = 2\ntopology = "torus"\n'
     '[[piece]]\nname = "A"\nascii = "#"\ncount = 24\n', "needs 'rows' and 'cols'"),
    ('[region]\nrows = 4\ncols = 5\ntopology = "torus"\nwrap = "rows"\n'
     '[[piece]]\nname = "A"\nascii = "#"\ncount = 20\n', "add topology"),
])
def test_wrapping_that_makes_no_sense_is_refused(body, message):
    with pytest.raises(SatilingError, match=message):
        puzzle_from(body)


def test_the_svg_dashes_the_seam_and_names_a_crossing_piece_on_each_side():
    # issue 22: a piece crossing the seam looked like two (a solid outline along the seam) and was
    # named once
    puzzle = puzzle_from(TIMMERMANS.format(rows=4, cols=5))
    sol = next(s for s in raw_solutions(puzzle)
               if any({c[1] for c in pl.cells} >= {0, 4} for pl in s))
    crossing = [pl for pl in sol if {c[1] for c in pl.cells} >= {0, 4}]   # 5 columns: it wraps
    svg = render.to_svg(puzzle, sol)
    assert svg.count('class="seam"') == 2 * 4               # both glued sides, one edge per row
    names = re.findall(r">([^<>]+)</text>", svg)
    for pl in crossing:
        assert names.count(pl.piece) >= 2                   # once on each side of the seam
    assert len(names) == len(sol) + len(crossing)
    # no solid outline where a piece goes on across the seam: at x = 0 (or 5) between two cells
    # of one piece, only the dashed seam is drawn
    pl = crossing[0]
    row = next(c[0] for c in pl.cells if c[1] == 0 and (c[0], 4) in pl.cells)
    y1, y2 = 40 * (row + 0.25), 40 * (row + 1.25)
    solid = re.findall(rf'<line x1="10.00" y1="{y1:.2f}" x2="10.00" y2="{y2:.2f}" stroke="black"', svg)
    solid += re.findall(rf'<line x1="10.00" y1="{y2:.2f}" x2="10.00" y2="{y1:.2f}" stroke="black"', svg)
    assert solid == []
