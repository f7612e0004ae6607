"""The library (``satiling.api``): puzzles built from code or loaded by name, solved, counted,
streamed, verified and drawn; and ``examples/``, every file run.

Published counts: the pentominoes fill 6x10 in 2339 ways up to symmetry, 9356 in all, and 3x20 in
2 (8) (Haselgrove; Knuth, "Dancing Links", 2000); the hexiamonds fill a 6x6 rhombus in 156 ways
(Polyform Puzzler); Soma's cube 240 / 480 / 11520 (Winning Ways).
"""
from __future__ import annotations

import doctest
import itertools
import runpy
from pathlib import Path

import pytest

import satiling
import satiling.api
from satiling import SatilingError, VerificationError
from satiling.families.edgematch import EdgeMatchPuzzle
from satiling.families.polyform import PolyformPlacement, PolyformPuzzle

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_docstring_examples():
    result = doctest.testmod(satiling.api, extraglobs={"satiling": satiling})
    assert result.attempted >= 5 and result.failed == 0


def test_pentominoes_from_code_count_as_the_cli():
    puzzle = satiling.Polyform((6, 10), "pentominoes", name="box")
    assert isinstance(puzzle, PolyformPuzzle)            # the family's puzzle, with the methods
    assert puzzle.count(raw=True) == 9356
    assert puzzle.count() == 2339


def test_solutions_are_verified_placements():
    puzzle = satiling.load("pentomino-3x20")
    raw = list(puzzle.solutions(raw=True))
    assert len(raw) == 8 and len({frozenset(s) for s in raw}) == 8
    assert all(isinstance(p, PolyformPlacement) for s in raw for p in s)
    assert all(puzzle.verify(s) for s in raw)
    distinct = list(puzzle.solutions())
    assert len(distinct) == 2 and {puzzle.canonical(s) for s in distinct} == \
        {puzzle.canonical(s) for s in raw}
    first = next(satiling.load("pentomino-6x10").solutions())   # a generator: stops when left
    assert len(first) == 12


def test_solution_draws_itself(tmp_path):
    puzzle = satiling.Polyform((6, 6), "hexiamonds", lattice="triangle")
    solution = puzzle.solve()
    assert puzzle.verify(solution) and len(solution) == 12
    svg = solution.to_svg(tmp_path / "h.svg")
    assert svg.startswith("<svg") and (tmp_path / "h.svg").read_text() == svg
    assert solution._repr_svg_() == svg and puzzle._repr_svg_().startswith("<svg")
    assert str(solution) == satiling.render.to_text(puzzle, list(solution))
    assert puzzle.verify(solution.to_json())              # JSON data is read back
    assert puzzle.count() == 156


def test_boards_and_pieces_in_every_form():
    art = satiling.Polyform("###\n#.#\n###", {"L": "##\n#.", "V": [(0, 0), (1, 0), (1, 1)],
                                             "I": {"cells": [[0, 0], [0, 1]]}})
    cells = satiling.Polyform({(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)},
                              [{"name": "D", "ascii": "##", "count": 4}])
    assert art.count(raw=True) == 0 and cells.count(raw=True) == 2        # a ring of 8: 2 ways
    one_sided = satiling.Polyform((3, 30), "pentominoes", freedom="one-sided")
    assert len(one_sided.pieces) == 18
    cube = satiling.Polyform((3, 3, 3), "soma", lattice="cubic")
    assert cube.count(symmetry="rotations") == 480
    torus = satiling.Polyform((4, 5), "tetrominoes", topology="cylinder", wrap="cols")
    assert torus.count() == satiling.load("tetromino-cylinder-4x5").count() == 7


@pytest.mark.parametrize("bad, words", [
    (lambda: satiling.Polyform((6, 11), "pentominoes"), "66"),
    (lambda: satiling.Polyform((6, 10), "pentominos"), "pentominos"),
    (lambda: satiling.Polyform((6, 10), ["pentominoes", "tetrominoes"]), "one bundled piece set"),
    (lambda: satiling.Polyform(3.5, "pentominoes"), "board"),
    (lambda: satiling.Polyform((6, 10), "pentominoes", freedom="loose"), "loose"),
    (lambda: satiling.load("pentomino-6x10").count(symmetry="mirrors"), "mirrors"),
    (lambda: satiling.load("pentomino-6x10").count(engine="dlx"), "dlx"),
    (lambda: satiling.load("pentomino-6x10").solve(solver="nope"), "nope"),
    (lambda: satiling.EdgeMatching(2, 2, [[0, 1, 2]]), "piece"),
    (lambda: satiling.IQLink(["ZZZ"]), "ZZZ"),
])
def test_bad_input_is_one_error(bad, words):
    with pytest.raises(SatilingError, match=words):
        bad()


_SMALL = satiling.Polyform((3, 20), "pentominoes")


@pytest.mark.parametrize("bad, words", [
    (lambda: _SMALL.count(resume="a\0b"), "resume is a file name"),
    (lambda: satiling.Solution(_SMALL, 5), "a solution is a list of placements, not int"),
    (lambda: satiling.Solution(None, []), "a solution belongs to a puzzle"),
    (lambda: satiling.Solution(_SMALL, [{"piece": "Z9"}]), "a placement"),
    (lambda: satiling.render.to_svg(None, []), "the puzzle comes first"),
    (lambda: satiling.render.to_text(5, []), "the puzzle comes first"),
    (lambda: _SMALL.count(progress="x"), "progress is True or False"),
    (lambda: satiling.IQLink(name=5), "a puzzle's name is a non-empty string"),
    (lambda: satiling.Polyform((1, 2), {"I": "##"}, name=""), "a puzzle's name"),
    (lambda: _SMALL.to_svg(None, 5), "path is a file name, not '5'"),
    (lambda: _SMALL.solve().to_svg(b"x.svg"), "path is a file name"),
    (lambda: _SMALL.solve().to_svg("x.png"), "path x.png: an SVG picture's file name ends in .svg"),
    (lambda: satiling.Polyform((1, 2), (0, 0)), "a piece of your own is a dict"),
    (lambda: satiling.EdgeMatching(1, 2, [[0, 0, 0, 1], [0, 1, 0, 0]], hints=None), "hints is a list"),
], ids=["resume-nul", "solution-int", "solution-no-puzzle", "solution-bad-placement", "to-svg-none",
        "to-text-int", "progress-str", "iqlink-name-int", "empty-name", "svg-path-int", "svg-path-bytes", "svg-path-png",
        "pieces-ints", "hints-none"])
def test_a_bad_argument_to_the_library_is_a_satiling_error(bad, words, tmp_path, monkeypatch):
    """Never a ValueError, TypeError or AttributeError from inside, nor a file named '5'."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SatilingError, match=words):
        bad()
    assert not list(tmp_path.iterdir())


def test_a_wrong_solution_is_refused():
    puzzle = satiling.load("pentomino-3x20")
    solution = list(puzzle.solve())
    with pytest.raises(VerificationError):
        puzzle.verify(solution[1:])


def test_edge_matching_from_code():
    pieces = [[0, 1, 2, 0], [0, 3, 4, 1], [0, 0, 1, 3], [2, 4, 3, 0], [4, 2, 1, 4], [1, 0, 2, 2],
              [3, 1, 0, 0], [1, 2, 0, 1], [2, 0, 0, 2]]
    puzzle = satiling.EdgeMatching(3, 3, pieces)
    assert isinstance(puzzle, EdgeMatchPuzzle)
    solution = puzzle.solve()
    assert puzzle.verify(solution)
    by_engine = {e: (puzzle.count(engine=e), puzzle.count(engine=e, raw=True)) for e in ("backtrack", "sat")}
    assert by_engine["backtrack"] == by_engine["sat"]
    full, raw = by_engine["sat"]
    assert raw == 4 * full and puzzle.count(symmetry="rotations") == full
    assert len(list(puzzle.solutions(raw=True))) == raw
    assert len(list(puzzle.solutions(engine="sat"))) == full
    pinned = satiling.EdgeMatching(3, 3, pieces, fixed=[("A1", 1, 0)])
    assert pinned.count() == pinned.count(raw=True) == full   # the pin breaks the turns
    assert puzzle.to_svg().startswith("<svg")


def test_iqlink_from_code():
    challenge = satiling.IQLink(["TFI", "OGK", "MIK", "JKE", "PLE"])
    solution = challenge.solve()
    assert challenge.verify(solution) and len(solution) == 12


def test_load_keeps_the_family_and_the_source(tmp_path):
    puzzle = satiling.load("soma-cube")
    assert puzzle.family == "polyform" and puzzle._source == "soma-cube"
    assert satiling.load(puzzle.name).count() == 240
    assert satiling.api.load("tetromino-4x5").count() == 0          # parity, before any search
    assert satiling.load("tetromino-4x5").solve() is None


def test_a_time_limit_ends_a_count_with_what_it_found(tmp_path, monkeypatch):
    """A notebook keeps its work: the count so far, how it ended, and a file to go on from.

    How far a count gets within a time limit depends on the machine and its load (a fast one
    counts the 6x10 board whole in 0.3 s; a loaded one may not have begun), so the limit is
    found rather than fixed: one within which the count finished is cut, one that ended it before
    it had anything to keep is lengthened, until a count stops with a file to go on from.  Each
    answer on the way is checked: a finished count is the whole count, a stopped one less, and its
    file goes on to the whole count."""
    from satiling.run import Stop
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    puzzle = satiling.load("pentomino-6x10")
    limit, stopped = 0.3, None
    for _ in range(12):
        part = puzzle.count(time_limit=limit)
        if part.complete:
            assert part == 2339 and part.stop is Stop.DONE and part.checkpoint is None
            limit /= 4
        else:
            assert part.stop is Stop.TIME and 0 <= part < 2339
            if part.checkpoint is not None:
                stopped = part
                break
            limit *= 3                        # stopped before it had anything to keep
    assert stopped is not None, "no time limit stopped the count with its work kept"
    whole = puzzle.count(resume=stopped.checkpoint)
    assert whole == 2339 and whole.complete
    full = puzzle.count()
    assert full == 2339 and full.complete and repr(full) == "2339"


def test_workers_need_a_matrix_or_a_file():
    puzzle = satiling.Polyform((3, 20), "pentominoes")
    assert puzzle.count(workers=2) == 2             # the exact cover's matrix travels
    with pytest.raises(SatilingError, match="instance file"):
        satiling.IQLink(["TFI", "OGK", "MIK", "JKE", "PLE"]).count(workers=2)


def test_library_count_and_solutions_up_to_rotations():
    puzzle = satiling.load("pentomino-3x20")
    assert puzzle.count(symmetry="rotations") == 4
    found = list(puzzle.solutions(symmetry="rotations"))
    rotations = puzzle.rotations()
    assert len({min(tuple(sorted(g(p) for p in s)) for g in rotations) for s in found}) == 4
    with pytest.raises(SatilingError):
        puzzle.count(raw=True, symmetry="rotations")
    with pytest.raises(SatilingError):
        puzzle.solutions(symmetry="mirrors")          # at the call, not at the first solution


# -- examples/ --------------------------------------------------------------------------------------
#: what each example must print (published counts where there are some)
PRINTS = {
    "count_pentominoes.py": ["9356"],
    "soma_rotations.py": ["full: 240", "rotations: 480", "none: 11520"],
    "stream_solutions.py": ["solution 8:"],
    "svg.py": ["wrote hexiamonds.svg: 12 pieces"],
    "iqlink.py": ["True"],
}


def test_every_example_is_listed():
    assert set(PRINTS) <= {p.name for p in EXAMPLES.glob("*.py")}


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.py")))
def test_example_runs(example, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.argv", [example])
    runpy.run_path(str(EXAMPLES / example), run_name="__main__")
    out = capsys.readouterr().out
    assert out.strip()
    for words in PRINTS.get(example, []):
        assert words in out, (example, out[-500:])
    if example == "svg.py":
        assert (tmp_path / "hexiamonds.svg").read_text().startswith("<svg")


def test_islice_stops_the_search():
    puzzle = satiling.load("pentomino-6x10")
    two = list(itertools.islice(puzzle.solutions(raw=True), 2))
    assert len(two) == 2 and all(puzzle.verify(s) for s in two)


def test_nothing_the_library_is_given_is_silently_dropped():
    """A misspelt keyword is refused whatever its value (``symmetry_breakng=False`` meant
    symmetry breaking off); a bad pair of arguments is refused at the call of ``solutions()``,
    not at its first solution; a solver for an engine that takes none is refused."""
    puzzle = satiling.load("pentomino-3x20")
    for typo in ({"symmetry_breakng": False}, {"tme_limit": 0}, {"rw": None}):
        with pytest.raises(SatilingError, match="does not apply"):
            puzzle.count(**typo)
    assert puzzle.count(hints=False) == 2            # another family's option, left off: harmless
    with pytest.raises(SatilingError, match="choose one"):
        puzzle.solutions(raw=True, symmetry="full")
    with pytest.raises(SatilingError, match="takes no solver"):
        puzzle.count(engine="walk", solver="glucose4")


@pytest.mark.parametrize("name", ["pentomino-3x20", "soma-cube", "serenity", "tetromino-cylinder-4x5",
                                  "clue1", "iqlink-starter"])
def test_a_puzzle_draws_its_solution_with_svg(name):
    """``puzzle.svg(solution)`` was the family's NotImplementedError for every polyform (and every
    family): it draws what ``to_svg`` draws, with the family's picture."""
    puzzle = satiling.load(name)
    solution = puzzle.solve()
    assert puzzle.svg(solution) == puzzle.to_svg(solution) == solution.to_svg()
    assert puzzle.svg(solution.to_json()).startswith("<svg")


def test_a_family_puzzle_says_which_call_draws_it():
    """The family's own class (below the renderers) draws nothing itself: one SatilingError that
    names the call that draws it, never NotImplementedError."""
    from satiling import catalog
    raw = catalog.load("pentomino-3x20")
    with pytest.raises(SatilingError, match=r"drawn by satiling.render.to_svg\(puzzle, solution\)"):
        raw.svg([])
    assert satiling.render.to_svg(raw, []).startswith("<svg")


def test_solutions_refuses_what_the_model_refuses_at_the_call():
    """``clue1.solutions(hints=True)`` (no hint pieces) and an option the model refuses for the
    pinned pieces raised at the first ``next``, not at the call; the search still waits for it."""
    with pytest.raises(SatilingError, match="^hints: clue1 has no hint pieces$"):   # no CLI flag named
        satiling.load("clue1").solutions(hints=True)
    pinned = satiling.EdgeMatching(2, 2, [[0, 1, 2, 0], [0, 0, 3, 1], [2, 4, 0, 0], [3, 0, 0, 4]],
                                   fixed=[("A1", 1, 0)])
    with pytest.raises(SatilingError, match="already break the board's symmetry"):
        pinned.solutions(fix_corner=True)
    assert len(list(pinned.solutions())) == 1
    assert list(satiling.load("tetromino-4x5").solutions()) == []      # ruled out: no search


def test_solve_takes_the_engine_workers_and_seed_as_the_command_line_does(tmp_path):
    """``solve(engine=..., workers=..., seed=...)``: the command line's --engine, --workers and
    --seed (they were refused as model options)."""
    puzzle = satiling.load("clue1")
    for kwargs in ({"engine": "backtrack", "seed": 3}, {"workers": 2}, {"engine": "sat", "solver": "glucose4"},
                   {"engine": "cpsat"}):
        assert puzzle.verify(puzzle.solve(**kwargs))
    with pytest.raises(SatilingError, match="^seed is for the backtrack engine"):   # its keyword, no flag
        satiling.load("pentomino-3x20").solve(seed=3)


def test_solve_writes_a_checked_proof_of_no_solution_as_the_command_line_does(tmp_path):
    """``solve(proof=FILE)``: "no solution" with a DRAT proof and its formula, which the command
    line's checker accepts; a puzzle with a solution gets it and no proof."""
    from satiling.cli import main
    proof = tmp_path / "p.drat"
    assert satiling.load("tetromino-4x5").solve(proof=str(proof)) is None
    assert main(["check-proof", str(proof) + ".cnf", str(proof)]) == 0
    found = tmp_path / "q.drat"
    puzzle = satiling.load("pentomino-3x20")
    assert puzzle.verify(puzzle.solve(proof=str(found)))
    assert not found.exists()


_COUNT_THEN_MORE = """
import sys, satiling
puzzle = satiling.load("obeirne-hexagon")
print("counting", flush=True)
if sys.argv[1] == "catch":
    try:
        puzzle.count()
    except satiling.Terminated as stop:
        print(int(stop.count), stop.count.stop.value, stop.count.checkpoint, flush=True)
        raise
else:
    puzzle.count()
print("the program went on", flush=True)
"""


@pytest.mark.parametrize("mode", ["plain", "catch"])
def test_sigterm_during_a_library_count_ends_the_program_with_143(tmp_path, mode):
    """SIGTERM ends a program as it would without satiling (exit 143, as the command line), though
    count() took the signal to keep its work: the count so far goes with the exception."""
    import signal
    import subprocess
    import sys
    import time
    env = {**__import__("os").environ, "XDG_CACHE_HOME": str(tmp_path)}
    for wait in (1, 3, 9, 27):         # into the search (O'Beirne's hexagon counts for minutes)
        proc = subprocess.Popen([sys.executable, "-c", _COUNT_THEN_MORE, mode], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env)
        assert proc.stdout.readline().strip() == "counting"
        time.sleep(wait)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        # a loaded machine may still have been loading the puzzle (SIGTERM's own action, before
        # count() began, is right), or have been in the search's first steps, with nothing yet to
        # keep (no checkpoint): then again, later into the search
        if proc.returncode != -signal.SIGTERM and not (mode == "catch" and out.split()[-1:] == ["None"]):
            break
    assert proc.returncode == 143, err
    assert "went on" not in out and "Traceback" not in err
    if mode == "catch":
        total, stop, checkpoint = out.split()
        assert stop == "terminated" and int(total) >= 0 and Path(checkpoint).is_file()
