"""Each client names an option in its own words: a library call's message names it as the call
takes it (``workers``, ``engine='race'``), never by a flag the caller did not type; the command
line, for the same mistake, names its flag (``--workers``, ``--engine race``), in one line, exit 2
-- the library's message, with each option it names turned into a flag by the parser's own table."""
from __future__ import annotations

import pickle

import pytest

import satiling
from satiling.cli import main
from satiling.cli.parser import flag, flags
from satiling.errors import Option, SatilingError
from satiling.run import Request, enumerate_solutions, maximise


def _pentominoes():
    return satiling.load("pentomino-3x20")


def _clue():
    return satiling.load("clue1")


def _enumerate_into(path: str) -> None:
    """An enumeration into a file that already holds one: refused unless resumed."""
    enumerate_solutions(Request(_pentominoes(), "enumerate", out=path, limit=1))
    enumerate_solutions(Request(_pentominoes(), "enumerate", out=path, limit=1))


#: (the library's call, the command line for the same mistake, what each says of the option)
MISTAKES = [
    (lambda: _pentominoes().solve(engine="race", solver="glucose"),
     ["solve", "pentomino-3x20", "--engine", "race", "--solver", "glucose"],
     "engine='race' races", "--engine race races"),
    (lambda: _pentominoes().solve(engine="walk", solver="glucose"),
     ["solve", "pentomino-3x20", "--engine", "walk", "--solver", "glucose"],
     "drop solver='glucose'", "drop --solver glucose"),
    (lambda: _pentominoes().solve(seed=5), ["solve", "pentomino-3x20", "--seed", "5"],
     "seed is for the backtrack engine", "--seed is for the backtrack engine"),
    (lambda: _pentominoes().solve(node_limit=5, workers=2),
     ["solve", "pentomino-3x20", "--node-limit", "5", "--workers", "2"],
     "drop workers / dask", "drop --workers / --dask"),
    (lambda: _clue().solve(engine="sat", workers=2), ["solve", "clue1", "--engine", "sat", "--workers", "2"],
     "workers and dask split", "--workers and --dask split"),
    (lambda: _pentominoes().solve(solver="minisat22", proof="p.drat"),
     ["solve", "pentomino-3x20", "--solver", "minisat22", "--proof", "p.drat"],
     "proof needs a solver that writes DRAT proofs", "--proof needs a solver that writes DRAT proofs"),
    (lambda: _clue().solve(hints=True), ["solve", "clue1", "--hints"],
     "hints: clue1 has no hint pieces", "--hints: clue1 has no hint pieces"),
    (lambda: _pentominoes().solve(hints=True), ["solve", "pentomino-3x20", "--hints"],
     "option hints does not apply to polyform puzzles (its options: parity)",
     "option --hints does not apply to polyform puzzles (its options: --parity)"),
    (lambda: _pentominoes().count(raw=True, symmetry="full"),
     ["count", "pentomino-3x20", "--raw", "--symmetry", "full"],
     "raw means every solution, symmetry='full' one per class", "--raw means every solution, --symmetry full"),
    (lambda: _clue().count(engine="backtrack", colour_counts=True),
     ["count", "clue1", "--engine", "backtrack", "--colour-counts"],
     "colour_counts is an option of the SAT model", "--colour-counts is an option of the SAT model"),
    (lambda: _pentominoes().count(solver="race"), ["count", "pentomino-3x20", "--solver", "race"],
     "e.g. solver='cadical'", "e.g. --solver cadical"),
    (lambda: Request(_pentominoes(), "solve", dask="no address"), ["solve", "clue1", "--dask", "no address"],
     "dask is a Dask scheduler's address", "--dask is a Dask scheduler's address"),
    (lambda: Request(_pentominoes(), "solve", workers=2, dask="host:8786"),
     ["solve", "pentomino-3x20", "--workers", "2", "--dask", "host:8786"],
     "choose workers or dask, not both", "choose --workers or --dask, not both"),
    (lambda: Request(_pentominoes(), "enumerate", out="a.jsonl", resume="b.jsonl"),
     ["enumerate", "pentomino-3x20", "--out", "a.jsonl", "--resume", "b.jsonl"],
     "out and resume name different files", "--out and --resume name different files"),
    (lambda: _enumerate_into("s.jsonl"),
     ["enumerate", "pentomino-3x20", "--out", "s.jsonl", "--limit", "1"],
     "continue it with resume='s.jsonl'", "continue it with --resume s.jsonl"),
    (lambda: maximise(Request(_clue(), "maximise", engine="lns")),
     ["solve", "clue1", "--maximize-matches", "--engine", "lns"],
     "engine='lns' needs time_limit to maximise", "--engine lns needs --time-limit to maximise"),
    (lambda: maximise(Request(_clue(), "maximise", workers=2)),
     ["solve", "clue1", "--maximize-matches", "--workers", "2"],
     "workers does not apply to maximising", "--workers does not apply to maximising"),
    (lambda: maximise(Request(_clue(), "maximise", proof="p.drat")),
     ["solve", "clue1", "--maximize-matches", "--proof", "p.drat"],
     "maximising writes no proof: drop proof", "maximising writes no proof: drop --proof"),
    (lambda: maximise(Request(_clue(), "maximise", solver="glucose")),
     ["solve", "clue1", "--maximize-matches", "--solver", "glucose"],
     "chooses by engine, not solver='glucose'", "chooses by --engine, not --solver glucose"),
    (lambda: maximise(Request(_clue(), "maximise", extra={"fill_order": "comb"})),
     ["solve", "clue1", "--maximize-matches", "--fill-order", "comb"],
     "fill_order is for the backtrack engine", "--fill-order is for the backtrack engine"),
]
IDS = [" ".join(argv[1:]) for _, argv, _, _ in MISTAKES]


@pytest.mark.parametrize("call, argv, library, command_line", MISTAKES, ids=IDS)
def test_a_library_call_names_the_option_as_it_takes_it(call, argv, library, command_line):
    with pytest.raises(SatilingError) as e:
        call()
    said = str(e.value)
    assert library in said and "--" not in said and "\n" not in said, said


@pytest.mark.parametrize("call, argv, library, command_line", MISTAKES, ids=IDS)
def test_the_command_line_names_the_flag_for_the_same_mistake(capsys, call, argv, library, command_line):
    if argv[-2:] == ["--limit", "1"]:                 # a file an earlier enumeration wrote
        assert main(argv) == 0
        capsys.readouterr()
    code = main(argv)
    lines = capsys.readouterr().err.splitlines()
    assert code == 2 and len(lines) == 1, lines
    assert lines[0].startswith("satiling: error: ") and command_line in lines[0], lines[0]


def test_the_flags_come_from_the_parser_each_by_its_key():
    table = flags()
    assert {key: table[key] for key in ("time_limit", "workers", "fill_order", "engine", "hints",
                                        "fix_corner")} == {
        "time_limit": "--time-limit", "workers": "--workers", "fill_order": "--fill-order",
        "engine": "--engine", "hints": "--hints", "fix_corner": "--fix-corner"}
    assert flag(Option("resume", "my run.jsonl")) == "--resume 'my run.jsonl'"    # as typed in a shell
    assert flag(Option("symmetry_breaking")) == "symmetry_breaking"    # no flag: the library's word


def test_an_error_naming_options_keeps_them_through_pickling():
    """A worker process's error comes back pickled: the command line still names the flag."""
    error = SatilingError("{why}: drop {threads} ({n} s)", threads=Option("threads"), n=2,
                          why=SatilingError("{engine} {x}", engine=Option("engine", "lns"), x="{}"))
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error) == "engine='lns' {}: drop threads (2 s)"
    assert again.worded(flag) == "--engine lns {}: drop --threads (2 s)"
    assert str(SatilingError("{braces} kept")) == "{braces} kept"      # no parts: said as it is


def test_a_formula_names_its_options_for_each_client(tmp_path, capsys):
    """The formula a solver's model is checked against (``decode``'s) names ``cnf`` and a model
    option as the library does; the command line, through every wrapping of the message, by the
    flag: a model of too many variables, and a DIMACS file encoded with other options."""
    from satiling.backends.dimacs import Formula, ModelMismatch
    model = tmp_path / "model.txt"
    model.write_text("v " + " ".join(map(str, range(1, 5000))) + " 0\n")
    with pytest.raises(ModelMismatch) as e:
        Formula.from_args(satiling.load("tetromino-4x5"), {}, None, None).read_model(model.read_text())
    assert "Give the DIMACS file with cnf to take" in str(e.value) and "--" not in str(e.value)
    assert main(["decode", "tetromino-4x5", str(model)]) == 2
    assert "Give the DIMACS file with --cnf to take" in capsys.readouterr().err
    cnf = tmp_path / "c.cnf"
    assert main(["encode", "clue1", "--encoding", "compact", "-o", str(cnf)]) == 0
    with pytest.raises(SatilingError) as e:
        Formula.from_args(_clue(), {"encoding": "direct"}, None, str(cnf))
    assert "drop encoding or encode again" in str(e.value)
    capsys.readouterr()
    assert main(["decode", "clue1", str(model), "--cnf", str(cnf), "--encoding", "direct"]) == 2
    assert "drop --encoding or encode again" in capsys.readouterr().err
