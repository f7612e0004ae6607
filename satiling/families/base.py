"""What every puzzle family provides: placements, a model, a verifier, symmetries, pictures.

A family knows its geometry and rules and nothing about solvers.  The search layer talks to a puzzle
only through this interface, so adding a family never touches a backend.
"""
from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from typing import Any, Callable, Hashable

from ..errors import SatilingError
from ..problem import Problem

#: A placement is whatever a family uses (hashable, with ``to_json()``): a piece on some cells, a
#: tile on a square at a rotation, ...  A solution is a list of placements.
Placement = Hashable
Symmetry = Callable[[Any], Any]


class Puzzle(ABC):
    """One puzzle instance of some family."""

    name: str = ""
    family: str = ""
    title: str = ""
    source: str = ""
    #: the classes of the family's placements; a solution's items of other types are JSON data,
    #: read by ``placement_from_json`` (empty: the family's methods read their items themselves)
    placement_types: tuple[type, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every family's public methods that take a solution or JSON data refuse a bad argument
        with a SatilingError, as the rest of the library does (see :func:`checked`)."""
        super().__init_subclass__(**kwargs)
        for name in ("verify", "text", "svg", "placement_from_json"):
            method = cls.__dict__.get(name)
            if method is not None and not getattr(method, "_checked", False):
                setattr(cls, name, checked(method, takes_solution=name != "placement_from_json"))

    @abstractmethod
    def problem(self, **options: Any) -> Problem:
        """The exact-cover model; its primary variables mean placements."""

    @abstractmethod
    def verify(self, solution: list[Any]) -> None:
        """Raise :class:`~satiling.errors.VerificationError` unless ``solution`` solves the puzzle.

        Must re-derive everything from the puzzle's own geometry, never from a :class:`Problem`, so
        that an encoding bug cannot certify itself.
        """

    @abstractmethod
    def placement_from_json(self, data: Any) -> Any:
        """Inverse of ``placement.to_json()`` (raises SatilingError on malformed data)."""

    def check_options(self, **options: Any) -> None:
        """Raise :class:`~satiling.errors.SatilingError` for model options this puzzle refuses
        (each known to its family and of its kind, as :class:`~satiling.run.Request` has checked):
        asked when a request is made, so that a refusal comes before any model is built."""

    def misplaced(self, placement: Any) -> str | None:
        """Why ``placement`` is not one of this puzzle's (off its board, not its piece's shape),
        or None: a partial solution is drawn placement by placement, each checked alone."""
        return None

    def cover_board(self, problem: Problem) -> Any:
        """The board as the exact-cover engine's items, for its pocket cut
        (:class:`satiling.engines.exactcover.Board`); None: the family has no such board."""
        return None

    def check_partial(self, problem: Problem, true_vars: frozenset[int]) -> None:
        """Raise :class:`~satiling.errors.SatilingError` if a partial model (the true primary
        variables of ``problem``) contradicts itself, e.g. two placements on one cell.

        This default can only trust the model: no excluded placement set true, no at-most bound
        exceeded (sound with some variables unknown).  Families override it with a check from
        their own geometry.
        """
        for u in problem.units:
            if u < 0 and -u in true_vars:
                raise SatilingError(f"contradictory model: {problem.meaning(u)} is excluded but set true")
        for g in problem.groups:
            n = sum(1 for lit in g.lits if lit > 0 and lit in true_vars)
            if n > g.hi:
                raise SatilingError(f"contradictory model: {n} placements set true in "
                                    f"{g.name or 'one group'}, which allows {g.hi}")

    def pins(self) -> list[Any]:
        """The placements the puzzle makes itself, in every solution (polyforms' and IQ-Link's
        ``[[placed]]``, edge matching's ``[[fixed]]`` tiles): the one answer to "which pieces are
        pinned" for the pictures, ``forced`` and ``hint`` alike.  None by default."""
        return []

    def symmetries(self) -> list[Symmetry]:
        """The board's symmetry group acting on placements, identity first (for distinct counts)."""
        return [lambda p: p]

    def rotations(self) -> list[Symmetry]:
        """The subgroup of :meth:`symmetries` made of proper motions (determinant +1: turns, and
        shifts along a wrapped side), identity first: counts up to rotations, without mirror
        images.  A family whose symmetries are all proper returns :meth:`symmetries`; only the
        family knows which are, so a family that defines its own symmetries must say (the
        default refuses rather than guess)."""
        if type(self).symmetries is Puzzle.symmetries:
            return self.symmetries()
        raise SatilingError(f"{self.family} puzzles do not say which of their symmetries are "
                            "rotations: count them up to all symmetries or none")

    def canonical(self, solution: list[Any]) -> tuple:
        """The smallest image of a solution under the symmetry group: equal for equivalent ones."""
        return min(tuple(sorted(map(g, solution), key=_sort_key)) for g in self.symmetries())

    def text(self, solution: list[Any]) -> str:
        """A picture for the terminal."""
        return "\n".join(str(p) for p in solution)

    def svg(self, solution: list[Any]) -> str:
        """A picture for a file, where the family's puzzle class draws its own; most families
        name their picture in their record instead, drawn by the renderers, which the families
        never import (``satiling.load``'s puzzles draw with it)."""
        from ..registry import picture
        if picture(self.family, "svg") is not None:
            raise SatilingError(f"{self.family} puzzles are drawn by satiling.render.to_svg(puzzle, "
                                "solution), or puzzle.svg(solution) of satiling.load's puzzles")
        raise SatilingError(f"no SVG pictures for {self.family} puzzles: neither their family's "
                            "record nor their puzzle class draws one")

    def info(self) -> dict[str, Any]:
        """Facts for ``satiling info`` beyond the model's size."""
        return {}

    def exact_cover(self, **options: Any) -> bool | None:
        """Whether the model with these options is an exact cover, every variable a placement
        (the exact-cover engine takes only those, and is refused by this before a model is built);
        None: only the model tells."""
        return None

    def model_shape(self, **options: Any) -> Any:
        """The model's sizes (a :class:`~satiling.problem.ModelShape`) without building it, for
        ``info`` on large puzzles; None: build the model to know them."""
        return None

    def obstruction(self) -> str | None:
        """Why the puzzle has no solution, proved cheaply before any search (e.g. a parity
        argument), in one line; None when there is no such proof."""
        return None


def checked(method: Callable, takes_solution: bool) -> Callable:
    """``method`` with its argument checked at the boundary, where user data comes in.

    A solution must be a list (or tuple); its items that are not yet placements of the family
    (:attr:`Puzzle.placement_types`) are read by ``placement_from_json``.  Only *reading data*
    turns a low-level error into a :class:`SatilingError` naming the puzzle: once the placements
    are read, an exception raised inside ``method`` is a bug in satiling and stays a traceback.
    """
    if takes_solution:
        @functools.wraps(method)
        def checked(self: Puzzle, arg: Any, *args: Any, **kwargs: Any) -> Any:
            if not isinstance(self, Puzzle):     # a renderer called as a function, its puzzle wrong
                raise SatilingError(f"the puzzle comes first (satiling.load, satiling.Polyform, ...), "
                                    f"not {type(self).__name__}")
            if not isinstance(arg, (list, tuple)):
                raise SatilingError(f"a solution of {self.name} is a list of placements, not "
                                    f"{type(arg).__name__}")
            if self.placement_types:
                arg = [p if isinstance(p, self.placement_types) else self.placement_from_json(p)
                       for p in arg]
            return method(self, arg, *args, **kwargs)
    else:
        @functools.wraps(method)
        def checked(self: Puzzle, arg: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, arg, *args, **kwargs)
            except (TypeError, AttributeError, KeyError, IndexError, ValueError, OverflowError) as e:
                raise SatilingError(f"not placement data of {self.name} ({type(e).__name__}: {e})") from None
    checked._checked = True            # type: ignore[attr-defined]
    return checked


def _sort_key(placement: Any) -> Any:
    return placement.sort_key() if hasattr(placement, "sort_key") else repr(placement)
