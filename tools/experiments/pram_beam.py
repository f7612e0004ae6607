"""Pram (64 Eternity pieces) by Selby's method, and a check of its data against the paper.

    python tools/experiments/pram_beam.py data                       # the data check (about a minute)
    python tools/experiments/pram_beam.py beam pram --width 500 --exhaust-at 28 --budget 1000000 \\
        --time-limit 2700 --out pram.json --svg pram.svg # the best attempt recorded in eternity_runs
    python tools/experiments/pram_beam.py beam tortoise --width 30 --exhaust-at 20    # 45 pieces: solved
    python tools/experiments/pram_beam.py windows pram --radius 2.5  # can every patch of the board be covered?

``beam`` runs ``beam.beam_search`` (tools/experiments/beam.py) (sites, piece tilability, boundary
roughness, beam, then exhaust).  The favourable states are exhausted by the compiled exact-cover
engine (dancing links with a pocket cut), or with ``--python-exhaust`` by the beam module's own
depth-first search, ``--budget`` nodes each.  ``--given whale`` keeps
Whale's unique tiling (its region and 8 pieces lie inside Pram's) in every state.  A tiling is
verified by the family's verifier before it is written.

``data`` checks what can be checked without the paper's own files: the configuration counts of
every board against Burkardt & Garvie's table, each piece's count on Pram, whether one piece
swapped for another Eternity piece would give the paper's 108 049, whether every tile and region is
made of half-equilateral triangles (Selby: "12 half-triangles" a piece; regions "made out of
half-equilateral triangles"), and whether the 209 pieces are distinct.  Results are in
``tools/experiments/eternity_runs.py``.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from collections import defaultdict

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))   # beam.py beside it
from satiling import SatilingError, load, render  # noqa: E402
from satiling.catalog import piece_set
from satiling.commands.common import solution_json
from satiling.fileio import write_file
from satiling.families.polyform.puzzle import _piece
from satiling.geometry.drafter import element_ij
from beam import Board, Weights, beam_search, compiled_exhaust, dfs_exhaust, piece_tilability
from satiling.apps.packing import relaxed

#: Burkardt & Garvie (2021), Table 4: configurations (variables) per board
PAPER = {"trinity": 142, "serenity": 876, "whale": 1071, "boat": 8753, "pram": 108049}


# -- the data check -------------------------------------------------------------------------------
def half_triangle_faults(cells) -> int:
    """Unit triangles that ``cells`` meet in anything but nothing, a half (three elements on one
    side of an altitude) or the whole."""
    by_triangle = defaultdict(list)
    for cell in cells:
        centre, p, q = element_ij(cell)
        by_triangle[p if cell[2] % 2 else q].append((centre, p, q))   # odd step: the centroid
    faults = 0
    for centroid, elements in by_triangle.items():
        if len(elements) in (0, 6):
            continue
        if len(elements) != 3:
            faults += 1
            continue
        angles = sorted(math.atan2((sum(pt[1] for pt in e) / 3 - centroid[1]) * math.sqrt(3) / 3,
                                   sum(pt[0] for pt in e) / 3 - centroid[0]) for e in elements)
        gaps = [(angles[(k + 1) % 3] - angles[k]) % (2 * math.pi) for k in range(3)]
        faults += max(gaps) < 1.2 * math.pi          # three in a row leave a gap of 240 degrees
    return faults


def data_check() -> int:
    for name, paper in PAPER.items():
        print(f"{name:9} configurations {len(load(name).placements()):6d}, paper {paper}")
    pram = load("pram")
    lat = pram.lattice
    pieces = [_piece(lat, e, "eternity") for e in piece_set("eternity", "drafter")]
    count = {p.name: sum(len(lat.fits(s, pram.region)) for s in pram.orientations(p)) for p in pieces}
    ours = [p.name for p in pram.pieces]
    total = sum(count[n] for n in ours)
    gap = total - PAPER["pram"]
    print(f"pram per piece (name:count): {' '.join(f'{n}:{count[n]}' for n in ours)}")
    print(f"pram total {total}, paper {PAPER['pram']}: {gap} more ({gap / len(ours):.1f} a piece)")
    others = [n for n in count if n not in ours]
    swaps = [(a, b) for a in ours for b in others if count[a] - count[b] == gap]
    spread = max(count[a] - count[b] for a in ours for b in others)
    print(f"all 209 pieces have {min(count.values())}..{max(count.values())} placements on Pram; "
          f"one swap changes the total by at most {spread}; swaps giving the paper's figure: {swaps}")
    faults = {p.name: half_triangle_faults(p.shape) for p in pieces}
    print(f"pieces not made of half-triangles: {[n for n, f in faults.items() if f] or 'none'}")
    for name in PAPER:
        print(f"{name} region: {half_triangle_faults(load(name).region)} unit triangles cut")
    shapes = defaultdict(list)
    for p in pieces:
        shapes[min(tuple(sorted(s)) for s in lat.orientations(p.shape, reflections=True))].append(p.name)
    print(f"distinct piece shapes: {len(shapes)} of {len(pieces)}")
    return 0


# -- local obstructions ---------------------------------------------------------------------------
def window_check(name: str, radius: float) -> int:
    """Cover every window of the board; report the hardest and any that cannot be covered."""
    from satiling.engines.exactcover import ExactCover, Matrix
    from satiling.geometry.drafter import corner_ij
    clock = time.process_time()
    puzzle = load(name)
    placements = puzzle.placements()
    index = {c: k for k, c in enumerate(sorted(puzzle.region))}
    rows_of = defaultdict(list)
    for r, pl in enumerate(placements):
        for c in pl.cells:
            rows_of[c].append(r)

    def xy(a: int, b: int) -> tuple[float, float]:
        i, j = corner_ij(a, b)
        return i / 4, j * math.sqrt(3) / 12

    failed, hardest = [], (0, None, 0)
    for centre in sorted({c[:2] for c in puzzle.region}):
        window = [c for c in index if math.dist(xy(*c[:2]), xy(*centre)) <= radius]
        rows = sorted({r for c in window for r in rows_of[c]})
        items: dict = {("cell", c): k for k, c in enumerate(window)}   # primary items first
        matrix = []
        for r in rows:
            keys = [("cell", c) for c in placements[r].cells] + [("piece", placements[r].piece)]
            matrix.append(tuple(items.setdefault(key, len(items)) for key in keys))
        lo = [1] * len(window) + [0] * (len(items) - len(window))
        engine = ExactCover(Matrix(matrix, lo, [1] * len(items)))
        found = engine.first()
        nodes = engine.stats().nodes
        hardest = max(hardest, (nodes, centre, len(window)), key=lambda h: h[0])
        if found is None:
            failed.append((centre, len(window), _confirm(puzzle, window)))
            print(f"window at {centre}: {len(window)} cells cannot be covered ({nodes} nodes; "
                  f"CP-SAT: {failed[-1][2]})", flush=True)
        elif not _covers([placements[rows[i]] for i in found], window):
            raise SatilingError(f"window at {centre}: the engine's cover is wrong")
    print(f"{name}: radius {radius}: {len(failed)} of {len({c[:2] for c in puzzle.region})} windows "
          f"cannot be covered; hardest {hardest[0]} nodes at {hardest[1]} ({hardest[2]} cells); "
          f"{time.process_time() - clock:.0f} CPU-s")
    return 1 if failed else 0


def _covers(chosen: list, window: list) -> bool:
    """Distinct pieces, no cell twice, every window cell once (checked from the cells)."""
    cells = [c for pl in chosen for c in pl.cells]
    return (len(cells) == len(set(cells)) and set(window) <= set(cells)
            and len({pl.piece for pl in chosen}) == len(chosen))


def _confirm(puzzle, window: list) -> str:
    """CP-SAT's verdict on one window: the most window cells a packing covers."""
    from ortools.sat.python import cp_model
    model = cp_model.CpModel()
    inside = set(window)
    touching = [pl for pl in puzzle.placements() if inside.intersection(pl.cells)]
    x = [model.new_bool_var("") for _ in touching]
    by_cell, by_piece = defaultdict(list), defaultdict(list)
    for v, pl in zip(x, touching):
        by_piece[pl.piece].append(v)
        for c in pl.cells:
            by_cell[c].append(v)
    for vs in list(by_cell.values()) + list(by_piece.values()):
        model.add_at_most_one(vs)
    model.maximize(sum(len(inside.intersection(pl.cells)) * v for v, pl in zip(x, touching)))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = 600
    status = solver.solve(model)
    return f"{solver.status_name(status)} {int(solver.objective_value)} of {len(window)} cells"


# -- the beam -------------------------------------------------------------------------------------
def run_beam(args: argparse.Namespace) -> int:
    clock = time.process_time()
    puzzle = load(args.puzzle)
    board = Board(puzzle)
    fixed = []
    if args.given:
        sub = load(args.given)
        found = beam_search(Board(sub), width=10**9, exhaust_at=0)
        if found.status != "SAT" or not sub.region <= puzzle.region:
            raise SatilingError(f"{args.given} is not a tilable part of {args.puzzle}")
        fixed = found.tiling
    tilability = piece_tilability(board, args.samples, args.seed)
    weights = Weights(tilability, args.roughness, args.tightness)
    exhaust = dfs_exhaust if args.python_exhaust else compiled_exhaust(board)
    print(f"c {args.puzzle}: {len(board.rows)} placements, board in {time.process_time() - clock:.1f} "
          f"CPU-s; exhaust by {'the Python search' if args.python_exhaust else 'the compiled engine'}",
          flush=True)

    def on_level(left: int, kept: int, best: float) -> None:
        print(f"c {left} pieces left: {kept} states, best score {best:.2f}, "
              f"{time.process_time() - clock:.0f} CPU-s", flush=True)

    def on_exhaust(k: int, finished: bool, nodes: int) -> None:
        print(f"c state {k} {'exhausted' if finished else 'left unfinished'}: {nodes} nodes, "
              f"{time.process_time() - clock:.0f} CPU-s", flush=True)

    result = beam_search(board, args.width, args.exhaust_at, weights, args.budget,
                         exhaust, fixed, args.time_limit, on_level, on_exhaust)
    deepest = len(result.deepest.rows) if result.deepest else 0
    print(f"s {result.status}: {result.favourable} favourable states, {result.exhausted} exhausted, "
          f"{result.nodes} exhaust nodes, deepest state {deepest} pieces, "
          f"{time.process_time() - clock:.0f} CPU-s ({result.seconds:.0f} s wall)")
    if args.deepest and result.deepest:
        partial = [board.placements[r] for r in result.deepest.rows]
        relaxed(puzzle).verify(partial)              # a valid partial tiling
        write_file(args.deepest, solution_json(puzzle, partial) + "\n")
    if result.status != "SAT":
        return 1 if result.status == "UNSAT" else 3
    print(render.to_text(puzzle, result.tiling))                      # verified by beam_search
    if args.out:
        write_file(args.out, solution_json(puzzle, result.tiling) + "\n")
    if args.svg:
        write_file(args.svg, render.to_svg(puzzle, result.tiling))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("data", help="check the Eternity boards' data against the paper")
    w = sub.add_parser("windows", help="look for a patch of the board that cannot be covered")
    w.add_argument("puzzle", nargs="?", default="pram")
    w.add_argument("--radius", type=float, default=2.0, help="window radius in unit lengths")
    b = sub.add_parser("beam", help="Selby's beam search then exhaust")
    b.add_argument("puzzle", nargs="?", default="pram")
    b.add_argument("--width", type=int, default=300, help="states kept per level")
    b.add_argument("--exhaust-at", type=int, default=24, help="pieces left when the exhaust starts")
    b.add_argument("--budget", type=int, default=2_000_000, help="exhaust nodes per state")
    b.add_argument("--samples", type=int, default=0,
                   help="random fills for the piece tilabilities (0: from placement counts)")
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--roughness", type=float, default=1.0)
    b.add_argument("--tightness", type=float, default=0.5)
    b.add_argument("--given", metavar="BOARD", help="keep BOARD's tiling (a part of this board)")
    b.add_argument("--python-exhaust", action="store_true", help="never use the compiled engine")
    b.add_argument("--time-limit", type=float, help="wall seconds")
    b.add_argument("--out", help="write the verified tiling here (JSON)")
    b.add_argument("--svg", help="draw the verified tiling here")
    b.add_argument("--deepest", metavar="FILE",
                   help="write the best state of the last level here (JSON; 'satiling pack --hint' reads it)")
    args = ap.parse_args()
    if args.command == "windows":
        return window_check(args.puzzle, args.radius)
    return data_check() if args.command == "data" else run_beam(args)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except SatilingError as e:
        print(f"pram_beam: {e}", file=sys.stderr)
        sys.exit(2)
