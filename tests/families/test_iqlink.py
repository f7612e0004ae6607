"""IQ-Link: geometry against the source paper, the model against the ANU test vectors.

Anchors from outside the code: the paper's placement counts (72 / 144 / 152 / 180), its unit counts
(16 balls, 14 sockets, 6 full rings), its remark that the two elbow balls fit only the light purple
socket; the ANU COMP1110 2016 vectors (legal and illegal pairs, 30 complete solutions, start
positions with their complete lists of completions).
"""
from __future__ import annotations

import json
from pathlib import Path
import random
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from satiling import catalog
from satiling.cli import main as cli_main
from satiling.errors import SatilingError, VerificationError
from satiling.families import iqlink as q
from satiling.families.iqlink.placement import parse_placement
from satiling.apps.iqlink_generate import LEVELS, check_unique, generate
from satiling.search.searchers import solutions


@pytest.fixture(scope="module")
def anu():
    path = catalog.instances_dir() / "data" / "iqlink" / "anu_comp1110_2016_vectors.json"
    return json.loads(path.read_text())


def completions(puzzle: q.IQLinkPuzzle, link_rule: str = "lazy") -> set[str]:
    problem = puzzle.problem(link_rule=link_rule)
    return {q.solution_string(problem.decode(s)) for s in solutions(problem, engine="sat")}


def is_linked(solution: str) -> bool:
    try:
        q.IQLinkPuzzle().verify(q.parse_placements(solution))
        return True
    except VerificationError as e:
        assert "not linked" in str(e)
        return False


# -- geometry: the source paper ------------------------------------------------------------------
def test_placements_on_the_empty_board_match_the_paper():
    counts = {p: len(q.legal_placements(p)) for p in q.PIECES}
    assert counts["A"] == 72                                   # the mirror-symmetric straight piece
    assert [counts[p] for p in "BC"] == [144, 144]             # the other straights
    assert [counts[p] for p in "DEFGH"] == [152] * 5           # obtuse (vees)
    assert [counts[p] for p in "IJKL"] == [180] * 4            # acute (triangles)
    families = {p: q.pieces()[p].family for p in q.PIECES}
    assert Counter(families.values()) == {"line": 3, "vee": 5, "triangle": 4}


def test_pieces_have_the_papers_units_and_symmetries():
    units = Counter()
    for piece in q.pieces().values():
        for u in piece.units:
            units["ball" if u.kind == "ball" else "full ring" if not u.dirs else "socket"] += 1
    assert units == {"ball": 16, "socket": 14, "full ring": 6}
    assert [p.letter for p in q.pieces().values() if p.mirror_symmetric] == ["A"]


def test_elbow_balls_fit_only_the_light_purple_socket():
    """The paper: the dark green and dark blue acute pieces have an elbow ball that only the light
    purple (piece A) socket can hold."""
    for piece in "IJ":
        hosts = set()
        for pl in q.legal_placements(piece):
            elbow = next(peg for peg, u, _ in pl.units() if u.kind == "ball" and len(u.dirs) == 2)
            for other in q.PIECES:
                for ol in q.legal_placements(other):
                    if other != piece and elbow in ol.occupancy() and q.compatible(pl, ol):
                        hosts.add(other)
        assert hosts == {"A"}


def test_half_turn_maps_placements_and_solutions_to_placements_and_solutions(anu):
    for p in q.PIECES:
        legal = set(q.legal_placements(p))
        assert {q.rotate_180(pl) for pl in legal} == legal
    board = q.IQLinkPuzzle(linked=False)
    for s in anu["complete_solutions"]:
        board.verify([q.rotate_180(pl) for pl in q.parse_placements(s)])


# -- the occupancy rule: ANU vectors ---------------------------------------------------------------
def test_anu_pairs(anu):
    first = parse_placement("OEA")
    assert all(q.compatible(first, parse_placement(s[3:])) for s in anu["good_pairs_after_OEA"])
    assert not any(q.compatible(first, parse_placement(s[3:])) for s in anu["bad_pairs_after_OEA"])


def test_anu_solutions_verify_and_the_linked_rule_is_the_only_difference(anu):
    board = q.IQLinkPuzzle(linked=False)
    linked = 0
    for s in anu["complete_solutions"]:
        board.verify(q.parse_placements(s))
        linked += is_linked(s)                 # fails, if at all, only for being disconnected
    assert 0 < linked < len(anu["complete_solutions"])


@pytest.mark.parametrize("index", [pytest.param(i, marks=pytest.mark.slow) if i >= 10 else i
                                   for i in range(30)])           # 20 in the slow set
def test_anu_solution_found_again_with_8_pieces_removed(anu, index):
    solution = q.parse_placements(anu["complete_solutions"][index])
    kept = random.Random(index).sample(solution, 4)
    target = q.solution_string(solution)
    rules = [False] + ([True] if is_linked(target) else [])
    for linked in rules:
        problem = q.IQLinkPuzzle(placed=kept, linked=linked).problem()
        found = any(q.solution_string(problem.decode(s)) == target
                    for s in solutions(problem, engine="sat"))
        assert found, f"{target} with {kept} kept, linked={linked}"


def test_anu_start_positions_have_exactly_the_listed_completions(anu):
    cases = [(c["start"], {c["solution"]}) for c in anu["unique_completion"]]
    cases += [(c["start"], set(c["solutions"])) for c in anu["multiple_completions"]]
    for start, listed in cases:
        assert completions(q.challenge(start, linked=False)) == listed, start


@pytest.mark.parametrize("rule", ["lazy", "eager"])
def test_linked_completions_are_the_listed_ones_that_are_linked(anu, rule):
    """Both encodings of the linked rule keep exactly the ANU completions the verifier accepts."""
    cases = [(c["start"], {c["solution"]}) for c in anu["unique_completion"]]
    cases += [(c["start"], set(c["solutions"])) for c in anu["multiple_completions"]]
    for start, listed in cases:
        assert completions(q.challenge(start), rule) == {s for s in listed if is_linked(s)}, start


# -- challenges -----------------------------------------------------------------------------------
def test_bundled_challenges_are_unique_with_their_answer():
    names = [n for n, _ in catalog.available() if n.startswith("iqlink-") and n != "iqlink-empty"]
    assert {f"iqlink-{level}" for level in LEVELS} | {"iqlink-anu"} <= set(names)
    for name in names:
        puzzle = catalog.load(name)
        result = check_unique(puzzle)
        assert result.unique, name
        assert result.solution == sorted(puzzle.answer), name
        puzzle.verify(result.solution)


def test_generated_wizard_challenge_is_unique_under_both_encodings():
    gen = generate(10, seed=3)
    assert len(gen.puzzle.placed) == 2 and gen.levels == ["wizard"]
    for rule in ("lazy", "eager"):
        result = check_unique(gen.puzzle, link_rule=rule)
        assert result.unique and result.solution == gen.solution
    gen.puzzle.verify(gen.solution)


def test_a_second_solution_is_reported(anu):
    start = anu["multiple_completions"][0]["start"]
    result = check_unique(q.challenge(start, linked=False))
    assert result.solution and result.second and result.solution != result.second
    listed = set(anu["multiple_completions"][0]["solutions"])
    assert {q.solution_string(result.solution), q.solution_string(result.second)} == listed


def test_cli_unique_and_generate(capsys, tmp_path):
    assert cli_main(["iqlink", "unique", "iqlink-anu"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "unique"
    assert "GAEWBABCDJDALEFMFCCGLUHBTIAQJCKKBILF" in out
    assert cli_main(["iqlink", "unique", "KAFCBGUCAGDFLEFPFBBGESHB"]) == 1     # not the answer asked for
    assert "not unique" in capsys.readouterr().out
    assert cli_main(["iqlink", "generate", "--pieces-to-place", "3", "--seed", "2"]) == 0
    path = tmp_path / "c.toml"
    path.write_text(capsys.readouterr().out)
    puzzle = catalog.load(str(path))
    assert len(puzzle.free) == 3 and check_unique(puzzle).unique
    assert cli_main(["iqlink", "unique", "AAAB"]) == 2


# -- input errors and pictures --------------------------------------------------------------------
def test_bad_input_is_one_clear_error():
    for text in ("AA", "ZAA", "AAA", "BAG"):            # short, bad peg, off the board, A is symmetric
        with pytest.raises(SatilingError):
            q.parse_placements(text)
    with pytest.raises(SatilingError, match="placed twice"):
        q.challenge("BAACAA")
    with pytest.raises(SatilingError, match="collide"):
        q.challenge("BAABBA")
    with pytest.raises(SatilingError, match="answer"):
        q.load_instance({"placed": ["BAA"], "answer": "BAA"}, "bad")
    with pytest.raises(SatilingError):
        q.IQLinkPuzzle().problem(link_rule="sometimes")


def test_pictures_are_svg():
    from satiling.render.iqlink_svg import challenge_svg, solution_svg
    puzzle = catalog.load("iqlink-wizard")
    for svg in (challenge_svg(puzzle), solution_svg(puzzle, puzzle.answer)):
        root = ET.fromstring(svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        ns = "{http://www.w3.org/2000/svg}"
        pieces = [g for g in root.iter(ns + "g") if g.find(ns + "title") is not None]
        assert len(pieces) == 12                             # one group per piece, named
    text = puzzle.text(puzzle.answer)
    assert q.solution_string(puzzle.answer) in text


@pytest.mark.slow      # slow (15 s): .ci/run runs it after make test
def test_empty_board_cube_matches_an_independent_search():
    """Piece A on CAA: the same 64 solutions as an independent exhaustive search listed (the full
    empty-board count, 50000, is tools/experiments/iqlink_count.py's job: 18 CPU-minutes)."""
    path = Path(__file__).parents[1] / "data" / "iqlink_empty_cube_CAA.txt"
    listed = {line for line in path.read_text().splitlines() if line and not line.startswith("#")}
    puzzle = q.IQLinkPuzzle(placed=q.parse_placements("CAA"), linked=False)
    problem = puzzle.problem()
    found = {q.solution_string(problem.decode(sol)) for sol in solutions(problem)}
    assert found == listed and len(found) == 64
    linked = [s for s in found if len(q.link_components(q.parse_placements(s))) == 1]
    assert len(linked) == 33
