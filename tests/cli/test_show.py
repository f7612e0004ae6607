"""``satiling show NAME``: the board and every piece drawn before any search, in the terminal and
as SVG; the same picture in the library (a puzzle's ``_repr_svg_``), and a ``repr`` that names
the puzzle."""
import xml.etree.ElementTree as ET

import pytest

import satiling

SVG = "{http://www.w3.org/2000/svg}"


def _cells_of(lines: list[str], ch: str) -> list[tuple[int, int]]:
    """Where ``ch`` stands in a picture (the title lines hold only names: skipped by caller)."""
    return [(r, c) for r, line in enumerate(lines) for c, x in enumerate(line) if x == ch]


def test_show_draws_the_empty_board_and_every_pentomino_in_a_shape_of_its_own(cli, tmp_path):
    svg = tmp_path / "p.svg"
    r = cli("show", "pentomino-6x10", "--svg", str(svg))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("pentomino-6x10: ")
    board = r.stdout.split("\n\n")[1].splitlines()
    assert board == ["." * 10] * 6                       # the empty 6x10 board
    puzzle = satiling.load("pentomino-6x10")
    # each row of pieces: a line of names, then the shapes; every letter's cells form its piece
    rows = [row.splitlines() for row in r.stdout.rstrip("\n").split("\n\n")[2:]]
    titles = [name for row in rows for name in row[0].split()]
    assert sorted(titles) == sorted(puzzle.by_name)
    shapes = [line for row in rows for line in row[1:] + [""]]
    for piece in puzzle.pieces:
        cells = _cells_of(shapes, piece.name)
        assert len(cells) == 5
        assert puzzle.lattice.normalize(cells) in puzzle.orientations(piece), piece.name
    root = ET.fromstring(svg.read_text())                 # well-formed: board and pieces nested
    inner = root.findall(f"{SVG}svg")
    assert len(inner) == 2
    empty = [p for p in inner[0].iter(f"{SVG}polygon") if p.get("fill") == "#ffffff"]
    assert len(empty) == 60
    names = sorted(t.text for t in inner[1].iter(f"{SVG}title"))
    assert names == sorted(puzzle.by_name)
    labels = sorted(t.text for t in inner[1].iter(f"{SVG}text"))
    assert labels == sorted(puzzle.by_name)
    assert "wrote" in r.stderr


def test_show_names_copies_of_a_piece(cli):
    r = cli("show", "tetromino-4x10")
    assert r.returncode == 0, r.stderr
    assert " x2" in r.stdout                               # two sets of the 5 tetrominoes


def test_show_an_edge_matching_puzzle_lists_every_tile_as_the_instance_gives_it(cli, tmp_path):
    svg = tmp_path / "e.svg"
    r = cli("show", "clue1", "--svg", str(svg))
    assert r.returncode == 0, r.stderr
    puzzle = satiling.load("clue1")
    tiles = {}
    for line in r.stdout.splitlines():
        for entry in line.split("   "):
            number, sep, colours = entry.strip().partition(": ")
            if sep and number.isdigit():
                tiles[int(number)] = [int(x) for x in colours.split()]
    assert tiles == {i: list(p) for i, p in enumerate(puzzle.pieces, 1)}
    root = ET.fromstring(svg.read_text())
    board, pieces = root.findall(f"{SVG}svg")
    numbers = sorted(int(t.text) for t in pieces.iter(f"{SVG}text") if t.text.isdigit())
    assert numbers == list(range(1, 37))


def test_show_an_iqlink_challenge_lists_the_pieces_to_place(cli, tmp_path):
    svg = tmp_path / "i.svg"
    r = cli("show", "iqlink-junior", "--svg", str(svg))
    assert r.returncode == 0, r.stderr
    puzzle = satiling.load("iqlink-junior")
    assert f"to place: {' '.join(puzzle.free)}" in r.stdout
    ET.fromstring(svg.read_text())


def test_show_of_an_unknown_puzzle_is_one_line_exit_2(cli):
    r = cli("show", "no-such-puzzle")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_a_puzzle_names_itself_and_draws_board_and_pieces_in_a_notebook():
    puzzle = satiling.load("pentomino-6x10")
    assert repr(puzzle) == "<Polyform pentomino-6x10: 60 cells, 12 pieces>"
    assert repr(satiling.load("clue1")) == "<EdgeMatching clue1: 6x6, 36 pieces>"
    root = ET.fromstring(puzzle._repr_svg_())
    board, pieces = root.findall(f"{SVG}svg")
    assert sorted(t.text for t in pieces.iter(f"{SVG}title")) == sorted(puzzle.by_name)


def test_a_picture_to_stdout_is_the_only_data_there(cli):
    """``--svg -`` (or ``--png -``) makes the picture the command's stdout: the text picture goes
    to stderr; two pictures, or a picture and --json, on stdout are refused in one line, exit 2."""
    r = cli("show", "pentomino-6x10", "--svg", "-")
    assert r.returncode == 0, r.stderr
    root = ET.fromstring(r.stdout)                        # stdout is one SVG document, whole
    assert root.tag == f"{SVG}svg" and "pentomino-6x10: " in r.stderr
    r = cli("solve", "pentomino-6x10", "--svg", "-")
    assert r.returncode == 0 and ET.fromstring(r.stdout).tag == f"{SVG}svg", r.stderr
    for argv in (["show", "pentomino-6x10", "--svg", "-", "--png", "-"],
                 ["solve", "pentomino-6x10", "--json", "--svg", "-"]):
        r = cli(*argv)
        assert r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1, argv
        assert "stdout" in r.stderr


#: the 6x10 pentominoes with X pinned on the board (what the web page's workbench shares)
X_PINNED = "satiling:1ePn7cQ-Jg-uoMKswNMDrSfyOwRIEEahhYITmY0MdY4RfawG9_Sn_"


def _tray_text(stdout: str) -> list[str]:
    """The names over the pieces in ``show``'s text (the rows after the title and the board)."""
    rows = [row.splitlines() for row in stdout.rstrip("\n").split("\n\n")[2:]]
    return [name for row in rows for name in row[0].split()]


def _tray_svg(svg: str) -> tuple[list[str], list[str]]:
    """The pieces drawn on the board and in the tray of ``show``'s SVG, by name."""
    board, pieces = ET.fromstring(svg).findall(f"{SVG}svg")
    return (sorted(t.text for t in board.iter(f"{SVG}title")),
            sorted(t.text for t in pieces.iter(f"{SVG}title")))


def test_a_pinned_piece_is_on_the_board_and_not_in_the_tray(cli, tmp_path):
    svg = tmp_path / "x.svg"
    r = cli("show", X_PINNED, "--svg", str(svg))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].endswith("60 cells, 11 pieces to place, 1 pinned")
    others = sorted(n for n in satiling.load("pentomino-6x10").by_name if n != "X")
    assert sorted(_tray_text(r.stdout)) == others
    assert r.stdout.split("\n\n")[1].count("X") == 5                 # X on the board
    on_board, tray = _tray_svg(svg.read_text())
    assert on_board == ["X"] and tray == others
    from satiling.render.pieces import puzzle_svg
    assert svg.read_text() == puzzle_svg(satiling.load(X_PINNED))    # the web's See draws this


def test_the_tray_counts_the_copies_a_pin_leaves(cli, tmp_path):
    """Two copies of each tetromino: one O pinned leaves one O to place, both I pinned none."""
    pins = {"O": [[[0, 0], [0, 1], [1, 0], [1, 1]]],
            "I": [[[3, 0], [3, 1], [3, 2], [3, 3]], [[3, 4], [3, 5], [3, 6], [3, 7]]]}
    text = (satiling.catalog.instances_dir() / "tetromino-4x10.toml").read_text() + "".join(
        f'\n[[placed]]\npiece = "{piece}"\ncells = {cells}\n'
        for piece, many in pins.items() for cells in many)
    (tmp_path / "pinned.toml").write_text(text)
    r = cli("show", str(tmp_path / "pinned.toml"), "--svg", str(tmp_path / "p.svg"))
    assert r.returncode == 0, r.stderr
    assert "(40 cells, 7 pieces to place, 3 pinned)" in r.stdout.splitlines()[0]
    assert _tray_text(r.stdout) == ["O", "T", "x2", "L", "x2", "S", "x2"]
    on_board, tray = _tray_svg((tmp_path / "p.svg").read_text())
    assert on_board == ["I", "I", "O"] and tray == ["L", "O", "S", "T"]
    labels = sorted(t.text for t in ET.parse(tmp_path / "p.svg").getroot().findall(f"{SVG}svg")[1]
                    .iter(f"{SVG}text"))
    assert labels == ["L x2", "O", "S x2", "T x2"]


def test_every_piece_pinned_leaves_no_tray(tmp_path):
    from satiling.render.pieces import pieces_svg, pieces_text, puzzle_svg
    puzzle = satiling.load("pentomino-3x20")
    full = satiling.Polyform(puzzle.region, "pentominoes", placed=next(iter(puzzle.solutions())))
    assert pieces_text(full) == "" and pieces_svg(full) == ""
    assert len(ET.fromstring(puzzle_svg(full)).findall(f"{SVG}svg")) == 0      # the board alone


def test_an_edge_matching_fixed_piece_is_on_the_board_and_not_in_the_tray(cli, tmp_path):
    """Eternity II's starter piece 139 is fixed on I8: drawn there, not among the 255 to place."""
    svg = tmp_path / "e2.svg"
    r = cli("show", "eternity2", "--svg", str(svg))
    assert r.returncode == 0, r.stderr
    assert "(16x16, 255 pieces to place, 1 fixed)" in r.stdout.splitlines()[0]
    listed = [int(e.split(":")[0]) for line in r.stdout.split("pieces to place, 1 fixed (colours")[1]
              .splitlines()[1:] for e in line.split("   ") if ":" in e]
    assert listed == [i for i in range(1, 257) if i != 139]
    board, pieces = ET.fromstring(svg.read_text()).findall(f"{SVG}svg")
    assert [t.text for t in board.iter(f"{SVG}text") if t.get("class") == "tile-number"] == ["139"]
    numbers = [int(t.text) for t in pieces.iter(f"{SVG}text") if t.text.isdigit()]
    assert numbers == listed
    assert any("255 pieces to place, 1 fixed" in (t.text or "") for t in pieces.iter(f"{SVG}text"))


def test_an_iqlink_challenge_keeps_its_own_tray():
    """IQ-Link's picture was already the board and the pieces to place: the pre-placed pieces
    are the puzzle's pins, and its picture is the challenge's."""
    from satiling.render.iqlink_svg import challenge_svg
    from satiling.render.pieces import pieces_text, puzzle_svg
    puzzle = satiling.load("iqlink-wizard")
    assert puzzle.pins() == list(puzzle.placed) and len(puzzle.placed) == 2
    assert puzzle_svg(puzzle) == challenge_svg(puzzle)
    assert pieces_text(puzzle) == f"to place: {' '.join(puzzle.free)}"


@pytest.mark.parametrize("name, caption", [
    ("iqlink-starter", "IQ-Link challenge, 3 pieces to place (seed 11)"),       # said once
    ("iqlink-empty", "IQ-Link, empty board: 12 pieces to place"),
])
def test_an_iqlink_caption_says_the_pieces_to_place_once(name, caption):
    """A generated challenge's title names its pieces to place: the caption said it twice."""
    from satiling.render.iqlink_svg import challenge_svg
    puzzle = satiling.load(name)
    texts = [t.text for t in ET.fromstring(challenge_svg(puzzle)).iter(f"{SVG}text") if t.text]
    assert caption.format(title=puzzle.title) in texts
    assert sum(text.count("pieces to place") for text in texts) == 1
