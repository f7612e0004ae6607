"""``satiling decode`` of complete, partial and contradictory models.

The model comes from an independent solver (PySAT's CaDiCaL on the DIMACS file that ``satiling
encode`` writes); partial models keep some of its placement literals, decoded through the file's own
``c v`` map.  Scores are checked against ``satiling score`` on the same board, written independently.
"""
from __future__ import annotations

import re

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from satiling import catalog
from satiling.backends.dimacs import write_dimacs
from varmap import read_variable_map
from satiling.families.edgematch import parse_square
from satiling.families.edgematch.score import parse_board, score
from satiling.render.edgematch_svg import board_text

from clirun import run_cli

PARTIAL = re.compile(r"partial model: (\d+) of (\d+) squares filled, score (\d+)/(\d+); not a solution")


@pytest.fixture(scope="module")
def clue1(tmp_path_factory):
    """(puzzle, the solver's model, the 'c v' map, a work directory) for the 6x6 clue puzzle 1."""
    work = tmp_path_factory.mktemp("clue1")
    cnf = work / "clue1.cnf"
    r = run_cli("encode", "clue1", "-o", str(cnf))
    assert r.returncode == 0, r.stderr
    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf))) as s:
        assert s.solve()
        model = s.get_model()
    with open(cnf) as f:
        var_map = read_variable_map(f)
    return catalog.load("clue1"), model, var_map, work


def tile_vars(model, var_map):
    """The true placement variables of a model, in variable order."""
    return [lit for lit in model if lit > 0 and lit in var_map]


def board_of(puzzle, var_map, variables):
    """square -> (piece, rotation) of some placement variables, read from the 'c v' map."""
    return {parse_square(var_map[v]["square"], puzzle.rows, puzzle.cols):
            (var_map[v]["piece"], var_map[v]["rotation"]) for v in variables}


def decode(cli, work, text, *extra):
    out = work / "solver-output.txt"
    out.write_text(text)
    return cli("decode", "clue1", str(out), *extra)


def printed_board(puzzle, stdout):
    """The board in decode's picture: the grid lines, before the score line."""
    grid = stdout.split("\nscore ")[0]
    return parse_board(puzzle, grid)


# -- complete model -------------------------------------------------------------------------------
def test_full_model_is_a_verified_solution(cli, clue1):
    puzzle, model, var_map, work = clue1
    r = decode(cli, work, "s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    assert r.returncode == 0, r.stderr
    board = printed_board(puzzle, r.stdout)
    assert board == board_of(puzzle, var_map, tile_vars(model, var_map))
    puzzle.verify(puzzle.tiles(board))                    # the picture shows a real solution
    assert "# score 60/60" in r.stdout


# -- partial models -------------------------------------------------------------------------------
def half_model(model, var_map):
    """The model without every other true placement (their literals dropped, not negated), and
    the placement variables kept."""
    tiles = tile_vars(model, var_map)
    dropped = set(tiles[1::2])
    return [lit for lit in model if lit not in dropped], tiles[::2]


@pytest.mark.parametrize("form", ["competition", "plain"])
def test_partial_model_prints_the_board_and_its_score(cli, clue1, form):
    puzzle, model, var_map, work = clue1
    lits, kept = half_model(model, var_map)
    if form == "competition":       # an interrupted solver: 's UNKNOWN' and what it had
        text = "c interrupted\ns UNKNOWN\nv " + " ".join(map(str, lits)) + " 0\n"
    else:                           # a plain literal list of the placements only
        text = " ".join(map(str, kept)) + "\n"
    svg = work / f"partial-{form}.svg"
    r = decode(cli, work, text, "--svg", str(svg))
    assert r.returncode == 1, r.stderr
    expected = board_of(puzzle, var_map, kept)
    assert len(expected) == 18 and printed_board(puzzle, r.stdout) == expected

    # the same board written independently and scored by 'satiling score'
    board_file = work / f"board-{form}.txt"
    board_file.write_text(board_text(puzzle, expected))
    scored = cli("score", "clue1", str(board_file))
    assert scored.returncode == 0, scored.stderr
    assert r.stdout == scored.stdout                     # grid, viewer URL and score line
    s = score(puzzle, expected)
    assert f"score {s.matched}/60  (" in r.stdout and 0 < s.matched < 60

    m = PARTIAL.search(r.stderr)
    assert m, r.stderr
    assert tuple(map(int, m.groups())) == (18, 36, s.matched, 60)
    assert svg.read_text().startswith("<svg")


def test_full_board_that_is_not_a_solution(cli, clue1):
    """Every square filled, pieces swapped so joins break: as a plain literal list, a consistent
    model that is not a solution (the board and its score, exit 1); with 's SATISFIABLE' the
    solver claims a model this is not: refused in one line."""
    puzzle, model, var_map, work = clue1
    tiles = tile_vars(model, var_map)
    placed = {v: var_map[v] for v in tiles}
    inner = [v for v in tiles if placed[v]["square"] in ("C3", "D4")]
    a, b = (placed[v] for v in inner)
    swap = [next(v for v, d in var_map.items() if d == {"square": a["square"], "piece": b["piece"],
                                                          "rotation": b["rotation"]}),
            next(v for v, d in var_map.items() if d == {"square": b["square"], "piece": a["piece"],
                                                          "rotation": a["rotation"]})]
    new = [v for v in tiles if v not in inner] + swap
    line = one_error_line(decode(cli, work, "s SATISFIABLE\nv " + " ".join(map(str, new)) + " 0\n"))
    assert "the solver says SATISFIABLE" in line and "does not match" in line
    r = decode(cli, work, " ".join(map(str, new)) + " 0\n")
    assert r.returncode == 1, r.stderr
    board = board_of(puzzle, var_map, new)
    s = score(puzzle, board)
    m = PARTIAL.search(r.stderr)
    assert m and tuple(map(int, m.groups())) == (36, 36, s.matched, 60) and s.matched < 60
    assert "does not match" in r.stderr                  # why a full board still fails
    assert printed_board(puzzle, r.stdout) == board


# -- contradictory models: exit 2, one line ------------------------------------------------------
def one_error_line(r) -> str:
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("satiling: error:")
    return lines[0]


def test_two_pieces_on_one_square_is_an_error(cli, clue1):
    puzzle, model, var_map, work = clue1
    tiles = tile_vars(model, var_map)
    first = var_map[tiles[0]]
    intruder = next(v for v, d in var_map.items()
                    if d["square"] == first["square"] and d["piece"] != first["piece"])
    r = decode(cli, work, " ".join(map(str, tiles[:10] + [intruder])) + "\n")
    line = one_error_line(r)
    assert f"square {first['square']} holds pieces" in line
    assert str(first["piece"]) in line and str(var_map[intruder]["piece"]) in line
    assert r.stdout == ""


def test_one_piece_on_two_squares_is_an_error(cli, clue1):
    puzzle, model, var_map, work = clue1
    tiles = tile_vars(model, var_map)
    first = var_map[tiles[0]]                            # a corner piece on a corner
    elsewhere = next(v for v, d in var_map.items()
                     if d["piece"] == first["piece"] and d["square"] != first["square"])
    r = decode(cli, work, "s UNKNOWN\nv " + " ".join(map(str, [tiles[0], elsewhere])) + " 0\n")
    line = one_error_line(r)
    assert f"piece {first['piece']} is on both" in line


# -- no model, no solution, other families -------------------------------------------------------
def test_unknown_without_a_model_and_unsat(cli, clue1):
    puzzle, model, var_map, work = clue1
    r = decode(cli, work, "c timeout\ns UNKNOWN\n")
    assert r.returncode == 3 and "no answer" in r.stderr and r.stdout == ""
    r = decode(cli, work, "s UNSATISFIABLE\n")
    assert r.returncode == 1 and r.stdout.strip() == "no solution"


def test_partial_polyform_model_is_one_clear_line(cli, tmp_path):
    puzzle = catalog.load("pentomino-6x10")
    problem = puzzle.problem()
    with open(tmp_path / "p.cnf", "w") as f:
        write_dimacs(problem, f)
    with open(tmp_path / "p.cnf") as f:
        var_map = read_variable_map(f)
    # two pieces that do not overlap: a consistent start, not a solution
    a = next(v for v, d in var_map.items() if d["piece"] == "I")
    cells_a = {tuple(c) for c in var_map[a]["cells"]}
    b = next(v for v, d in var_map.items()
             if d["piece"] == "X" and not cells_a & {tuple(c) for c in d["cells"]})
    out = tmp_path / "out.txt"
    out.write_text(f"{a} {b} 0\n")
    r = cli("decode", "pentomino-6x10", str(out))
    assert r.returncode == 1 and "Traceback" not in r.stderr and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "partial model: 2 placements set true; not a complete solution" in lines[0]


# -- the whole model against the whole formula (solver formats, encodings) ------------------------
def test_minisat_result_file_is_read(cli, clue1):
    puzzle, model, var_map, work = clue1
    r = decode(cli, work, "SAT\n" + " ".join(map(str, model)) + " 0\n")
    assert r.returncode == 0, r.stderr
    assert printed_board(puzzle, r.stdout) == board_of(puzzle, var_map, tile_vars(model, var_map))
    r = decode(cli, work, "UNSAT\n")
    assert r.returncode == 1 and r.stdout.strip() == "no solution"


def test_unsatisfiable_with_a_model_is_an_error(cli, clue1):
    puzzle, model, var_map, work = clue1
    line = one_error_line(decode(cli, work, "s UNSATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n"))
    assert "UNSATISFIABLE and also gives a model" in line


def test_literals_beyond_the_formula_are_an_error(cli, clue1):
    puzzle, model, var_map, work = clue1
    top = len(model)                                   # the solver gives every variable a value
    line = one_error_line(decode(cli, work, "v " + " ".join(map(str, model)) + f" {top + 7} 0\n"))
    assert f"names variable {top + 7}, but the formula has {top}" in line


def test_a_flipped_auxiliary_variable_names_the_broken_clause(cli, clue1):
    """Every placement as the solver found it, one auxiliary variable flipped: the placements alone
    would pass, but the model is not a model of the formula."""
    puzzle, model, var_map, work = clue1
    aux = [lit for lit in model if abs(lit) not in var_map]
    assert aux, "clue1's direct encoding has auxiliary variables"
    flipped = [-lit if lit == aux[0] else lit for lit in model]
    cnf = CNF(from_file=str(work / "clue1.cnf"))
    first = next(k for k, c in enumerate(cnf.clauses, 1)
                 if not any(lit in set(flipped) for lit in c))          # found independently
    line = one_error_line(decode(cli, work, "s SATISFIABLE\nv " + " ".join(map(str, flipped)) + " 0\n"))
    assert f"breaks clause {first} of the formula" in line
    line = one_error_line(decode(cli, work, "s SATISFIABLE\nv " + " ".join(map(str, flipped)) + " 0\n",
                                 "--cnf", str(work / "clue1.cnf")))
    assert f"breaks clause {first}" in line and "not a model of" in line


def test_the_encoding_comes_from_the_dimacs_header(cli, clue1):
    """A model of the compact encoding: decoded through --cnf without repeating the option, and
    without --cnf the mismatch says which option would fit."""
    puzzle, _, _, work = clue1
    cnf = work / "compact.cnf"
    assert cli("encode", "clue1", "--encoding", "compact", "-o", str(cnf)).returncode == 0
    assert cnf.read_text().startswith("c satiling encode clue1 --amo pairwise --encoding compact\n")
    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf))) as s:
        assert s.solve()
        model = s.get_model()
    text = "s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n"
    r = decode(cli, work, text, "--cnf", str(cnf))
    assert r.returncode == 0, r.stderr
    puzzle.verify(puzzle.tiles(printed_board(puzzle, r.stdout)))
    line = one_error_line(decode(cli, work, text))
    assert "was it encoded with --encoding compact?" in line
    line = one_error_line(decode(cli, work, text, "--cnf", str(cnf), "--hints"))
    assert "--hints" in line


@pytest.mark.parametrize("head", ["s SATISFIABLE\nv ", "SAT\n"])
def test_a_model_cut_short_is_refused_not_read_as_partial(cli, clue1, head):
    """The SAT competition's 'v' lines and MiniSat's result file both close the model with 0: a
    model without it was cut short (a full disk, a killed solver), not a partial model (exit 1,
    which says "no solution")."""
    puzzle, model, var_map, work = clue1
    cut = " ".join(map(str, model[: len(model) // 3]))
    line = one_error_line(decode(cli, work, head + cut + "\n"))
    assert "does not end with 0" in line
    # the same values, closed: a partial model the solver calls satisfiable is no answer of it
    line = one_error_line(decode(cli, work, head + cut + " 0\n"))
    assert "the solver says SATISFIABLE, but its model is no solution of clue1" in line


def test_the_solvers_no_solution_is_said_to_be_its_word(cli, clue1, tmp_path):
    """An 's UNSATISFIABLE' is printed as solve prints "no solution" (exit 1), and stderr says it
    is the solver's word: nothing ties it to this puzzle, here the output of another formula."""
    puzzle, model, var_map, work = clue1
    r = decode(cli, work, "c another puzzle's formula\ns UNSATISFIABLE\n")
    assert (r.returncode, r.stdout) == (1, "no solution\n")
    assert r.stderr.splitlines() == ["satiling: clue1: no solution, in the solver's word; not checked "
                                     "here (decode --proof FILE checks the solver's DRAT proof of it)"]


def test_a_complete_model_of_another_formula_is_refused_not_read_as_partial(cli, clue1, tmp_path):
    """--cnf with a formula whose clauses were replaced (the same header): a model of it that
    keeps every clause yet places no solution was 'a partial model' (exit 1, "no solution"); a
    complete model says the formula is not satiling's model of the puzzle (exit 2)."""
    puzzle, model, var_map, work = clue1
    original = (work / "clue1.cnf").read_text().splitlines()
    top = int(next(ln for ln in original if ln.startswith("p cnf")).split()[2])
    forged = tmp_path / "forged.cnf"
    forged.write_text("\n".join(ln if ln.startswith(("c", "p")) else "-1 -2 0" for ln in original) + "\n")
    every_false = "s SATISFIABLE\nv " + " ".join(str(-v) for v in range(1, top + 1)) + " 0\n"
    line = one_error_line(decode(cli, work, every_false, "--cnf", str(forged)))
    assert "complete model" in line and "is not satiling's model" in line
