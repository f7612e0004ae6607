"""A stopped enumeration keeps the cubes it searched without finding a solution: a mark of the
cubes done in its file, so that a resume goes on after them (it went back to the cube of the last
solution, and a stretch of cubes longer than the time limit was searched again on every resume,
for ever)."""
import json
from pathlib import Path

import satiling
from satiling.cli import main
from satiling.run import Request
from satiling.limits import NO_DEADLINE
from satiling.run.tasks import _run_of
from satiling.search import stream

RAW_3X20 = 8                       # Haselgrove 1960: 2 tilings of the 3x20 box, 8 with mirrors


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_a_resume_starts_after_the_last_mark_and_finds_every_solution(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(stream, "MARK_SECONDS", 0.0)        # a mark after every cube
    assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--out", "all.jsonl"]) == 0
    records = _records(Path("all.jsonl"))
    solutions = [r for r in records if "placements" in r]
    marks = [r["cubes"] for r in records if r.get("satiling") == "cubes done"]
    assert len(solutions) == RAW_3X20 and marks == sorted(marks) and marks
    assert main(["verify", "pentomino-3x20", "all.jsonl"]) == 0
    assert f"{RAW_3X20} solutions verified" in capsys.readouterr().out
    # the file as a stop would leave it: cut after the first mark that follows a solution
    lines = Path("all.jsonl").read_text().splitlines(keepends=True)
    cut = next(k for k in range(2, len(lines)) if '"cubes done"' in lines[k] and '"placements"' in lines[k - 1])
    Path("part.jsonl").write_text("".join(lines[:cut + 1]))
    puzzle = satiling.load("pentomino-3x20")
    req = Request(puzzle, "enumerate", raw=True, resume="part.jsonl")
    run = _run_of(req, None, NO_DEADLINE)
    with run.solution_file("part.jsonl", resume=True) as f:
        point = run.resume_point(f)
    assert point.cube == json.loads(lines[cut])["cubes"] and not point.skip
    capsys.readouterr()
    assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--resume", "part.jsonl"]) == 0
    resumed = [r for r in _records(Path("part.jsonl")) if "placements" in r]
    key = lambda r: json.dumps(r["placements"], sort_keys=True)      # noqa: E731
    assert sorted(map(key, resumed)) == sorted(map(key, solutions))


def test_a_mark_out_of_place_is_refused(tmp_path, monkeypatch, capsys):
    """A mark is checked as the solutions are: one naming fewer cubes than a solution before it
    is not this run's (its checksum chained, as a tool writing such a file would)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(stream, "MARK_SECONDS", 0.0)
    assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--out", "all.jsonl", "--limit", "3"]) == 0
    from satiling.search.runfiles import SolutionFile
    puzzle = satiling.load("pentomino-3x20")
    run = _run_of(Request(puzzle, "enumerate", raw=True, resume="all.jsonl"), None, NO_DEADLINE)
    with SolutionFile("all.jsonl", run, resume=True) as f:
        f.start()
        f.mark_done(0)
    capsys.readouterr()
    assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--resume", "all.jsonl"]) == 2
    assert "out of place" in capsys.readouterr().err


def test_a_stop_marks_the_cubes_done_since_the_last_solution(tmp_path, monkeypatch, capsys):
    """However short the run, a stop after a cube was done writes the mark of the cubes done: a
    loop of short time limits went back to the last solution's cube every time and, where that
    cube and the next took longer than the limit, never got further (a stop here: right after the
    cube of the first solutions is done, before the next cube finds any)."""
    monkeypatch.chdir(tmp_path)
    real = stream._owners_in_order

    def stopping(runner, ex, job, first, meter, cube_done):
        yielded = []

        def done(cube):
            cube_done(cube)
            if yielded:
                raise KeyboardInterrupt         # as the time limit's signal lands
        for owner in real(runner, ex, job, first, meter, done):
            yielded.append(owner)
            yield owner
    monkeypatch.setattr(stream, "_owners_in_order", stopping)
    assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--out", "all.jsonl"]) == 130
    records = _records(Path("all.jsonl"))
    assert "placements" in records[0] and records[-1]["satiling"] == "cubes done"
    monkeypatch.setattr(stream, "_owners_in_order", real)
    capsys.readouterr()
    assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--resume", "all.jsonl"]) == 0
    assert main(["verify", "pentomino-3x20", "all.jsonl"]) == 0
    assert f"{RAW_3X20} solutions verified" in capsys.readouterr().out


def test_a_resume_that_got_nowhere_says_so(tmp_path, monkeypatch, capsys):
    """A run stopped before it finished a cube or found a solution would start at the same place
    again: the message asks for a longer limit, not only the same command again."""
    monkeypatch.chdir(tmp_path)
    assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--out", "all.jsonl", "--limit", "3"]) == 0

    def nowhere(runner, ex, job, first, meter, cube_done):
        raise KeyboardInterrupt
        yield                                     # a generator, as the real one
    monkeypatch.setattr(stream, "_owners_in_order", nowhere)
    capsys.readouterr()
    assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--resume", "all.jsonl"]) == 130
    assert "give it longer (this run finished no cube" in capsys.readouterr().err


def test_a_file_an_earlier_version_wrote_with_engine_auto_still_resumes(tmp_path, monkeypatch, capsys):
    """Before the run named the engine it chose, a solutions file of an ``auto`` run said
    ``"engine": "auto"`` in its header (and its checksums chain from that header): it resumes, by
    the engine the same rule chooses now, and finds every solution once."""
    from satiling.search.runfiles import _chain
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(stream, "MARK_SECONDS", 0.0)
    assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--out", "all.jsonl"]) == 0
    lines = Path("all.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    assert header["engine"] == "walk"
    header["engine"] = "auto"                 # the file as the earlier version wrote it
    old = [json.dumps(header, separators=(",", ":"))]
    last = _chain("", old[0].encode())
    cut = next(k for k in range(2, len(lines)) if '"cubes done"' in lines[k] and '"placements"' in lines[k - 1])
    for line in lines[1:cut + 1]:             # the same records, chained from that header
        body, _, _ = line.rpartition(',"n":')
        record = json.loads(line)
        last = _chain(last, (body + "}").encode())
        old.append(f'{body},"n":{record["n"]},"sum":"{last}"}}')
    Path("old.jsonl").write_text("\n".join(old) + "\n")
    capsys.readouterr()
    assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--resume", "old.jsonl"]) == 0, \
        capsys.readouterr().err
    key = lambda r: json.dumps(r["placements"], sort_keys=True)      # noqa: E731
    resumed = [r for r in _records(Path("old.jsonl")) if "placements" in r]
    every = [r for r in _records(Path("all.jsonl")) if "placements" in r]
    assert sorted(map(key, resumed)) == sorted(map(key, every)) and len(resumed) == RAW_3X20
