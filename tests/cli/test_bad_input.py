"""Bad input found by the second reliability audit: each is refused with exit code 2 and exactly one
line 'satiling: error: ...' on stderr (no traceback, no file changed or created), or in the Python
API with a SatilingError -- and what was right before still works."""
from __future__ import annotations

import json
import math
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import satiling
from satiling.cli import main
from satiling.errors import SatilingError


# -- helpers (copied in small, not imported from other test modules) -------------------------------
def _refused(capsys, argv: list[str]) -> str:
    """Run ``satiling ARGV`` in-process: exit 2 and one 'satiling: error:' line, which is returned."""
    code = main(argv)
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert code == 2, (code, err)
    assert len(lines) == 1 and lines[0].startswith("satiling: error:"), err
    assert "Traceback" not in err
    return lines[0]


def _snapshot(folder: Path) -> dict[str, tuple]:
    """Every entry under ``folder``: its kind and its bytes or link target (nothing followed)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            out[str(path)] = ("link", os.readlink(path))
        elif stat.S_ISREG(mode):
            out[str(path)] = ("file", path.read_bytes())
        else:
            out[str(path)] = ("other", stat.S_IFMT(mode))
    return out


def _solved_json(capsys, name: str) -> dict:
    assert main(["solve", name, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


# -- 1. an edge-matching pieces file ------------------------------------------------------------------
def _pieces_instance(folder: Path, pieces_file: str) -> Path:
    instance = folder / "board.toml"
    instance.write_text(f'family = "edgematch"\npieces_file = "{pieces_file}"\n')
    return instance


def _make_pieces(folder: Path, kind: str) -> str:
    """A pieces file of the given kind of badness; returns the name the instance gives it."""
    from satiling.schema import MAX_FILE_BYTES
    good = b"2 2\n0 1 2 0\n0 0 3 1\n2 4 0 0\n3 0 0 4\n"
    if kind == "latin-1":
        (folder / "p.txt").write_bytes(good.replace(b"2 2\n", "# Stra\xdfe\n2 2\n".encode("latin-1")))
    elif kind == "NUL bytes":
        (folder / "p.txt").write_bytes(good + b"\0\0\0")
    elif kind == "too large":
        (folder / "p.txt").write_bytes(good + b"#" * MAX_FILE_BYTES)
    elif kind == "FIFO":
        os.mkfifo(folder / "p.txt")
    elif kind == "directory":
        (folder / "p.txt").mkdir()
    elif kind == "/dev/zero":
        if not os.path.exists("/dev/zero"):
            pytest.skip("no /dev/zero")
        return "/dev/zero"
    return "p.txt"


@pytest.mark.parametrize("kind", ["latin-1", "NUL bytes", "too large", "FIFO", "directory", "/dev/zero"])
def test_a_bad_pieces_file_is_one_line(tmp_path, capsys, kind):
    instance = _pieces_instance(tmp_path, _make_pieces(tmp_path, kind))
    before = _snapshot(tmp_path)
    assert "pieces file" in _refused(capsys, ["solve", str(instance)])
    with pytest.raises(SatilingError, match="pieces file"):
        satiling.load(str(instance))
    assert _snapshot(tmp_path) == before


def test_a_good_pieces_file_still_loads(tmp_path, capsys):
    (tmp_path / "p.txt").write_text("# a comment\n2 2\n0 1 2 0\n0 0 3 1\n2 4 0 0\n3 0 0 4\n")
    assert main(["solve", str(_pieces_instance(tmp_path, "p.txt"))]) == 0
    assert "Traceback" not in capsys.readouterr().err


# -- 2. time limits ---------------------------------------------------------------------------------
TIME_LIMIT_COMMANDS = [
    ["solve", "pentomino-3x20"],
    ["count", "pentomino-3x20", "--quiet"],
    ["enumerate", "pentomino-3x20", "--quiet"],
    ["pack", "pentomino-3x20"],
    ["solve", "clue1", "--maximize-matches"],
]


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "0", "1e10", "1e300", "soon"])
@pytest.mark.parametrize("command", TIME_LIMIT_COMMANDS, ids=lambda c: " ".join(c[:1] + c[2:]))
def test_a_time_limit_that_means_nothing_is_refused(capsys, command, value):
    assert "--time-limit" in _refused(capsys, [*command, "--time-limit", value])


def test_the_longest_time_limit_still_works(capsys):
    """Python's timers overflow near 9.2e9 s (the timer thread died, the run had no limit): the
    longest limit accepted is far below that, and it arms a working timer."""
    from satiling.limits import MAX_SECONDS
    assert MAX_SECONDS < threading.TIMEOUT_MAX
    assert main(["count", "pentomino-3x20", "--quiet", "--time-limit", str(MAX_SECONDS)]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == "2" and "Traceback" not in captured.err
    assert main(["solve", "pentomino-3x20", "--time-limit", "1e8"]) == 0
    assert "Traceback" not in capsys.readouterr().err


def test_a_longer_limit_from_the_api_keeps_a_working_timer():
    """stop_on (the clock of count and enumerate) given more than a timer can wait: its thread
    must not die (it did, with an OverflowError, leaving the run without a limit)."""
    import time
    from satiling.signals import stop_on
    died: list = []
    old, threading.excepthook = threading.excepthook, died.append
    try:
        with stop_on(1e12) as stop:
            stop.arm()
            time.sleep(0.2)
    finally:
        threading.excepthook = old
    assert died == [] and stop.reason == ""


# -- 3. outputs that cannot be written through --------------------------------------------------------
def _bad_output(folder: Path, kind: str) -> Path:
    path = folder / "out"
    if kind == "symlink loop":
        path.symlink_to("out")
    elif kind == "two-link loop":
        path.symlink_to("other")
        (folder / "other").symlink_to("out")
    elif kind == "dangling into a missing folder":
        path.symlink_to("missing/out.svg")
    elif kind == "symlink to a directory":
        (folder / "dir").mkdir()
        path.symlink_to("dir")
    elif kind == "directory":
        path.mkdir()
    return path


OUTPUT_COMMANDS = [
    ["encode", "pentomino-3x20", "-o"],
    ["encode", "pentomino-3x20", "--output"],
    ["solve", "pentomino-3x20", "--svg"],
    ["enumerate", "pentomino-3x20", "--quiet", "--out"],
    ["pack", "tetromino-4x5", "--svg"],
    ["solve", "tetromino-4x5", "--proof"],
]


@pytest.mark.parametrize("kind", ["symlink loop", "two-link loop", "dangling into a missing folder",
                                  "symlink to a directory", "directory"])
@pytest.mark.parametrize("command", OUTPUT_COMMANDS, ids=lambda c: " ".join(c[:1] + c[-1:]))
def test_an_output_that_cannot_be_written_through_is_refused(tmp_path, capsys, command, kind):
    path = _bad_output(tmp_path, kind)
    before = _snapshot(tmp_path)
    _refused(capsys, [*command, str(path)])
    assert _snapshot(tmp_path) == before


@pytest.mark.parametrize("command", OUTPUT_COMMANDS[:3], ids=lambda c: " ".join(c[:1] + c[-1:]))
def test_an_output_through_a_symlink_to_a_file_replaces_the_target(tmp_path, capsys, command):
    target = tmp_path / "real"
    target.write_text("old\n")
    link = tmp_path / "link"
    link.symlink_to("real")
    assert main([*command, str(link)]) == 0
    capsys.readouterr()
    assert link.is_symlink() and os.readlink(link) == "real"
    assert target.read_text() != "old\n" and target.stat().st_size > 100
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "real"]      # no temporary left


# -- 4. a piece set on another lattice ----------------------------------------------------------------
REGION = {"square": "[[0, 0]]", "triangle": "[[0, 0]]", "hexagon": "[[0, 0]]",
          "drafter": "[[0, 0, 0]]", "cubic": "[[0, 0, 0]]"}


@pytest.mark.parametrize("lattice, piece_set, own", [
    ("square", "hexiamonds", "triangle"), ("square", "tetrahexes", "hexagon"), ("square", "soma", "cubic"),
    ("square", "eternity", "drafter"), ("triangle", "pentominoes", "square"),
    ("triangle", "tetrahexes", "hexagon"), ("hexagon", "hexiamonds", "triangle"),
    ("cubic", "hexiamonds", "triangle"), ("drafter", "pentominoes", "square"),
    ("square", '{ name = "hexiamonds", freedom = "one-sided" }', "triangle"),
])
def test_a_piece_set_of_another_lattice_is_refused(tmp_path, capsys, lattice, piece_set, own):
    chosen = piece_set if piece_set.startswith("{") else f'"{piece_set}"'
    instance = tmp_path / "mine.toml"
    instance.write_text(f'lattice = "{lattice}"\npiece_set = {chosen}\n[region]\ncells = {REGION[lattice]}\n')
    name = piece_set.split('"')[1] if piece_set.startswith("{") else piece_set
    err = _refused(capsys, ["info", str(instance)])
    assert f"piece set {name}" in err and f"{own} lattice" in err and f"not the {lattice} lattice" in err
    with pytest.raises(SatilingError, match=f"belongs to the {own} lattice"):
        satiling.load(str(instance))


def test_flat_square_sets_still_make_solids(tmp_path, capsys):
    """The documented exception: on the cubic lattice a square-lattice set is one flat layer."""
    for name in ("soma-cube", "solid-pentomino-2x5x6", "pentomino-6x10", "hexiamond-6x6", "tetrahex-4x7",
                 "serenity"):
        satiling.load(name)
    instance = tmp_path / "flat.toml"
    instance.write_text('lattice = "cubic"\npiece_set = "tetrominoes"\n[region]\nbox = [1, 4, 5]\n')
    assert main(["count", str(instance), "--quiet"]) == 1          # the tetrominoes do not tile 4x5
    capsys.readouterr()


# -- 5. workers -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["0", "-1", "1025", "100000", "2.5", "many"])
@pytest.mark.parametrize("command", [["pack", "pentomino-3x20", "--workers"],
                                     ["solve", "clue1", "--workers"],
                                     ["solve", "pentomino-3x20", "--solver", "cpsat", "--threads"],
                                     ["count", "pentomino-3x20", "--quiet", "--workers"],
                                     ["enumerate", "pentomino-3x20", "--quiet", "--workers"]],
                         ids=lambda c: " ".join(c[:1] + c[-1:]))
def test_a_number_of_workers_out_of_range_is_refused(capsys, command, value):
    assert command[-1] in _refused(capsys, [*command, value])


def test_the_workers_cap_is_in_the_help(capsys):
    from satiling.limits import MAX_WORKERS
    for command in ("pack", "solve", "count", "enumerate"):
        assert main([command, "--help"]) == 0
        assert f"1 to {MAX_WORKERS}" in " ".join(capsys.readouterr().out.split())


# -- 6. options ignored when unknown ---------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["count", "pentomino-3x20", "--quiet", "--solver", "bogus"],
    ["enumerate", "pentomino-3x20", "--quiet", "--solver", "bogus"],
    ["count", "clue1", "--quiet", "--solver", "bogus"],               # the backtracker's default path
    ["count", "pentomino-3x20", "--quiet", "--solver", "walk"],
    ["count", "pentomino-3x20", "--quiet", "--solver", "race"],
    ["info", "pentomino-3x20", "--amo", "bogus"],
])
def test_an_unknown_solver_or_encoding_is_refused(capsys, argv):
    assert argv[-2] in _refused(capsys, argv)


def test_encode_with_an_unknown_encoding_writes_nothing(tmp_path, capsys):
    _refused(capsys, ["encode", "pentomino-3x20", "--amo", "bogus", "-o", str(tmp_path / "p.cnf")])
    assert list(tmp_path.iterdir()) == []


def test_decode_refuses_an_encoding_the_formula_does_not_have(tmp_path, capsys):
    cnf, model = tmp_path / "p.cnf", tmp_path / "model.txt"
    assert main(["encode", "pentomino-3x20", "-o", str(cnf)]) == 0
    model.write_text("v 1 0\n")                                          # a partial model: exit 1
    capsys.readouterr()
    before = _snapshot(tmp_path)
    assert "--amo" in _refused(capsys, ["decode", "pentomino-3x20", str(model), "--cnf", str(cnf), "--amo", "X"])
    assert "drop --amo" in _refused(capsys, ["decode", "pentomino-3x20", str(model), "--cnf", str(cnf),
                                             "--amo", "ladder"])
    assert _snapshot(tmp_path) == before
    for extra in ([], ["--amo", "pairwise"]):                            # agreeing: as before
        assert main(["decode", "pentomino-3x20", str(model), "--cnf", str(cnf), *extra]) == 1
        assert "partial model" in capsys.readouterr().err


def test_a_valid_enumeration_solver_still_works(capsys):
    assert main(["count", "pentomino-3x20", "--quiet", "--engine", "sat", "--solver", "minisat"]) == 0
    assert capsys.readouterr().out.strip() == "2"
    assert main(["count", "pentomino-3x20", "--quiet", "--solver", "glucose4"]) == 0
    assert capsys.readouterr().out.strip() == "2"


# -- 7. edge-matching rotations -----------------------------------------------------------------------
@pytest.mark.parametrize("rotation", [4, 5, 7, -1, 400])
def test_verify_refuses_a_rotation_outside_0_to_3(tmp_path, capsys, rotation):
    solution = _solved_json(capsys, "clue1")
    first = solution["placements"][0]
    path = tmp_path / "s.json"
    path.write_text(json.dumps({**solution, "placements": [{**first, "rotation": rotation},
                                                           *solution["placements"][1:]]}))
    before = _snapshot(tmp_path)
    assert "rotation" in _refused(capsys, ["verify", "clue1", str(path)])
    assert _snapshot(tmp_path) == before
    with pytest.raises(SatilingError, match="0 to 3"):
        satiling.load("clue1").placement_from_json({**first, "rotation": rotation})


def test_verify_takes_every_rotation_from_0_to_3(capsys):
    puzzle = satiling.load("clue1")
    for rotation in range(4):
        assert puzzle.placement_from_json({"square": "A1", "piece": 1, "rotation": rotation}).rotation == rotation


# -- 8. stderr on a full device (or closed) -------------------------------------------------------------
def _run_with_stderr(argv: list[str], how: str, cwd: Path) -> subprocess.CompletedProcess:
    """A real process whose stderr is /dev/full (every write fails) or closed (``2>&-``)."""
    command = [sys.executable, "-m", "satiling.cli", *argv]
    if how == "closed":
        return subprocess.run(command, stdout=subprocess.PIPE, stderr=None, text=True, cwd=cwd,
                              timeout=300, preexec_fn=lambda: os.close(2))
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        return subprocess.run(command, stdout=subprocess.PIPE, stderr=full, text=True, cwd=cwd,
                              timeout=300)


@pytest.mark.parametrize("how", ["full", "closed"])
@pytest.mark.parametrize("argv, code, out", [
    (["solve", "pentomino-3x20", "--json"], 0, '"placements"'),
    (["solve", "tetromino-4x5"], 1, "no solution"),
    (["count", "pentomino-3x20"], 0, "2"),
    (["solve", "clue1"], 0, "# https://"),
    (["solve", "no-such-puzzle"], 2, ""),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_a_broken_stderr_changes_neither_the_answer_nor_the_exit_code(tmp_path, how, argv, code, out):
    r = _run_with_stderr(argv, how, tmp_path)
    assert r.returncode == code
    assert out in r.stdout and "satiling:" not in r.stdout          # no message strayed onto stdout
    if argv[:2] == ["solve", "pentomino-3x20"]:
        assert json.loads(r.stdout)["placements"]
    assert list(tmp_path.iterdir()) == []


# -- 9. the Python API ----------------------------------------------------------------------------------
def test_solver_none_means_the_default():
    puzzle = satiling.load("pentomino-3x20")
    solution = satiling.solve_puzzle(puzzle, solver=None)
    puzzle.verify(solution)
    from satiling.search.solve import solve
    assert solve(puzzle.problem(), solver=None).status == "SAT"


def _bad_solve_calls():
    from satiling.search.searchers import solutions
    from satiling.apps.packing import Packer
    from satiling.search.solve import solve
    puzzle = satiling.load("pentomino-3x20")
    problem = puzzle.problem()
    calls = {f"solve(time_limit={v!r})": (lambda v=v: solve(problem, time_limit=v))
             for v in (-1, 0, math.nan, math.inf, 1e10, "5", True)}
    calls.update({f"solve(cpsat, workers={w!r})": (lambda w=w: solve(problem, solver="cpsat", workers=w))
                  for w in (-5, 0, 10 ** 6, 2.5, "4")})
    calls.update({
        "solve(solver=5)": lambda: solve(problem, solver=5),
        "solve(solver='bogus')": lambda: solve(problem, solver="bogus"),
        "solve(not a problem)": lambda: solve(puzzle),
        "solve_puzzle(time_limit=1e10)": lambda: satiling.solve_puzzle(puzzle, time_limit=1e10),
        "solve_puzzle(solver=5)": lambda: satiling.solve_puzzle(puzzle, solver=5),
        "solutions(engine='bogus')": lambda: next(solutions(problem, engine="bogus")),
        "Packer.run(time_limit=nan)": lambda: Packer(satiling.load("tetromino-4x5")).run(time_limit=math.nan),
        "Packer.run(workers=0)": lambda: Packer(satiling.load("tetromino-4x5")).run(workers=0),
    })
    return calls


def test_bad_solve_arguments_raise_satiling_error():
    for name, call in _bad_solve_calls().items():
        with pytest.raises(SatilingError):
            call()
            pytest.fail(f"{name} was accepted")


def _matrix(**changes):
    from satiling.engines.exactcover import Matrix
    fields = {"rows": [(0, 1), (0,), (1,)], "lo": [1, 1], "hi": [1, 1], **changes}
    return Matrix(**fields)


def _bad_matrices():
    from satiling.engines.exactcover import Board
    return {
        "item out of range": _matrix(rows=[(0, 5)]),
        "negative item": _matrix(rows=[(0, -1)]),
        "item a string": _matrix(rows=[(0, "a")]),
        "item a float": _matrix(rows=[(0, 1.0)]),
        "item a bool": _matrix(rows=[(True,)]),
        "item too large for C": _matrix(rows=[(10 ** 30,)]),
        "item twice in a row": _matrix(rows=[(0, 0, 1)]),
        "empty row": _matrix(rows=[(0,), ()]),
        "rows not a list": _matrix(rows=5),
        "a row not a tuple": _matrix(rows=[5]),
        "lo and hi of different lengths": _matrix(hi=[1]),
        "lo above hi": _matrix(lo=[2, 1]),
        "negative lo": _matrix(lo=[-1, 1]),
        "hi zero": _matrix(lo=[0, 0], hi=[0, 1]),
        "lo a float": _matrix(lo=[1.0, 1]),
        "fixed row out of range": _matrix(fixed=(7,)),
        "fixed negative out of range": _matrix(fixed=(-9,)),
        "unknown strategy": _matrix(strategy="bogus"),
        "bitboard without a board": _matrix(strategy="bitboard"),
        "negative pocket limit": _matrix(pocket_limit=-3),
        "board cell out of range": _matrix(board=Board([0, 9], [[1], [0]], {1: 1})),
        "board neighbour off the board": _matrix(board=Board([0], [[5]], {1: 1})),
        "board neighbours too few": _matrix(board=Board([0, 1], [[1]], {1: 1})),
        "board areas not a dict": _matrix(board=Board([0], [[]], [1])),
        "not a matrix": "junk",
    }


@pytest.mark.parametrize("case", list(_bad_matrices()))
def test_a_bad_exact_cover_matrix_raises_satiling_error(case):
    from satiling.engines.exactcover import ExactCover
    with pytest.raises(SatilingError) as caught:
        ExactCover(_bad_matrices()[case])
    assert isinstance(caught.value, ValueError)            # what callers caught before still works
    assert str(caught.value)


@pytest.mark.parametrize("assume", [[99], [-99], ["0"], [0.0], 5])
def test_a_bad_exact_cover_assumption_raises_satiling_error(assume):
    from satiling.engines.exactcover import ExactCover
    engine = ExactCover(_matrix())
    assert sorted(sorted(s) for s in engine.solutions()) == [[0], [1, 2]]
    with pytest.raises(SatilingError):
        list(engine.solutions(assume))
    assert sorted(sorted(s) for s in engine.solutions([-1])) == [[1, 2]]     # row 0 out: still fine


# -- 7. names and small gaps (issue 22, point 8) ---------------------------------------------------------
@pytest.mark.parametrize("name, meant", [("pentomino-6x1O", "pentomino-6x10"), ("soma", "soma-cube"),
                                         ("eternty", "eternity")])
def test_an_unknown_puzzle_name_gets_a_did_you_mean(capsys, name, meant):
    line = _refused(capsys, ["info", name])
    assert f"did you mean {meant!r}" in line or f"{meant!r} or" in line, line


def test_a_missing_instance_file_is_named_as_a_file(capsys, tmp_path):
    assert "no such instance file" in _refused(capsys, ["info", str(tmp_path / "mine.toml")])


@pytest.mark.parametrize("blank, word", [("\t", "a TAB"), ("\u00a0", "the blank '\\xa0'")])
def test_a_tab_in_ascii_art_is_refused_not_counted_as_a_cell(capsys, tmp_path, blank, word):
    # 12 pentominoes, 60 cells drawn, one of them a TAB: read as a cell it made a 61-cell board
    art = "#" * 10 + "\n" + ("#" * 10 + "\n") * 4 + "#####" + blank + "####\n"
    board = tmp_path / "tab.toml"
    board.write_text(f'piece_set = "pentominoes"\n[region]\nascii = """\n{art}"""\n')
    line = _refused(capsys, ["info", str(board)])
    assert f"[region] ascii: line 6 holds {word}" in line, line
    piece = tmp_path / "piece.toml"               # in a piece's art and in a solid's layers too
    piece.write_text('[[piece]]\nname = "D"\nascii = "#\\t#"\n[region]\nrows = 1\ncols = 2\n')
    assert "piece D ascii: line 1 holds a TAB" in _refused(capsys, ["info", str(piece)])
    solid = tmp_path / "solid.toml"
    solid.write_text('lattice = "cubic"\npiece_set = "tetrominoes"\n[region]\n'
                     'layers = ["####\\n####", "####\\n###\\t"]\n')
    assert "layers: line 2 holds a TAB" in _refused(capsys, ["info", str(solid)])


def test_verify_and_render_refuse_a_file_of_another_puzzle(capsys, tmp_path):
    out = tmp_path / "s.jsonl"
    assert main(["enumerate", "pentomino-3x20", "--quiet", "--out", str(out)]) == 0
    capsys.readouterr()
    for command in ("verify", "render"):
        line = _refused(capsys, [command, "pentomino-6x10", str(out)])
        assert "the header names puzzle 'pentomino-3x20', not 'pentomino-6x10'" in line
    body = tmp_path / "body.json"                 # no header: the solution's own name counts
    body.write_text(out.read_text().splitlines()[1] + "\n")
    assert "line 1 names puzzle 'pentomino-3x20'" in _refused(capsys, ["verify", "pentomino-6x10", str(body)])
    assert main(["verify", "pentomino-3x20", str(out)]) == 0


# -- 8. options that would be left unused ---------------------------------------------------------------
@pytest.mark.parametrize("argv, says", [
    (["solve", "pentomino-3x20", "--engine", "race", "--solver", "glucose"], "A+B"),
    (["solve", "clue1", "--maximize-matches", "--proof", "p.drat"], "writes no proof"),
    (["solve", "clue1", "--maximize-matches", "--solver", "glucose"], "--engine"),
    (["solve", "clue1", "--maximize-matches", "--hints"], "--hints: clue1 has no hint pieces"),
    (["solve", "pentomino-3x20", "--solver", "cpsat", "--node-limit", "5", "--threads", "2"], "one thread"),
    (["count", "pentomino-3x20", "--engine", "walk", "--solver", "glucose"], "takes no solver"),
])
def test_an_option_the_run_would_not_use_is_refused(tmp_path, monkeypatch, capsys, argv, says):
    monkeypatch.chdir(tmp_path)
    assert says in _refused(capsys, argv)
    assert list(tmp_path.iterdir()) == []            # no best board, no proof file begun


def test_a_node_limit_stops_cpsat_on_every_machine(capsys):
    """CP-SAT counts a budget of conflicts per thread: under a node limit it runs on one, so the
    limit stops it (it ran on every core, to the time limit, before)."""
    assert main(["solve", "pentomino-6x10", "--solver", "cpsat", "--node-limit", "5", "--time-limit", "20"]) == 3
    assert "node limit" in capsys.readouterr().err


@pytest.mark.parametrize("argv, says", [
    (["solve", "pentomino-3x20", "--seed", "5"], "--seed is for the backtrack engine"),
    (["solve", "pentomino-3x20", "--threads", "2"], "--threads is for the cpsat engine"),
    (["solve", "clue1", "--fill-order", "comb"], "--fill-order is for maximising"),
    (["solve", "clue1", "--maximize-matches", "--engine", "cpsat", "--seed", "2"], "backtrack and lns"),
    (["solve", "clue1", "--maximize-matches", "--engine", "rc2", "--threads", "2"], "backtrack and cpsat"),
    (["solve", "clue1", "--maximize-matches", "--engine", "cpsat", "--fill-order", "comb"], "backtrack engine"),
])
def test_a_setting_the_engine_does_not_use_is_refused(tmp_path, monkeypatch, capsys, argv, says):
    monkeypatch.chdir(tmp_path)
    assert says in _refused(capsys, argv)
    assert list(tmp_path.iterdir()) == []


def test_render_and_encode_refuse_what_they_would_not_use(tmp_path, monkeypatch, capsys):
    """``render --all --index N`` drew every solution; ``encode --format opb --amo X`` wrote no
    at-most-one encoding: both said nothing."""
    monkeypatch.chdir(tmp_path)
    assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--out", "s.jsonl"]) == 0
    capsys.readouterr()
    assert "choose one" in _refused(capsys, ["render", "pentomino-3x20", "s.jsonl", "--all", "--index", "2"])
    assert "CNF formats" in _refused(capsys, ["encode", "pentomino-3x20", "--format", "opb", "--amo", "seqcounter"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.jsonl"]
    assert main(["render", "pentomino-3x20", "s.jsonl", "--index", "2"]) == 0
    assert main(["count", "pentomino-3x20", "--raw", "--quiet"]) == 0
    assert "8 solutions in 2 symmetry classes" in capsys.readouterr().err


# -- 8. numbers of thousands of digits ------------------------------------------------------------------
HUGE = "9" * 5000          # beyond Python's int() of text (4300 digits): a ValueError, not a number


@pytest.mark.parametrize("case", ["dimacs literal", "p cnf line", "xcsp3 repeat", "opb literal",
                                  "resume record", "board rotation", "instance file"])
def test_a_number_of_thousands_of_digits_is_one_line(tmp_path, monkeypatch, capsys, case):
    """Each reader of a file turns digits into a number: thousands of them (a corrupt file) or a
    repeat count beyond the model (XCSP3's ``0x99999999999``, a list of that length) is refused."""
    monkeypatch.chdir(tmp_path)
    if case == "resume record":
        assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--limit", "3", "--out", "r.jsonl"]) == 0
        lines = Path("r.jsonl").read_text().splitlines()
        lines[1] = lines[1].replace('"n":1,', f'"n":{HUGE},')
        Path("f").write_text("\n".join(lines) + "\n")
        argv = ["enumerate", "pentomino-3x20", "--raw", "--quiet", "--resume", "f"]
    elif case == "instance file":
        Path("f.toml").write_text(f'family = "polyform"\npiece_set = "pentominoes"\n[region]\nrect = [3, {HUGE}]\n')
        argv = ["info", "f.toml"]
    elif case == "board rotation":
        assert main(["solve", "clue1"]) == 0
        board = capsys.readouterr().out
        Path("f").write_text(board.replace("/0", "/" + HUGE, 1))
        argv = ["score", "clue1", "f"]
    elif case == "p cnf line":
        assert main(["encode", "pentomino-3x20", "-o", "p.cnf"]) == 0
        text = Path("p.cnf").read_text()
        Path("f").write_text(text.replace("\np cnf ", f"\np cnf {HUGE}", 1))
        Path("m").write_text("s SATISFIABLE\nv 1 0\n")
        argv = ["decode", "pentomino-3x20", "m", "--cnf", "f"]
    else:
        fmt, text = {"dimacs literal": ("dimacs", f"s SATISFIABLE\nv 1 -{HUGE} 0\n"),
                     "xcsp3 repeat": ("xcsp3", "<instantiation><list>x[]</list><values>0x99999999999"
                                               "</values></instantiation>"),
                     "opb literal": ("opb", f"s SATISFIABLE\nv x1 -x{HUGE}\n")}[case]
        Path("f").write_text(text)
        argv = ["decode", "pentomino-3x20", "f", "--format", fmt]
    capsys.readouterr()
    before = _snapshot(tmp_path)
    _refused(capsys, argv)
    assert _snapshot(tmp_path) == before


def test_a_fill_order_a_small_board_would_not_use_is_refused(tmp_path, monkeypatch, capsys):
    """A board of at most 25 squares is searched whole, row by row: ``--fill-order comb`` was
    accepted there and not used."""
    monkeypatch.chdir(tmp_path)
    assert main(["generate-edgematch", "5", "5", "--seed", "3"]) == 0
    Path("g5.toml").write_text(capsys.readouterr().out)
    line = _refused(capsys, ["solve", "g5.toml", "--maximize-matches", "--engine", "backtrack",
                             "--fill-order", "comb"])
    assert "more than 25 squares" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g5.toml"]
    assert main(["solve", "g5.toml", "--maximize-matches", "--engine", "backtrack", "--fill-order",
                 "rows", "--best", "b.json"]) == 0
    assert "40/40" in capsys.readouterr().err


@pytest.mark.parametrize("field, text", [("name", "\\u001b[31mX"), ("title", "bell\\u0007"),
                                         ("name", "\\u009bX")])
def test_a_control_character_in_a_name_or_title_is_refused(tmp_path, capsys, field, text):
    """A name or title is printed to the terminal, which would obey an escape sequence in it."""
    title = f'title = "{text}"\n' if field == "title" else ""
    name = text if field == "name" else "A"
    (tmp_path / "c.toml").write_text(f'{title}[region]\nrows = 1\ncols = 2\n[[piece]]\n'
                                     f'name = "{name}"\nascii = "##"\n')
    assert "control character" in _refused(capsys, ["info", str(tmp_path / "c.toml")])


def test_verify_says_when_solutions_repeat(tmp_path, monkeypatch, capsys):
    """A solution written twice was counted twice: "9 solutions verified" for a file of 8."""
    monkeypatch.chdir(tmp_path)
    assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--out", "s.jsonl"]) == 0
    lines = Path("s.jsonl").read_text().splitlines(keepends=True)
    Path("d.jsonl").write_text("".join(lines[:2] + lines[1:2] + lines[2:]))
    capsys.readouterr()
    assert main(["verify", "pentomino-3x20", "d.jsonl"]) == 0
    assert capsys.readouterr().out.strip() == "9 solutions verified (1 repeats an earlier one: 8 different)"
    assert main(["verify", "pentomino-3x20", "s.jsonl"]) == 0
    assert capsys.readouterr().out.strip() == "8 solutions verified"


def test_a_file_of_another_command_is_named_so(tmp_path, monkeypatch, capsys):
    """``count --resume`` given an enumeration's file said it had no header line."""
    monkeypatch.chdir(tmp_path)
    assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--out", "s.jsonl"]) == 0
    capsys.readouterr()
    before = _snapshot(tmp_path)
    line = _refused(capsys, ["count", "pentomino-3x20", "--raw", "--resume", "s.jsonl"])
    assert "'satiling enumerate', not of 'satiling count'" in line
    assert _snapshot(tmp_path) == before


def test_render_of_a_text_board_that_breaks_the_frame_rule_is_not_a_solution(tmp_path, capsys):
    """Every join matched and every square filled: render said 0 (a solution) though the pieces
    broke the frame rule, which the verifier (and solve: no solution) holds to."""
    (tmp_path / "ng.toml").write_text('family = "edgematch"\nrows = 2\ncols = 2\n'
                                      'pieces = [[1,1,1,1],[1,1,1,1],[1,1,1,1],[1,1,1,1]]\n')
    (tmp_path / "ng.txt").write_text("1/0 2/0\n3/0 4/0\n")
    assert main(["render", str(tmp_path / "ng.toml"), str(tmp_path / "ng.txt")]) == 1
    assert "not a solution" in capsys.readouterr().err
    assert main(["solve", "clue1"]) == 0
    (tmp_path / "c1.txt").write_text(capsys.readouterr().out)
    assert main(["render", "clue1", str(tmp_path / "c1.txt")]) == 0


@pytest.mark.parametrize("text, said", [
    ('family = "iqlink"\nplaced = ["ZZZ"]\n', "bad IQ-Link placement 'ZZZ'"),
    ('family = "iqlink"\nplaced = ["AAA"]\n', "piece A leaves the board"),
    ('family = "edgematch"\npieces_file = "p.txt"\n[[fixed]]\nsquare = "J1"\npiece = 1\nrotation = 0\n',
     "square J1 is not on the"),
])
def test_every_message_about_an_instance_file_names_it(tmp_path, capsys, text, said):
    (tmp_path / "p.txt").write_text("2 2\n0 1 2 0\n0 0 3 1\n2 4 0 0\n3 0 0 4\n")
    (tmp_path / "mine.toml").write_text(text)
    line = _refused(capsys, ["info", str(tmp_path / "mine.toml")])
    assert line.startswith("satiling: error: mine: ") and said in line


def test_json_lines_are_read_with_their_limits_and_nothing_more():
    """loads_json refuses nesting deeper than its limit and integers longer than 18 digits, and
    reads every other number as json does (a float's long fraction, a long string of digits)."""
    from satiling.fileio import JSON_DEPTH, loads_json
    deep = "[" * (JSON_DEPTH + 1) + "]" * (JSON_DEPTH + 1)
    with pytest.raises(SatilingError, match="nested deeper"):
        loads_json(deep, "f")
    assert loads_json("[" * JSON_DEPTH + "]" * JSON_DEPTH, "f")
    with pytest.raises(SatilingError, match="19 digits is too long"):
        loads_json('{"a": [1, 2, 1234567890123456789]}', "f")
    assert loads_json("[-123456789012345678]", "f") == [-123456789012345678]
    assert loads_json('["1234567890123456789", 0.12345678901234567890]', "f")[0] == "1234567890123456789"


# -- 10. solution files read by verify and render --------------------------------------------------------
def _solutions_file(capsys, folder: Path, *options: str) -> Path:
    """The 8 raw solutions of pentomino-3x20 as ``enumerate --out`` writes them (a header first)."""
    out = folder / "s.jsonl"
    assert main(["enumerate", "pentomino-3x20", "--quiet", "--out", str(out), *options]) == 0
    capsys.readouterr()
    return out


def _refused_by_verify_and_render(capsys, folder: Path, name: str, path: Path, *render: str) -> str:
    """verify and render (``render`` its extra options) each refuse ``path`` in one line, the same
    line, and write no picture; that line."""
    said = _refused(capsys, ["verify", name, str(path)])
    before = _snapshot(folder)
    assert _refused(capsys, ["render", name, str(path), "--svg", str(folder / "pic.svg"), *render]) == said
    assert _snapshot(folder) == before and not (folder / "pic.svg").exists()
    return said


def test_an_empty_file_or_a_header_alone_is_no_solution(capsys, tmp_path):
    """An empty file is what enumerate prints for a puzzle with none, and a header alone what
    enumerate --out writes then: both verify as 0 solutions; render has nothing to draw."""
    for text in ("", "\n \n"):
        (tmp_path / "empty.jsonl").write_text(text)
        assert main(["verify", "pentomino-6x10", str(tmp_path / "empty.jsonl")]) == 0
        assert capsys.readouterr().out == "0 solutions verified\n"
        assert "no solution in the file" in _refused(capsys, ["render", "pentomino-6x10",
                                                              str(tmp_path / "empty.jsonl")])
    (tmp_path / "l3.toml").write_text('[region]\nrows = 3\ncols = 3\n[[piece]]\nname = "L"\n'
                                      'ascii = "#.\\n##"\ncount = 3\n')   # no tiling, found by search
    found = tmp_path / "none.jsonl"
    assert main(["enumerate", str(tmp_path / "l3.toml"), "--quiet", "--out", str(found)]) == 1
    assert len(found.read_text().splitlines()) == 1          # the header alone
    capsys.readouterr()
    assert main(["verify", str(tmp_path / "l3.toml"), str(found)]) == 0
    assert capsys.readouterr().out == "0 solutions verified\n"
    assert "no solution in the file" in _refused(capsys, ["render", str(tmp_path / "l3.toml"), str(found)])


@pytest.mark.parametrize("change, said, resume_says", [
    (('"format":1', '"format":99'),
     "written by another version of satiling or for another model (format differs)", "format differs"),
    (('"satiling":"enumerate"', '"satiling":"count"'),
     "the file of 'satiling count', not of 'satiling enumerate'", "'satiling count'"),
    ((',"fingerprint":"', ',"fingerprint":"x'),
     "the header holds no fingerprint of a model: not a header satiling writes", "fingerprint differs"),
])
def test_verify_and_render_hold_the_header_to_the_rule_of_resume(capsys, tmp_path, change, said, resume_says):
    """A header of an unknown format, of another command or with no fingerprint verified as "8
    solutions verified" and rendered, where ``--resume`` refused it."""
    out = _solutions_file(capsys, tmp_path, "--raw")
    lines = out.read_text().splitlines(keepends=True)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0].replace(*change) + "".join(lines[1:]))
    line = _refused_by_verify_and_render(capsys, tmp_path, "pentomino-3x20", bad)
    assert line == f"satiling: error: {bad}: {said}"
    assert resume_says in _refused(capsys, ["enumerate", "pentomino-3x20", "--raw", "--resume", str(bad)])


@pytest.mark.parametrize("options", [(), ("--raw",), ("--symmetry", "rotations"), ("--no-symmetry-breaking",)])
def test_a_file_verifies_whatever_options_wrote_it(capsys, tmp_path, options):
    """The fingerprint covers the model the run searched (its symmetry group too, which the header
    does not name): a reader holds the header to its kind, format and puzzle, and checks every
    solution itself -- a fingerprint of another model is no reason to refuse a solution."""
    out = _solutions_file(capsys, tmp_path, *options)
    assert main(["verify", "pentomino-3x20", str(out)]) == 0
    assert capsys.readouterr().out.endswith("solutions verified\n")
    lines = out.read_text().splitlines(keepends=True)
    head = lines[0].split(',"fingerprint":')[0] + ',"fingerprint":"0000000000000000"}\n'
    out.write_text(head + "".join(lines[1:]))
    assert main(["verify", "pentomino-3x20", str(out)]) == 0


@pytest.mark.parametrize("render", [(), ("--index", "2"), ("--all",)])
def test_a_bad_line_anywhere_is_refused_before_anything_is_drawn(capsys, tmp_path, render):
    """render drew the first solution and said nothing of a line 4 that is not JSON."""
    lines = _solutions_file(capsys, tmp_path, "--raw").read_text().splitlines(keepends=True)
    bad = tmp_path / "corrupt.jsonl"
    bad.write_text("".join(lines[:3]) + '{"puzzle": broken\n' + "".join(lines[3:]))
    line = _refused_by_verify_and_render(capsys, tmp_path, "pentomino-3x20", bad, *render)
    assert line.startswith(f"satiling: error: {bad}: line 4: not valid JSON")
    assert capsys.readouterr().out == ""


def test_verify_reads_on_after_a_wrong_solution(capsys, tmp_path):
    """A wrong solution is exit 1 only when the rest of the file is good: a bad line after it is
    bad input (exit 2), as it is for render --all."""
    lines = _solutions_file(capsys, tmp_path, "--raw").read_text().splitlines(keepends=True)
    wrong = json.loads(lines[1])
    wrong["placements"] = wrong["placements"][:-1]
    body = json.dumps(wrong) + "\n"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + body + "".join(lines[2:]) + "[\n")
    assert "line 10: not valid JSON" in _refused_by_verify_and_render(capsys, tmp_path, "pentomino-3x20",
                                                                       bad, "--all")
    bad.write_text(lines[0] + body + "".join(lines[2:]))
    assert main(["verify", "pentomino-3x20", str(bad)]) == 1
    assert capsys.readouterr().err.startswith("satiling: solution 1 is wrong: ")
