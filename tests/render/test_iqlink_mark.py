"""IQ-Link's hint picture points at the hinted piece as the other families' do: on an orange halo
(``class="marked"``), the same piece's shapes drawn wider underneath.  Where the halo is is read
from the picture: the board's pegs are its circles titled by name."""
import math
import re
import xml.etree.ElementTree as ET

import satiling
from satiling.render import pictures
from satiling.render.pieces import placements_svg
from satiling.render.svg import MARK

SVG = "{http://www.w3.org/2000/svg}"


def _pegs(root: ET.Element) -> dict[str, tuple[float, float]]:
    return {c.find(f"{SVG}title").text: (float(c.get("cx")), float(c.get("cy")))
            for c in root.iter(f"{SVG}circle") if c.find(f"{SVG}title") is not None}


def test_the_hinted_iqlink_piece_is_on_an_orange_halo_at_its_pegs():
    puzzle = satiling.load("iqlink-anu")
    hint = puzzle.hint(seed=3)
    svg = placements_svg(puzzle, [*puzzle.pins(), hint], marked=[hint])      # `satiling hint --svg`'s
    root = ET.fromstring(svg)
    halos = [g for g in root.iter(f"{SVG}g") if g.get("class") == "marked"]
    assert [g.find(f"{SVG}title").text for g in halos] == [hint.code]
    pegs = _pegs(root)
    shapes = list(halos[0])[1:]
    assert shapes and all(MARK in (s.get("stroke"), s.get("fill")) for s in shapes)
    centres = [(float(s.get("cx")), float(s.get("cy"))) for s in shapes if s.tag == f"{SVG}circle"]
    starts = [tuple(map(float, re.match(r"M ([-\d.]+) ([-\d.]+)", s.get("d")).groups()))
              for s in shapes if s.tag == f"{SVG}path"]
    spacing = min(math.dist(a, b) for a in pegs.values() for b in pegs.values() if a != b)
    for peg, unit, _ in hint.units():
        at = pegs[peg]
        on_peg = any(math.dist(at, c) < 0.2 for c in centres)              # a ball, a closed ring
        if unit.kind == "ring":                            # or a ring's arcs, nearer it than the next peg
            on_peg = on_peg or any(math.dist(at, p) < spacing / 2 for p in starts)
        assert on_peg, (peg, unit.kind, centres, starts)
    # the piece itself drawn too, at full strength (the pins are faded)
    assert sum(1 for g in root.iter(f"{SVG}g") if g.get("opacity") == "1.0"
               and g.find(f"{SVG}title").text == hint.code) == 1


def test_an_iqlink_solution_marks_nothing_unless_asked():
    puzzle = satiling.load("iqlink-anu")
    solution = puzzle.solve()
    assert 'class="marked"' not in pictures.solution_svg(puzzle, solution)
    assert pictures.solution_svg(puzzle, solution, marked=solution[-1:]).count('class="marked"') == 1
