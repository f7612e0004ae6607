"""Model options a family may accept, shared by the CLI's model-building commands.

Each option becomes a flag on ``info``, ``encode``, ``solve``, ``count`` and ``enumerate``; the CLI
passes the ones a user set to ``puzzle.problem(**options)``.  A family that does not know an option
raises :class:`~satiling.errors.SatilingError`, so a flag never silently does nothing.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ModelOption:
    flag: str          # e.g. "--hints"; the keyword is the flag without dashes, '-' -> '_'
    help: str          # "family: what it does" -- the part before ':' titles its help group
    kind: str = "flag"  # "flag" (on/off), "int" or "str"
    choices: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")

    @property
    def family(self) -> str:
        """The help group it is listed in (``satiling solve --help``), after the command's own."""
        head, sep, _ = self.help.partition(":")
        return head if sep and len(head) < 30 else "model"

    @property
    def text(self) -> str:
        """The help without its family prefix (the group's title says it)."""
        head, sep, rest = self.help.partition(":")
        return rest.strip() if sep and len(head) < 30 else self.help


MODEL_OPTIONS: list[ModelOption] = [
    # families add their options here, one entry each
    ModelOption("--encoding", "edge matching: 'direct' (piece, square, rotation) or Heule's 'compact' (piece, square)", "str", ("direct", "compact")),
    ModelOption("--hints", "Eternity II: also fix the four clue-puzzle hint pieces"),
    ModelOption("--colour-counts", "edge matching: each colour on its exact number of joins (redundant)"),
    ModelOption("--balanced-rotation", "edge matching: per colour as many E- as W-facing and N- as S-facing sides (redundant)"),
    ModelOption("--checkerboard-parity", "edge matching: the balance per checkerboard colour, the signed form (redundant)"),
    ModelOption("--fix-corner", "edge matching: pin one corner piece against the board's rotations"),
    ModelOption("--parity", "polyforms: the colourings' imbalances of the chosen placements sum to the region's (redundant)"),
    ModelOption("--link-rule", "IQ-Link: the linked-graph rule as lazy cuts (default) or eager reachability clauses", "str", ("lazy", "eager")),
]


def check_known(family: str, options: dict, known: set[str]) -> None:
    """Raise SatilingError naming the first option this family does not support."""
    from .errors import SatilingError
    for key, value in options.items():
        if key not in known and value not in (None, False):
            raise SatilingError(f"option --{key.replace('_', '-')} does not apply to {family} puzzles")
