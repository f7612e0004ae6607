"""The packing diagnostic: most pieces that fit, on boards whose optimum is known from outside."""
import json
from collections import Counter
from pathlib import Path

import pytest

from satiling import SatilingError, load
from satiling.search.packing import Packer, hole_components

DATA = Path(__file__).parent / "data"


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
    proc = subprocess.Popen([sys.executable, "-m", "satiling.cli", "pack", "boat"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in proc.stderr:                  # wait for a first packing, then stop the search
        if "pieces at" in line:
            break
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 143
    assert "of 21 pieces placed" in out
