"""The command line as a user meets it: output, pictures, exit codes, errors without tracebacks."""
import json
import re
import subprocess
import sys

import pytest

from satiling import load

from clirun import have


def test_list_shows_bundled_puzzles(cli):
    r = cli("list")
    assert r.returncode == 0
    names = [line.split()[0] for line in r.stdout.splitlines()]
    assert {"pentomino-6x10", "tetromino-4x5", "pentomino-8x8-centre"} <= set(names)


def test_solve_prints_a_verified_picture_and_svg(cli, tmp_path):
    svg = tmp_path / "p.svg"
    r = cli("solve", "pentomino-6x10", "--svg", str(svg))
    assert r.returncode == 0, r.stderr
    grid = r.stdout.split()
    assert len(grid) == 6 and all(len(row) == 10 for row in grid)
    assert sorted(set("".join(grid))) == sorted("FILNPTUVWXYZ")
    assert all("".join(grid).count(ch) == 5 for ch in "FILNPTUVWXYZ")
    text = svg.read_text()
    assert text.startswith("<svg") and text.count("<title>") == 12


@pytest.mark.parametrize("solver", ["cadical", "glucose", "cpsat"])
def test_solve_with_each_solver(cli, solver):
    r = cli("solve", "pentomino-8x8-centre", "--solver", solver)
    assert r.returncode == 0, r.stderr
    assert [len(row) for row in r.stdout.splitlines()] == [8] * 8


def test_no_solution_exits_1(cli):
    r = cli("solve", "tetromino-4x5")
    assert r.returncode == 1
    assert "no solution" in r.stdout
    r = cli("count", "tetromino-4x5")
    assert r.returncode == 1 and r.stdout.strip() == "0"


def test_count_distinct_and_raw(cli):
    assert cli("count", "pentomino-3x20").stdout.strip() == "2"
    assert cli("count", "pentomino-3x20", "--raw").stdout.strip() == "8"


def test_enumerate_verify_render_roundtrip(cli, tmp_path):
    out = tmp_path / "s.jsonl"
    r = cli("enumerate", "pentomino-3x20", "--raw", "--out", str(out))
    assert r.returncode == 0, r.stderr
    lines = out.read_text().splitlines()[1:]         # after the header naming the run
    assert len(lines) == 8 and len(set(lines)) == 8
    r = cli("verify", "pentomino-3x20", str(out))
    assert r.returncode == 0 and "8 solutions verified" in r.stdout
    svg = tmp_path / "s.svg"
    r = cli("render", "pentomino-3x20", str(out), "--svg", str(svg))
    assert r.returncode == 0 and svg.read_text().startswith("<svg")
    r = cli("enumerate", "pentomino-6x10", "--limit", "3")
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 3


def test_verify_rejects_a_wrong_solution(cli, tmp_path):
    out = tmp_path / "s.jsonl"
    cli("enumerate", "pentomino-3x20", "--limit", "1", "--out", str(out))
    sol = json.loads(out.read_text().splitlines()[1])   # the solution after the header
    sol["placements"][0]["cells"][0][1] += 1      # move one cell of one piece
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(sol))
    r = cli("verify", "pentomino-3x20", str(bad))
    assert r.returncode == 1 and "wrong" in r.stderr


def test_encode_and_decode_with_pysat(cli, tmp_path):
    """The DIMACS file is complete: an independent in-process solver's model decodes to a
    verified picture."""
    from pysat.formula import CNF
    from pysat.solvers import Solver
    cnf = tmp_path / "p.cnf"
    r = cli("encode", "tetromino-4x10", "-o", str(cnf))
    assert r.returncode == 0, r.stderr
    text = cnf.read_text()
    assert text.count("\nc v ") == len(load("tetromino-4x10").placements())   # one map line each
    formula = CNF(from_file=str(cnf))
    with Solver(name="minisat22", bootstrap_with=formula) as s:
        assert s.solve()
        model = s.get_model()
    out = tmp_path / "out.txt"
    out.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    r = cli("decode", "tetromino-4x10", str(out))
    assert r.returncode == 0, r.stderr
    assert [len(row) for row in r.stdout.split()] == [10] * 4
    out.write_text(" ".join(map(str, model)))                           # plain literal list
    assert cli("decode", "tetromino-4x10", str(out)).returncode == 0


@pytest.mark.skipif(not have("cadical"), reason="the cadical binary is not installed")
def test_external_cadical_roundtrip(tmp_path):
    cnf = tmp_path / "p.cnf"
    out = tmp_path / "out.txt"
    satiling = [sys.executable, "-m", "satiling.cli"]
    with open(cnf, "w") as f:
        subprocess.run(satiling + ["encode", "pentomino-6x10"], stdout=f, check=True)
    with open(out, "w") as f:
        r = subprocess.run(["cadical", "-q", str(cnf)], stdout=f)
    assert r.returncode == 10                                   # SAT-competition: satisfiable
    r = subprocess.run(satiling + ["decode", "pentomino-6x10", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert [len(row) for row in r.stdout.split()] == [10] * 6


def test_encode_cpsat_and_lp(cli):
    r = cli("encode", "tetromino-4x5", "--format", "cpsat")
    assert r.returncode == 0 and "exactly_one" in r.stdout
    r = cli("encode", "tetromino-4x5", "--format", "lp")
    assert r.returncode == 0 and r.stdout.rstrip().endswith("End") and "Binary" in r.stdout


# -- bad input: one line on stderr, exit 2, no traceback -----------------------------------------
def _one_clear_line(r):
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert r.stderr.startswith("satiling: error:")


def test_unknown_name(cli):
    _one_clear_line(cli("solve", "no-such-puzzle"))


@pytest.mark.parametrize("args", [
    ["solve", "tetromino-4x5", "--solver", "nosuch"],
    ["count", "pentomino-3x20", "--engine", "sat", "--solver", "scip", "--quiet"],  # not a SAT solver
    ["solve", "clue1", "--solver", "walk"],                  # the walk needs a pure exact cover
    ["solve", "tetromino-4x5", "--solver", "highs", "--proof", "p.drat"],   # no DRAT from a MIP
])
def test_solver_that_cannot_do_the_job(cli, tmp_path, args):
    _one_clear_line(cli(*args, cwd=tmp_path))


@pytest.mark.parametrize("content", [
    "title = 'broken\n",                                           # not TOML
    "family = 'polyform'\n[region]\nrows = 2\ncols = 2\n",          # no pieces
    "family = 'nonsense'\n",                                       # unknown family
    "family = 'polyform'\n[region]\nrows=1\ncols=2\n[[piece]]\nname='a'\nascii='#.#'\n",  # split piece
    "family = 'polyform'\n[region]\nrows=1\ncols=2\n[[piece]]\nname='a'\ncells=[['x']]\n",
])
def test_malformed_instance_file(cli, tmp_path, content):
    f = tmp_path / "bad.toml"
    f.write_text(content)
    _one_clear_line(cli("solve", str(f)))


@pytest.mark.parametrize("content", ["s SATISFIABLE\nv 1 2 banana 0\n", "hello world\n",
                                     "1 -1 2\n", "v 99999999 0\n", "s WHATEVER\n"])
def test_corrupt_solver_output(cli, tmp_path, content):
    f = tmp_path / "out.txt"
    f.write_text(content)
    _one_clear_line(cli("decode", "pentomino-3x20", str(f)))


def test_model_that_is_not_a_solution_is_refused(cli, tmp_path):
    f = tmp_path / "out.txt"
    f.write_text("s SATISFIABLE\nv 1 2 3 0\n")
    _one_clear_line(cli("decode", "pentomino-3x20", str(f)))


def test_unwritable_output_leaves_no_file(cli, tmp_path):
    target = tmp_path / "missing-dir" / "p.cnf"
    _one_clear_line(cli("encode", "tetromino-4x5", "-o", str(target)))
    assert not target.exists()


def test_help_teaches(cli):
    r = cli("--help")
    assert r.returncode == 0 and "examples:" in r.stdout and "exit codes" in r.stdout


def test_written_files_have_the_usual_mode(cli, tmp_path):
    """Files appear whole (a temporary renamed into place) yet with the mode open() would give."""
    import os
    mask = os.umask(0o022)
    try:
        r = cli("solve", "trinity", "--svg", str(tmp_path / "t.svg"))
        assert r.returncode == 0, r.stderr
        assert cli("encode", "trinity", "-o", str(tmp_path / "t.cnf")).returncode == 0
    finally:
        os.umask(mask)
    for name in ("t.svg", "t.cnf"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o644


# -- defaults, render, names, help (issue 14) ----------------------------------------------------
def test_parity_rules_out_before_any_search(cli):
    """Nine sets of tetrominoes never fill a 4x45 box: the checkerboard argument (Golomb), which
    solve and count apply without --parity."""
    r = cli("solve", "tetromino-4x45")
    assert (r.returncode, r.stdout.strip()) == (1, "no solution")
    assert "checkerboard" in r.stderr and "before any search" in r.stderr
    r = cli("solve", "tetromino-4x45", "--json")           # stdout stays JSON
    assert r.returncode == 1 and json.loads(r.stdout) == {"puzzle": "tetromino-4x45", "placements": None}
    r = cli("count", "tetromino-4x45")
    assert (r.returncode, r.stdout.strip()) == (1, "0")


def test_auto_solver_is_the_exact_cover_search_on_polyforms(cli):
    r = cli("solve", "pentomino-6x10")
    assert r.returncode == 0 and "by walk" in r.stderr


def test_render_index_and_all(cli, tmp_path):
    out = tmp_path / "s.jsonl"
    assert cli("enumerate", "pentomino-3x20", "--raw", "--out", str(out)).returncode == 0
    solutions = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    r = cli("render", "pentomino-3x20", str(out), "--index", "2")
    assert r.returncode == 0
    rows = r.stdout.split()                      # the picture of the second line, cell by cell
    for placement in solutions[1]["placements"]:
        assert all(rows[row][col] == placement["piece"] for row, col in placement["cells"])
    r = cli("render", "pentomino-3x20", str(out), "--all")
    assert r.returncode == 0 and len(r.stdout.split()) == 3 * 8
    r = cli("render", "pentomino-3x20", str(out), "--index", "9")
    _one_clear_line(r)


def test_lp_and_cpsat_variables_are_named_by_placement(cli):
    cnf = cli("encode", "tetromino-4x10").stdout
    first = next(line for line in cnf.splitlines() if line.startswith("c v 1 "))
    piece = json.loads(first.split(" ", 3)[3])["piece"]
    lp = cli("encode", "tetromino-4x10", "--format", "lp").stdout
    binary = lp.split("Binary\n")[1].split()
    assert binary[0].startswith(f"x1_{piece}_") and binary[-1] == "End"
    assert max(len(line) for line in lp.splitlines()) <= 510       # CPLEX's line limit
    pbtxt = cli("encode", "tetromino-4x10", "--format", "cpsat").stdout
    assert f'name: "x1_{piece}_' in pbtxt


def test_help_lists_the_commands_own_options_first(cli):
    out = cli("solve", "--help").stdout
    own, families = out.split("\noptions:")[1].split("\n\n", 1)
    assert "--solver" in own and "--threads" in own and "--parity" not in own
    assert "polyforms options:" in families and "--parity" in families.split("polyforms options:")[1]


def test_iqlink_unique_exits_1_when_not_unique(cli):
    r = cli("iqlink", "unique", "")            # the empty board: thousands of solutions
    assert r.returncode == 1 and "not unique" in r.stdout


def test_pictures_are_coloured_on_a_terminal_only(tmp_path):
    # issue 22: colour when stdout is a terminal (NO_COLOR respected), never in a pipe
    import os
    import pty
    import subprocess
    import sys

    def run(env: dict, tty: bool) -> str:
        if not tty:
            return subprocess.run([sys.executable, "-m", "satiling.cli", "solve", "tetromino-cylinder-4x5"],
                                  capture_output=True, text=True, env=env).stdout
        main_fd, child_fd = pty.openpty()
        proc = subprocess.Popen([sys.executable, "-m", "satiling.cli", "solve", "tetromino-cylinder-4x5"],
                                stdout=child_fd, stderr=subprocess.DEVNULL, env=env)
        os.close(child_fd)
        out = b""
        while True:
            try:
                chunk = os.read(main_fd, 4096)
            except OSError:                        # the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
        proc.wait()
        os.close(main_fd)
        return out.decode()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    env["COLORTERM"] = "truecolor"
    assert "\x1b[48;2;" in run(env, tty=True)
    assert "\x1b[" not in run({**env, "NO_COLOR": "1"}, tty=True)
    assert "\x1b[" not in run(env, tty=False)
    assert "\x1b[48;5;" in run({**env, "COLORTERM": ""}, tty=True)


def test_render_all_puts_a_blank_line_between_solutions(cli, tmp_path):
    out = tmp_path / "s.jsonl"
    assert cli("enumerate", "pentomino-3x20", "--out", str(out)).returncode == 0
    pictures = cli("render", "pentomino-3x20", str(out), "--all").stdout.rstrip("\n").split("\n\n")
    assert len(pictures) == 2 and all(len(p.splitlines()) == 3 for p in pictures)


def test_make_demo_installs_satiling_without_the_test_tools(tmp_path):
    # issue 22: 'make demo' installed pytest and the rest; only 'make test' needs them
    import shutil
    import subprocess
    from pathlib import Path
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    root = Path(__file__).resolve().parents[2]
    venv = f"VENV={tmp_path / 'venv'}"            # a dry run (-n) against a venv that is not there
    demo = subprocess.run(["make", "-n", "demo", venv], cwd=root, capture_output=True, text=True).stdout
    test = subprocess.run(["make", "-n", "test", venv], cwd=root, capture_output=True, text=True).stdout
    assert re.search(r"pip install .*-e \.$", demo, re.M) and "[test]" not in demo
    assert "'.[test]'" in test and "pytest" in test


def test_a_mip_solver_says_nothing_of_its_own_on_stderr(cli):
    """stderr is satiling's: HiGHS printed its banner there ('Running HiGHS ...')."""
    r = cli("solve", "tetromino-4x10", "--solver", "highs")
    assert r.returncode == 0, r.stderr
    assert [line for line in r.stderr.splitlines() if not line.startswith("satiling:")] == []
