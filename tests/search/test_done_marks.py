"""A stopped enumeration keeps the cubes it searched without finding a solution: a mark of the
cubes done in its file, so that a resume goes on after them (it went back to the cube of the last
solution, and a stretch of cubes longer than the time limit was searched again on every resume,
for ever)."""
import json
from pathlib import Path

import satiling
from satiling.cli import main
from satiling.run import Request
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
    run = _run_of(req, "auto", 0.0)
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
    run = _run_of(Request(puzzle, "enumerate", raw=True, resume="all.jsonl"), "auto", 0.0)
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

    def stopping(runner, ex, job, first, meter, cube_done, **where):
        yielded = []

        def done(cube):
            cube_done(cube)
            if yielded:
                raise KeyboardInterrupt         # as the time limit's signal lands
        for owner in real(runner, ex, job, first, meter, done, **where):
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

    def nowhere(runner, ex, job, first, meter, cube_done, **where):
        raise KeyboardInterrupt
        yield                                     # a generator, as the real one
    monkeypatch.setattr(stream, "_owners_in_order", nowhere)
    capsys.readouterr()
    assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--resume", "all.jsonl"]) == 130
    assert "give it longer (this run finished no cube" in capsys.readouterr().err


RAW_6X10 = 9356                    # Haselgrove & Haselgrove 1960: 2339 tilings, 9356 with mirrors


def _one_cube(monkeypatch):
    """The whole 6x10 search as one cube, heard every few milliseconds: a stop lands inside it."""
    from satiling.engines import exactcover
    from satiling.search import cubes
    monkeypatch.setattr(cubes, "CUBE_FRACTION", 1.0)
    monkeypatch.setattr(exactcover, "CALL_SECONDS", 0.002)


def test_a_stop_inside_a_cube_keeps_where_it_stood(tmp_path, monkeypatch, capsys):
    """A stop in the middle of a cube records the parts of it left to search: a resume searches
    those alone (it searched the cube again from its start, and a cube longer than the time limit
    was never passed), and loses and repeats nothing."""
    monkeypatch.chdir(tmp_path)
    _one_cube(monkeypatch)
    assert main(["enumerate", "pentomino-6x10", "--raw", "--quiet", "--out", "all.jsonl", "--limit", "3000"]) == 0
    last = _records(Path("all.jsonl"))[-1]
    assert last["satiling"] == "cube in progress" and last["cube"] == 0
    assert last["left"] and last["left"] != [[]] and 0 < last["done"] < 1
    puzzle = satiling.load("pentomino-6x10")
    run = _run_of(Request(puzzle, "enumerate", raw=True, resume="all.jsonl"), "auto", 0.0)
    with run.solution_file("all.jsonl", resume=True) as f:
        point = run.resume_point(f)
    assert point.within == [tuple(c) for c in last["left"]] and len(point.skip) == 3000
    capsys.readouterr()
    assert main(["enumerate", "pentomino-6x10", "--raw", "--quiet", "--resume", "all.jsonl"]) == 0
    assert main(["verify", "pentomino-6x10", "all.jsonl"]) == 0
    assert f"{RAW_6X10} solutions verified" in capsys.readouterr().out
    lines = [json.dumps(r["placements"]) for r in _records(Path("all.jsonl")) if "placements" in r]
    assert len(lines) == len(set(lines)) == RAW_6X10


def test_a_record_of_the_cube_in_progress_is_checked(tmp_path, monkeypatch, capsys):
    """A record naming a placement the model does not have, or a cube before a mark of the cubes
    done, is refused with the line named (its checksum chained, as a tool writing such a file would)."""
    monkeypatch.chdir(tmp_path)
    from satiling.search.runfiles import SolutionFile
    assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--out", "all.jsonl", "--limit", "3"]) == 0
    puzzle = satiling.load("pentomino-3x20")
    run = _run_of(Request(puzzle, "enumerate", raw=True, resume="all.jsonl"), "auto", 0.0)
    top = run.space.problem.num_vars
    for bad, said in (([[top + 1]], "is not a record of the cube in progress"), (None, "out of place")):
        Path("bad.jsonl").write_text(Path("all.jsonl").read_text())
        with SolutionFile("bad.jsonl", run, resume=True) as f:
            point = run.resume_point(f)
            f.start()
            if bad is None:                       # a cube a mark says is done
                f.mark_done(point.cube + 1)
                f.mark_part(point.cube, [()], 0.5)
            else:
                f.mark_part(point.cube, bad, 0.5)
        capsys.readouterr()
        assert main(["enumerate", "pentomino-3x20", "--raw", "--quiet", "--resume", "bad.jsonl"]) == 2
        assert said in capsys.readouterr().err
