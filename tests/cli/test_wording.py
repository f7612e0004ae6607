"""Parsing and wording a new user tripped on: ``solve --maximize-matches NAME`` (the option's
optional engine took the puzzle's name), ``verify`` of a file with no solutions (an error before:
it is 0 solutions verified), and ``render --help`` without a description."""
import pytest

from satiling.cli import MAXIMISE_ENGINES, build_parser, maximize_flag


def test_maximize_matches_before_the_puzzle_name_is_a_flag(cli, tmp_path):
    r = cli("solve", "--maximize-matches", "clue1", "--time-limit", "1", "--engine", "cpsat",
            cwd=tmp_path)                                  # the best board is kept in the folder
    assert r.returncode in (0, 1, 3), r.stderr            # the search ran: not a usage error (2)
    assert "error" not in r.stderr and "satiling: clue1: " in r.stderr
    assert "is now spelt" not in r.stderr                 # the flag alone is today's spelling


@pytest.mark.parametrize("argv, engine, name", [
    (["solve", "--maximize-matches", "clue1"], "auto", "clue1"),
    (["solve", "--maximize", "clue1"], "auto", "clue1"),                     # a prefix argparse takes
    (["solve", "clue1", "--maximize-matches"], "auto", "clue1"),
    (["solve", "--maximize-matches", "lns", "clue1"], "lns", "clue1"),       # the old spelling
    (["solve", "clue1", "--maximize-matches", "cpsat"], "cpsat", "clue1"),
    (["solve", "--maximize-matches=rc2", "clue1"], "rc2", "clue1"),
    (["solve", "clue1"], None, "clue1"),
])
def test_maximize_matches_reads_an_engine_only_when_it_names_one(argv, engine, name):
    args = build_parser().parse_args(maximize_flag(argv))
    assert (args.maximize_matches, args.name) == (engine, name)


def test_every_maximising_engine_still_follows_the_flag():
    for engine in MAXIMISE_ENGINES:
        args = build_parser().parse_args(maximize_flag(["solve", "--maximize-matches", engine, "clue1"]))
        assert args.maximize_matches == engine


def test_other_commands_flags_are_left_alone():
    argv = ["encode", "--maximize-matches", "clue1", "--format", "wcnf"]
    assert maximize_flag(argv) == argv
    assert build_parser().parse_args(argv).maximize_matches is True


def test_verify_of_a_file_with_no_solutions_verifies_zero(cli, tmp_path):
    empty = tmp_path / "none.jsonl"
    empty.write_text("")
    r = cli("verify", "pentomino-3x20", str(empty))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "0 solutions verified"


def test_verify_of_an_enumerate_output_that_found_nothing(cli, tmp_path):
    r = cli("enumerate", "tetromino-4x5", "--quiet")
    assert (r.returncode, r.stdout) == (1, ""), r.stderr   # no solution: no line
    out = tmp_path / "none.jsonl"
    out.write_text(r.stdout)
    r = cli("verify", "tetromino-4x5", str(out))
    assert (r.returncode, r.stdout.strip()) == (0, "0 solutions verified"), r.stderr


def test_render_help_describes_the_command(cli):
    r = cli("render", "--help")
    assert r.returncode == 0
    description = r.stdout.split("\n\n")[1]
    assert description.startswith("Draw a solution from a file")


def test_every_command_says_alike_what_its_puzzle_may_be():
    """A puzzle's NAME is read by one function everywhere (a bundled name, an instance file or a
    share text); the commands' help said it three ways, and two said nothing."""
    from satiling.commands.common import NAME_HELP
    import argparse
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    said = {}
    for command, parser in sub.choices.items():
        for action in parser._actions:
            if action.dest == "name" and not action.option_strings:
                said[command] = action.help
    assert {"info", "encode", "solve", "count", "enumerate", "decode", "verify", "render", "show",
            "forced", "hint", "share", "pack", "score"} <= set(said)
    assert set(said.values()) == {NAME_HELP}
    assert "share text" in NAME_HELP


def test_verify_and_render_read_a_share_text(cli, tmp_path):
    text = cli("share", "pentomino-3x20").stdout.strip()
    (tmp_path / "s.json").write_text(cli("solve", text, "--json").stdout)
    assert cli("verify", text, str(tmp_path / "s.json")).stdout.strip() == "1 solution verified"
    assert cli("render", text, str(tmp_path / "s.json")).returncode == 0


def test_a_command_description_keeps_the_words_of_its_help():
    """capitalize() had lowered the rest: "the model of name" for NAME."""
    import argparse
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert sub.choices["decode"].description == "Read a solver's answer to the model of NAME."
