"""``decode --proof``: a solver's "no solution" with its DRAT proof is proved only when the proof
refutes satiling's own CNF of the puzzle.  The proofs are CaDiCaL's (through PySAT), of formulas
``satiling encode`` wrote; tetromino-4x5 has no solution (five tetrominoes cover 20 cells, but the
T covers three squares of one chessboard colour)."""
from __future__ import annotations

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from clirun import run_cli
from web.api import CLUED


def refute(cnf: str, proof) -> None:
    """Solve the DIMACS file ``cnf`` with CaDiCaL; it must be unsatisfiable: its text DRAT proof
    to ``proof``."""
    with Solver(name="cadical195", with_proof=True, bootstrap_with=CNF(from_file=cnf)) as s:
        assert not s.solve()
        proof.write_text("\n".join(s.get_proof()) + "\n")


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """A folder with the formula of tetromino-4x5 (pairwise and sequential at-most-one), their
    proofs, and the solver's answer."""
    work = tmp_path_factory.mktemp("proof")
    for amo in ("pairwise", "seqcounter"):
        cnf = work / f"{amo}.cnf"
        r = run_cli("encode", "tetromino-4x5", "--amo", amo, "-o", str(cnf))
        assert r.returncode == 0, r.stderr
        refute(str(cnf), work / f"{amo}.drat")
    (work / "answer.txt").write_text("s UNSATISFIABLE\n")
    return work


def decode(cli, work, *extra):
    return cli("decode", "tetromino-4x5", str(work / "answer.txt"), *extra)


def test_a_verified_proof_proves_no_solution(cli, work):
    r = decode(cli, work, "--proof", str(work / "pairwise.drat"))
    assert (r.returncode, r.stdout) == (1, "no solution\n")
    assert r.stderr.startswith("satiling: tetromino-4x5: no solution, proved: DRAT proof ")
    assert "verified by dratify" in r.stderr and "NOT" not in r.stderr


def test_the_formula_is_built_with_the_options_given(cli, work):
    """The proof of the sequential counter's formula refutes that formula, given by --amo or by the
    header of the file --cnf names; against the pairwise formula it is no proof."""
    proof = str(work / "seqcounter.drat")
    assert decode(cli, work, "--proof", proof, "--amo", "seqcounter").returncode == 1
    assert decode(cli, work, "--proof", proof, "--cnf", str(work / "seqcounter.cnf")).returncode == 1
    r = decode(cli, work, "--proof", proof)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "NOT verified" in r.stderr


def test_the_proof_of_another_formula_is_not_taken(cli, work, tmp_path):
    """A proof that some other formula has no model (here: two contradicting unit clauses) proves
    nothing of this puzzle: exit 2, one line, nothing on stdout."""
    other = tmp_path / "other.cnf"
    other.write_text("p cnf 1 2\n1 0\n-1 0\n")
    refute(str(other), tmp_path / "other.drat")
    r = decode(cli, work, "--proof", str(tmp_path / "other.drat"))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr.startswith("satiling: error: the solver says tetromino-4x5 has no solution, but its")


def test_a_model_needs_no_proof(cli, tmp_path):
    """A model is checked by the verifier: the proof is not read, and the answer says so."""
    cnf = tmp_path / "p.cnf"
    assert run_cli("encode", "pentomino-3x20", "-o", str(cnf)).returncode == 0
    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf))) as s:
        assert s.solve()
        model = s.get_model()
    answer = tmp_path / "answer.txt"
    answer.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    r = cli("decode", "pentomino-3x20", str(answer), "--proof", str(tmp_path / "absent.drat"))
    assert r.returncode == 0
    assert "the solver gave a model: " in r.stderr and "is not read" in r.stderr


@pytest.mark.parametrize("extra", [["--format", "opb"], ["--maximize-matches"]])
def test_proof_is_for_the_dimacs_answer(cli, work, extra):
    r = decode(cli, work, "--proof", str(work / "pairwise.drat"), *extra)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == ("satiling: error: --proof is a DRAT proof of the CNF: it goes with --format "
                        "dimacs, without --maximize-matches\n")


def hinted(tmp_path, hints: list[tuple[str, int, int]]):
    """The 4x4 board ``generate-edgematch 4 4 --seed 3`` with hint pieces (square, piece,
    rotation): (its instance file, its data for the brute force)."""
    import tomllib
    made = run_cli("generate-edgematch", "4", "4", "--seed", "3")
    assert made.returncode == 0, made.stderr
    text = made.stdout.split("\nplanted = ")[0] + "\n" + "".join(
        f'[[hint]]\nsquare = "{sq}"\npiece = {p}\nrotation = {r}\n' for sq, p, r in hints)
    path = tmp_path / "hinted.toml"
    path.write_text(text)
    return path, tomllib.loads(text)


def test_a_proof_under_the_hint_pieces_says_it_rests_on_them(cli, tmp_path):
    """Two hint pieces that no solution holds together: the puzzle has solutions, the puzzle with
    its hints none.  The proof refutes the second, and says so; it said "no solution, proved" of
    the puzzle itself."""
    import brute
    path, data = hinted(tmp_path, [("B2", 13, 0), ("C3", 15, 0)])
    assert brute.edge_answer(data, hints=False)[0] > 0 == brute.edge_answer(data, hints=True)[0]
    cnf = tmp_path / "h.cnf"
    assert run_cli("encode", str(path), "--hints", "-o", str(cnf)).returncode == 0
    refute(str(cnf), tmp_path / "h.drat")
    answer = tmp_path / "answer.txt"
    answer.write_text("s UNSATISFIABLE\n")
    for extra in (["--hints"], ["--cnf", str(cnf)]):
        r = cli("decode", str(path), str(answer), "--proof", str(tmp_path / "h.drat"), *extra)
        assert (r.returncode, r.stdout) == (1, "no solution\n"), r.stderr
        assert "verified by dratify; it takes as given the 2 hint pieces in place (--hints)" in r.stderr


#: the web tests' 3x3 board with two hint pieces, on A1 and B1, that leave no placement anywhere
#: else: ``encode --hints`` writes ``p cnf 0 32``
CONTRADICTING = CLUED.split("[[hint]]")[0] + "".join(
    f'[[hint]]\nsquare = "{sq}"\npiece = {p}\nrotation = 1\n' for sq, p in (("A1", 1), ("B1", 7)))


def test_unsatisfiable_is_read_for_a_formula_of_no_variables(cli, tmp_path):
    """Hint pieces that leave no placement for another square: the formula has no variables and
    an empty clause.  Its solver's "no solution" was read, with --cnf, as a model breaking
    clause 1."""
    path = tmp_path / "contradicting.toml"
    path.write_text(CONTRADICTING)
    cnf = tmp_path / "h.cnf"
    assert run_cli("encode", str(path), "--hints", "-o", str(cnf)).returncode == 0
    answer = tmp_path / "answer.txt"
    answer.write_text("s UNSATISFIABLE\n")
    r = cli("decode", str(path), str(answer), "--cnf", str(cnf))
    assert (r.returncode, r.stdout) == (1, "no solution\n"), r.stderr


def test_the_output_and_the_proof_are_not_both_stdin(cli, work):
    r = cli("decode", "tetromino-4x5", "-", "--proof", "-")
    assert (r.returncode, r.stdout) == (2, "")
    assert "cannot both be read from stdin" in r.stderr and r.stderr.count("\n") == 1


def test_a_proof_too_long_to_check_in_the_time_limit_is_left_unchecked(cli, work, tmp_path):
    """A proof whose check grows with the square of its length (the real proof's lemmas 400
    times over, without its empty clause: some ten seconds of dratify here) is given up at
    --time-limit: exit 3, the solver's word not taken, nothing on stdout, and no formula left
    behind in the temporary folder; the real proof is checked within a limit.  --time-limit
    without --proof bounds nothing: refused."""
    import os
    import subprocess
    import sys
    import time
    lemmas = [line for line in (work / "pairwise.drat").read_text().splitlines() if line.strip() != "0"]
    long = tmp_path / "long.drat"
    long.write_text("\n".join(lemmas * 400) + "\n")
    temp = tmp_path / "temp"
    temp.mkdir()
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "satiling.cli", "decode", "tetromino-4x5",
                        str(work / "answer.txt"), "--proof", str(long), "--time-limit", "1"],
                       capture_output=True, text=True, timeout=120, env={**os.environ, "TMPDIR": str(temp)})
    assert (r.returncode, r.stdout) == (3, ""), r.stderr
    assert "was not checked within the time limit (1 s)" in r.stderr and r.stderr.count("\n") == 1
    assert time.monotonic() - start < 30 and list(temp.iterdir()) == []
    assert decode(cli, work, "--proof", str(work / "pairwise.drat"), "--time-limit", "30").returncode == 1
    r = decode(cli, work, "--time-limit", "5")
    assert r.returncode == 2 and "--time-limit bounds the check of a --proof" in r.stderr
