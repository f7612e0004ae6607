"""Bad input, odd files and concurrent runs: one clear line and the right exit code, never a wrong
answer, a lost file or a replaced file (one test per case found by the reliability audit)."""
from __future__ import annotations

import re

from satiling.cli import main


# -- a wrong score -------------------------------------------------------------------------------
def _swap_tokens(text: str, a: str, b: str) -> str:
    """Swap two 'piece/rotation' tokens in a printed board (comment lines untouched)."""
    out = []
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            out.append(line)
            continue
        out.append(re.sub(rf"\b({re.escape(a)}|{re.escape(b)})\b",
                          lambda m: b if m.group(0) == a else a, line))
    return "\n".join(out) + "\n"


def _score(path, capsys) -> tuple[int, int]:
    assert main(["score", "clue1", str(path)]) == 0
    m = re.search(r"^score (\d+)/(\d+)", capsys.readouterr().out, re.M)
    return int(m.group(1)), int(m.group(2))


def test_score_reads_the_grid_not_the_url_comment(tmp_path, capsys):
    """A solved board with two pieces swapped keeps solve's URL comment: its score is the score of
    the grid that is there, the same as for the grid with every comment removed."""
    assert main(["solve", "clue1"]) == 0
    printed = capsys.readouterr().out
    assert "# https://e2.bucas.name/" in printed
    solved = tmp_path / "solved.txt"
    solved.write_text(printed)
    assert _score(solved, capsys) == (60, 60)            # clue 1 is solvable: every join matches
    tokens = re.findall(r"\b\d+/\d\b", printed.split("# score")[0])
    spoiled = tmp_path / "spoiled.txt"
    spoiled.write_text(_swap_tokens(printed, tokens[7], tokens[14]))      # two inner squares
    bare = tmp_path / "bare.txt"
    bare.write_text("".join(ln + "\n" for ln in spoiled.read_text().splitlines()
                            if not ln.startswith("#")))
    with_comments, without = _score(spoiled, capsys), _score(bare, capsys)
    assert with_comments == without
    assert with_comments[0] < 60


# -- lost data: resume files and checkpoints ------------------------------------------------------
# pentomino-3x20 has 2 tilings, 8 with rotations and reflections (Haselgrove 1960)
def _enumerate(capsys, *args: str) -> tuple[int, str]:
    code = main(["enumerate", "pentomino-3x20", "--quiet", *args])
    return code, capsys.readouterr().err


def _refused(capsys, path, *args: str, command: str = "enumerate") -> str:
    """A run on pentomino-3x20 that must be refused: exit 2, one line, the file not touched."""
    before = path.read_bytes()
    code = main([command, "pentomino-3x20", "--quiet", *args])
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert path.read_bytes() == before
    return err


def _solutions(path) -> list[str]:
    return [ln for ln in path.read_text().splitlines() if '"placements"' in ln]


def test_resume_refuses_a_file_that_is_not_a_solutions_file(tmp_path, capsys):
    notes = tmp_path / "notes.json"
    notes.write_text('{"todo": ["keep this"]}\n')
    assert "not a solutions file" in _refused(capsys, notes, "--resume", str(notes))
    notes.write_text('{"todo": ["a torn line without newline"]}')     # refused before any cut
    assert "not a solutions file" in _refused(capsys, notes, "--resume", str(notes))


def test_resume_refuses_removed_changed_and_foreign_lines(tmp_path, capsys):
    full = tmp_path / "full.jsonl"
    assert _enumerate(capsys, "--raw", "--out", str(full))[0] == 0
    lines = full.read_text().splitlines(keepends=True)
    assert len(lines) == 1 + 8
    gap = tmp_path / "gap.jsonl"
    gap.write_text("".join(lines[:3] + lines[4:]))
    assert "removed" in _refused(capsys, gap, "--raw", "--resume", str(gap))
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join(lines[:2]) + lines[2].replace('"piece":"F"', '"piece": "F"') + "".join(lines[3:]))
    assert "changed" in _refused(capsys, edited, "--raw", "--resume", str(edited))
    torn = tmp_path / "torn.jsonl"                     # another run's file with a torn last line
    torn.write_text("".join(lines[:4]) + lines[4][:30])
    assert "raw true in the file" in _refused(capsys, torn, "--resume", str(torn))


def test_resume_of_a_cut_file_finds_every_solution_once(tmp_path, capsys):
    full = tmp_path / "full.jsonl"
    assert _enumerate(capsys, "--raw", "--out", str(full))[0] == 0
    cut = tmp_path / "cut.jsonl"
    lines = full.read_text().splitlines(keepends=True)
    cut.write_text("".join(lines[:4]) + lines[4][:30])                 # 3 whole solutions, one torn
    code, err = _enumerate(capsys, "--raw", "--resume", str(cut))
    assert code == 0 and "dropped an incomplete last line" in err
    assert sorted(_solutions(cut)) == sorted(_solutions(full)) and len(set(_solutions(cut))) == 8
    assert main(["verify", "pentomino-3x20", str(cut)]) == 0          # verify skips the header
    assert "8 solutions verified" in capsys.readouterr().out


def test_a_second_run_on_a_locked_file_is_refused(tmp_path, capsys):
    import fcntl
    out = tmp_path / "s.jsonl"
    assert _enumerate(capsys, "--raw", "--limit", "3", "--out", str(out))[0] == 0
    with open(out, "rb") as held:                       # another run writing to it
        fcntl.flock(held, fcntl.LOCK_EX)
        assert "another satiling run" in _refused(capsys, out, "--raw", "--resume", str(out))
    assert _enumerate(capsys, "--raw", "--resume", str(out))[0] == 0
    assert len(set(_solutions(out))) == len(_solutions(out)) == 8
    assert "already holds solutions" in _refused(capsys, out, "--raw", "--out", str(out))


def test_count_checkpoint_with_an_added_record_is_refused(tmp_path, capsys):
    ckpt = tmp_path / "count.ckpt"
    assert main(["count", "pentomino-3x20", "--raw", "--quiet", "--resume", str(ckpt)]) == 0
    assert capsys.readouterr().out.strip() == "8"
    lines = ckpt.read_text().splitlines(keepends=True)
    ckpt.write_text("".join(lines) + lines[-1])                          # a cube counted twice
    assert "removed, added or moved" in _refused(capsys, ckpt, "--raw", "--resume", str(ckpt),
                                                 command="count")
    ckpt.write_text("".join(lines))
    assert main(["count", "pentomino-3x20", "--raw", "--quiet", "--resume", str(ckpt)]) == 0
    assert capsys.readouterr().out.strip() == "8"                        # every cube recorded: 8


# -- files replaced -------------------------------------------------------------------------------
def _one_line_error(capsys, argv: list[str], code: int = 2) -> str:
    assert main(argv) == code
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


def _leftovers(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def _fifo_reader(path):
    """A FIFO at ``path`` and a thread reading it whole: (thread, list that gets the bytes)."""
    import os
    import threading
    os.mkfifo(path)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(path.read_bytes()))
    reader.start()
    return reader, received


def test_svg_to_a_fifo_is_written_through(tmp_path, capsys):
    import os
    import stat
    fifo = tmp_path / "picture.svg"
    reader, received = _fifo_reader(fifo)
    assert main(["solve", "pentomino-3x20", "--svg", str(fifo)]) == 0
    reader.join(10)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)                  # still a FIFO
    assert received and received[0].startswith(b"<svg")
    assert _leftovers(tmp_path) == []


def test_output_through_a_symlink_replaces_its_target(tmp_path, capsys):
    target = tmp_path / "real.cnf"
    target.write_text("old\n")
    link = tmp_path / "link.cnf"
    link.symlink_to(target.name)
    assert main(["encode", "pentomino-3x20", "-o", str(link)]) == 0
    assert link.is_symlink() and target.read_text().startswith("c satiling encode pentomino-3x20")
    assert _leftovers(tmp_path) == []


def test_directories_and_full_disks_are_one_line_errors(tmp_path, capsys):
    import os
    import stat
    folder = tmp_path / "folder"
    folder.mkdir()
    assert "is a directory" in _one_line_error(capsys, ["encode", "pentomino-3x20", "-o", str(folder)])
    assert "is a directory" in _one_line_error(capsys, ["solve", "pentomino-3x20", "--svg", str(folder)])
    if os.path.exists("/dev/full"):
        err = _one_line_error(capsys, ["encode", "pentomino-3x20", "-o", "/dev/full"])
        assert "No space left" in err and stat.S_ISCHR(os.stat("/dev/full").st_mode)
    long_name = str(tmp_path / ("x" * 300))
    assert "too long" in _one_line_error(capsys, ["encode", "pentomino-3x20", "-o", long_name])
    assert _leftovers(tmp_path) == [] and list(folder.iterdir()) == []


def test_a_proof_that_cannot_be_written_leaves_no_formula_behind(tmp_path, capsys):
    proof = tmp_path / "p.drat"
    proof.mkdir()                                  # the formula p.drat.cnf could be written
    assert "is a directory" in _one_line_error(capsys, ["solve", "tetromino-4x5", "--proof", str(proof)])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.drat"]


# -- tracebacks and silent acceptance on the command line -----------------------------------------
def test_time_limits_and_counts_that_mean_nothing_are_refused(capsys):
    for value in ("inf", "-1", "nan", "0", "soon"):
        assert "--time-limit" in _one_line_error(capsys, ["solve", "pentomino-3x20", "--time-limit", value])
        assert "--time-limit" in _one_line_error(capsys, ["count", "pentomino-3x20", "--time-limit", value])
    assert "--limit" in _one_line_error(capsys, ["enumerate", "pentomino-3x20", "--limit", "0"])


def test_a_malformed_dask_address_is_one_line(capsys):
    import pytest
    pytest.importorskip("distributed")
    for address in ("::::bad", "tcp://localhost:notaport"):
        assert "Dask scheduler" in _one_line_error(capsys, ["count", "pentomino-3x20", "--dask", address])


def test_a_malformed_dask_address_is_refused_where_the_tree_is_small(capsys, tmp_path):
    """A 3x3 board is solved here, never on the cluster: ``--dask notanaddress`` ran and exited 0.
    The address is checked when it is given, for every task, with or without Dask installed."""
    assert main(["generate-edgematch", "3", "3"]) == 0
    board = tmp_path / "b.toml"
    board.write_text(capsys.readouterr().out)
    for address in ("notanaddress", "tcp://localhost:notaport", "::::bad", "tcp://h:99999", " "):
        for argv in (["solve", str(board)], ["count", str(board)], ["enumerate", str(board)]):
            err = _one_line_error(capsys, [*argv, "--dask", address])
            assert "Dask scheduler's address (tcp://host:8786)" in err, err
    assert main(["solve", str(board), "--dask", "tcp://127.0.0.1:8786"]) == 0    # well formed: the
    assert "not on the Dask cluster" in capsys.readouterr().err                   # small tree runs here


def test_the_library_checks_a_dask_address_with_the_same_words():
    import pytest
    import satiling
    from satiling.errors import SatilingError
    from satiling.run import Request
    puzzle = satiling.EdgeMatching(2, 2, [[0, 1, 2, 0], [0, 0, 3, 1], [2, 4, 0, 0], [3, 0, 0, 4]])
    for address in ("notanaddress", 8786, "", "tls://[::1]"):
        with pytest.raises(SatilingError, match=r"^dask is a Dask scheduler's address \(tcp://host:8786\)"):
            Request(puzzle, "count", dask=address)
    for address in ("tcp://127.0.0.1:8786", "scheduler:8786", "tls://[::1]:8786", "inproc://x"):
        assert Request(puzzle, "count", dask=address).dask == address


def test_a_dask_scheduler_that_never_answers_times_out():
    """A listener that accepts the connection and says nothing: the client gives up in time."""
    import socket
    import time
    import pytest
    from satiling.errors import SatilingError
    from satiling.search.workers import _connect
    Client = pytest.importorskip("distributed").Client
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        address = "tcp://127.0.0.1:%d" % listener.getsockname()[1]
        start = time.monotonic()
        with pytest.raises(SatilingError, match="did not answer|cannot reach"):
            _connect(Client, address, 2.0)
        assert time.monotonic() - start < 12       # not a timing check: a client that waited on would wait forever


# -- accepted silently ------------------------------------------------------------------------------
def test_verify_rejects_a_false_join_entry(tmp_path, capsys):
    """A verified clue-1 solution with a join colour added: of all colours, exactly one -- the one
    its two pieces show -- is accepted; a join on the rim is refused."""
    import json
    assert main(["solve", "clue1", "--json"]) == 0
    solution = json.loads(capsys.readouterr().out)
    path = tmp_path / "s.json"
    accepted = []
    for colour in range(0, 30):
        entry = {"join": "C3E", "colour": colour}
        path.write_text(json.dumps({**solution, "placements": solution["placements"] + [entry]}))
        code = main(["verify", "clue1", str(path)])
        err = capsys.readouterr().err
        assert code in (0, 1) and "Traceback" not in err
        if code == 0:
            accepted.append(colour)
        else:
            assert "join C3E is given colour" in err
    assert len(accepted) == 1
    path.write_text(json.dumps({**solution, "placements": solution["placements"] + [{"join": "A6E", "colour": 0}]}))
    assert main(["verify", "clue1", str(path)]) == 1
    assert "on the rim" in capsys.readouterr().err


def test_more_colours_than_the_viewer_has_letters(tmp_path, capsys):
    """A 1x2 board whose one join has colour 27: solved, verified and printed without the viewer
    URL (its letters cover 25 colours), and the printed board scores its one join."""
    instance = tmp_path / "wide.toml"
    instance.write_text('family = "edgematch"\nrows = 1\ncols = 2\n'
                        "pieces = [[0, 27, 0, 0], [0, 0, 0, 27]]\n")
    assert main(["solve", str(instance)]) == 0
    out = capsys.readouterr().out
    assert "1/0   2/0" in out and "no viewer URL" in out and "e2.bucas.name/#" not in out
    board = tmp_path / "board.txt"
    board.write_text(out)
    assert main(["score", str(instance), str(board)]) == 0
    captured = capsys.readouterr()
    assert "score 1/1" in captured.out and "no viewer URL" in captured.err


# -- the Python API -------------------------------------------------------------------------------
def _bad_api_calls():
    import math
    import satiling
    polyform, edge, link = (satiling.load(n) for n in ("pentomino-3x20", "clue1", "iqlink-starter"))
    calls = {
        "load(5)": lambda: satiling.load(5),
        "load(None)": lambda: satiling.load(None),
        "load(bytes)": lambda: satiling.load(b"pentomino-3x20"),
        "load(unknown)": lambda: satiling.load("no-such-puzzle"),
        "load(long name)": lambda: satiling.load("x" * 5000),
        "solve_puzzle(None)": lambda: satiling.solve_puzzle(None),
        "solve_puzzle(solver=?)": lambda: satiling.solve_puzzle(polyform, solver="no-such-solver"),
        "solve_puzzle(time_limit=-1)": lambda: satiling.solve_puzzle(polyform, time_limit=-1),
        "solve_puzzle(time_limit=nan)": lambda: satiling.solve_puzzle(polyform, time_limit=math.nan),
        "solve_puzzle(time_limit='x')": lambda: satiling.solve_puzzle(polyform, time_limit="x"),
        "solve_puzzle(bad option)": lambda: satiling.solve_puzzle(polyform, bad_option=1),
        "decode(None)": lambda: polyform.problem().decode(None),
        "decode(beyond)": lambda: polyform.problem().decode([10 ** 9]),
    }
    for name, puzzle in (("polyform", polyform), ("edgematch", edge), ("iqlink", link)):
        for junk in (None, 5, "junk", [1, 2], [{}]):
            calls[f"{name}.verify({junk!r})"] = lambda p=puzzle, j=junk: p.verify(j)
            calls[f"render.to_text({name}, {junk!r})"] = lambda p=puzzle, j=junk: satiling.render.to_text(p, j)
        calls[f"{name}.problem(bad_option=1)"] = lambda p=puzzle: p.problem(bad_option=1)
        calls[f"{name}.placement_from_json(5)"] = lambda p=puzzle: p.placement_from_json(5)
        calls[f"{name}.placement_from_json(inf)"] = lambda p=puzzle: p.placement_from_json(
            {"piece": "F", "cells": [[math.inf, 1]], "square": "A1", "rotation": math.inf})
    return calls


def test_bad_api_calls_raise_satiling_error():
    import pytest
    from satiling import SatilingError
    for name, call in _bad_api_calls().items():
        with pytest.raises(SatilingError):
            call()


# -- unbounded work -------------------------------------------------------------------------------
def test_endless_input_is_refused_at_once(tmp_path, capsys):
    """/dev/zero never ends: every reader refuses it after its first block, in one line."""
    import os
    import pytest
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    proof = tmp_path / "p.drat"
    assert main(["solve", "tetromino-4x5", "--solver", "cadical", "--proof", str(proof)]) == 1
    capsys.readouterr()
    for argv in (["verify", "pentomino-3x20", "/dev/zero"], ["render", "pentomino-3x20", "/dev/zero"],
                 ["decode", "pentomino-3x20", "/dev/zero"], ["score", "clue1", "/dev/zero"],
                 ["check-proof", "/dev/zero", str(proof)], ["check-proof", f"{proof}.cnf", "/dev/zero"]):
        assert "/dev/zero" in _one_line_error(capsys, argv), argv


def test_numbers_and_nesting_no_reader_accepts(tmp_path, capsys):
    """JSON that Python's reader lets through or chokes on: one line, exit 2."""
    cases = {
        "Infinity": '{"placements": [{"piece": "F", "cells": [[Infinity, 1]]}]}',
        "5000 digits": '{"placements": [{"piece": "F", "cells": [[' + "9" * 5000 + ", 1]]}]}",
        "deep nesting": "[" * 100000 + "]" * 100000,
        "NaN": '{"placements": NaN}',
    }
    for name, text in cases.items():
        path = tmp_path / "s.json"
        path.write_text(text)
        for command in ("verify", "render"):
            err = _one_line_error(capsys, [command, "pentomino-3x20", str(path)])
            assert str(path) in err, (name, err)


def test_enumerate_out_to_a_fifo_streams_the_file(tmp_path, capsys):
    """--out to a FIFO: written through (header, then the 2 distinct tilings), nothing replaced."""
    import os
    import stat
    fifo = tmp_path / "stream.jsonl"
    reader, received = _fifo_reader(fifo)
    assert _enumerate(capsys, "--out", str(fifo))[0] == 0
    reader.join(10)
    lines = received[0].decode().splitlines()
    assert lines[0].startswith('{"satiling":"enumerate"') and len(_solutions_of(lines)) == 2
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def _solutions_of(lines: list[str]) -> list[str]:
    return [ln for ln in lines if '"placements"' in ln]


def test_a_cell_that_is_not_a_whole_number_is_not_rounded(tmp_path, capsys):
    """A solution whose cell reads 10.5 (or "10") was verified as if it said 10."""
    import json
    out = tmp_path / "s.jsonl"
    assert _enumerate(capsys, "--limit", "1", "--out", str(out))[0] == 0
    solution = json.loads(_solutions(out)[0])
    for value in (solution["placements"][0]["cells"][0][1] + 0.5, str(solution["placements"][0]["cells"][0][1])):
        changed = json.loads(json.dumps(solution))
        changed["placements"][0]["cells"][0][1] = value
        path = tmp_path / "changed.json"
        path.write_text(json.dumps(changed))
        assert "whole-number" in _one_line_error(capsys, ["verify", "pentomino-3x20", str(path)])


def test_an_edge_matching_rotation_that_is_not_a_whole_number_is_refused(tmp_path, capsys):
    import json
    assert main(["solve", "clue1", "--json"]) == 0
    solution = json.loads(capsys.readouterr().out)
    for key, value in (("rotation", 1.0), ("piece", "7"), ("rotation", 2.5)):
        changed = json.loads(json.dumps(solution))
        changed["placements"][0][key] = value
        path = tmp_path / "changed.json"
        path.write_text(json.dumps(changed))
        assert "edge-matching placement" in _one_line_error(capsys, ["verify", "clue1", str(path)])


def test_two_runs_on_one_file_the_second_is_refused(tmp_path, capsys):
    """A real second process: while one enumeration writes the file, another on the same file is
    refused at once, and the first run's file is not touched by it."""
    import signal
    import subprocess
    import sys
    import time
    out = tmp_path / "s.jsonl"
    first = subprocess.Popen([sys.executable, "-m", "satiling.cli", "enumerate", "pentomino-6x10", "--raw",
                              "--quiet", "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while len(_solutions(out) if out.exists() else []) < 5:
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        code = main(["enumerate", "pentomino-6x10", "--raw", "--quiet", "--resume", str(out)])
        err = capsys.readouterr().err
        assert code == 2 and "another satiling run is writing to it" in err
    finally:
        first.send_signal(signal.SIGINT)
        first.wait(60)
    found = _solutions(out)
    assert len(found) == len(set(found))                  # nothing written twice
