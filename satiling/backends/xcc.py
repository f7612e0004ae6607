"""Knuth's exact-cover input (DLX1, SSXCC, and the MCC programs for multiplicities).

The first line that is not a comment names the items: primary ones (covered exactly once), then
``|`` and the secondary ones (at most once); every later line is an option, the items one placement
covers.  Lines starting with ``|`` are comments: ``| v VAR PLACEMENT`` maps option VAR to its
placement, and ``| item NAME GROUP`` says which constraint an item is.  An item is a group of the
model: exactly-one groups are primary, at-most-one groups secondary, any other count ``lo..hi``
is written ``lo:hi|NAME`` (Knuth's MCC syntax: DLX1 and SSXCC refuse it, DLX3 / SSMCC read it).
A unit that forces a placement becomes a primary item of that option alone; a unit that forbids
one drops the option.

Only an exact-cover model fits: every literal of every group positive, every variable a placement,
no clauses, no linear constraints.  Polyform boards are such models; the edge-matching and IQ-Link
models are not (they have colour variables and clauses) and are refused in one line.

Two options with the same items are told apart by a secondary item of the later one's own
(``o<VAR>``), since a solver's answer names an option by its items.

Item names are at most 8 characters (DLX1 and SSXCC print no more): a group named ``cell 0,1``
becomes ``c0,1``, ``piece F`` becomes ``pF``; a name that would be longer or clash is ``g<number>``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TextIO

from ..errors import SatilingError
from ..problem import Problem
from .rows import Export

MAX_NAME = 8
_BAD = re.compile(r"[\s|:]")


@dataclass
class XccMatrix:
    """Items (``spec`` as written on the items line), their group names, and per option (a
    primary variable still allowed) the items it covers."""

    primary: list[str]
    secondary: list[str]
    meaning: dict[str, str]
    options: dict[int, list[str]]

    def lookup(self) -> dict[frozenset[str], int]:
        """The option whose items are exactly these: how a solver's answer is read back."""
        out: dict[frozenset[str], int] = {}
        for v, items in self.options.items():
            out.setdefault(frozenset(items), v)
        return out


def xcc_matrix(problem: Problem) -> XccMatrix:
    """The model as an exact-cover matrix (SatilingError when it is not one)."""
    _check(problem)
    names = _item_names(problem)
    primary, secondary, meaning = [], [], {}
    options: dict[int, list[str]] = {v: [] for v in problem.primary_vars()}
    for g, name in zip(problem.groups, names):
        n = len(g.lits)
        if g.lo <= 0 and g.hi >= n:
            continue                                    # no constraint at all
        meaning[name] = g.name or "group"
        if g.lo == 1 and g.hi == 1:
            primary.append(name)
        elif g.lo <= 0 and g.hi == 1:
            secondary.append(name)
        else:
            primary.append(f"{max(g.lo, 0)}:{min(g.hi, n)}|{name}")
        for lit in g.lits:
            options[lit].append(name)
    for k, u in enumerate(problem.units, 1):
        if u < 0:
            options.pop(-u, None)                       # forbidden: the option is not offered
        elif u in options:
            name = _fresh(f"u{k}", meaning)
            meaning[name] = f"unit {u}"
            primary.append(name)
            options[u].append(name)
    empty = next((v for v, items in options.items() if not items), None)
    if empty is not None:
        raise SatilingError(f"xcc: placement variable {empty} is in no constraint, so it cannot "
                            "be an option")
    if not primary:
        raise SatilingError("xcc: the model has no item that must be covered (every constraint "
                            "is at-most): an exact-cover solver needs one")
    _tell_apart(options, secondary, meaning)
    return XccMatrix(primary, secondary, meaning, options)


def _tell_apart(options: dict[int, list[str]], secondary: list[str], meaning: dict[str, str]) -> None:
    """Give an option whose items are another's a secondary item of its own.  A solver's answer
    names an option by its items alone, so two such options (a piece on two cells no other
    placement covers) would read back as the same one, and a solution choosing both as wrong."""
    seen: set[frozenset[str]] = set()
    for v, items in options.items():
        if frozenset(items) in seen:
            name = _fresh(f"o{v}", meaning)
            meaning[name] = f"option {v}"
            secondary.append(name)
            items.append(name)
        seen.add(frozenset(items))


def write_xcc(export: Export, out: TextIO) -> tuple[int, int]:
    """Write the matrix; return (items, options)."""
    m = xcc_matrix(export.problem)
    export.header(out, "|")
    for spec in m.primary + m.secondary:
        name = spec.rsplit("|", 1)[-1]
        out.write(f"| item {name} {m.meaning[name]}\n")
    out.write(" ".join(m.primary) + (" | " + " ".join(m.secondary) if m.secondary else "") + "\n")
    out.writelines(" ".join(items) + "\n" for items in m.options.values())
    return len(m.primary) + len(m.secondary), len(m.options)


def _check(problem: Problem) -> None:
    why = None
    if problem.clauses or problem.linears:
        why = "it has clauses or linear constraints"
    elif any(not problem.primary[v] for v in range(1, problem.num_vars + 1)):
        why = "it has variables that are not placements (colours, helpers)"
    elif any(lit < 0 for g in problem.groups for lit in g.lits):
        why = "a constraint counts a negated placement"
    if why:
        raise SatilingError(f"xcc: the model of {problem.name} is not an exact cover ({why}); "
                            "the exact-cover format holds polyform boards: use another format")


def _item_names(problem: Problem) -> list[str]:
    """Short names for the groups: ``cell 0,1`` -> ``c0,1``, else ``g<number>``."""
    short = []
    for g in problem.groups:
        words = g.name.split()
        short.append(words[0][0] + "".join(words[1:]) if len(words) > 1 else "")
    taken: dict[str, int] = {}
    for s in short:
        taken[s] = taken.get(s, 0) + 1
    names = []
    for k, s in enumerate(short, 1):
        ok = s and len(s) <= MAX_NAME and taken[s] == 1 and not _BAD.search(s) and s.isprintable() \
            and not re.fullmatch(r"[gu]\d+", s)
        names.append(s if ok else f"g{k}")
    return names


def _fresh(name: str, used: dict[str, str]) -> str:
    while name in used:
        name += "_"
    return name
