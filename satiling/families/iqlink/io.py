"""IQ-Link instance files: the challenge's pre-placed pieces, the linked rule, an answer key."""
from __future__ import annotations

from typing import Any

from ...errors import SatilingError, VerificationError
from ...schema import COMMON, Bool, Either, List, Str, Table, check_instance
from .placement import parse_placements
from .puzzle import IQLinkPuzzle


#: the keys of an IQ-Link instance file
IQLINK = Table({
    **COMMON,
    "placed": Either((Str(max_len=200), List(Str(max_len=200), 0, 12))),
    "linked": Bool(),
    "answer": Str(max_len=200),
})


def load_instance(data: dict[str, Any], name: str, base: Any = None) -> IQLinkPuzzle:
    """A challenge from a parsed instance file: ``placed`` lists pre-placed pieces as three-letter
    placements (a list, or one string written back to back); ``linked = false`` drops the
    linked-graph rule; ``answer`` (optional) is the solution as one placement string."""
    check_instance(IQLINK, data, name)
    placed = data.get("placed", [])
    if isinstance(placed, str):
        placed = [placed]
    if not isinstance(placed, list) or not all(isinstance(p, str) for p in placed):
        raise SatilingError(f"{name}: 'placed' must be a list of placements like \"BAA\"")
    linked = data.get("linked", True)
    if not isinstance(linked, bool):
        raise SatilingError(f"{name}: 'linked' must be true or false")
    pls = [pl for chunk in placed for pl in parse_placements(chunk)]
    puzzle = IQLinkPuzzle(name, pls, linked, str(data.get("title", "")), str(data.get("source", "")))
    if "answer" in data:            # the answer key, if the file has one: it must be a solution
        puzzle.answer = parse_placements(str(data["answer"]))
        try:
            puzzle.verify(puzzle.answer)
        except VerificationError as e:
            raise SatilingError(f"{name}: the answer given is not a solution: {e}") from None
    return puzzle


def challenge(text: str, name: str = "challenge", linked: bool = True) -> IQLinkPuzzle:
    """A challenge written as a placement string (``"GAEWBABCDJDA"``); empty: the empty board."""
    return IQLinkPuzzle(name, parse_placements(text), linked)
