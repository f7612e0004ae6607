"""Triangle, hexagon and drafter lattices: geometry checked against the plane, polyform counts
against OEIS, packing counts against the literature (Knuth, Dancing Links 2000; Goodger's
Polyform Puzzler).

Solutions are counted by a small reference search (:func:`brute.exact_covers`), so the counts do
not depend on the project's search code.
"""
from __future__ import annotations

import math
import re
from itertools import combinations

import pytest

from satiling import load, render
from satiling.errors import SatilingError
from satiling.geometry import Lattice, lattice
from satiling.geometry.drafter import cells_from_word

from brute import centre as _centre, exact_covers


def congruent(lat: Lattice, a, b) -> bool:
    """Whether two cell sets are images of each other under the lattice's motions."""
    return lat.normalize(b) in lat.orientations(lat.normalize(a), True)

LATTICES = ["square", "triangle", "hexagon", "drafter"]


# -- geometry ------------------------------------------------------------------------------------
def _patch(lat: Lattice) -> list:
    """A few dozen cells around the origin, reached through neighbours."""
    start = {"square": (0, 0), "triangle": (0, 0), "hexagon": (0, 0), "drafter": (0, 0, 0)}[lat.name]
    seen, frontier = {start}, [start]
    for _ in range(3):
        frontier = [n for c in frontier for n in lat.neighbors(c) if n not in seen]
        seen.update(frontier)
    return sorted(seen)


def _dist(p, q) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])


def _signed_area(p, q, r) -> float:
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])


def _key(p) -> tuple[float, float]:
    return (round(p[0], 6), round(p[1], 6))


@pytest.mark.parametrize("name", LATTICES)
def test_point_group_is_a_group_of_isometries(name):
    """Every transform moves cell centres rigidly (rotations keep orientation, reflections flip
    it), maps each cell's polygon onto a congruent one, and the set is closed under composition."""
    lat = lattice(name)
    trs = lat.transforms()
    assert len(trs) == (8 if name == "square" else 12)
    assert trs[0].name == "identity" and all(trs[0].apply(c) == c for c in _patch(lat))
    proper = [t.proper for t in trs]
    assert proper == sorted(proper, reverse=True) and proper.count(True) == len(trs) // 2
    cells = _patch(lat)
    centres = {c: _centre(lat, c) for c in cells}
    a, b, c = cells[0], cells[len(cells) // 2], cells[-1]
    for tr in trs:
        moved = {x: _centre(lat, tr.apply(x)) for x in cells}
        for x, y in combinations(cells[:12], 2):
            assert _dist(moved[x], moved[y]) == pytest.approx(_dist(centres[x], centres[y]))
        before = _signed_area(centres[a], centres[b], centres[c])
        after = _signed_area(moved[a], moved[b], moved[c])
        assert after == pytest.approx(before if tr.proper else -before)
        for x in cells:
            sides = sorted(_dist(p, q) for p, q in zip(lat.polygon(x), lat.polygon(x)[1:] + lat.polygon(x)[:1]))
            y = tr.apply(x)
            sides2 = sorted(_dist(p, q) for p, q in zip(lat.polygon(y), lat.polygon(y)[1:] + lat.polygon(y)[:1]))
            assert sides2 == pytest.approx(sides)
    # closure: the composition of two transforms acts like some transform of the list
    for t1 in trs:
        for t2 in trs:
            images = [t1.apply(t2.apply(x)) for x in cells]
            assert any(images == [t.apply(x) for x in cells] for t in trs)


@pytest.mark.parametrize("name", LATTICES)
def test_translations_keep_cell_kind_and_move_rigidly(name):
    lat = lattice(name)
    cells = _patch(lat)
    for a in cells[:10]:
        for b in cells:
            t = lat.translation(a, b)
            if t is None:
                # no translation: the two cells have differently oriented polygons
                pa = [(_key((p[0] - _centre(lat, a)[0], p[1] - _centre(lat, a)[1]))) for p in lat.polygon(a)]
                pb = [(_key((p[0] - _centre(lat, b)[0], p[1] - _centre(lat, b)[1]))) for p in lat.polygon(b)]
                assert sorted(pa) != sorted(pb)
                continue
            assert lat.shift(a, t) == b
            dx = _centre(lat, b)[0] - _centre(lat, a)[0]
            dy = _centre(lat, b)[1] - _centre(lat, a)[1]
            for c in cells[:10]:
                moved = _centre(lat, lat.shift(c, t))
                assert moved == pytest.approx((_centre(lat, c)[0] + dx, _centre(lat, c)[1] + dy))
        assert lat.translation(a, lat.origin(a)) is not None


@pytest.mark.parametrize("name", LATTICES)
def test_neighbours_are_the_cells_sharing_a_side(name):
    lat = lattice(name)
    cells = _patch(lat)
    # a larger patch so that every neighbour of `cells` is in it
    big = sorted({n for c in cells for n in lat.neighbors(c)} | set(cells))
    sides = {c: {frozenset((_key(p), _key(q))) for p, q in zip(lat.polygon(c), lat.polygon(c)[1:] + lat.polygon(c)[:1])}
             for c in big}
    area = {c: abs(sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(lat.polygon(c), lat.polygon(c)[1:] + lat.polygon(c)[:1])))
            for c in big}
    assert max(area.values()) == pytest.approx(min(area.values()))     # all cells congruent
    for c in cells:
        sharing = {d for d in big if d != c and sides[c] & sides[d]}
        assert sharing == set(lat.neighbors(c))
        assert len(lat.neighbors(c)) == len(lat.polygon(c))


def _free_polyforms(lat: Lattice, n: int, seeds) -> int:
    """Free n-cell polyforms, grown cell by cell and reduced by the lattice's point group."""
    current = {min(lat.orientations(lat.normalize([s]))) for s in seeds}
    for _ in range(n - 1):
        grown = set()
        for shape in current:
            cells = set(shape)
            for c in shape:
                for nb in lat.neighbors(c):
                    if nb not in cells:
                        grown.add(min(lat.orientations(cells | {nb})))
        current = grown
    return len(current)


@pytest.mark.parametrize("name, seeds, counts", [
    ("square", [(0, 0)], [1, 1, 2, 5, 12, 35]),                  # OEIS A000105
    ("triangle", [(0, 0)], [1, 1, 1, 3, 4, 12, 24, 66]),         # OEIS A000577
    ("hexagon", [(0, 0)], [1, 1, 3, 7, 22, 82]),                 # OEIS A000228
])
def test_free_polyform_counts_match_oeis(name, seeds, counts):
    lat = lattice(name)
    assert [_free_polyforms(lat, n, seeds) for n in range(1, len(counts) + 1)] == counts


def test_drafter_polyforms_grow_from_a_single_element_kind():
    """All twelve element types are one orbit of the point group (one kind of monodrafter element)."""
    lat = lattice("drafter")
    assert len({lat.normalize([tr.apply((0, 0, 0))]) for tr in lat.transforms()}) == 12
    assert len(lat.orientations([(0, 0, 0)])) == 12


# -- shapes from text ------------------------------------------------------------------------------
@pytest.mark.parametrize("name, spec, size", [
    ("triangle", {"parallelogram": [6, 6]}, 72), ("triangle", {"parallelogram": [3, 12]}, 72),
    ("triangle", {"triangle": 5}, 25), ("triangle", {"hexagon": 2}, 24),
    ("hexagon", {"parallelogram": [4, 7]}, 28), ("hexagon", {"triangle": 7}, 28),
    ("hexagon", {"hexagon": 3}, 19),
])
def test_region_specs(name, spec, size):
    lat = lattice(name)
    cells = lat.parse_spec(spec, "test")
    assert len(cells) == len(set(cells)) == size and lat.connected(cells)


def test_standard_regions_have_their_symmetry():
    """A rhombus has 4 symmetries, a general parallelogram 2, triangles 6 and hexagons 12."""
    tri, hexl = lattice("triangle"), lattice("hexagon")
    sym = lambda lat, spec: len(lat.region_symmetries(frozenset(lat.parse_spec(spec, "t"))))
    assert sym(tri, {"parallelogram": [6, 6]}) == 4
    assert sym(tri, {"parallelogram": [4, 9]}) == 2
    assert sym(tri, {"triangle": 4}) == 6
    assert sym(tri, {"hexagon": 2}) == 12
    assert sym(hexl, {"parallelogram": [4, 4]}) == 4
    assert sym(hexl, {"parallelogram": [4, 7]}) == 2
    assert sym(hexl, {"triangle": 7}) == 6
    assert sym(hexl, {"hexagon": 3}) == 12


def test_ascii_art_draws_what_it_says():
    tri, hexl = lattice("triangle"), lattice("hexagon")
    # two rows of three triangles starting with an up-triangle: the regular hexagon
    assert congruent(tri, tri.parse_ascii("###\n###"), tri.parse_spec({"hexagon": 1}, "t"))
    assert hexl.parse_ascii("o o o\n o o") == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)]
    with pytest.raises(SatilingError, match="column"):
        hexl.parse_ascii("oo")


@pytest.mark.parametrize("bad, message", [
    ("AAX", "not a step"), ("AAa", "not a step"), ("AAAA", "does not close"),
    ("AACCEE" + "AGIK", "does not close"), ("", "empty"),
])
def test_bad_boundary_words_are_reported(bad, message):
    with pytest.raises(SatilingError, match=message):
        cells_from_word(bad)


def test_boundary_words_make_the_unit_triangle_and_hexagon():
    # the unit triangle (two edge halves per side) is 6 elements; a hexagon of side 1 is 36
    assert len(cells_from_word("AAEEII")) == 6
    assert len(cells_from_word("AACCEEGGIIKK")) == 36
    with pytest.raises(SatilingError, match="simple outline"):
        cells_from_word("AAEEIIAAEEII")          # the same triangle walked twice


def test_bad_sizes_are_reported():
    with pytest.raises(SatilingError, match="positive integer"):
        lattice("triangle").parse_spec({"parallelogram": [6]}, "t")
    with pytest.raises(SatilingError, match="positive integer"):
        lattice("hexagon").parse_spec({"triangle": 0}, "t")


# -- piece sets ------------------------------------------------------------------------------------
@pytest.mark.parametrize("instance, size, count", [("hexiamond-6x6", 6, 12), ("tetrahex-4x7", 4, 7)])
def test_piece_sets_are_all_free_polyforms(instance, size, count):
    """12 hexiamonds and 7 tetrahexes exist (OEIS A000577, A000228); the sets hold each once."""
    puzzle = load(instance)
    lat = puzzle.lattice
    assert len(puzzle.pieces) == count
    assert all(len(p.shape) == size for p in puzzle.pieces)
    assert len({min(lat.orientations(p.shape)) for p in puzzle.pieces}) == count


def test_fast_drafter_fits_equal_the_generic_search():
    puzzle = load("serenity")
    lat = puzzle.lattice
    for piece in puzzle.pieces:
        for shape in puzzle.orientations(piece):
            assert lat.fits(shape, puzzle.region) == Lattice.fits(lat, shape, puzzle.region)


# -- packing counts ----------------------------------------------------------------------------------
PUBLISHED = {   # name: (distinct up to the board's symmetry, all solutions)
    "hexiamond-6x6": (156, 624),       # Knuth, Dancing Links (2000); rhombus has 4 symmetries
    "hexiamond-4x9": (74, 148),        # Goodger, Polyform Puzzler
    "hexiamond-3x12": (0, 0),
    "tetrahex-4x7": (9, 18),
    "tetrahex-triangle7": (0, 0),
}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n == "hexiamond-6x6" else n
                                  for n in sorted(PUBLISHED)])     # 624 covers by the oracle: slow
def test_published_counts(name):
    distinct, raw = PUBLISHED[name]
    puzzle = load(name)
    sols = list(exact_covers(puzzle))
    assert len(sols) == raw
    for s in sols[:5]:
        puzzle.verify(s)
    assert len({puzzle.canonical(s) for s in sols}) == distinct


# -- pictures ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["hexiamond-4x9", "tetrahex-4x7", "trinity"])
def test_svg_of_a_solution(name):
    puzzle = load(name)
    sol = next(exact_covers(puzzle))
    svg = render.to_svg(puzzle, sol)
    assert svg.startswith("<svg") and svg.count("<g>") == len(sol)
    assert svg.count("<polygon") == len(puzzle.region)
    assert not re.search(r'"[^"]*\bnan\b', svg)           # no coordinate is NaN
    assert svg.count("<text") == len(sol)                 # every piece named


@pytest.mark.parametrize("name", ["hexiamond-4x9", "tetrahex-4x7", "pentomino-6x10"])
def test_terminal_picture_is_the_lattice_ascii_art(name):
    """A picture in the terminal draws each piece's cells where the lattice's ASCII art puts them:
    read back, every letter gives a shape of its piece."""
    puzzle = load(name)
    sol = next(exact_covers(puzzle))
    picture = render.to_text(puzzle, sol)
    lat = puzzle.lattice
    names = {pl.piece: pl for pl in sol}
    for letter in {ch for ch in picture if ch not in " .\n"}:
        cells = lat.parse_ascii("\n".join("".join(ch if ch == letter else " " for ch in line)
                                          for line in picture.splitlines()))
        piece = puzzle.by_name[letter]
        assert lat.normalize(cells) in puzzle.orientations(piece)
        assert len(cells) == len(names[letter].cells)


def test_drafter_picture_names_every_piece():
    puzzle = load("trinity")
    sol = next(exact_covers(puzzle))
    picture, key = render.to_text(puzzle, sol).split("\n\n")
    from satiling.render.text import letters
    shown = set(picture) - set(" .\n")
    names = letters([p.name for p in puzzle.pieces])
    assert shown == set(names.values())
    assert max(map(len, picture.splitlines())) < 100
    # the SVG writes the pieces' names (210, ...): the legend says which letter is which
    assert key == "legend: " + "  ".join(f"{names[p.name]}={p.name}" for p in puzzle.pieces)


@pytest.mark.parametrize("name", ["obeirne-hexagon", "serenity"])
def test_labels_sit_inside_their_pieces(name):
    # issue 22: the centre of one small cell put O'Beirne's and Serenity's names on outlines; the
    # label point is now at least as far from the outline as every cell centre, and inside
    from satiling.render.svg import _clearance, _label_point, boundary
    from satiling.search.solve import solve
    puzzle = load(name)
    problem = puzzle.problem()
    sol = problem.decode(solve(problem).true_vars)
    for pl in sol:
        polys = [puzzle.lattice.polygon(c) for c in pl.cells]
        outline = boundary(polys)
        point = _label_point(polys)
        centres = [(sum(x for x, _ in p) / len(p), sum(y for _, y in p) / len(p)) for p in polys]
        assert _clearance(point, outline) >= max(_clearance(c, outline) for c in centres) - 1e-9
        room = _clearance(point, outline)
        for k in range(8):                     # a disc around the point lies inside the piece
            x, y = point[0] + room / 2 * math.cos(k + 0.3), point[1] + room / 2 * math.sin(k + 0.3)
            assert any(_inside(p, (x, y)) for p in polys)


def _inside(poly, point) -> bool:
    from satiling.render.text import _inside as inside
    return inside(poly, *point)


def test_terminal_pictures_in_colour_match_the_svg_and_strip_to_the_text():
    from satiling.render.svg import palette
    from satiling.search.solve import solve
    puzzle = load("serenity")
    problem = puzzle.problem()
    sol = problem.decode(solve(problem).true_vars)
    plain = render.to_text(puzzle, sol)
    for mode in ("truecolor", "256"):
        coloured = render.to_text(puzzle, sol, colour=mode)
        assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain
    first = sorted(sol, key=lambda p: p.sort_key())[0]        # the SVG's first colour
    r, g, b = (int(palette(len(sol))[0][k:k + 2], 16) for k in (1, 3, 5))
    assert f"\x1b[48;2;{r};{g};{b};30m" in render.to_text(puzzle, sol, colour="truecolor")
    # the legend names what the SVG writes: every piece's name is a label of the SVG
    key = plain.split("\n\n")[1]
    svg_names = set(re.findall(r">([^<>]+)</text>", render.to_svg(puzzle, sol)))
    assert {pair.split("=")[1] for pair in key.split()[1:]} == svg_names
    assert first.piece in svg_names


def test_a_set_larger_than_the_ascii_letters_gets_a_letter_each():
    from satiling.render.text import letters
    names = [str(n) for n in range(1, 210)]                      # Monckton's Eternity
    shown = letters(names)
    assert len(set(shown.values())) == 209 and "?" not in shown.values()
    assert all(len(ch) == 1 and not ch.isspace() and ch not in ".:" for ch in shown.values())
