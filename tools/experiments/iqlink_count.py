"""Count the complete solutions of the empty IQ-Link board (and of any challenge).

No source publishes this number: a public search lists 472 solutions, but it pruned with an unsound
bound (unplaced balls were assumed to need fresh pegs, yet a ball can drop into a ring already on
the board), and the project's own earlier exhaustive search was stopped at 18 598 solutions.

Result (``sat`` method, 1118 CPU-s, 146 MB): **50000 complete solutions under the occupancy rule,
21952 of them linked into one graph** (25000 and 10976 up to the half turn).  The seven top-level
branches that the earlier independent search (C, its own code) completed -- piece A on BAA, BAD,
CAA, CAD, DAA, DAD, EAA -- hold exactly the numbers it listed (185, 3090, 64, 2109, 112, 2338,
103); the ``dfs`` method agrees on BAA (185 solutions, 86 linked; 74 CPU-s for that cube alone).

Two independent methods, which must agree:

* ``sat`` (default): the satiling model (occupancy rule only) in one incremental CaDiCaL, every
  solution blocked once found; the space is split into cubes -- piece A's placement, then piece
  H's -- passed as assumptions.  Each solution is then checked for the linked rule.
* ``dfs``: a depth-first search over live placements kept as bit sets, deciding the most
  constrained of a *piece* (which placement) or an empty *peg* (its ring, else its lone ball, else
  nothing: a partition, so each solution is met once), pruned by the counting argument of
  ``IQLinkPuzzle.problem`` (empty pegs + unfillable sockets <= 2, empty pegs + unringable balls
  <= 4) and by room for the units left.  It shares no code with the SAT model beyond the
  placements.

On the empty board the half turn pairs the solutions (none is its own image: no piece has a
half-turn symmetry), so only one of each half-turned pair of piece A's placements is searched and
the counts are doubled.

    python tools/experiments/iqlink_count.py                       # the empty board: both counts, time
    python tools/experiments/iqlink_count.py --method dfs --cubes BAA,CAA
    python tools/experiments/iqlink_count.py --placed GAEWBABCD    # a challenge
    python tools/experiments/iqlink_count.py --check 10            # dfs vs sat on 10 random challenges
    python tools/experiments/iqlink_count.py --compare FILE        # are the solutions listed in FILE (one
                                                       # placement string per line) all found?
"""
from __future__ import annotations

import argparse
import itertools
import random
import resource
import sys
import time
from pathlib import Path
from typing import Iterator, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from satiling.families.iqlink import (PEGS, PIECES, IQLinkPlacement, IQLinkPuzzle,  # noqa: E402
                                      compatible, legal_placements, link_components, parse_placements,
                                      pieces, rotate_180, solution_string)

MAX_EMPTY = 2


class Search:
    """All complete solutions of a puzzle under the occupancy rule, by a bit-set search.

    Sets of placements are Python integers (bit i = placement i).  ``alive`` holds the placements
    still possible; choosing one removes every placement it clashes with (``kill``).
    """

    def __init__(self, puzzle: IQLinkPuzzle) -> None:
        pls = puzzle.placements()
        self.placements: list[IQLinkPlacement] = pls
        self.piece_mask = {q: 0 for q in PIECES}
        self.ring_at = {g: 0 for g in PEGS}              # placements with a ring on peg g
        self.ball_at = {g: 0 for g in PEGS}
        slot_users: dict[tuple[str, str], int] = {}
        for i, pl in enumerate(pls):
            self.piece_mask[pl.piece] |= 1 << i
            for peg, unit, slots in pl.units():
                (self.ring_at if unit.kind == "ring" else self.ball_at)[peg] |= 1 << i
                for s in slots:
                    slot_users[peg, s] = slot_users.get((peg, s), 0) | 1 << i
        self.at = {g: self.ring_at[g] | self.ball_at[g] for g in PEGS}
        self.ring_at_bit = [self.ring_at[g] for g in PEGS]
        self.ball_at_bit = [self.ball_at[g] for g in PEGS]
        # choosing i kills every placement of its piece and every one sharing a slot with it
        self.kill = []
        for pl in pls:
            k = self.piece_mask[pl.piece]
            for peg, slots in pl.occupancy().items():
                for s in slots:
                    k |= slot_users[peg, s]
            self.kill.append(k)

        def pegs_with(pl: IQLinkPlacement, kind: str, socket: bool = False) -> int:
            return sum(1 << PEGS.index(g) for g, u, _ in pl.units()
                       if u.kind == kind and (not socket or u.dirs))
        self.sockets_of = [pegs_with(pl, "ring", socket=True) for pl in pls]
        self.balls_of = [pegs_with(pl, "ball") for pl in pls]
        kinds = {q: [u.kind for u in pieces()[q].units] for q in PIECES}
        self.balls = {q: k.count("ball") for q, k in kinds.items()}
        self.rings = {q: k.count("ring") for q, k in kinds.items()}
        self.sockets = {q: sum(u.kind == "ring" and bool(u.dirs) for u in pieces()[q].units) for q in PIECES}
        self.nodes = 0

    def solutions(self) -> Iterator[list[int]]:
        """Each solution as a list of placement indices (the list is reused: copy it to keep it)."""
        alive = (1 << len(self.placements)) - 1
        yield from self._walk(alive, frozenset(PIECES), frozenset(PEGS), 0, [], 0, 0)

    def _walk(self, alive: int, pieces: frozenset[str], open_pegs: frozenset[str], empties: int,
              chosen: list[int], sockets: int, balls: int) -> Iterator[list[int]]:
        """``open_pegs``: nothing on them yet; ``empties``: pegs decided empty; ``sockets`` and
        ``balls``: bit sets of the pegs holding one."""
        self.nodes += 1
        if not pieces:
            yield chosen
            return
        best, fewest, kind = None, 1 << 30, ""
        for q in pieces:
            c = (alive & self.piece_mask[q]).bit_count()
            if c < fewest:
                best, fewest, kind = q, c, "piece"
        if fewest == 0:
            return
        dead = 0                                     # open pegs nothing can reach: will stay empty
        for g in open_pegs:
            c = (alive & self.at[g]).bit_count()
            if c == 0:
                dead += 1
            elif c + (empties < MAX_EMPTY) < fewest:
                best, fewest, kind = g, c + (empties < MAX_EMPTY), "peg"
        empty = empties + dead
        if empty + self._unfillable(alive, sockets, balls) > MAX_EMPTY:
            return                                   # empty pegs + unfilled sockets = 2
        if empty + self._lone(alive, sockets, balls) > MAX_EMPTY + 2:
            return                                   # empty pegs + lone balls = 4
        if not self._room(alive, pieces, open_pegs, empties, sockets, balls):
            return
        state = (pieces, open_pegs, empties, chosen, sockets, balls)
        if kind == "piece":
            yield from self._choose(alive, alive & self.piece_mask[best], *state)
            return
        g = best                                     # the ring on g, else a lone ball, else nothing
        yield from self._choose(alive, alive & self.ring_at[g], *state)
        yield from self._choose(alive & ~self.ring_at[g], alive & self.ball_at[g], *state)
        if empties < MAX_EMPTY:
            yield from self._walk(alive & ~self.at[g], pieces, open_pegs - {g}, empties + 1, chosen,
                                  sockets, balls)

    def _choose(self, alive: int, rows: int, pieces: frozenset[str], open_pegs: frozenset[str],
                empties: int, chosen: list[int], sockets: int, balls: int) -> Iterator[list[int]]:
        while rows:
            low = rows & -rows
            rows ^= low
            i = low.bit_length() - 1
            pl = self.placements[i]
            chosen.append(i)
            yield from self._walk(alive & ~self.kill[i], pieces - {pl.piece},
                                  open_pegs - {g for g, _, _ in pl.units()}, empties, chosen,
                                  sockets | self.sockets_of[i], balls | self.balls_of[i])
            chosen.pop()

    def _unfillable(self, alive: int, sockets: int, balls: int) -> int:
        """Sockets on the board without a ball that no live placement can fill."""
        n = 0
        empty_sockets = sockets & ~balls
        while empty_sockets:
            low = empty_sockets & -empty_sockets
            empty_sockets ^= low
            if not alive & self.ball_at_bit[low.bit_length() - 1]:
                n += 1
        return n

    def _lone(self, alive: int, sockets: int, balls: int) -> int:
        """Balls on the board outside a socket that no live placement can ring."""
        n = 0
        lone = balls & ~sockets
        while lone:
            low = lone & -lone
            lone ^= low
            if not alive & self.ring_at_bit[low.bit_length() - 1]:
                n += 1
        return n

    def _room(self, alive: int, pieces: frozenset[str], open_pegs: frozenset[str], empties: int,
              sockets: int, balls: int) -> bool:
        """Whether the units left can still fit: one unit per peg, or a ball in a socket."""
        units = 3 * len(pieces)
        if units < len(open_pegs) - (MAX_EMPTY - empties):
            return False                       # too few units left to cover the open pegs
        b_left = sum(self.balls[q] for q in pieces)
        s_left = sum(self.sockets[q] for q in pieces)
        socket_free = ball_free = both = reach = ball_spots = ring_spots = 0
        for k, g in enumerate(PEGS):
            can_ring, can_ball = alive & self.ring_at[g], alive & self.ball_at[g]
            ball_spots += bool(can_ball)
            ring_spots += bool(can_ring)
            if g in open_pegs:
                reach += bool(can_ring or can_ball)
                both += bool(can_ring and can_ball)
            elif sockets >> k & 1:
                socket_free += bool(not balls >> k & 1 and can_ball)
            else:
                ball_free += bool(can_ring)
        if b_left > ball_spots or sum(self.rings[q] for q in pieces) > ring_spots:
            return False                       # a ball (a ring) per peg that can still take one
        # pairs still possible: a ball into a free socket, a ring round a lone ball, both on an
        # open peg; each pair saves a peg, and the rest of the units need open pegs of their own
        pairs = min(socket_free + ball_free + both,
                    min(socket_free + both, b_left) + min(ball_free + both, s_left))
        return units - pairs <= reach


def dfs_solutions(puzzle: IQLinkPuzzle, cube: IQLinkPlacement | None = None) -> Iterator[list[IQLinkPlacement]]:
    """Every solution by the bit-set search (occupancy rule), optionally with a placement fixed."""
    if cube is not None:
        puzzle = IQLinkPuzzle(placed=list(puzzle.placed) + [cube], linked=False)
    s = Search(puzzle)
    for sol in s.solutions():
        yield [s.placements[i] for i in sol]


def sat_solutions(puzzle: IQLinkPuzzle, cubes: Sequence[IQLinkPlacement | None] = (None,),
                  split: str = "H") -> Iterator[tuple[IQLinkPlacement | None, list[IQLinkPlacement] | None]]:
    """(cube, solution) for every solution by incremental SAT with blocking clauses, and (cube,
    None) when a cube is finished.  The cubes fix one placement each (None: no cube), and each is
    split further by the placements of ``split`` (measured on a cube of 185 solutions: 36 s
    unsplit, 19 s split by piece H's placements, 26-33 s by other pieces')."""
    from satiling.search.solve import open_pysat, primary_true
    board = IQLinkPuzzle(placed=puzzle.placed, linked=False)
    problem = board.problem()
    var = {problem.meanings[v]: v for v in problem.primary_vars()}
    inner = [v for pl, v in var.items() if pl.piece == split and split not in {p.piece for p in puzzle.placed}]
    with open_pysat(problem, "cadical195") as solver:
        for cube in cubes:
            outer = [] if cube is None else [var[cube]]
            for v in inner or [None]:
                assume = outer + ([] if v is None else [v])
                while solver.solve(assumptions=assume):
                    true = primary_true(problem, solver.get_model())
                    yield cube, problem.decode(true)
                    solver.add_clause([-x for x in true])
            yield cube, None                     # this cube is done


def linked(solution: Sequence[IQLinkPlacement]) -> bool:
    return len(link_components(solution)) == 1


def count_board(method: str, cubes: Sequence[IQLinkPlacement], found: set[str] | None = None) -> tuple[int, int]:
    """Solutions of the empty board with piece A on one of ``cubes``: (all, linked), printing a
    line per cube.  ``found`` collects solution strings when given."""
    total = good = 0
    start = time.process_time()
    per_cube: dict[IQLinkPlacement, list[int]] = {c: [0, 0] for c in cubes}

    def report(cube: IQLinkPlacement) -> None:
        n, g = per_cube[cube]
        print(f"  cube {cube}: {n} solutions, {g} linked; running totals {total}, {good}; "
              f"{time.process_time() - start:.0f} CPU-s", flush=True)

    empty = IQLinkPuzzle(linked=False)
    if method == "sat":
        stream = sat_solutions(empty, cubes)
    else:
        stream = ((c, s) for cube in cubes for c, s in
                  itertools.chain(((cube, s) for s in dfs_solutions(empty, cube)), [(cube, None)]))
    for cube, sol in stream:
        if sol is None:
            report(cube)
            continue
        ok = linked(sol)
        total += 1
        good += ok
        per_cube[cube][0] += 1
        per_cube[cube][1] += ok
        if found is not None:
            found.add(solution_string(sol))
    return total, good


# -- checks ----------------------------------------------------------------------------------------
def random_solution(rng: random.Random) -> list[IQLinkPlacement]:
    """A random complete solution (occupancy rule): a random placement of two pieces, completed."""
    from satiling.search.solve import solve
    while True:
        first, second = rng.sample(PIECES, 2)
        a = rng.choice(legal_placements(first))
        b = rng.choice([p for p in legal_placements(second) if compatible(a, p)])
        prob = IQLinkPuzzle(placed=[a, b], linked=False).problem()
        r = solve(prob)
        if r.status == "SAT":
            return prob.decode(r.true_vars)


def check_random(n: int, seed: int) -> None:
    """Compare the two methods on challenges cut from random solutions (3-5 pieces kept)."""
    rng = random.Random(seed)
    for k in range(n):
        keep = rng.sample(random_solution(rng), rng.choice([3, 4, 5]))
        pz = IQLinkPuzzle(placed=keep, linked=False)
        a = sorted(solution_string(s) for s in dfs_solutions(pz))
        b = sorted(solution_string(s) for _, s in sat_solutions(pz) if s)
        la, lb = (sum(linked(parse_placements(x)) for x in v) for v in (a, b))
        ok = a == b
        print(f"check {k}: placed {solution_string(keep)}: dfs {len(a)} ({la} linked), "
              f"sat {len(b)} ({lb} linked)  {'same solutions' if ok else 'MISMATCH'}", flush=True)
        if not ok:
            raise SystemExit(1)


def canonical(sol: Sequence[IQLinkPlacement]) -> str:
    """The member of {solution, its half turn} whose piece A is a searched representative."""
    a = next(p for p in sol if p.piece == "A")
    return solution_string(sol if a <= rotate_180(a) else [rotate_180(p) for p in sol])


def peak_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--method", choices=("sat", "dfs"), default="sat")
    ap.add_argument("--cubes", help="only these placements of piece A (comma-separated), e.g. BAA,CAA")
    ap.add_argument("--placed", default="", help="count a challenge (placement string) instead")
    ap.add_argument("--check", type=int, default=0, metavar="N", help="compare dfs and sat on N random challenges")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compare", metavar="FILE", help="check the solutions listed in FILE are all found")
    args = ap.parse_args(argv)
    if args.check:
        check_random(args.check, args.seed)
        return 0
    t = time.process_time()
    if args.placed:
        pz = IQLinkPuzzle(placed=parse_placements(args.placed), linked=False)
        sols = [s for _, s in sat_solutions(pz) if s] if args.method == "sat" else list(dfs_solutions(pz))
        print(f"{solution_string(pz.placed)}: {len(sols)} solutions, {sum(map(linked, sols))} linked; "
              f"{time.process_time() - t:.1f} CPU-s ({args.method})")
        return 0
    reps = [p for p in legal_placements("A") if p <= rotate_180(p)]
    cubes = parse_placements(args.cubes) if args.cubes else reps
    if any(c not in reps for c in cubes):
        raise SystemExit(f"cubes must be among {','.join(c.code for c in reps)}")
    found: set[str] | None = set() if args.compare else None
    total, good = count_board(args.method, cubes, found)
    part = "" if len(cubes) == len(reps) else f" (only {len(cubes)} of {len(reps)} cubes)"
    print(f"empty board{part}: {2 * total} complete solutions under the occupancy rule, {2 * good} of them "
          f"linked into one graph; up to the half turn {total} and {good}")
    print(f"{time.process_time() - t:.1f} CPU-s ({args.method}), peak memory {peak_mb()} MB")
    if found is not None:
        listed = {canonical(parse_placements(line)) for line in Path(args.compare).read_text().split()
                  if not line.startswith("#") and line.isalpha() and line.isupper()}
        listed = {x for x in listed if parse_placements(x)[0] in cubes}
        print(f"{args.compare}: {len(listed)} listed solutions in these cubes (one per half-turn pair), "
              f"{len(listed - found)} of them not found")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
