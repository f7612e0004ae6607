"""The ``c v VAR JSON`` lines of a DIMACS file satiling wrote, read back on their own (the tests'
reading of the map, apart from the decoder's)."""
from __future__ import annotations

import json
from typing import TextIO


def read_variable_map(lines: TextIO) -> dict[int, object]:
    """The ``c v VAR JSON`` map from a DIMACS file written by :func:`write_dimacs`."""
    out = {}
    for line in lines:
        if line.startswith("p "):
            break
        if line.startswith("c v "):
            _, _, var, data = line.split(" ", 3)
            out[int(var)] = json.loads(data)
    return out
