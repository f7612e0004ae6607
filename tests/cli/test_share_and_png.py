"""A puzzle as a share text (``satiling share``, ``satiling:...`` wherever a name goes) and pictures
as PNG (``--png``, :func:`satiling.render.png.to_png`).

A share text must carry the whole instance -- region, pieces, pins, an edge-matching pieces file
read in -- so that it opens in a folder where no file is, and counts what the file counts; a text
that is damaged in any way is refused in one line, exit 2.  A PNG must be a PNG (its signature) of
the SVG's size.
"""
from __future__ import annotations

import base64
import contextlib
import io
import json
import re
import zlib
from pathlib import Path

import pytest

from satiling import catalog, share
from satiling.cli import main
from satiling.errors import SatilingError
from satiling.render.png import PNG_SIGNATURE, png_size, to_png

PINNED = """piece_set = "pentominoes"
title = "6x10, X pinned"
[region]
rows = 6
cols = 10
[[placed]]
piece = "X"
cells = [[0, 2], [1, 1], [1, 2], [1, 3], [2, 2]]
"""


@pytest.mark.parametrize("name", [n for n, _ in catalog.available()])
def test_every_bundled_instance_goes_through_its_share_text(name: str) -> None:
    text = catalog.share_text(name)
    assert re.fullmatch(r"satiling:1[A-Za-z0-9_-]+", text)
    data, _, base = catalog.instance_data(name)
    assert share.decode(text) == {"name": name, **share.self_contained(data, base)}
    puzzle = catalog.load(text)
    assert puzzle.name == name and type(puzzle) is type(catalog.load(name))


def test_a_share_text_opens_a_pinned_puzzle_where_no_file_is(cli, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "x.toml").write_text(PINNED)
    r = cli("share", "x.toml", cwd=mine)
    assert r.returncode == 0 and r.stdout.count("\n") == 1
    text = r.stdout.strip()
    assert len(text) < 120                        # short enough for a chat line or an address
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    r = cli("count", text, "--raw", "--quiet", cwd=elsewhere)
    assert (r.returncode, r.stdout.split()[0]) == (0, "389")
    r = cli("show", text, cwd=elsewhere)
    assert r.returncode == 0 and "6x10, X pinned" in r.stdout and ".XXX......" in r.stdout
    assert cli("share", text, cwd=elsewhere).stdout.strip() == text      # the same text again


def test_an_edge_matching_pieces_file_travels_inside(cli, tmp_path: Path) -> None:
    text = cli("share", "clue1").stdout.strip()
    assert "pieces_file" not in share.decode(text)
    r = cli("solve", text, "--json", cwd=tmp_path)
    assert r.returncode == 0 and json.loads(r.stdout)["puzzle"] == "clue1"


def _packed(payload: bytes) -> str:
    return "satiling:1" + base64.urlsafe_b64encode(zlib.compress(payload)).rstrip(b"=").decode()


def damaged() -> dict[str, str]:
    good = catalog.share_text("pentomino-6x10")
    flipped = good[:30] + ("A" if good[30] != "A" else "B") + good[31:]
    return {
        "empty": "satiling:",
        "version only": "satiling:1",
        "unknown version": "satiling:2" + good[10:],
        "not base64": "satiling:1abc$def",
        "a space inside": good[:20] + " " + good[20:],
        "cut short": good[:-12],
        "a word added": good + "hello",          # bytes after zlib's stream: no checksum covers them
        "a letter added": good + "A",            # six bits, no whole byte: base64 drops it
        "one letter changed": flipped,
        "not an instance": _packed(b"[1, 2, 3]"),
        "not JSON": _packed(b"region = 6"),
        "a bomb": _packed(b"0" * 40_000_000),
        "a bad instance": share.encode({"piece_set": "pentominoes", "region": {"rows": 6, "cols": 11}}),
    }


@pytest.mark.parametrize("case", sorted(damaged()))
def test_a_damaged_share_text_is_one_line(case: str) -> None:
    text = damaged()[case]
    for command in ("show", "count"):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([command, text])
        assert code == 2 and out.getvalue() == "", (case, err.getvalue())
        assert len(err.getvalue().strip().splitlines()) == 1, err.getvalue()
    with pytest.raises(SatilingError):
        catalog.load(text)


def test_a_damaged_share_text_in_a_real_process(cli) -> None:
    r = cli("show", damaged()["one letter changed"])
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr


def test_to_png_is_a_png_of_the_pictures_size() -> None:
    from satiling.render.pieces import puzzle_svg
    svg = puzzle_svg(catalog.load("pentomino-6x10"))
    width, height = (float(x) for x in re.search(r'width="([\d.]+)" height="([\d.]+)"', svg).groups())
    png = to_png(svg)
    assert png[:8] == PNG_SIGNATURE
    assert png_size(png) == (round(width), round(height))
    assert png_size(to_png(svg, scale=2)) == (round(2 * width), round(2 * height))
    for bad in ("not a picture", 3, "<svg"):
        with pytest.raises(SatilingError):
            to_png(bad)                                  # type: ignore[arg-type]
    with pytest.raises(SatilingError):
        to_png(svg, scale=0)


def test_show_and_render_write_pngs(cli, tmp_path: Path) -> None:
    r = cli("show", "soma-cube", "--png", "soma.png", cwd=tmp_path)
    assert r.returncode == 0
    png = (tmp_path / "soma.png").read_bytes()
    assert png[:8] == PNG_SIGNATURE and png_size(png)[0] > 300
    solution = cli("solve", "pentomino-3x20", "--json", cwd=tmp_path).stdout
    (tmp_path / "s.json").write_text(solution)
    r = cli("render", "pentomino-3x20", "s.json", "--png", "s.png", "--svg", "s.svg", cwd=tmp_path)
    assert r.returncode == 0
    svg = (tmp_path / "s.svg").read_text()
    width = float(re.search(r'width="([\d.]+)"', svg).group(1))
    png = (tmp_path / "s.png").read_bytes()
    assert png[:8] == PNG_SIGNATURE and abs(png_size(png)[0] - width) <= 1
    r = cli("render", "pentomino-3x20", "s.json", "--png", str(tmp_path), cwd=tmp_path)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1


def test_solve_draws_its_solution_as_png_as_render_does(cli, tmp_path: Path) -> None:
    """``solve --png`` (and a best board's, ``--maximize-matches --png``): the picture render
    draws of the solution solve prints, byte for byte."""
    for name, extra in (("pentomino-3x20", ()), ("clue1", ("--maximize-matches", "--time-limit", "2",
                                                           "--engine", "cpsat"))):
        r = cli("solve", name, *extra, "--json", "--png", f"{name}.png", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        (tmp_path / "s.json").write_text(r.stdout)
        # a best board that is no solution is drawn all the same (exit 1: not a solution)
        assert cli("render", name, "s.json", "--png", "r.png", cwd=tmp_path).returncode in ((0, 1) if extra else (0,))
        png = (tmp_path / f"{name}.png").read_bytes()
        assert png[:8] == PNG_SIGNATURE and png == (tmp_path / "r.png").read_bytes(), name


@pytest.mark.parametrize("argv, said", [
    (["render", "pentomino-3x20", "s.json", "--png", "x.svg"], "--png x.svg: a PNG picture's file name ends in .png, not .svg"),
    (["render", "pentomino-3x20", "s.json", "--svg", "x.png"], "--svg x.png: an SVG picture's file name ends in .svg, not .png"),
    (["render", "pentomino-3x20", "s.json", "--svg", "x.svg", "--png", "y.jpg"], "--png y.jpg"),
    (["solve", "pentomino-3x20", "--svg", "x.txt"], "--svg x.txt"),
    (["show", "soma-cube", "--png", "x.svg"], "--png x.svg"),
    (["solve", "pentomino-3x20", "--png", "x.svg"], "--png x.svg"),
])
def test_a_picture_named_for_another_format_is_refused(cli, tmp_path: Path, argv, said) -> None:
    """``render --png x.svg`` wrote a PNG that viewers then read as SVG: one line, exit 2, and no
    file at all (the SVG of the same command neither)."""
    (tmp_path / "s.json").write_text(cli("solve", "pentomino-3x20", "--json").stdout)
    r = cli(*argv, cwd=tmp_path)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr.startswith(f"satiling: error: {said}") and len(r.stderr.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_a_picture_name_without_a_suffix_or_in_capitals_is_written(cli, tmp_path: Path) -> None:
    (tmp_path / "s.json").write_text(cli("solve", "pentomino-3x20", "--json").stdout)
    r = cli("render", "pentomino-3x20", "s.json", "--png", "board", "--svg", "BOARD.SVG", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "board").read_bytes()[:8] == PNG_SIGNATURE
    assert (tmp_path / "BOARD.SVG").read_text().startswith("<svg")


def test_letters_come_from_the_packages_own_font() -> None:
    """A picture's letters are drawn on a machine with no font at all: the PNG is the one drawn
    from the package's fonts alone (no system font loaded), and not the one with the letters
    left out (where no font is to be found)."""
    import resvg_py
    from satiling.render.png import FONTS, SANS_SERIF
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="90" height="30"><text x="5" y="22" '
           'font-family="sans-serif" font-size="18">{}</text></svg>')
    assert len(FONTS) == 2 and all(Path(f).stat().st_size > 10_000 for f in FONTS)
    for text, bold in (("X 6x10", ""), ("IQ", ' font-weight="bold"')):
        picture = svg.format(text).replace("<text ", f"<text{bold} ")
        alone = bytes(resvg_py.svg_to_bytes(svg_string=picture, skip_system_fonts=True,
                                            font_files=FONTS, sans_serif_family=SANS_SERIF))
        no_font = bytes(resvg_py.svg_to_bytes(svg_string=picture, skip_system_fonts=True))
        assert to_png(picture) == alone != no_font


def test_a_share_text_longer_than_a_file_name_counts_and_enumerates(cli, tmp_path: Path) -> None:
    """A share text is no file name: one longer than the file system takes (255 bytes, any
    puzzle with a few pins, any edge-matching board) is counted and enumerated as a short one;
    the 12 pentominoes fill the 3x20 box in 2 ways up to its 4 symmetries (8 in all)."""
    import random
    rng = random.Random(5)
    data, _, _ = catalog.instance_data("pentomino-3x20")
    words = " ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6)) for _ in range(40))
    text = share.encode({**data, "name": "box", "source": words})
    assert len(text) > 300
    r = cli("count", text, "--quiet", cwd=tmp_path)
    assert (r.returncode, r.stdout.split()[:1]) == (0, ["2"]), r.stderr
    r = cli("enumerate", text, "--raw", "--quiet", "--json", cwd=tmp_path)
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 8, r.stderr
