"""Edge matching: Eternity II data, the clue puzzles, generated boards, encodings, scoring.

Answers come from outside the code: the published statistics of the Eternity II pieces, the data
file's own check columns, the e2.bucas.name viewer's piece list, Joshua Blackwood's published
470/480 board, the official clue puzzles (solved and verified), brute-force counts on small boards,
and the planted solutions of generated boards.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import random
import re
from collections import Counter

import pytest

from satiling import catalog
from satiling.cli import main
from satiling.errors import SatilingError, VerificationError
from satiling.families.edgematch import (EdgeMatchPuzzle, Tile, distinct_rotations, parse_square,
                                         rotate, rotation_pattern, shape_key, square_name)
from satiling.families.edgematch.generate import e2_like_colours, generate, instance_toml
from satiling.families.edgematch.score import parse_board, score
from satiling.render.edgematch_svg import board_svg, board_text, bucas_url
from satiling.search.searchers import solutions
from satiling.search.solve import solve

from e2boards import BLACKWOOD_470


# sha256 of the viewer's built-in list of the 256 pieces (init.js, E2_PIECES: each piece as the
# smallest rotation of its four letters, sorted, comma-separated; 'a' = grey, 'b' = colour 1 ...).
VIEWER_PIECES_SHA256 = "6f19b5d05c9df9f095482f9145473c6787905d01ad96d12b019ead42b0456707"


@pytest.fixture(scope="module")
def e2() -> EdgeMatchPuzzle:
    return catalog.load("eternity2")


def solve_verified(puzzle: EdgeMatchPuzzle, **options) -> list:
    problem = puzzle.problem(**options)
    result = solve(problem, solver="cadical")
    assert result.status == "SAT"
    solution = problem.decode(result.true_vars)
    puzzle.verify(solution)
    return solution


# -- Eternity II data -----------------------------------------------------------------------------
def test_eternity2_piece_statistics(e2):
    """4 corners, 56 edge pieces, 196 inner; 5 frame colours on 24 half-edges each; 17 inner
    colours, 5 on 48 and 12 on 50 half-edges; 480 joins; no equal or symmetric piece."""
    greys = Counter(sum(1 for x in p if x == 0) for p in e2.pieces)
    assert (greys[2], greys[1], greys[0]) == (4, 56, 196)
    half = Counter(x for p in e2.pieces for x in p if x)
    assert sorted(half[k] for k in range(1, 6)) == [24] * 5
    assert sorted(half[k] for k in range(6, 23)) == [48] * 5 + [50] * 12
    assert len(e2.joins()) == 480
    assert len({shape_key(p) for p in e2.pieces}) == 256
    assert all(len(distinct_rotations(p)) == 4 for p in e2.pieces)


def test_fixed_pieces_match_the_data_files_check_columns(e2):
    """hints.txt lists each fixed piece's resulting N E S W colours on the board."""
    from pathlib import Path
    path = Path(catalog.instances_dir()) / "data" / "eternity2" / "hints.txt"
    rows = [ln.split("#")[0].split() for ln in path.read_text().splitlines() if not ln.startswith("#")]
    rows = [r for r in rows if r]
    assert len(rows) == 5
    pinned = {t.square: t for t in e2.fixed + e2.hints}
    for square, _, _, piece, rot, *nesw in rows:
        t = pinned[square]
        assert (t.piece, t.rotation) == (int(piece), int(rot))
        assert e2.edges(t.piece, t.rotation) == tuple(int(x) for x in nesw)
    assert [t.square for t in e2.fixed] == ["I8"]
    assert parse_square("I8", 16, 16) == (8, 7) and square_name(8, 7) == "I8"


def test_colours_are_the_viewers_letters(e2):
    """Our colour k is the viewer's letter chr(97 + k): its piece list hashes the same, and the
    starter square shows the centre clue the viewer checks for ('ijjm')."""
    letters = sorted(min("".join(chr(97 + x) for x in rotate(p, r)) for r in range(4)) for p in e2.pieces)
    assert hashlib.sha256(",".join(letters).encode()).hexdigest() == VIEWER_PIECES_SHA256
    url = bucas_url(e2, {(8, 7): (139, 2)})
    edges = url.split("board_edges=")[1].split("&")[0]
    assert edges[135 * 4:136 * 4] == "ijjm"


def test_blackwood_board_scores_470(e2):
    board = parse_board(e2, BLACKWOOD_470)
    s = score(e2, board)
    assert (s.matched, s.joins, s.placed, s.misfits) == (470, 480, 256, 0)
    assert board[8, 7] == (139, 2)
    with pytest.raises(VerificationError):        # 10 joins do not match
        e2.verify(e2.tiles(board))
    # our own URL of that board reads back to the same board
    assert parse_board(e2, bucas_url(e2, board)) == board


# -- the clue puzzles -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["clue1", "clue2", "clue3", "clue4"])
@pytest.mark.parametrize("encoding", ["direct", "compact"])
def test_clue_puzzles_solved_and_verified(name, encoding):
    puzzle = catalog.load(name)
    assert len(puzzle.pieces) == {"clue1": 36, "clue2": 72, "clue3": 36, "clue4": 72}[name]
    solve_verified(puzzle, encoding=encoding)


# -- generated boards -----------------------------------------------------------------------------
@pytest.mark.parametrize("rows,seed,even", [(6, 3, True), (7, 1, False)])
def test_generated_e2_like_boards_solved(rows, seed, even):
    """Eternity II-like colour counts for the size, all pieces distinct and none symmetric.  The
    7x7 board draws each join's colour independently: with colours dealt evenly (the generator's
    default, like Eternity II) 7x7 boards take 12 to over 20 CPU-s each (tools/bench/edgematch.py)."""
    gen = generate(rows, rows, seed=seed, even=even)
    assert (gen.frame_colours, gen.inner_colours) == {6: (3, 5), 7: (3, 6)}[rows]
    pz = gen.puzzle()
    assert len({shape_key(p) for p in pz.pieces}) == rows * rows
    solve_verified(pz, encoding="direct")


def test_generator_makes_e2_like_pieces():
    gen = generate(8, 8, 3, 8, seed=5)
    pz = gen.puzzle()
    assert len({shape_key(p) for p in pz.pieces}) == 64                 # all distinct
    assert all(len(distinct_rotations(p)) == 4 for p in pz.pieces)      # none symmetric
    half = Counter(x for p in pz.pieces for x in p if x)
    frame, inner = [half[k] for k in (1, 2, 3)], [half[k] for k in range(4, 12)]
    assert sum(frame) == 2 * 28 and sum(inner) == 2 * 84                 # 28 frame, 84 inner joins
    assert max(frame) - min(frame) <= 2 and max(inner) - min(inner) <= 2  # dealt evenly
    pz.verify(pz.tiles(gen.planted))
    assert generate(8, 8, 3, 8, seed=5).pieces == gen.pieces            # reproducible


def test_e2_like_defaults_match_the_known_sizes():
    assert e2_like_colours(16, 16) == (5, 17)          # Eternity II itself
    assert e2_like_colours(8, 8) == (3, 8) and e2_like_colours(10, 10) == (4, 10)


def test_generated_instance_file_round_trip(tmp_path, capsys):
    assert main(["generate-edgematch", "5", "5", "--seed", "4"]) == 0
    text = capsys.readouterr().out
    path = tmp_path / "g.toml"
    path.write_text(text)
    pz = catalog.load(str(path))
    board = parse_board(pz, pz.planted)
    pz.verify(pz.tiles(board))
    assert text == instance_toml(generate(5, 5, seed=4), "generate-edgematch 5 5 --frame-colours "
                                 f"{e2_like_colours(5, 5)[0]} --inner-colours {e2_like_colours(5, 5)[1]} --seed 4")


# -- encodings against brute force ----------------------------------------------------------------
def small_puzzle(seed: int) -> EdgeMatchPuzzle:
    """A 3x3 board cut from random join colours (1 frame + 2 inner colours: several solutions,
    equal and symmetric pieces allowed), pieces shuffled and turned."""
    rng = random.Random(seed)
    h = {(r, c): (1 if r in (0, 2) else rng.choice([2, 3])) for r in range(3) for c in range(2)}
    v = {(r, c): (1 if c in (0, 2) else rng.choice([2, 3])) for r in range(2) for c in range(3)}
    pieces = []
    for r in range(3):
        for c in range(3):
            p = (v.get((r - 1, c), 0), h.get((r, c), 0), v.get((r, c), 0), h.get((r, c - 1), 0))
            pieces.append(rotate(p, rng.randrange(4)))
    rng.shuffle(pieces)
    return EdgeMatchPuzzle(f"small{seed}", 3, 3, pieces)


def brute_force_count(pz: EdgeMatchPuzzle) -> int:
    """Every assignment of corner pieces to corners, edge pieces to edges, the inner piece to the
    centre, at every legal rotation, checked by the verifier."""
    squares = pz.squares()
    kind = {sq: sum(pz.on_rim(sq, d) for d in range(4)) for sq in squares}
    groups = {k: [sq for sq in squares if kind[sq] == k] for k in (2, 1, 0)}
    pieces = {k: [i for i, p in enumerate(pz.pieces, 1) if p.count(0) == k] for k in (2, 1, 0)}
    n = 0
    for a, b, c in itertools.product(*(itertools.permutations(pieces[k]) for k in (2, 1, 0))):
        chosen = dict(zip(groups[2] + groups[1] + groups[0], a + b + c))
        options = [pz.legal_rotations(chosen[sq], sq) for sq in squares]
        for rots in itertools.product(*options):
            try:
                pz.verify([Tile(sq[0], sq[1], chosen[sq], r) for sq, r in zip(squares, rots)])
                n += 1
            except VerificationError:
                pass
    return n


@pytest.mark.parametrize("seed", [1, 2])
def test_every_encoding_and_option_keeps_every_solution(seed):
    pz = small_puzzle(seed)
    truth = brute_force_count(pz)
    assert truth > 0 and truth % 4 == 0             # the board's rotations act freely
    for encoding in ("direct", "compact"):
        for option in ({}, {"colour_counts": True}, {"balanced_rotation": True},
                       {"checkerboard_parity": True}):
            problem = pz.problem(encoding=encoding, **option)
            found = [problem.decode(s) for s in solutions(problem, engine="sat")]
            for sol in found:
                pz.verify(sol)
            assert len(found) == truth, (encoding, option)
        fixed = pz.problem(encoding=encoding, fix_corner=True)
        assert sum(1 for _ in solutions(fixed, engine="sat")) == truth // 4


def test_rotation_clauses_hold_exactly_for_the_rotations():
    """For every colour pattern of a piece (up to renaming colours), the compact encoding's clauses
    accept exactly the piece's rotations among all colourings of its four sides."""
    seen = set()
    for piece in itertools.product(range(4), repeat=4):
        key = shape_key(tuple(sorted(set(piece)).index(x) for x in piece))
        if key in seen:
            continue
        seen.add(key)
        clauses = rotation_pattern(piece)
        alphabet = sorted(set(piece)) + [99]
        accepted = {col for col in itertools.product(alphabet, repeat=4)
                    if all(any((col[d] == k) == pos for d, k, pos in c) for c in clauses)}
        assert accepted == {rotate(piece, r) for r in range(4)}, piece


# -- scoring and formats --------------------------------------------------------------------------
def test_score_reads_every_format_and_counts_matches():
    gen = generate(5, 5, seed=7)
    pz, board = gen.puzzle(), gen.planted
    full = score(pz, board)
    assert (full.matched, full.joins) == (40, 40)
    assert parse_board(pz, board_text(pz, board)) == board
    assert parse_board(pz, bucas_url(pz, board)) == board
    assert parse_board(pz, json.dumps([t.to_json() for t in pz.tiles(board)])) == board
    partial = {sq: v for sq, v in board.items() if sq[0] < 2}            # the top two rows
    assert score(pz, partial).matched == 4 + 4 + 5                        # 2 rows of 4 E joins, 5 S
    inner = [sq for sq in board if 0 < sq[0] < 4 and 0 < sq[1] < 4]
    swapped = dict(board)
    swapped[inner[0]], swapped[inner[-1]] = board[inner[-1]], board[inner[0]]
    assert score(pz, swapped).matched < 40
    assert "<polygon" in board_svg(pz, swapped) and 'stroke="red"' in board_svg(pz, swapped)


def test_score_command(tmp_path, capsys):
    path = tmp_path / "b470.txt"
    path.write_text(BLACKWOOD_470)
    assert main(["score", "eternity2", str(path)]) == 0
    assert "score 470/480" in capsys.readouterr().out
    path.write_text("139/2 1/0\n")
    assert main(["score", "eternity2", str(path)]) == 2            # not a 16x16 grid


#: the starter and the four pieces the clue puzzles reveal, as the official hint sheet places them
OFFICIAL_PINS = {"I8": "139/2", "C3": "208/3", "C14": "255/3", "N3": "181/3", "N14": "249/0"}


def test_score_hints_checks_the_starter_and_the_four_clues(tmp_path, capsys):
    """``score --hints``: exit 0 when the five pinned pieces of the official sheet are in place;
    Blackwood's 470 (the starter only) is scored, and each clue square it misses is named, exit 1."""
    from satiling.families.edgematch.geometry import parse_square
    grid = [["---/-"] * 16 for _ in range(16)]
    for square, token in OFFICIAL_PINS.items():
        r, c = parse_square(square, 16, 16)
        grid[r][c] = token
    path = tmp_path / "pins.txt"
    path.write_text("\n".join(" ".join(row) for row in grid) + "\n")
    assert main(["score", "eternity2", str(path), "--hints"]) == 0
    assert "the 5 pinned pieces are in place" in capsys.readouterr().err
    path.write_text(BLACKWOOD_470)
    assert main(["score", "eternity2", str(path), "--hints"]) == 1
    out, err = capsys.readouterr()
    assert "score 470/480" in out
    named = {line.split()[1] for line in err.splitlines() if "should hold" in line}
    assert named == {"C3", "C14", "N3", "N14"}
    assert main(["score", "clue1", str(path), "--hints"]) == 2     # no hint pieces: said first
    assert "no hint pieces" in capsys.readouterr().err


def test_bad_input_is_one_clear_error():
    e2 = catalog.load("eternity2")
    with pytest.raises(SatilingError, match="fix_corner: the fixed pieces"):
        e2.problem(fix_corner=True)
    with pytest.raises(SatilingError, match="encoding"):
        e2.problem(encoding="onehot")
    with pytest.raises(SatilingError, match="no hint pieces"):
        catalog.load("clue1").problem(hints=True)
    with pytest.raises(SatilingError, match="distinct"):
        generate(6, 6, 1, 1)
    with pytest.raises(SatilingError, match="not a square"):
        parse_square("8I", 16, 16)


# -- maximising matches ---------------------------------------------------------------------------
@pytest.mark.parametrize("engine", ["cpsat", "rc2"])
def test_maximize_finds_the_planted_score(engine):
    from satiling.run import Events, Request, maximise
    gen = generate(4, 4, seed=2)
    pz = gen.puzzle()
    seen = []
    result = maximise(Request(pz, "maximise", engine, time_limit=60), Events(improve=seen.append))
    assert result.status == "OPTIMAL" and result.score == result.joins == 24
    pz.verify(result.solution)
    assert [imp.score for imp in seen] == sorted(imp.score for imp in seen)


def test_solve_maximize_matches_on_the_command_line(cli, tmp_path):
    """`solve --maximize-matches`: improving scores on stderr, the best board on stdout."""
    board = tmp_path / "b.toml"
    board.write_text(cli("generate-edgematch", "4", "4", "--seed", "2").stdout)
    r = cli("solve", str(board), "--maximize-matches", "cpsat", "--time-limit", "60", "--json")
    assert r.returncode == 0, r.stderr
    scores = [int(m) for m in re.findall(r"score (\d+)/24 after", r.stderr)]
    assert scores and scores == sorted(scores) and scores[-1] == 24
    assert "best score 24/24" in r.stderr
    (tmp_path / "best.json").write_text(r.stdout)
    assert cli("verify", str(board), str(tmp_path / "best.json")).returncode == 0
    r = cli("solve", "pentomino-3x20", "--maximize-matches", "--time-limit", "5")
    assert r.returncode == 2 and "edge-matching puzzles only" in r.stderr
