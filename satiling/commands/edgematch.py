"""Edge-matching subcommands: ``score`` a board, ``generate-edgematch`` a random puzzle, and the
``maximize`` entry point behind ``satiling solve NAME --maximize-matches``.

    satiling score eternity2 board.txt            # 'piece/rotation' grid, bucas URL or JSON
    satiling generate-edgematch 8 8 --seed 1 > b8.toml
    satiling solve eternity2 --maximize-matches --time-limit 600

The lead's ``solve`` command calls :func:`run_maximize` when ``--maximize-matches`` is given, and
``decode`` calls :func:`show_partial` for a model that is not a solution.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, Callable, TYPE_CHECKING

from ..errors import SatilingError
from ..exits import EXIT_FOUND, EXIT_NONE
from ..fileio import hold_for_run, read_text, write_file
from .common import name_argument

if TYPE_CHECKING:
    from ..families.edgematch import Board, EdgeMatchPuzzle
    from ..families.edgematch.score import Score


def register(sub) -> None:
    s = sub.add_parser("score", help="count the matching joins of an edge-matching board",
                       description="Score a full or partial edge-matching board: the joins whose two "
                       "sides have the same colour. BOARD is a grid of 'piece/rotation' tokens "
                       "('---/-' empty), an e2.bucas.name URL, or JSON placements.")
    name_argument(s)
    s.add_argument("board", metavar="BOARD", help="board file ('-' for stdin)")
    s.add_argument("--svg", metavar="FILE", help="also draw the board as SVG to FILE")
    s.add_argument("--hints", action="store_true",
                   help="also check that the pinned pieces are in place: the starter and the hint "
                   "pieces (Eternity II's four clues); exit 1 naming each one that is not")
    s.set_defaults(run=cmd_score)

    s = sub.add_parser("generate-edgematch", help="print a random edge-matching puzzle with a planted "
                       "solution (an instance file)",
                       description="A random ROWS x COLS board with a planted solution; all pieces "
                       "distinct, none symmetric, colours dealt evenly (Eternity II-like).")
    s.add_argument("rows", type=int, metavar="ROWS")
    s.add_argument("cols", type=int, metavar="COLS")
    s.add_argument("--frame-colours", type=int, metavar="F",
                   help="colours on the joins along the rim (default: the hardest for the size)")
    s.add_argument("--inner-colours", type=int, metavar="I",
                   help="colours on the other joins (default: the hardest for the size)")
    s.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    s.add_argument("--symmetric", action="store_true", help="allow rotationally symmetric pieces")
    s.add_argument("--random-counts", action="store_true",
                   help="draw each join's colour independently instead of dealing colours evenly")
    s.set_defaults(run=cmd_generate)


def cmd_score(args: argparse.Namespace) -> int:
    from .. import catalog
    from ..families.edgematch import EdgeMatchPuzzle
    from ..families.edgematch.score import parse_board
    puzzle = catalog.load(args.name)
    if not isinstance(puzzle, EdgeMatchPuzzle):
        raise SatilingError(f"{args.name} is not an edge-matching puzzle")
    puzzle.check_hints(args.hints)
    text = read_text(args.board, 4 << 20, what="board")
    board = parse_board(puzzle, text)
    print_board(puzzle, board, args.svg)
    if args.hints:
        return pins_in_place(puzzle, board)
    return EXIT_FOUND


def pins_in_place(puzzle: EdgeMatchPuzzle, board: Board) -> int:
    """``score --hints``: one stderr line saying the pinned pieces (the puzzle's fixed ones and
    its hints) are in place, or one for each that is not; the exit code."""
    from ..families.edgematch.score import pins_held
    pins = pins_held(puzzle, board)
    wrong = [(t, held) for t, held in pins if held != (t.piece, t.rotation)]
    for t, held in wrong:
        now = "is empty" if held is None else f"holds {held[0]}/{held[1]}"
        print(f"satiling: {t.square} should hold the pinned piece {t.piece}/{t.rotation}; it {now}",
              file=sys.stderr)
    if wrong:
        return EXIT_NONE
    print(f"satiling: the {len(pins)} pinned pieces are in place "
          f"({', '.join(str(t) for t, _ in pins)})", file=sys.stderr)
    return EXIT_FOUND


def print_board(puzzle: EdgeMatchPuzzle, board: Board, svg: str | None = None,
                png: str | None = None) -> Score:
    """Print a full or partial board as ``satiling score`` does (grid, bucas URL, score line),
    write its SVG to ``svg`` and its PNG to ``png`` if given, and return its :class:`Score`."""
    from ..families.edgematch.score import score
    from ..render.edgematch_svg import board_svg, board_text, bucas_url
    from .common import text_out
    s = score(puzzle, board)
    out = text_out(svg, png)
    print(board_text(puzzle, board), file=out)
    try:
        print(f"# {bucas_url(puzzle, board)}", file=out)
    except SatilingError as e:            # more colours than the viewer has letters
        print(f"satiling: no viewer URL: {e}", file=sys.stderr)
    print(f"score {s.matched}/{s.joins}  ({s})", file=out)
    if svg:
        write_file(svg, board_svg(puzzle, board))
    if png:
        from ..fileio import write_bytes
        from .common import png_of
        write_bytes(png, png_of(board_svg(puzzle, board)))
        print(f"satiling: wrote {png}", file=sys.stderr)
    return s


def show_partial(puzzle: EdgeMatchPuzzle, solution: list[Any], reason: str,
                 svg: str | None = None) -> None:
    """``satiling decode`` of a model that is not a solution: the board so far and one stderr line
    on how far it goes.  The caller has checked it is consistent (``check_partial``)."""
    from ..families.edgematch import Tile
    from ..families.edgematch.score import partial_board
    board = partial_board(puzzle, solution)
    s = print_board(puzzle, board, svg)
    unsettled = sum(1 for t in solution if isinstance(t, Tile)) - len(board)
    why = f" ({reason})" if s.placed == s.squares else ""   # a full board: say why it fails
    left = f"; {unsettled} more pieces placed, their rotation unknown (no join colours)" if unsettled else ""
    print(f"satiling: partial model: {s.placed} of {s.squares} squares filled, score "
          f"{s.matched}/{s.joins}; not a solution{why}{left}", file=sys.stderr)
    if svg:
        print(f"satiling: wrote {svg}", file=sys.stderr)


def show_board(puzzle: EdgeMatchPuzzle, solution: list[Any], reason: str, svg: str | None = None,
               png: str | None = None) -> None:
    """``satiling render`` of a board that is not a solution: drawn and scored as ``score`` does
    (a piece turned against the frame too), and one stderr line on why it is not a solution."""
    from ..families.edgematch.score import partial_board
    s = print_board(puzzle, partial_board(puzzle, solution, model=False), svg, png)
    print(f"satiling: {s.placed} of {s.squares} squares filled, score {s.matched}/{s.joins}: not a "
          f"solution ({reason})", file=sys.stderr)
    if svg:
        print(f"satiling: wrote {svg}", file=sys.stderr)


def cmd_generate(args: argparse.Namespace) -> int:
    from ..families.edgematch.generate import generate, instance_toml
    gen = generate(args.rows, args.cols, args.frame_colours, args.inner_colours, args.seed,
                   symmetric=args.symmetric, even=not args.random_counts)
    flags = f"--frame-colours {gen.frame_colours} --inner-colours {gen.inner_colours} --seed {gen.seed}"
    flags += " --symmetric" * args.symmetric + " --random-counts" * args.random_counts
    sys.stdout.write(instance_toml(gen, f"generate-edgematch {args.rows} {args.cols} {flags}"))
    return EXIT_FOUND


def full_board(puzzle: Any, path: str) -> tuple[list[Any], int]:
    """The full board in the file ``path`` (any form ``satiling score`` reads) and its score;
    SatilingError naming the file for anything else (a partial board, pinned pieces moved)."""
    from ..apps.maximize.board import checked_score
    from ..families.edgematch.score import parse_board
    tiles = puzzle.tiles(parse_board(puzzle, read_text(path, 4 << 20, what="board")))
    return tiles, checked_score(puzzle, tiles, whose=path)


class BestBoard:
    """The best board of a maximisation kept in a file as it improves, written whole each time
    (a temporary file renamed into place, before its score is printed: a kill, a crash or a
    closed terminal never leaves a score without its board; ``satiling score`` reads it and
    ``--start`` continues from it), and a score log beside it: one ``seconds<TAB>score`` line
    per board written.  A file that holds a board from an earlier run is replaced only by a
    better board (the log goes on below its lines); a file that holds no board of the puzzle is
    an error, never overwritten.

    One file, one run: the run holds the lock ``enumerate --out`` takes
    (:func:`~satiling.fileio.hold_for_run`) on the log, which is appended to and never replaced,
    so a second run given the same file is refused before it writes anything (two runs would each
    write over the other's boards, and their scores would interleave in one log)."""

    def __init__(self, puzzle: Any, path: str) -> None:
        self.puzzle, self.path = puzzle, path
        self.log = str(Path(path).with_suffix("")) + ".scores.tsv" if path.endswith(".json") else \
            path + ".scores.tsv"
        self._read_held()                 # a file of something else is refused before the lock
        self._made_log = not os.path.exists(self.log)
        self._fd = self._hold_log()
        try:
            self._read_held()             # again: a run that just ended may have written a better one
        except BaseException:
            self.close()
            raise
        # the log begins (anew, or below an earlier run's lines) with the first board written
        self._new_log = self.held < 0 or self._made_log

    def _read_held(self) -> None:
        #: the score of the board in the file (-1: none yet)
        self.held = self._held() if os.path.exists(self.path) else -1

    def _held(self) -> int:
        try:
            return full_board(self.puzzle, self.path)[1]
        except SatilingError as e:
            raise SatilingError(f"{self.path} holds no board of {self.puzzle.name} to keep ({e}); "
                                "it is left as it is: choose another file with --best") from None

    def _hold_log(self) -> int:
        try:
            fd = os.open(self.log, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
        except OSError as e:
            raise SatilingError(f"{self.log}: cannot open: {e.strerror}") from None
        try:
            hold_for_run(fd, self.path)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def keep(self, score: int, solution: list[Any], seconds: float) -> None:
        """Write a board to the file if it beats the one there (before its score is printed)."""
        from .common import solution_json
        if score <= self.held:
            return                        # the file holds a board as good (an earlier run's)
        write_file(self.path, solution_json(self.puzzle, solution) + "\n")
        self.held = score
        try:
            if self._new_log:
                os.ftruncate(self._fd, 0)
                self._write_log("seconds\tscore\n")
                self._new_log = False
            self._write_log(f"{seconds:.3f}\t{score}\n")
        except OSError as e:
            raise SatilingError(f"{self.log}: cannot write: {e.strerror}") from None

    def _write_log(self, text: str) -> None:
        data = text.encode()
        while data:
            data = data[os.write(self._fd, data):]

    def close(self) -> None:
        """Let the file go; a log made for a run that wrote no board is removed again."""
        if self._fd < 0:
            return
        try:
            if self._made_log and self._new_log:
                os.unlink(self.log)
        except OSError:
            pass
        os.close(self._fd)                # releases the lock
        self._fd = -1


#: how a maximisation ended, in words (its engines report CP-SAT's statuses)
MAXIMISE_WORDS = {"OPTIMAL": "proved the best", "FEASIBLE": "not proved the best",
                  "UNKNOWN": "no board found"}


def run_maximize(req: Any, svg: str | None = None, as_json: bool = False,
                 best: str | None = None, png: str | None = None) -> int:
    """``satiling solve NAME --maximize-matches``: print the score as it improves (stderr) and
    keep the best board in ``best`` as it improves, then print the best board (text or JSON, SVG
    and PNG optionally).  Exit 0 with a board (a solution when every join matches, else the best one in
    the time), 3 when the time ran out before any board; Ctrl-C / SIGTERM print the best board so
    far and exit 130 / 143."""
    from ..run.tasks import check_maximise
    check_maximise(req)                   # before the best board's file is looked at
    if req.dask:                          # an unreachable cluster: its error line alone
        from ..search.workers import dask_client
        with dask_client(req.dask):
            pass
    keeper = BestBoard(req.puzzle, best) if best else None
    try:
        return _maximize_keeping(req, keeper, (svg, png), as_json)
    finally:
        if keeper is not None:
            keeper.close()


def _maximize_keeping(req: Any, keeper: BestBoard | None, pictures: tuple[str | None, str | None],
                      as_json: bool) -> int:
    from .common import show
    from ..run import Events, maximise
    joins = len(req.puzzle.joins())
    if keeper is not None:
        print(f"satiling: {req.puzzle.name}: the best board is kept in {keeper.path}, its scores "
              f"in {keeper.log}", file=sys.stderr, flush=True)
    earlier = -1 if keeper is None else keeper.held
    if earlier >= 0:
        print(f"satiling: {req.puzzle.name}: {keeper.path} holds a board of {earlier}/{joins} from "
              f"before: only a better one replaces it (--start {keeper.path} continues from it)",
              file=sys.stderr, flush=True)

    def improve(imp: Any) -> None:
        if keeper is not None:            # the board first: a kill never leaves a score without it
            keeper.keep(imp.score, imp.solution, imp.seconds)
        print_improvement(imp)

    def note(text: str) -> None:
        print(f"satiling: {req.puzzle.name}: {text}", file=sys.stderr, flush=True)

    result = maximise(req, Events(improve=improve, note=note))
    stopped, puzzle = result.stopped_by, req.puzzle
    if not result.solution:
        why = "interrupted" if stopped is not None else "no board within the time limit"
        print(f"satiling: {puzzle.name}: {why}", file=sys.stderr)
        return _signal_exit(stopped) if stopped is not None else 3
    if keeper is not None:                # every engine reports its boards; kept here in case one did not
        keeper.keep(result.score, result.solution, result.seconds)
    bound = f" (upper bound {result.bound})" if result.bound is not None else ""
    how = MAXIMISE_WORDS.get(result.status, result.status) if stopped is None else _signal_said(stopped)
    print(f"satiling: {puzzle.name}: best score {result.score}/{result.joins}{bound}, "
          f"{how} after {result.seconds:.1f} s", file=sys.stderr)
    if earlier > result.score:
        print(f"satiling: {puzzle.name}: the best board is still the earlier one in {keeper.path} "
              f"({earlier}/{joins})", file=sys.stderr)
    show(puzzle, result.solution, pictures[0], as_json=as_json, png=pictures[1])
    return _signal_exit(stopped) if stopped is not None else 0


def _signal_exit(stop: BaseException) -> int:
    """130 for Ctrl-C (a plain KeyboardInterrupt), 143 for SIGTERM."""
    from ..signals import exit_code
    return exit_code(stop)


def _signal_said(stop: BaseException) -> str:
    """How a signal stopped the run, in the words of its exit code ("terminated" for 143)."""
    from ..run import Stop
    return Stop.TERMINATED.said if _signal_exit(stop) == Stop.TERMINATED.exit_code else Stop.INTERRUPTED.said


def print_improvement(imp: Any) -> None:
    print(f"satiling: score {imp.score}/{imp.joins} after {imp.seconds:.1f} s", file=sys.stderr, flush=True)
