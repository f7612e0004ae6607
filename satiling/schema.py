"""How an instance file's keys are described and checked, and the limits every family shares.

Each family describes its keys with these specs (``families/polyform/format.py``, the ``EDGEMATCH``
table of ``families/edgematch/io.py``, ``IQLINK`` in ``families/iqlink/io.py``); its loader calls
:func:`check_instance` before it builds anything, so a malformed file is one line naming the key
(and the closest valid key when the name is misspelt) instead of a traceback, a hang, or a key
silently ignored.  The format is written for people in ``instances/README.md``.

Hand-written rather than JSON Schema (``jsonschema``): the checks that matter most here -- "did you
mean" for misspelt keys, keys that depend on the lattice, one short line per error -- would need as
much code around a schema library as they take here.
"""
from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass
from typing import Any

from .errors import SatilingError

MAX_FILE_BYTES = 8 << 20          # an instance file (the largest bundled one is ~40 KB)
MAX_DEPTH = 6                     # tables and arrays nested (the format needs 4)
MAX_CELLS = 20_000                # a region (Eternity's board has 7524 elements)
MAX_PLACEMENTS = 20_000_000       # orientations x region cells, summed over the pieces
MAX_PIECE_CELLS = 100_000         # cells of all the pieces' shapes (Eternity's 209 have 7524)
MAX_SIDE = 10_000                 # any one size (rows, cols, sides); the area is checked apart
MAX_TEXT = 1_000_000              # characters of one string
MAX_COLOUR = 10_000               # an edge-matching colour number (0 is the grey border)
MAX_BOARD_SIDE = 1000             # an edge-matching board's rows or columns


class Spec:
    """What one value must be."""

    kind: type | tuple[type, ...] = object     # the Python type(s) of a parsed value of this spec

    def check(self, value: Any, where: str) -> None:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Int(Spec):
    lo: int = 1
    hi: int = MAX_SIDE
    kind = (int, float)

    def check(self, value: Any, where: str) -> None:
        if type(value) is not int or not self.lo <= value <= self.hi:
            _wrong(where, self, value)

    def describe(self) -> str:
        return f"an integer from {self.lo} to {self.hi}"


@dataclass(frozen=True)
class Str(Spec):
    choices: tuple[str, ...] = ()
    max_len: int = MAX_TEXT
    min_len: int = 0
    kind = str

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, str) or not self.min_len <= len(value) <= self.max_len:
            _wrong(where, self, value)
        if self.choices and value not in self.choices:
            _wrong(where, self, value)
        bad = CONTROL.search(value)
        if bad:           # a terminal would obey it when the name or title is printed
            raise SatilingError(f"{where}: a control character ({bad.group()!r}) in the text "
                                f"{_show(value)}")
        if not value.isascii():
            try:          # JSON (a share text, a posted file) can spell half a surrogate pair
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise SatilingError(f"{where}: the text {_show(value)} is not Unicode text "
                                    "(half of a surrogate pair)") from None

    def describe(self) -> str:
        if self.choices:
            return "one of " + ", ".join(f'"{c}"' for c in self.choices)
        least = f"at least {self.min_len} and " if self.min_len else ""
        return f"a string ({least}at most {self.max_len} characters)"


#: characters a text of an instance file may not hold: C0 controls but tab and line ends, DEL, C1
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class Name(Str):
    """A puzzle's name: one line (it starts every message about the puzzle) without a path's
    separators (it names the files a run writes in the current folder, ``NAME-best.json``)."""

    max_len: int = 200

    def check(self, value: Any, where: str) -> None:
        super().check(value, where)
        if not is_name(value):
            raise SatilingError(f"{where}: a name is one line without / or \\ (it names the files "
                                f"a run writes), not {_show(value)}")

    def describe(self) -> str:
        return f"a name (one line without / or \\, at most {self.max_len} characters)"


def is_name(value: Any) -> bool:
    """Whether ``value`` can be a puzzle's name (:class:`Name`, its length and text aside)."""
    return isinstance(value, str) and not re.search(r"[\r\n/\\]", value) and value not in (".", "..")


@dataclass(frozen=True)
class Bool(Spec):
    kind = bool

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, bool):
            _wrong(where, self, value)

    def describe(self) -> str:
        return "true or false"


@dataclass(frozen=True)
class List(Spec):
    item: Spec
    min_len: int = 1
    max_len: int = MAX_CELLS
    kind = list

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, list) or not self.min_len <= len(value) <= self.max_len:
            _wrong(where, self, value)
        for i, v in enumerate(value, 1):
            self.item.check(v, f"{where} item {i}")

    def describe(self) -> str:
        n = (f"{self.min_len}" if self.min_len == self.max_len
             else f"{self.min_len} to {self.max_len}")
        return f"a list of {n} items, each {self.item.describe()}"


@dataclass(frozen=True)
class Either(Spec):
    options: tuple[Spec, ...]

    def check(self, value: Any, where: str) -> None:
        fitting = [s for s in self.options if isinstance(value, s.kind)]
        if len(fitting) == 1:             # its own error names the fault better
            fitting[0].check(value, where)
            return
        for spec in fitting:
            try:
                spec.check(value, where)
                return
            except SatilingError:
                continue
        _wrong(where, self, value)

    def describe(self) -> str:
        return " or ".join(s.describe() for s in self.options)


@dataclass(frozen=True)
class Table(Spec):
    """A TOML table: known keys only; ``required`` keys present; exactly one of ``one_of``'s key
    groups (each group's keys given together)."""

    keys: dict[str, Spec]
    required: tuple[str, ...] = ()
    one_of: tuple[tuple[str, ...], ...] = ()
    kind = dict

    def check(self, value: Any, where: str) -> None:
        """``where`` names the table as TOML does (``[region]``); "" is the top level."""
        if not isinstance(value, dict):
            _wrong(where, self, value)
        inside = f"in {where}" if where else "at the top level"
        for key, v in value.items():
            if not isinstance(key, str):     # data built in code (JSON and TOML keys are strings)
                raise SatilingError(f"the key {key!r} {inside} is not a string")
            if key not in self.keys:
                raise SatilingError(f"unknown key {key!r} {inside}{_suggest(key, self.keys)}")
            spec = self.keys[key]
            if isinstance(v, dict):
                label = f"[{where.strip('[]')}.{key}]" if where else f"[{key}]"
            elif isinstance(spec, Tables):
                label = f"[[{key}]]"
            else:
                label = f"{where} {key}" if where else key
            spec.check(v, label)
        for key in self.required:
            if key not in value:
                raise SatilingError(f"{where or 'the file'} needs the key {key!r}")
        if self.one_of:
            given = [g for g in self.one_of if any(k in value for k in g)]
            if len(given) != 1:
                options = " | ".join(" + ".join(g) for g in self.one_of)
                verb = "gives more than one of" if given else "needs one of"
                raise SatilingError(f"{where or 'the file'} {verb}: {options}")
            missing = [k for k in given[0] if k not in value]
            if missing:
                raise SatilingError(f"{where or 'the file'} needs {missing[0]!r} beside {given[0][0]!r}")

    def describe(self) -> str:
        return "a table"


@dataclass(frozen=True)
class Tables(Spec):
    """An array of tables (``[[piece]]``)."""

    table: Table
    max_len: int = 10_000
    kind = list

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, list) or len(value) > self.max_len:
            _wrong(where, self, value)
        for i, v in enumerate(value, 1):
            self.table.check(v, f"{where} {i}")

    def describe(self) -> str:
        return f"an array of tables (at most {self.max_len})"


def _wrong(where: str, spec: Spec, value: Any) -> None:
    raise SatilingError(f"{where}: expected {spec.describe()}, got {_show(value)}")


def _show(value: Any) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _suggest(key: str, valid: Any) -> str:
    close = difflib.get_close_matches(key, list(valid), n=1, cutoff=0.6)
    return f": did you mean {close[0]!r}?" if close else f" (valid: {', '.join(sorted(valid))})"


# -- what every family's format has --------------------------------------------------------------
COMMON: dict[str, Spec] = {
    "title": Str(max_len=500), "source": Str(max_len=2000), "name": Name(),
    "family": Str(max_len=100),        # the loader has already matched it to a registered family
}


def check_instance(fmt: Spec, data: Any, name: str) -> None:
    """Raise :class:`SatilingError` (one line, starting with ``name``) unless ``data`` is a
    well-formed instance by the format ``fmt`` (a family's :class:`Table`)."""
    try:
        check_depth(data)
        fmt.check(data, "")
    except SatilingError as e:
        raise SatilingError(f"{name}: {e}") from None


def check_depth(data: Any, limit: int = MAX_DEPTH) -> None:
    """Refuse tables and arrays nested deeper than ``limit`` (iteratively: no recursion limit)."""
    todo = [(data, 0)]
    while todo:
        value, depth = todo.pop()
        if depth > limit:
            raise SatilingError(f"values nested more than {limit} deep")
        if isinstance(value, dict):
            todo.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            todo.extend((v, depth + 1) for v in value)


def check_size(cells: int, where: str) -> None:
    """Refuse a region (or a piece) of more than :data:`MAX_CELLS` cells before it is built."""
    if cells > MAX_CELLS:
        raise SatilingError(f"{where}: {cells} cells is more than the {MAX_CELLS} a shape may have")


def check_piece_cells(cells: int, where: str) -> None:
    """Refuse pieces too large to turn in every orientation in reasonable time."""
    if cells > MAX_PIECE_CELLS:
        raise SatilingError(f"{where}: the pieces' shapes have {cells} cells in all, more than "
                            f"the {MAX_PIECE_CELLS} allowed")


def check_placements(estimate: int, where: str) -> None:
    """Refuse a puzzle whose placements would not fit in memory (estimated before they are built)."""
    if estimate > MAX_PLACEMENTS:
        raise SatilingError(f"{where}: about {estimate} placements to build (orientations x cells), "
                            f"more than the {MAX_PLACEMENTS} allowed")


def check_area(piece_cells: int, region_cells: int, cells_rule: str, pieces_rule: str, where: str) -> None:
    """Refuse, before any search, pieces whose total area cannot match the region under the rules."""
    if cells_rule == "exact" and pieces_rule == "exact" and piece_cells != region_cells:
        raise SatilingError(f"{where}: the pieces cover {piece_cells} cells but the region has "
                            f"{region_cells} (rules: cells and pieces exact)")
    if cells_rule == "exact" and piece_cells < region_cells:
        raise SatilingError(f"{where}: the pieces cover {piece_cells} cells, too few for the region's "
                            f"{region_cells} (rules.cells = \"exact\")")
    if pieces_rule == "exact" and piece_cells > region_cells:
        raise SatilingError(f"{where}: the pieces cover {piece_cells} cells, too many for the region's "
                            f"{region_cells} (rules.pieces = \"exact\")")
