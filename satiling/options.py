"""Model options a family may accept, shared by the CLI's model-building commands.

A family lists its options in its :class:`~satiling.registry.Family` record.  Each becomes a flag on
``info``, ``encode``, ``solve``, ``count``, ``enumerate`` and ``decode``, in a help group titled by
the family; the CLI passes the ones a user set to ``puzzle.problem(**options)``.  A family that
does not know an option raises :class:`~satiling.errors.SatilingError`, so a flag never silently
does nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .errors import Option, SatilingError


@dataclass(frozen=True)
class ModelOption:
    flag: str          # e.g. "--hints"; the keyword is the flag without dashes, '-' -> '_'
    help: str          # what it does, in the model's words (its family titles the help group)
    label: str         # what it does, in a puzzle solver's words (a form's control: the web's)
    kind: str = "flag"  # "flag" (on/off), "int" or "str"
    choices: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")


def check_known(family: str, options: dict, known: set[str]) -> None:
    """Raise SatilingError naming the first option this family does not support."""
    for key, value in options.items():
        if key not in known and value not in (None, False):
            raise not_for(family, key, sorted(known))


def not_for(family: str, key: str, known: Iterable[str]) -> SatilingError:
    """The error for model option ``key`` given to a puzzle of ``family``, whose options are
    ``known``."""
    ours = tuple(Option(k) for k in known)
    return SatilingError("option {option} does not apply to {family} puzzles" +
                         (" (its options: {ours})" if ours else ""),
                         option=Option(key), family=family, ours=ours)
