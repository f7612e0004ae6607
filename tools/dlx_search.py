"""One tiling of a large polyform board by dancing links in C (``tools/dlx_search.c``).

    python tools/dlx_search.py tortoise --out t.json --svg t.svg   # 45 Eternity pieces, ~1 CPU-s
    python tools/dlx_search.py pentomino-6x10 --count          # 9356: the cut loses no tiling
    python tools/dlx_search.py pram --given whale              # keep Whale's tiling, search the rest
    python tools/dlx_search.py pram --given whale --path 5,0   # one subtree: a job for one machine
    python tools/dlx_search.py pram --estimate 3000            # Knuth's estimate of the tree size

The walk in ``satiling.search`` recomputes its branching counts from bit sets at every node; on
Pram (108 955 placements) that is milliseconds a node.  Knuth's dancing links keep those counts up
to date as rows come and go, and this C version adds one cut the exact-cover view cannot see: an
enclosed pocket of open cells whose size is no multiple of the piece area.  The program only
searches; the placements it returns are decoded and checked here by ``puzzle.verify`` before the
solution is written (JSON, as ``satiling verify`` and ``satiling render`` read it).

Cells are numbered row by row (``--order``: from the top edge by default), and ties in the
fewest-rows rule go to the lowest number.  ``--seed`` starts each branching at a random row.
``--given BOARD`` first tiles a bundled sub-board whose region lies inside this one and whose
pieces are among its pieces, and keeps that tiling (Whale inside Pram: same coordinates, 8 of
Pram's 64 pieces).  The measurements on Pram are in ``tools/eternity_runs.py``.

Exit codes as the CLI's: 0 solved (or counted), 1 no tiling (exhausted), 2 error, 3 time limit.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from satiling import SatilingError, load
from satiling.cli import solution_json, write_atomically

SOURCE = Path(__file__).with_name("dlx_search.c")


#: Where the board starts to fill: cell numbering by centroid, (first key, second key).
ORDERS = {"top": lambda x, y: (y, x), "bottom": lambda x, y: (-y, x),
          "left": lambda x, y: (x, y), "right": lambda x, y: (-x, y)}


def matrix(puzzle, order: str = "top", fixed: list = ()) -> tuple[str, list]:
    """The exact-cover matrix in the C program's input format, and the placements by row.

    ``fixed`` placements are taken as given: their cells and pieces leave the matrix, and so does
    every placement that meets them.
    """
    if puzzle.family != "polyform":
        raise SatilingError(f"{puzzle.name} is not a polyform board")
    lat = puzzle.lattice
    used_cells = {c for pl in fixed for c in pl.cells}
    used_pieces = {pl.piece for pl in fixed}

    def key(cell):
        pts = lat.polygon(cell)
        x, y = (round(sum(p[k] for p in pts) / len(pts), 6) for k in (0, 1))
        return ORDERS[order](x, y)

    cells = sorted(puzzle.region - used_cells, key=key)
    index = {c: i for i, c in enumerate(cells)}
    names = [p.name for p in puzzle.pieces if p.name not in used_pieces]
    pieces = {name: len(cells) + i for i, name in enumerate(names)}
    placements = [pl for pl in puzzle.placements()
                  if pl.piece in pieces and not used_cells.intersection(pl.cells)]
    areas = {len(p.shape) for p in puzzle.pieces}
    if len(areas) != 1 or any(p.count != 1 for p in puzzle.pieces):
        raise SatilingError("dlx_search needs one piece area and one copy of every piece")
    lines = [f"{len(cells) + len(pieces)} {len(cells)} {areas.pop()} {len(placements)}"]
    for pl in placements:
        cols = [pieces[pl.piece]] + [index[c] for c in pl.cells]
        lines.append(f"{len(cols)} " + " ".join(map(str, cols)))
    for c in cells:
        nb = [index[n] for n in lat.neighbors(c) if n in index]
        lines.append(f"{len(nb)} " + " ".join(map(str, nb)))
    return "\n".join(lines) + "\n", placements


def run_search(exe: Path, text: str, options: list[str]) -> tuple[int, list[str]]:
    """Run the compiled search on one matrix: its exit code and its stdout lines."""
    run = subprocess.run([str(exe), *options], input=text, stdout=subprocess.PIPE, text=True)
    return run.returncode, run.stdout.splitlines()


def given_tiling(puzzle, name: str, exe: Path) -> list:
    """The first tiling of board ``name``, which must lie inside ``puzzle`` with pieces of its own."""
    sub = load(name)
    if not sub.region <= puzzle.region or not {p.name for p in sub.pieces} <= set(puzzle.by_name):
        raise SatilingError(f"{name} is not a part of {puzzle.name}")
    text, placements = matrix(sub)
    code, out = run_search(exe, text, [])
    if code != 0:
        raise SatilingError(f"{name} has no tiling")
    solution = [placements[int(r)] for r in out[-1].split()[1:]]
    sub.verify(solution)
    return solution


def compile_search(workdir: Path) -> Path:
    exe = workdir / "dlx_search"
    try:
        subprocess.run(["cc", "-O2", "-o", str(exe), str(SOURCE), "-lm"], check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise SatilingError(f"cannot compile {SOURCE.name} with cc: {e}") from None
    return exe


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzle")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--order", choices=sorted(ORDERS), default="top",
                    help="the edge the board fills from (ties in the fewest-rows rule)")
    ap.add_argument("--time-limit", type=float, default=0, help="CPU seconds (0: none)")
    ap.add_argument("--pocket", type=int, default=200, help="largest pocket the flood fill follows")
    ap.add_argument("--given", metavar="BOARD",
                    help="first tile BOARD, a part of this board with its own pieces, and keep it")
    ap.add_argument("--reverse-root", action="store_true",
                    help="try the first branching's rows last to first (a second process meets "
                         "the first in the middle)")
    ap.add_argument("--path", metavar="I,J,..",
                    help="search only this subtree (0-based rows of the first branchings)")
    ap.add_argument("--estimate", type=int, metavar="PROBES",
                    help="print Knuth's random-path estimate of the tree size instead")
    ap.add_argument("--out", help="write the verified solution here (JSON)")
    ap.add_argument("--svg", help="draw the verified solution here")
    ap.add_argument("--count", action="store_true",
                    help="count every tiling instead (raw, no symmetry): a check that the cuts lose none")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        return solve(args, compile_search(Path(tmp)))


def solve(args: argparse.Namespace, exe: Path) -> int:
    """Build the matrix, search it with ``exe``, verify and write what it finds."""
    start = time.process_time()
    puzzle = load(args.puzzle)
    fixed = given_tiling(puzzle, args.given, exe) if args.given else []
    text, placements = matrix(puzzle, args.order, fixed)
    print(f"c {args.puzzle}: {len(placements)} placements"
          f"{f' after fixing {args.given} ({len(fixed)} pieces)' if fixed else ''}, matrix in "
          f"{time.process_time() - start:.1f} CPU-s", file=sys.stderr)
    options = ["--seed", str(args.seed), "--pocket", str(args.pocket)]
    if args.count:
        options.append("--count")
    if args.reverse_root:
        options.append("--reverse-root")
    if args.path:
        options += ["--path", args.path]
    if args.estimate:
        options += ["--estimate", str(args.estimate)]
    if args.time_limit:
        options += ["--time-limit", str(args.time_limit)]
    code, out = run_search(exe, text, options)
    for line in out:
        if line.startswith("c "):
            print(line)
    if args.count or args.estimate or not out or out[0] != "s SOLUTION":
        print(out[0] if out else "s UNKNOWN")
        return code
    rows = [int(x) for x in out[-1].split()[1:]]
    solution = fixed + [placements[r] for r in rows]
    puzzle.verify(solution)            # raises VerificationError if the C search was wrong
    print("s SOLUTION (verified)")
    print(puzzle.text(solution))
    if args.out:
        write_atomically(args.out, solution_json(puzzle, solution) + "\n")
        print(f"c wrote {args.out}", file=sys.stderr)
    if args.svg:
        write_atomically(args.svg, puzzle.svg(solution))
        print(f"c wrote {args.svg}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except SatilingError as e:       # bad input: one line, exit 2, as the CLI does
        print(f"dlx_search: {e}", file=sys.stderr)
        sys.exit(2)
