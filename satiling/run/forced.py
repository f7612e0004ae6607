"""Two questions a solver of a puzzle by hand asks, for every client: which placements every
solution holds (:func:`forced`), and one placement of some solution (:func:`hint`).

Both take the puzzle with its pins (``puzzle.pins()``: polyforms' and IQ-Link's ``[[placed]]``,
edge matching's fixed tiles), so what they say agrees with them; every solution they meet has
passed the puzzle's verifier.  The search is :mod:`satiling.search.backbone`: the compiled
exact-cover search under assumptions on an exact cover, one incremental SAT solver otherwise
(``method``).

A stop (the time limit, which counts from the start, building the model included; Ctrl-C;
SIGTERM) ends :func:`forced` with what it proved so far: ``forced`` holds only placements proved
in every solution, ``open`` the ones not settled yet, and ``stop`` says it is partial.
"""
from __future__ import annotations

import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from ..errors import SatilingError
from ..engines.table import SOLVERS
from ..limits import check_seconds
from ..search.backbone import (METHODS, Backbone, backbone, backbone_by_enumeration, hint as find_hint,
                               oracle)
from ..signals import stop_on
from .limits import Stop

#: how each method is named to the user
METHOD_NAMES = {"exact": "the exact-cover search under assumptions",
                "sat": f"{SOLVERS[0].title} under assumptions",
                "enumerate": "intersecting every solution"}


@dataclass
class ForcedAnswer:
    """``forced``: placements proved in every solution (the pins among them, also in ``pinned``:
    a user asks what is forced beyond them, :func:`forced_words`); ``open``: candidates a stopped
    run had not settled (``stop`` not complete); ``exists``: whether the puzzle has a solution
    (None: not known yet); ``ruled_out``: the argument that settled "no solution" before any
    search."""

    stop: Stop
    forced: list[Any] = field(default_factory=list)
    pinned: list[Any] = field(default_factory=list)
    open: list[Any] = field(default_factory=list)
    exists: bool | None = None
    solutions: int = 0
    questions: int = 0
    method: str = ""
    seconds: float = 0.0
    ruled_out: str | None = None

    @property
    def complete(self) -> bool:
        return self.stop.complete and self.exists is not None


@dataclass
class HintAnswer:
    """``placement``: one placement, not pinned, of ``solution`` (a verified solution); None with
    ``solution`` None: no solution; None with a solution: every placement of it is pinned."""

    stop: Stop
    seed: int
    placement: Any = None
    solution: list[Any] | None = None
    ruled_out: str | None = None


def _every_solutions_model(puzzle: Any, options: dict[str, Any] | None) -> Any:
    """The model both questions ask of every solution: its options checked as a solve's are, and
    none that keeps one solution of each symmetry class (``fix_corner``): under it every
    placement of the one kept solution looked forced."""
    from .request import checked_options
    problem = puzzle.problem(**checked_options(puzzle, options or {}))
    if problem.restriction:
        raise SatilingError(f"{puzzle.name}: this model keeps one solution of each symmetry class "
                            "(its symmetry-breaking option): what every solution holds is asked "
                            "of all of them, so leave it out")
    return problem


def forced(puzzle: Any, method: str = "auto", time_limit: float | None = None,
           options: dict[str, Any] | None = None) -> ForcedAnswer:
    """The placements every solution of ``puzzle`` holds (see the module's note)."""
    time_limit = check_seconds(time_limit)
    if method not in METHODS:
        raise SatilingError(f"unknown method {method!r} (choose from {', '.join(METHODS)})")
    start = time.perf_counter()
    known, problem, ask, reason = Backbone(method), None, None, None
    with stop_on(time_limit) as stop:
        stop.arm()
        reason = puzzle.obstruction()
        if reason is not None:
            return ForcedAnswer(Stop.DONE, exists=False, ruled_out=reason)
        problem = _every_solutions_model(puzzle, options)

        def check(sol: frozenset[int]) -> None:
            puzzle.verify(problem.decode(sol))
        try:
            ask = oracle(problem, puzzle.cover_board(problem), method)
            known.method = "enumerate" if method == "enumerate" else ask.name
            find = backbone_by_enumeration if method == "enumerate" else backbone
            find(problem, ask, known, check)
        finally:
            if ask is not None:
                ask.close()
    meaning = (lambda v: problem.meanings[v]) if problem is not None else None
    proved = [meaning(v) for v in known.forced]
    pins = set(puzzle.pins())
    return ForcedAnswer(Stop.of(stop.reason), proved, [p for p in proved if p in pins],
                        [meaning(v) for v in known.open], known.exists, known.solutions,
                        known.questions, METHOD_NAMES.get(known.method, known.method),
                        time.perf_counter() - start)


def forced_words(answer: ForcedAnswer) -> str:
    """What ``answer`` proved, in words: the placements beyond the pins, which the user placed
    and knows already (``3 placements in every solution beyond the 1 pinned``, ``nothing is
    forced beyond the 2 pinned pieces``; a stopped run's ``... proved ... so far``)."""
    pinned = len(answer.pinned)
    beyond = len(answer.forced) - pinned
    done = answer.complete
    if beyond == 0:
        pins = f" beyond the {pinned} pinned piece{'s' * (pinned != 1)}" if pinned else ""
        return f"nothing is forced{pins}" if done else f"nothing proved forced{pins} yet"
    return (f"{beyond} placement{'s' * (beyond != 1)} {'' if done else 'proved '}in every solution"
            + (f" beyond the {pinned} pinned" if pinned else "") + ("" if done else " so far"))


def no_solution_words(puzzle: Any, ruled_out: str | None) -> str:
    """"No solution" as both questions say it to a user, in one sentence: with the pins, when the
    puzzle has some (a pin may be where no solution has it), and the argument that settled it
    before any search, when one did (``No solution with the pinned pieces: cell (0, 0) is
    covered by no placement.``)."""
    pins = " with the pinned pieces" if puzzle.pins() else ""
    why = f": {ruled_out.rstrip('.')}" if ruled_out else ""
    return f"No solution{pins}{why}."


def hint(puzzle: Any, seed: int | None = None, time_limit: float | None = None,
         options: dict[str, Any] | None = None) -> HintAnswer:
    """One placement of some verified solution that agrees with the pins, chosen at random
    (``seed``: the same one again; None: a fresh seed, in the answer)."""
    time_limit = check_seconds(time_limit)
    if seed is None:
        seed = secrets.randbelow(2 ** 31)
    elif not isinstance(seed, int) or isinstance(seed, bool):
        raise SatilingError(f"a seed is a whole number, not {seed!r}")
    found, ask = None, None
    with stop_on(time_limit) as stop:
        stop.arm()
        reason = puzzle.obstruction()
        if reason is not None:
            return HintAnswer(Stop.DONE, seed, ruled_out=reason)
        problem = _every_solutions_model(puzzle, options)

        def check(sol: frozenset[int]) -> None:
            puzzle.verify(problem.decode(sol))
        try:
            ask = oracle(problem, puzzle.cover_board(problem))
            found = find_hint(problem, ask, random.Random(seed), check)
        finally:
            if ask is not None:
                ask.close()
    if found is None:
        return HintAnswer(Stop.of(stop.reason), seed)
    placement = None if found.placement is None else problem.meanings[found.placement]
    return HintAnswer(Stop.DONE, seed, placement, problem.decode(found.solution))
