"""The polyform instance format: its keys, which depend on the lattice (see ``instances/README.md``)."""
from __future__ import annotations

from typing import Any

from ...errors import SatilingError
from ...schema import COMMON, MAX_SIDE, MAX_TEXT, Either, Int, List, Spec, Str, Table, Tables, check_instance

FREEDOMS = ("free", "one-sided", "fixed")
LATTICES = ("square", "triangle", "hexagon", "drafter", "cubic")
#: lattices whose cells have three coordinates
DIMENSION = {"square": 2, "triangle": 2, "hexagon": 2, "drafter": 3, "cubic": 3}


def _cells(dim: int) -> Spec:
    return List(List(Int(-MAX_SIDE, MAX_SIDE), dim, dim))


def _shape_keys(lattice: str) -> tuple[dict[str, Spec], tuple[tuple[str, ...], ...]]:
    """Keys that draw cells on ``lattice`` (for a region and for a piece), and which exclude which."""
    dim = DIMENSION[lattice]
    keys: dict[str, Spec] = {"cells": _cells(dim)}
    groups: list[tuple[str, ...]] = [("cells",)]
    if lattice != "drafter":
        keys["ascii"] = Str(max_len=MAX_TEXT)
        groups.append(("ascii",))
    if lattice == "drafter":
        keys["word"] = Str(max_len=100_000)
        groups.append(("word",))
    if lattice == "cubic":
        keys["layers"] = List(Str(max_len=MAX_TEXT), 1, 1000)
        groups.append(("layers",))
    return keys, tuple(groups)


def _region(lattice: str) -> Table:
    keys, groups = _shape_keys(lattice)
    keys, groups = dict(keys), list(groups)
    if lattice == "square":
        keys.update(rows=Int(), cols=Int())
        groups.append(("rows", "cols"))
    if lattice in ("triangle", "hexagon"):
        keys.update(parallelogram=List(Int(), 2, 2), triangle=Int(1, 200), hexagon=Int(1, 100))
        groups += [("parallelogram",), ("triangle",), ("hexagon",)]
    if lattice == "cubic":
        keys["box"] = List(Int(1, 1000), 3, 3)
        groups.append(("box",))
    if lattice in ("square", "triangle", "hexagon"):
        keys.update(topology=Str(("plane", "cylinder", "torus")), wrap=Str(("rows", "cols")))
    return Table(keys, one_of=tuple(groups))


def _piece(lattice: str) -> Table:
    keys, groups = _shape_keys(lattice)
    return Table({"name": Str(max_len=100, min_len=1), "count": Int(1, 10_000), "freedom": Str(FREEDOMS), **keys},
                 required=("name",), one_of=groups)


def polyform_format(lattice: str) -> Table:
    """The keys of a polyform instance on ``lattice``."""
    return Table({
        **COMMON,
        "lattice": Str(LATTICES),
        "piece_set": Either((Str(max_len=100),
                             Table({"name": Str(max_len=100), "freedom": Str(FREEDOMS)}, ("name",)))),
        "rules": Table({"cells": Str(("exact", "at-most")), "pieces": Str(("exact", "at-most"))}),
        "region": _region(lattice),
        "piece": Tables(_piece(lattice)),
        "placed": Tables(Table({"piece": Str(max_len=100, min_len=1), "cells": _cells(DIMENSION[lattice])},
                               required=("piece", "cells"))),
    }, required=("region",))


def piece_set_format(lattice: str) -> Table:
    """The keys of a piece-set file (``instances/sets/NAME.toml``)."""
    return Table({"title": Str(max_len=500), "source": Str(max_len=2000), "lattice": Str(LATTICES),
                  "piece": Tables(_piece(lattice))}, required=("lattice", "piece"))




def check_polyform(data: Any, name: str) -> None:
    """Raise SatilingError (one line starting with ``name``) unless ``data`` is a polyform instance."""
    lattice = data.get("lattice", "square") if isinstance(data, dict) else "square"
    try:
        Str(LATTICES).check(lattice, "lattice")
    except SatilingError as e:
        raise SatilingError(f"{name}: {e}") from None
    check_instance(polyform_format(lattice), data, name)
