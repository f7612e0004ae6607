"""The packing diagnostic: most pieces that fit, on boards whose optimum is known from outside."""
import json
from collections import Counter
from pathlib import Path

import pytest

from satiling import SatilingError, load
from satiling.apps.packing import Packer, hole_components

DATA = Path(__file__).parents[1] / "data"


def check_packing(puzzle, packing) -> None:
    """Our own check, independent of the family's verifier: disjoint, inside, each piece once."""
    cells = [tuple(c) for pl in packing.placements for c in pl.cells]
    assert len(cells) == len(set(cells)) == packing.cells
    assert set(cells) <= puzzle.region
    used = Counter(pl.piece for pl in packing.placements)
    assert all(used[p.name] <= p.count for p in puzzle.pieces)
    assert set(packing.hole) == puzzle.region - set(cells)


def test_five_tetrominoes_leave_four_cells_of_4x5():
    # Golomb: the T tetromino covers 3 squares of one colour, the others 2 and 2, so the five
    # cannot tile the 4x5 rectangle (10 + 10); four of them fit
    puzzle = load("tetromino-4x5")
    packing = Packer(puzzle).run(time_limit=30)
    check_packing(puzzle, packing)
    assert (packing.status, packing.pieces, packing.bound, len(packing.hole)) == ("OPTIMAL", 4, 4, 4)
    by_area = Packer(puzzle, "area").run(time_limit=30)
    assert (by_area.status, by_area.cells) == ("OPTIMAL", 16)


def test_mutilated_chessboard_holds_sixteen_dominoes_and_leaves_one_colour():
    # Gamow & Stern: 18 squares of one colour, 16 of the other; at most 16 dominoes, and the two
    # uncovered squares are both of the majority colour
    puzzle = load(str(DATA / "mutilated-6x6.toml"))
    packing = Packer(puzzle).run(time_limit=60)
    check_packing(puzzle, packing)
    assert (packing.status, packing.pieces, len(packing.hole)) == ("OPTIMAL", 16, 2)
    assert len({(r + c) % 2 for r, c in packing.hole}) == 1
    assert len(hole_components(puzzle, packing.hole)) == 2       # same colour: never adjacent


def test_all_twelve_pentominoes_fit_6x11(tmp_path):
    # 6x10 has 2339 tilings (Haselgrove 1960), so a 6x11 board takes all 12 and leaves 6 cells
    path = tmp_path / "p6x11.toml"
    path.write_text('family = "polyform"\npiece_set = "pentominoes"\n[rules]\ncells = "at-most"\n'
                    '[region]\nrows = 6\ncols = 11\n')
    puzzle = load(str(path))
    packing = Packer(puzzle).run(time_limit=60)
    check_packing(puzzle, packing)
    assert (packing.status, packing.pieces, packing.cells, len(packing.hole)) == ("OPTIMAL", 12, 60, 6)


def test_a_tilable_drafter_board_packs_completely():
    puzzle = load("trinity")                     # Selby's example: one tiling (Burkardt & Garvie)
    packing = Packer(puzzle).run(time_limit=60)
    check_packing(puzzle, packing)
    assert (packing.status, packing.pieces, packing.hole) == ("OPTIMAL", 4, [])


def test_packing_needs_a_polyform_board():
    with pytest.raises(SatilingError):
        Packer(load("iqlink-starter"))


def test_cli_pack_prints_the_packing_its_hole_and_svg(cli, tmp_path):
    svg = tmp_path / "pack.svg"
    r = cli("pack", "tetromino-4x5", "--svg", str(svg))
    assert r.returncode == 0, r.stderr
    grid = r.stdout.splitlines()[:4]
    assert "".join(grid).count(".") == 4
    assert "4 of 5 pieces placed" in r.stdout and "optimal" in r.stdout
    assert svg.read_text().startswith("<svg")
    r = cli("pack", "tetromino-4x5", "--json")
    data = json.loads(r.stdout)
    assert (data["status"], data["pieces"], len(data["hole"])) == ("OPTIMAL", 4, 4)


def test_cli_pack_on_a_non_polyform_board_is_one_error_line(cli):
    r = cli("pack", "iqlink-starter")
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "polyform" in r.stderr


def test_cli_pack_keeps_the_best_packing_on_sigterm():
    import signal
    import subprocess
    import sys
    # (the exact stage would tile Boat at once: CP-SAT alone, to be stopped in the middle)
    proc = subprocess.Popen([sys.executable, "-m", "satiling.cli", "pack", "boat", "--exact-seconds", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in proc.stderr:                  # wait for a first packing, then stop the search
        if "pieces at" in line:
            break
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 143
    assert "of 21 pieces placed" in out


def test_cli_pack_counts_building_the_model_in_its_time_limit(cli):
    """Monckton's Eternity takes about a minute to build (1.4 million placements): a one-second
    limit ends the run there, exit 3, not after the model is built."""
    import time
    start = time.monotonic()
    r = cli("pack", "eternity", "--time-limit", "1")
    assert r.returncode == 3 and "no packing found" in r.stderr, r.stderr
    assert time.monotonic() - start < 30          # not a timing check: it did not build it all


# -- the arguments solve makes, before CP-SAT (issue 22, point 1) ---------------------------------
CUT_OFF = """family = "polyform"
piece_set = "pentominoes"
[region]
ascii = \"\"\"
#########.#
##########.
##########
##########
##########
##########
\"\"\"
"""


def test_pack_proves_the_bound_of_a_board_solve_refutes_and_stops_by_itself(cli, tmp_path):
    # 60 cells for the 12 pentominoes, one of them cut off from the rest: solve says "no
    # solution" before any search; pack must prove "at most 11" and stop there, well inside a
    # generous time limit (CP-SAT alone still claimed "at most 12" after 110 s)
    board = tmp_path / "cut.toml"
    board.write_text(CUT_OFF)
    solved = cli("solve", str(board))
    assert solved.returncode == 1 and "covered by no placement" in solved.stderr
    r = cli("pack", str(board), "--time-limit", "600", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert (data["status"], data["pieces"], data["bound"]) == ("OPTIMAL", 11, 11)
    assert "at most 11 pieces: cell (0, 10) is covered by no placement" in r.stderr
    assert [0, 10] in data["hole"]


def test_pack_names_the_pieces_that_fit_nowhere_and_info_too(cli, tmp_path):
    board = tmp_path / "strip.toml"          # a 2x30 strip: only the I, L, N, P, U and Y fit
    board.write_text('family = "polyform"\npiece_set = "pentominoes"\n[region]\nrows = 2\ncols = 30\n')
    r = cli("pack", str(board))
    assert r.returncode == 0, r.stderr
    assert "at most 6 pieces: pieces F, T, V, W, X and Z fit nowhere" in r.stderr
    assert "6 of 12 pieces placed" in r.stdout and "optimal" in r.stdout
    info = cli("info", str(board)).stdout
    assert "fits nowhere  pieces F, T, V, W, X and Z" in info
    assert "(pieces F, T, V, W, X and Z fit nowhere, which is not a parity matter)" in info


def test_pack_asks_the_exact_search_when_no_cheap_argument_settles_it(tmp_path):
    # the five tetrominoes and a 20-cell region that parity does not rule out; the exact search
    # finds no tiling, so at most 4, and CP-SAT stops at the first packing of 4
    board = tmp_path / "t.toml"
    board.write_text('family = "polyform"\npiece_set = "tetrominoes"\n[region]\nascii = """\n'
                     '###.#\n##.##\n.####\n###.#\n###.#\n"""\n')
    puzzle = load(str(board))
    assert puzzle.obstruction() is None
    packing = Packer(puzzle).run(time_limit=60)
    check_packing(puzzle, packing)
    assert (packing.status, packing.pieces, packing.bound) == ("OPTIMAL", 4, 4)
    assert "exact-cover search finds no way" in packing.reasons[-1]
    # without the exact stage CP-SAT proves the same on its own (the bound is right, not assumed)
    alone = Packer(puzzle).run(time_limit=60, exact_seconds=0)
    assert (alone.status, alone.pieces) == ("OPTIMAL", 4)


def test_a_tiling_the_exact_search_finds_is_the_optimal_packing():
    puzzle = load("pentomino-3x20")
    packing = Packer(puzzle).run(time_limit=60)
    check_packing(puzzle, packing)
    assert (packing.status, packing.pieces, packing.hole) == ("OPTIMAL", 12, [])


def test_pack_threads_and_the_old_workers_spelling(cli):
    r = cli("pack", "tetromino-4x5", "--threads", "2")
    assert r.returncode == 0 and "note" not in r.stderr, r.stderr
    r = cli("pack", "tetromino-4x5", "--workers", "2")
    assert r.returncode == 0 and "4 of 5 pieces placed" in r.stdout
    assert r.stderr.splitlines()[-1] == ("satiling: note: pack --workers 2 is now spelt --threads 2 "
                                         "(--workers means processes in count and enumerate)")


def test_a_hint_that_is_no_packing_is_refused(cli, tmp_path):
    """``pack --hint``: an unknown piece, two placements on one cell, a piece used twice or an
    empty file each ran with the hint dropped, exit 0 and not a word."""
    import json
    solved = cli("solve", "pentomino-3x20", "--json")
    good = json.loads(solved.stdout)
    first, second = good["placements"][:2]
    hints = {"unknown": [dict(first, piece="Q")], "overlap": [first, dict(second, cells=first["cells"])],
             "twice": [first, first], "empty": None}
    for name, placements in hints.items():
        path = tmp_path / f"{name}.json"
        path.write_text("" if placements is None else json.dumps(dict(good, placements=placements)))
        r = cli("pack", "pentomino-3x20", "--hint", str(path), "--exact-seconds", "0", "--time-limit", "2")
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, (name, r.stderr)
    (tmp_path / "good.json").write_text(solved.stdout)
    r = cli("pack", "pentomino-3x20", "--hint", str(tmp_path / "good.json"), "--exact-seconds", "0",
            "--time-limit", "2")
    assert r.returncode == 0 and "of 12 pieces placed" in r.stdout, r.stderr


def test_an_exact_share_over_half_the_time_limit_is_refused(cli, tmp_path):
    """``--exact-seconds`` is at most half the time limit (CP-SAT keeps the rest): a larger share
    was cut down without a word; now one line, exit 2, before any work.  The default (5 s) still
    shrinks to half a short limit, as the user chose no share."""
    svg = tmp_path / "p.svg"
    r = cli("pack", "tetromino-4x5", "--exact-seconds", "6", "--time-limit", "10", "--svg", str(svg))
    assert (r.returncode, r.stdout) == (2, "") and not svg.exists()
    assert r.stderr == ("satiling: error: --exact-seconds 6 is more than half of --time-limit "
                        "(10 s): the exact search has at most half, CP-SAT the rest\n")
    for argv in (["--exact-seconds", "5", "--time-limit", "10"], ["--time-limit", "2"],
                 ["--exact-seconds", "0", "--time-limit", "1"], ["--exact-seconds", "30"]):
        r = cli("pack", "tetromino-4x5", *argv)
        assert r.returncode == 0 and "4 of 5 pieces placed" in r.stdout, (argv, r.stderr)


@pytest.mark.parametrize("share, said", [(3, "more than half of the time limit"),
                                         (-1, "more than 0"), ("5", "number of seconds"),
                                         (True, "number of seconds")])
def test_the_library_refuses_an_exact_share_it_cannot_honour(share, said):
    with pytest.raises(SatilingError, match=said):
        Packer(load("tetromino-4x5")).run(time_limit=4, exact_seconds=share)
