"""Long runs: stopped and resumed, proved, split over processes and a Dask cluster.

The numbers come from outside: the pentomino counts (2339 / 9356 for 6x10, 368 for 4x15, 65 / 520
for the 8x8 with a hole: Haselgrove 1960, Knuth 2000), 34 domino tilings of a 2x8 strip (a
Fibonacci number) and 21 up to symmetry (Burnside: (34 + 34 + 8 + 8) / 4), and boxes that cannot
be tiled by colouring arguments (the instances' own notes).  Proofs are re-checked here with
dratify's own API.  (hexiamond-3x12 has no solution either, but its proof has ~800 000 steps:
minutes for a pure-Python checker, so it is not in the tests.)
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from satiling import catalog
from satiling.cli import main
from satiling.errors import SatilingError
from satiling.search.cubes import CubeSpace
from satiling.search.searchers import searcher
from satiling.search.proof import check_proof, prove_complete
from satiling.search.stream import Run, Settings

DATA = Path(__file__).parents[1] / "data"


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "satiling.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def lines(path: Path) -> list[str]:
    """The solution lines of a solutions file (after its header line)."""
    return [ln for ln in path.read_text().splitlines() if '"placements"' in ln] if path.exists() else []


def wait_for_lines(path: Path, n: int, proc: subprocess.Popen, timeout: float = 300) -> None:
    end = time.monotonic() + timeout
    while len(lines(path)) < n:
        assert proc.poll() is None, "the enumeration ended before it could be stopped"
        assert time.monotonic() < end
        time.sleep(0.05)


def is_6x10_tiling(line: str) -> bool:
    """A check from the rules alone: 12 different pieces of 5 cells covering the 6x10 box once."""
    placements = json.loads(line)["placements"]
    cells = [tuple(c) for p in placements for c in p["cells"]]
    return (len({p["piece"] for p in placements}) == 12 and all(len(p["cells"]) == 5 for p in placements)
            and sorted(cells) == [(r, c) for r in range(6) for c in range(10)])


# -- stop and resume --------------------------------------------------------------------------------
def test_kill_and_resume_pentomino_6x10_raw(tmp_path):
    out = tmp_path / "6x10.jsonl"
    # 1. killed outright (no chance to clean up), part way through
    p = start("enumerate", "pentomino-6x10", "--raw", "--quiet", "--out", str(out))
    wait_for_lines(out, 2500, p)
    p.send_signal(signal.SIGKILL)
    p.wait()
    # a kill in the middle of a write leaves a torn line: make one
    with open(out, "a") as f:
        f.write(lines(out)[-1][:40])
    # 2. resumed, then stopped with Ctrl-C
    p = start("enumerate", "pentomino-6x10", "--raw", "--quiet", "--resume", str(out))
    wait_for_lines(out, 5500, p)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130
    assert "dropped an incomplete last line" in err and f"--resume {out}" in err
    # 3. resumed to the end
    p = start("enumerate", "pentomino-6x10", "--raw", "--quiet", "--resume", str(out))
    assert p.wait(timeout=600) == 0
    found = lines(out)
    assert len(found) == 9356 and len(set(found)) == 9356
    assert all(is_6x10_tiling(line) for line in found)


def test_time_limit_then_resume(tmp_path, cli):
    out = tmp_path / "6x10.jsonl"
    r = cli("enumerate", "pentomino-6x10", "--raw", "--quiet", "--out", str(out), "--time-limit", "0.2")
    assert r.returncode == 3 and "time limit" in r.stderr
    first = len(lines(out))
    assert 0 <= first < 9356
    r = cli("enumerate", "pentomino-6x10", "--raw", "--quiet", "--resume", str(out))
    assert r.returncode == 0, r.stderr
    assert len(lines(out)) == len(set(lines(out))) == 9356


def test_resume_refuses_a_file_of_another_enumeration(tmp_path, cli):
    out = tmp_path / "raw.jsonl"
    assert cli("enumerate", "pentomino-3x20", "--raw", "--quiet", "--out", str(out)).returncode == 0
    r = cli("enumerate", "pentomino-3x20", "--quiet", "--resume", str(out))     # distinct, not raw
    assert r.returncode == 2 and "not written by this enumerate run (raw true" in r.stderr
    r = cli("enumerate", "pentomino-6x10", "--quiet", "--resume", str(out))
    assert r.returncode == 2 and 'puzzle "pentomino-3x20" in the file' in r.stderr


def test_count_checkpoint_resumes_where_it_stopped(tmp_path):
    puzzle = catalog.load("pentomino-8x8-centre")
    settings = Settings(raw=True)
    checkpoint = str(tmp_path / "count.ckpt")
    seen = []

    def stop_after_200(n: int) -> None:
        seen.append(n)
        if sum(seen) >= 200:
            raise KeyboardInterrupt

    first = Run("pentomino-8x8-centre", puzzle, puzzle.problem(), {}, settings).count(checkpoint, stop_after_200)
    assert first.stopped == "interrupted" and 0 < first.total < 520
    recorded = len(Path(checkpoint).read_text().splitlines()) - 1      # after the header
    assert recorded > 0
    second = Run("pentomino-8x8-centre", puzzle, puzzle.problem(), {}, settings).count(checkpoint)
    assert second.complete and second.total == 520
    assert second.found < 520                  # the recorded cubes were not counted again


def test_a_sat_count_stopped_inside_its_cubes_resumes_to_the_whole_count(tmp_path):
    """A solver's cube is searched part by part: stops between parts keep the parts left, and the
    count resumed again and again comes to Conway and Guy's 240 Soma solutions, none counted twice."""
    puzzle = catalog.load("soma-cube")
    checkpoint = str(tmp_path / "count.ckpt")
    for calls in (3, 5, 2, 0):
        heard = []

        def work(fraction: float, finished: float) -> None:
            heard.append(fraction)
            if calls and len(heard) > calls:
                raise KeyboardInterrupt
        out = Run("soma-cube", puzzle, puzzle.problem(), {}, Settings(engine="sat")).count(checkpoint, work=work)
        assert out.complete == (calls == 0)
    assert out.total == 240
    records = [json.loads(line) for line in Path(checkpoint).read_text().splitlines()[1:]]
    assert any("left" in r for r in records)           # the stops came inside cubes


def test_a_part_a_solver_is_stopped_in_again_is_split_deeper():
    space = CubeSpace(catalog.load("hexiamond-6x6"))
    cube = 0
    fresh = space.parts(cube, [()])
    assert len(fresh) > 1 and all(len(p) == 1 for p in fresh)
    again = space.parts(cube, fresh)
    assert again[len(again) - len(fresh) + 1:] == fresh[1:]
    assert all(len(p) == 2 and p[0] == fresh[0][0] for p in again[:len(again) - len(fresh) + 1])
    with pytest.raises(SatilingError, match="does not have"):
        space.parts(cube, [(10 ** 9,)])


# -- cubes ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, options, distinct, raw", [
    ("pentomino-8x8-centre", [], 65, 520),
    ("pentomino-3x20", ["--no-symmetry-breaking"], 2, 8),     # split on cells: classes cross cubes
])
def test_cubes_count_each_class_once(capsys, name, options, distinct, raw):
    assert main(["count", name, "--quiet", *options]) == 0
    assert main(["count", name, "--quiet", "--raw", *options]) == 0
    assert capsys.readouterr().out.split() == [str(distinct), str(raw)]


@pytest.mark.parametrize("name, count, engines", [
    ("tetrahex-4x7", 9, ("walk", "sat", "cpsat")),        # Goodger, Polyform Puzzler
    ("tetromino-4x5", 0, ("walk", "sat", "cpsat")),       # checkerboard argument
    ("pentomino-3x20", 2, ("walk", "sat")),               # Knuth 2000
])
def test_engines_agree_on_the_cubes(capsys, name, count, engines):
    """The DPLL walk, the CNF path (CaDiCaL) and CP-SAT count the same cubes alike."""
    for engine in engines:
        main(["count", name, "--quiet", "--engine", engine])
    assert capsys.readouterr().out.split() == [str(count)] * len(engines)


def test_sat_engine_runs_a_cube_twice_alike():
    space = CubeSpace(catalog.load("pentomino-3x20"))
    runner = searcher("sat", space.problem).runner(space, "cadical")
    for _ in range(2):      # one incremental solver across cubes and runs: blocking is per run
        assert sum(runner.run(i, raw=False).count for i in range(len(space.cubes))) == 2
    assert sum(runner.run(i, raw=True).count for i in range(len(space.cubes))) == 8


def test_workers_count_pentomino_6x10(cli):
    r = cli("count", "pentomino-6x10", "--workers", "2", "--quiet")
    assert (r.returncode, r.stdout.strip()) == (0, "2339"), r.stderr
    r = cli("count", "pentomino-6x10", "--workers", "2", "--quiet", "--raw")
    assert (r.returncode, r.stdout.strip()) == (0, "9356"), r.stderr


def test_dask_count_pentomino_6x10(capsys):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        assert main(["count", "pentomino-6x10", "--quiet", "--raw", "--dask", cluster.scheduler_address]) == 0
    out = capsys.readouterr()
    assert out.out.strip() == "9356"
    assert "9356 solutions in 2339 symmetry classes" in out.err     # the distinct count, same run


# -- proofs -----------------------------------------------------------------------------------------
def _recheck(proof: Path) -> bool:
    """An independent re-check with dratify's own API (not through satiling)."""
    import dratify
    formula = dratify.parse_dimacs(Path(str(proof) + ".cnf").read_text())
    return dratify.check_proof(formula, proof.read_text()).ok


@pytest.mark.parametrize("name", ["tetromino-4x5", "tetromino-one-sided-4x7",
                                  str(DATA / "mutilated-6x6.toml")])
def test_solve_proof_of_no_solution(cli, tmp_path, name):
    proof = tmp_path / "p.drat"
    r = cli("solve", name, "--proof", str(proof))
    assert r.returncode == 1 and r.stdout.strip() == "no solution"
    assert "verified by dratify" in r.stderr and "takes as given" not in r.stderr
    assert _recheck(proof)


def test_a_proof_says_what_it_takes_as_given(cli, tmp_path):
    """--parity adds constraints that satiling derives (a colouring argument): a proof of the
    formula certifies the puzzle only with them, and where their bounds cross the formula holds
    the empty clause, so the proof certifies nothing of its own."""
    proof = tmp_path / "p.drat"
    r = cli("solve", "tetromino-4x15", "--parity", "--proof", str(proof))
    assert r.returncode == 1 and "verified by dratify" in r.stderr
    assert "the formula holds the empty clause, from the parity constraints (--parity)" in r.stderr
    r = cli("count", "tetromino-cylinder-4x5", "--proof", str(proof))   # classes: a restricted model
    assert (r.returncode, r.stdout.strip()) == (0, "7")
    assert "takes as given the symmetry restriction (" in r.stderr and _recheck(proof)


def test_a_broken_proof_is_not_verified(cli, tmp_path):
    proof = tmp_path / "p.drat"
    cli("solve", "tetromino-4x5", "--proof", str(proof))
    steps = proof.read_text().splitlines()
    proof.write_text("\n".join(steps[: len(steps) // 2]) + "\n")     # half a proof
    r = cli("check-proof", f"{proof}.cnf", str(proof))
    assert r.returncode == 1 and "NOT verified" in r.stdout
    assert not any(c.ok for c in check_proof(f"{proof}.cnf", str(proof)))


#: x1 and x2 can take no values at all; its proof: (x1), then the empty clause
ALL_FOUR = "c every sign of x1 x2\np cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n"


@pytest.mark.parametrize("formula, proof, says", [
    ("p cnf 1 2\n1 0\n-1 x 0\n", "", "f.cnf: line 3: 'x' is not a literal"),
    # what Python's int() reads and DIMACS does not
    ("p cnf 1 2\n+1 0\n-1 0\n", "", "f.cnf: line 2: '+1' is not a literal"),
    ("p cnf 10 2\n1_0 0\n-1 0\n", "", "f.cnf: line 2: '1_0' is not a literal"),
    ("p cnf 1 2\n\u0661 0\n-1 0\n", "", "f.cnf: line 2: '\u0661' is not a literal"),
    ("p cnf 1 2\n1 0\n-1 0 0x1\n", "", "f.cnf: line 3: '0x1' is not a literal"),
    ("p cnf 1 5\n1 0\n-1 0\n", "0\n", "f.cnf: line 1: the 'p cnf' line says 5 clauses, the file holds 2"),
    ("p cnf 1 1\n1 0\n-1 0\n", "0\n", "f.cnf: line 3: clause 2, beyond the 1 the 'p cnf' line (line 1)"),
    ("p cnf 1 2\n1 0\n-2 0\n", "0\n", "f.cnf: line 3: literal -2 is beyond the 1 variables"),
    ("p cnf 2 1\n1 2\n", "", "f.cnf: the last clause has no closing 0"),
    ("1 0\np cnf 1 1\n", "", "f.cnf: line 1: not DIMACS"),
    ("p cnf 1\n1 0\n", "", "f.cnf: line 1: the 'p cnf VARIABLES CLAUSES' line is malformed"),
    ("", "", "f.cnf: not DIMACS (no 'p cnf' line)"),
    (ALL_FOUR, "s SATISFIABLE\nv 1 2 x 4 0\n", "p.drat: proof line 1: bad token 's'"),
    (ALL_FOUR, "1 0\n2 -1\n", "p.drat: proof line 2: clause not terminated by 0"),
    (ALL_FOUR, "1 0\n99 0\n", "p.drat: proof line 2: literal 99 is beyond"),
    (ALL_FOUR, b"a\x02\x00a\x00", "p.drat: a binary DRAT proof; dratify reads text DRAT only"),
])
def test_check_proof_refuses_what_is_not_a_formula_or_a_proof(cli, formula, proof, says):
    """A file that is not what it should be is bad input (exit 2, one line naming the file and
    the line), not a proof that fails: "NOT verified" would blame a proof never read."""
    Path("f.cnf").write_text(formula)
    Path("p.drat").write_bytes(proof if isinstance(proof, bytes) else proof.encode())
    r = cli("check-proof", "f.cnf", "p.drat")
    assert (r.returncode, r.stdout) == (2, ""), r.stderr
    [line] = r.stderr.splitlines()
    assert line.startswith(f"satiling: error: {says}"), line


def test_check_proof_reads_what_dimacs_and_drat_allow(cli):
    """Comments, a clause over two lines, SATLIB's '%' end and a deletion are read; an empty
    proof is DRAT (no lemmas), so its verdict is the checker's: verified only where unit
    propagation alone refutes the formula, else NOT verified (exit 1)."""
    Path("f.cnf").write_text(ALL_FOUR.replace("-1 -2 0", "-1\n-2 0") + "%\n0\n")
    Path("p.drat").write_text("c a lemma, a deletion, the empty clause\n1 0\nd 1 2 0\n0\n")
    r = cli("check-proof", "f.cnf", "p.drat")
    assert (r.returncode, r.stderr) == (0, "") and "dratify: verified" in r.stdout
    Path("p.drat").write_text("")
    r = cli("check-proof", "f.cnf", "p.drat")
    assert r.returncode == 1 and "never derives the empty clause" in r.stdout
    assert r.stderr.splitlines() == ["satiling: the proof is NOT verified"]
    Path("u.cnf").write_text("p cnf 1 2\n1 0\n-1 0\n")
    r = cli("check-proof", "u.cnf", "p.drat")
    assert r.returncode == 0 and "refuted by unit propagation alone" in r.stdout


def test_count_proof_of_no_more_solutions(cli, tmp_path):
    dominoes = str(DATA / "dominoes-2x8.toml")
    assert cli("count", dominoes, "--quiet").stdout.strip() == "21"
    proof = tmp_path / "p.drat"
    r = cli("count", dominoes, "--raw", "--quiet", "--proof", str(proof))
    assert (r.returncode, r.stdout.strip()) == (0, "34")
    assert "verified by dratify" in r.stderr and _recheck(proof)


def test_a_missed_solution_cannot_be_proved_away(tmp_path):
    space = CubeSpace(catalog.load(str(DATA / "dominoes-2x8.toml")))
    runner = searcher("auto", space.problem).runner(space, "cadical")
    found = [sol for i in range(len(space.cubes)) for sol in runner.owners(i)]
    members = space.restricted_members(found[1:])          # forget one class
    with pytest.raises(SatilingError, match="missed"):
        prove_complete(space.problem, members, str(tmp_path / "p.drat"))


def test_proof_needs_a_solver_that_writes_proofs(cli, tmp_path):
    r = cli("solve", "tetromino-4x5", "--proof", str(tmp_path / "p"), "--solver", "minisat")
    assert r.returncode == 2 and "DRAT" in r.stderr


# -- sizes without the model (issue 22, point 8: info eternity took 32.5 s and 1.6 GB) -----------------
@pytest.mark.parametrize("name", ["pentomino-6x10", "tetromino-cylinder-4x5", "soma-cube", "serenity",
                                  "tetromino-fixed-4x19", "hexiamond-6x6"])
def test_info_counts_the_model_without_building_it(name):
    from satiling.backends.cnf import CnfEncoder
    puzzle = catalog.load(name)
    shape, problem = puzzle.model_shape(), puzzle.problem()
    assert shape.stats() == problem.stats()
    for amo in ("pairwise", "ladder", "seqcounter"):
        assert CnfEncoder.shape_size(shape, amo) == CnfEncoder(problem, amo).size()
    assert puzzle.model_shape(parity=True) is None            # linear constraints: build them


def test_the_counted_ladder_is_the_written_one():
    # beyond the pairwise limit an at-most-one is PySAT's ladder: counted, not encoded, for size()
    from satiling.backends.cnf import PAIRWISE_LIMIT, CnfEncoder
    from satiling.problem import Problem
    for n, lo in ((PAIRWISE_LIMIT + 1, 1), (1234, 0), (2 * PAIRWISE_LIMIT, 1)):
        p = Problem()
        lits = [p.new_var(primary=True) for _ in range(n)]
        p.cardinality(lits, lo, 1)
        enc = CnfEncoder(p)
        written = list(enc.clauses())
        assert CnfEncoder(p).size() == (enc.top, len(written))


@pytest.mark.parametrize("name", ["iqlink-wizard", "tetromino-4x10"])
def test_info_gives_the_size_of_the_file_encode_writes(cli, name):
    """IQ-Link's file holds the eager link rule (a solver reading it runs no lazy check): info's
    CNF line is that file's size, as encode's 'p cnf' line says, not the lazy model's."""
    r = cli("info", name)
    words = r.stdout.split("cnf (pairwise)")[1].split()
    encoded = cli("encode", name)
    header = next(ln for ln in encoded.stdout.splitlines() if ln.startswith("p cnf"))
    assert header.split()[2:] == [words[0], words[2]]


@pytest.mark.slow
def test_the_readme_gives_eternitys_size_as_info_does(cli):
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    line = next(ln for ln in readme.splitlines() if ln.startswith("satiling encode eternity >"))
    r = cli("info", "eternity")
    words = r.stdout.split("cnf (pairwise)")[1].split()
    variables, clauses = int(words[0]), int(words[2])
    assert f"{round(variables / 1e6)} M variables, {round(clauses / 1e6)} M clauses" in line


# -- a stopped count keeps its work (issue 22, points 2 and 3) -------------------------------------------
def _stop_after(calls: int, inside: bool = False):
    """A progress hook that stops the count (as Ctrl-C would) at its ``calls``-th report, or
    (``inside``) at the first report after that which is the second one inside one cube."""
    heard = {"n": 0, "cube": None, "steps": 0}

    def work(fraction, finished=None):
        heard["n"] += 1
        if finished != heard["cube"]:
            heard["cube"], heard["steps"] = finished, 0
        elif fraction > finished:
            heard["steps"] += 1
        if heard["n"] >= calls and (not inside or heard["steps"] >= 2):
            raise KeyboardInterrupt
    return work


def test_a_count_stopped_inside_cubes_resumes_without_losing_or_repeating(tmp_path, monkeypatch):
    # stops land inside cubes: the cube's solutions so far and the parts of its tree not yet
    # searched go to the checkpoint, and the resumed count searches those parts alone (the search
    # hands back every 0.5 ms here, so that a cube of 6x10 takes several steps)
    from satiling.engines import exactcover
    monkeypatch.setattr(exactcover, "CALL_SECONDS", 0.0005)
    puzzle = catalog.load("pentomino-6x10")
    problem = puzzle.problem()
    path = str(tmp_path / "count.jsonl")
    stops = [30, 20, 50, 20, 40, 30, 60, 20]
    for calls in stops + [0]:
        run = Run("pentomino-6x10", puzzle, problem, {}, Settings(raw=True))
        out = run.count(path, work=_stop_after(calls, inside=True) if calls else None)
        assert out.complete == (calls == 0)
    assert out.total == 9356                   # Haselgrove 1960, every rotation and reflection
    records = [json.loads(line) for line in Path(path).read_text().splitlines()[1:]]
    parts = [r for r in records if "left" in r]
    assert len(parts) == len(stops) and all(r["left"] for r in parts)   # where each stop was
    finished = [r["cube"] for r in records if "left" not in r]
    assert len(finished) == len(set(finished)) == len(run.space.cubes)


def test_a_resumed_count_reports_the_whole_run(tmp_path):
    # the bar of a resumed count starts at the solutions and the part an earlier run reached
    puzzle = catalog.load("pentomino-6x10")
    problem = puzzle.problem()
    path = str(tmp_path / "count.jsonl")
    first = Run("pentomino-6x10", puzzle, problem, {}, Settings()).count(path, work=_stop_after(12))
    assert not first.complete and first.total > 0
    records = [json.loads(line) for line in Path(path).read_text().splitlines()[1:]]
    kept = sum(r["count"] for r in records if "left" not in r)
    kept += next((r["count"] for r in reversed(records) if "left" in r), 0)
    heard, parts = [], []
    again = Run("pentomino-6x10", puzzle, problem, {}, Settings())
    out = again.count(path, progress=heard.append, work=lambda f, g=None: parts.append(f))
    assert heard[0] == kept > 0                  # the earlier solutions, told first
    assert parts[0] > 0 and parts == sorted(parts) and parts[-1] == 1.0
    assert out.total == sum(heard) == 2339


def test_a_stopped_count_without_resume_keeps_its_work_and_says_how_to_go_on(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    argv = [sys.executable, "-m", "satiling.cli", "count", "pentomino-6x10", "--quiet"]
    for limit in ("0.3", "1", "4"):              # a loaded machine may stop before the search began
        r = subprocess.run(argv + ["--time-limit", limit], capture_output=True, text=True, env=env,
                           cwd=tmp_path)
        if r.returncode == 0:                    # a machine fast enough to finish: nothing to keep
            assert r.stdout.split() == ["2339"]
            return
        assert r.returncode == 3, r.stderr
        if "nothing was searched yet" not in r.stderr:
            break
    # (and, where the part in progress was counted past its last record, how many are not kept)
    m = re.search(r"its work is kept in (\S+);(?: all but the last \d+ of them kept [^;]*;)? "
                  r"continue with: satiling (.+)$", r.stderr.strip())
    assert m, r.stderr
    kept = Path(m.group(1))
    assert kept.parent == tmp_path / "cache" / "satiling" and kept.exists()
    assert m.group(2) == f"count pentomino-6x10 --quiet --resume {kept}"
    done = subprocess.run([sys.executable, "-m", "satiling.cli", *m.group(2).split()],
                          capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.split() == ["2339"]     # the published count


def test_time_left_is_the_runs_pace_smoothed_not_the_last_jump():
    import math
    from satiling.search.timeleft import TimeLeft
    # a search of 1000 s whose measure of "done" jumps by 5% every 50 s and stalls in between (a
    # position measure that says "half done" early, a cube estimated large that is quick): a rate
    # over the last reports sees an endless stall, then an instant finish, in turns
    left = TimeLeft(0.0)
    said = [(t, left.update(float(t), min(0.999, 0.05 * math.ceil(t / 50)))) for t in range(5, 1000, 5)]
    said = [(t, s) for t, s in said if 100 <= t <= 900]
    for t, seconds in said:                       # within a factor 1.7 of the truth
        assert (1000 - t) / 1.7 <= seconds <= (1000 - t) * 1.7, (t, seconds)
    for (t, a), (_, b) in zip(said, said[1:]):    # and steady: no swing of minutes in 5 s
        assert abs(b - a) <= 0.15 * (1000 - t) + 5, (t, a, b)


def test_time_left_after_a_resume_counts_this_runs_work_only():
    from satiling.search.timeleft import TimeLeft
    left = TimeLeft(0.0)
    left.update(0.0, 0.5)                        # an earlier run reached half way
    for t in range(1, 31):
        seconds = left.update(float(t), 0.5 + 0.01 * t)    # this run: 1% a second
    assert 18 <= seconds <= 22                   # 20% left at 1% a second, not 30 * 0.2 / 0.8


def test_workers_that_finish_no_cube_say_how_to_get_further(cli, tmp_path):
    """Workers keep whole cubes only: a limit shorter than every cube left keeps nothing, and the
    same command again would search the same cubes again.  The message says so and how to go on
    (the hint of a count that kept work drops --time-limit; this one cannot help that way)."""
    path = tmp_path / "ob.jsonl"
    r = cli("count", "obeirne-hexagon", "--workers", "2", "--time-limit", "0.5", "--resume", str(path))
    assert r.returncode == 3, r.stderr
    records = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    finished = [rec for rec in records if "cube" in rec and "left" not in rec]
    said = "the workers finished no cube in this run and keep only whole ones" in r.stderr
    assert said == (not finished), r.stderr
    if said:
        assert "without --workers" in r.stderr and "continue with" not in r.stderr
