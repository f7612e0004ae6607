"""The exact-cover engine against Knuth's DLX1 and a bitboard yardstick, measured in the same run.

    python tools/bench/exactcover.py [NAME] --peers DIR [--repeat N]
    python tools/bench/exactcover.py [NAME] --dlx1 BIN [--bitboard BIN] [--repeat N]

``--peers DIR`` is a folder holding Knuth's ``dlx1.c`` (with ``gb_flip.c``/``gb_flip.h``), his
``ssxcc.c`` (dancing cells, optional) and the bitboard yardstick ``bitboard64.c``; they are
compiled with ``cc -O3`` in a scratch folder outside the repository.  Or give the built programs
with ``--dlx1`` / ``--ssxcc`` / ``--bitboard``.

All three search the same tree: satiling's own symmetry-restricted matrix of NAME (one piece kept
to a fundamental domain of the board's symmetries: 6x10 keeps 2032 of 2056 placements and has
2339 covers, one per class), written here in DLX1's format (items on the first line, one option
per line) and in the yardstick's (square lattice, up to 64 cells).  Every contender is its own
process and is charged its whole CPU time (user + system, ``getrusage`` of the children):
``satiling count NAME`` from process start, imports and model included.  Prints each time, the
counts (which must agree) and the ratios; the best of ``--repeat`` runs is kept for each.
"""
from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from satiling import catalog
from satiling.search.cubes import CubeSpace


def child_cpu(cmd: list[str], stdin: str | None = None) -> tuple[float, str, str]:
    """Run a command; its CPU seconds (user + system), stdout and stderr."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, done.stdout, done.stderr


def restricted(name: str):
    """The puzzle, its placements and the placement numbers the symmetry restriction removes."""
    puzzle = catalog.load(name)
    space = CubeSpace(puzzle)
    dropped = {-u for u in space.problem.units if u < 0}
    return puzzle, puzzle.placements(), dropped


def dlx_matrix(name: str) -> str:
    """The restricted matrix in DLX1's format: cells and pieces are primary items."""
    puzzle, placements, dropped = restricted(name)
    cells = sorted(puzzle.region)
    cell_id = {c: f"c{i}" for i, c in enumerate(cells)}
    piece_id = {p.name: f"p{i}" for i, p in enumerate(puzzle.pieces)}
    lines = [" ".join([*cell_id.values(), *piece_id.values()])]
    for v, pl in enumerate(placements, 1):
        if v not in dropped:
            lines.append(" ".join([piece_id[pl.piece], *(cell_id[c] for c in pl.cells)]))
    return "\n".join(lines) + "\n"


def bitboard_matrix(name: str) -> str | None:
    """The restricted matrix for the yardstick (square lattice, at most 64 cells, one area): the
    cells of the bounding box numbered column by column along its long side."""
    puzzle, placements, dropped = restricted(name)
    areas = {len(p.shape) for p in puzzle.pieces}
    cells = sorted(puzzle.region)
    if puzzle.lattice.name != "square" or len(areas) != 1 or any(p.count != 1 for p in puzzle.pieces):
        return None
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    rows, cols = max(r for r, _ in cells) - r0 + 1, max(c for _, c in cells) - c0 + 1
    if rows * cols > 64:
        return None
    if cols >= rows:
        height, width = rows, cols
        index = lambda c: (c[1] - c0) * rows + (c[0] - r0)      # noqa: E731
    else:
        height, width = cols, rows
        index = lambda c: (c[0] - r0) * cols + (c[1] - c0)      # noqa: E731
    inside = {index(c) for c in cells}
    outside = [i for i in range(height * width) if i not in inside]
    piece_id = {p.name: i for i, p in enumerate(puzzle.pieces)}
    kept = [pl for v, pl in enumerate(placements, 1) if v not in dropped]
    lines = [f"{height} {width} {areas.pop()} {len(piece_id)} {len(kept)}",
             " ".join(map(str, [len(outside), *outside]))]
    lines += [" ".join(map(str, [piece_id[pl.piece], len(pl.cells), *map(index, pl.cells)])) for pl in kept]
    return "\n".join(lines) + "\n"


def build_peers(peers: Path, workdir: Path) -> dict[str, Path]:
    """Compile DLX1 (and SSXCC and the yardstick, if their sources are there) in a scratch folder."""
    built = {}
    for key, sources in (("dlx1", ["dlx1.c", "gb_flip.c"]), ("ssxcc", ["ssxcc.c", "gb_flip.c"]),
                         ("bitboard", ["bitboard64.c"])):
        if all((peers / f).exists() for f in sources):
            built[key] = workdir / key
            subprocess.run(["cc", "-O3", "-w", "-o", str(built[key]), *(str(peers / f) for f in sources)],
                           check=True)
    return built


def measure(name: str, peers: dict[str, Path], repeat: int) -> None:
    dlx_in, bb_in = dlx_matrix(name), bitboard_matrix(name)
    times: dict[str, list[float]] = {"satiling": [], "dlx1": [], "ssxcc": [], "bitboard": []}
    counts: dict[str, int] = {}
    for _ in range(repeat):                        # interleaved: the machine's load hits all alike
        cpu, out, _ = child_cpu([sys.executable, "-m", "satiling.cli", "count", name, "--quiet"])
        times["satiling"].append(cpu)
        counts["satiling"] = int(out.strip())
        for knuth in ("dlx1", "ssxcc"):
            if knuth in peers:
                cpu, _, err = child_cpu([str(peers[knuth])], dlx_in)
                times[knuth].append(cpu)
                counts[knuth] = int(re.search(r"Altogether (\d+) solutions", err).group(1))
        if "bitboard" in peers and bb_in is not None:
            cpu, out, _ = child_cpu([str(peers["bitboard"])], bb_in)
            times["bitboard"].append(cpu)
            counts["bitboard"] = int(out.split()[-1])
    print(f"{name}: the symmetry-restricted matrix, {dlx_in.count(chr(10)) - 1} options; "
          f"counts {counts}")
    # the peers count the covers of the restricted matrix, satiling the classes they stand for
    # (the same on 6x10, where each class keeps one member; fewer where a class keeps several)
    peer_counts = {n for k, n in counts.items() if k != "satiling"}
    if len(peer_counts) > 1 or counts["satiling"] > min(peer_counts, default=counts["satiling"]):
        sys.exit("the counts disagree")
    best = {k: min(v) for k, v in times.items() if v}
    print(f"{'contender (whole process)':34} {'best CPU s':>10} {'median':>8} {'satiling / it':>14}")
    labels = {"satiling": "satiling count (distinct)", "dlx1": "Knuth's DLX1",
              "ssxcc": "Knuth's SSXCC (dancing cells)", "bitboard": "bitboard64 (yardstick)"}
    for key, values in times.items():
        if values:
            ratio = best["satiling"] / best[key]
            print(f"{labels[key]:34} {best[key]:10.3f} {statistics.median(values):8.3f} {ratio:14.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name", nargs="?", default="pentomino-6x10")
    ap.add_argument("--peers", type=Path, help="folder with dlx1.c, ssxcc.c, gb_flip.c, bitboard64.c")
    ap.add_argument("--dlx1", type=Path, help="a built DLX1")
    ap.add_argument("--ssxcc", type=Path, help="a built SSXCC")
    ap.add_argument("--bitboard", type=Path, help="a built bitboard64")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each contender (best kept)")
    args = ap.parse_args()
    if not args.peers and not (args.dlx1 or args.ssxcc or args.bitboard):
        ap.error("give --peers DIR, or built peers with --dlx1 / --ssxcc / --bitboard")
    with tempfile.TemporaryDirectory() as tmp:
        if args.peers:
            peers = build_peers(args.peers, Path(tmp))
        else:
            peers = {k: v for k, v in (("dlx1", args.dlx1), ("ssxcc", args.ssxcc),
                                       ("bitboard", args.bitboard)) if v is not None}
        measure(args.name, peers, args.repeat)


if __name__ == "__main__":
    main()
