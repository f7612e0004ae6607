"""IQ-Link challenges with a unique solution: take pieces away from a full solution.

1. A random complete, linked solution: fix a random placement of two random pieces (re-drawn
   while the board cannot be completed) and let the solver fill in the rest.
2. Pieces to place K: try sets of 12 - K of its pieces as the pre-placed ones, in random order, until
   one leaves the solution unique.  Uniqueness is one solver call: the challenge plus the clause
   "not this solution" must be unsatisfiable.  A second solution S2 also rules out, without a call,
   every set of pieces that S2 places exactly as the solution does (S2 completes those too).
3. When too many sets fail, start again from a new solution.

Levels follow the booklet's table as quoted in the source paper (pieces to place per level).
"""
from __future__ import annotations

import itertools
import random
import time
from dataclasses import dataclass
from typing import Callable

from ..engines.table import DEFAULT_SAT_ALIAS
from ..errors import SatilingError
from ..families.iqlink import PIECES, IQLinkPlacement, IQLinkPuzzle, compatible, legal_placements, solution_string

#: pieces to place, per level (Starter 1-24 ... Wizard 97-120 in the booklet)
LEVELS: dict[str, tuple[int, int]] = {
    "starter": (2, 3),
    "junior": (3, 7),
    "expert": (5, 8),
    "master": (6, 9),
    "wizard": (8, 10),
}


@dataclass
class Generated:
    """A challenge, its unique solution, and what it took to make it."""

    puzzle: IQLinkPuzzle
    solution: list[IQLinkPlacement]
    to_place: int
    seed: int
    solver_calls: int

    @property
    def levels(self) -> list[str]:
        """The booklet levels whose range holds this many pieces to place."""
        return [name for name, (lo, hi) in LEVELS.items() if lo <= self.to_place <= hi]


def pieces_for_level(level: str, rng: random.Random) -> int:
    if level not in LEVELS:
        raise SatilingError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
    lo, hi = LEVELS[level]
    return rng.randint(lo, hi)


def generate(to_place: int, seed: int = 0, solver: str = DEFAULT_SAT_ALIAS, link_rule: str = "lazy",
             tries_per_solution: int = 40, max_solutions: int = 50,
             on_try: Callable[[int, int], None] = lambda k, n: None) -> Generated:
    """A challenge with ``to_place`` pieces left to place and exactly one solution; ``on_try``
    hears each full solution that gave none (how many so far, of ``max_solutions``)."""
    if not 1 <= to_place <= len(PIECES):
        raise SatilingError(f"pieces to place must be between 1 and {len(PIECES)}, not {to_place}")
    rng = random.Random(seed)
    calls = 0
    for tried in range(max_solutions):
        if tried:
            on_try(tried, max_solutions)
        solution, n = random_solution(rng, solver, link_rule)
        calls += n
        kept, n = unique_subset(solution, len(PIECES) - to_place, rng, solver, link_rule, tries_per_solution)
        calls += n
        if kept is not None:
            title = f"IQ-Link challenge, {to_place} pieces to place (seed {seed})"
            return Generated(IQLinkPuzzle(f"iqlink-{seed}", kept, title=title), solution, to_place,
                             seed, calls)
    raise SatilingError(f"no unique challenge with {to_place} pieces to place found from "
                        f"{max_solutions} solutions (seed {seed})")


def random_solution(rng: random.Random, solver: str, link_rule: str) -> tuple[list[IQLinkPlacement], int]:
    """A random complete linked solution, and the number of solver calls it took."""
    from ..search.solve import solve
    calls = 0
    while True:
        first, second = rng.sample(PIECES, 2)
        placed = [rng.choice(legal_placements(first))]
        fits = [pl for pl in legal_placements(second) if compatible(pl, placed[0])]
        placed.append(rng.choice(fits))
        puzzle = IQLinkPuzzle(placed=placed)
        problem = puzzle.problem(link_rule=link_rule)
        result = solve(problem, solver=solver)
        calls += 1
        if result.status == "SAT":
            return sorted(problem.decode(result.true_vars)), calls


def unique_subset(solution: list[IQLinkPlacement], keep: int, rng: random.Random, solver: str,
                  link_rule: str, tries: int) -> tuple[list[IQLinkPlacement] | None, int]:
    """Some ``keep`` placements of ``solution`` that have it as their only completion (None if
    ``tries`` solver calls find none), and the number of calls made."""
    subsets = list(itertools.combinations(solution, keep))
    rng.shuffle(subsets)
    others: list[frozenset[IQLinkPlacement]] = []     # placements shared with a second solution
    calls = 0
    for subset in subsets:
        if calls >= tries:
            break
        if any(set(subset) <= agree for agree in others):
            continue
        calls += 1
        second = other_solution(list(subset), solution, solver, link_rule)
        if second is None:
            return list(subset), calls
        others.append(frozenset(solution) & frozenset(second))
    return None, calls


def other_solution(placed: list[IQLinkPlacement], solution: list[IQLinkPlacement], solver: str = DEFAULT_SAT_ALIAS,
                   link_rule: str = "lazy") -> list[IQLinkPlacement] | None:
    """A solution of the challenge ``placed`` other than ``solution`` (None: it is unique)."""
    from ..search.solve import solve
    puzzle = IQLinkPuzzle(placed=placed)
    problem = puzzle.problem(link_rule=link_rule)
    var = {problem.meanings[v]: v for v in problem.primary_vars()}
    problem.add_clause([-var[pl] for pl in solution if pl not in placed])
    result = solve(problem, solver=solver)
    if result.status == "UNKNOWN":
        raise SatilingError("the solver gave up")
    return None if result.status == "UNSAT" else sorted(problem.decode(result.true_vars))


def challenge_toml(gen: Generated, command: str) -> str:
    """The generated challenge as an instance file, with its answer."""
    levels = ", ".join(gen.levels) or "none"
    comment = (f"Generated by: satiling {command}\n"
               f"{gen.to_place} pieces to place (booklet levels with this many: {levels}); "
               f"the solution is unique under the linked rule.")
    return gen.puzzle.challenge_toml(comment) + f'answer = "{solution_string(gen.solution)}"\n'


@dataclass
class Uniqueness:
    """The answer to "does this challenge have exactly one solution?"."""

    solution: list[IQLinkPlacement] | None     # None: no solution at all
    second: list[IQLinkPlacement] | None       # a second solution, if there is one
    seconds: float                             # CPU time of both solver runs

    @property
    def unique(self) -> bool:
        return self.solution is not None and self.second is None


def check_unique(puzzle: IQLinkPuzzle, solver: str = DEFAULT_SAT_ALIAS, link_rule: str = "lazy") -> Uniqueness:
    """Solve, block the solution (a clause over its placements), solve again -- one incremental
    solver, so the second run keeps what the first one learnt."""
    from ..search.searchers import solutions
    start = time.process_time()
    problem = puzzle.problem(link_rule=link_rule)
    found = [sorted(problem.decode(s)) for s in itertools.islice(
        solutions(problem, engine="sat", solver=solver), 2)]
    found += [None, None]
    return Uniqueness(found[0], found[1], time.process_time() - start)
