"""Instance data written back as an instance file's TOML (a shared puzzle has no file of its own:
See shows and downloads this one, which satiling reads back to the same data).

Plain values at the top, then each table (``[region]``), then each array of tables
(``[[piece]]``, ``[[placed]]``); a value inside is written inline (JSON's strings, numbers and
lists are TOML's too; an object becomes an inline table).

    >>> print(toml_text({"name": "box", "piece_set": "pentominoes", "region": {"rows": 6, "cols": 10}}))
    name = "box"
    piece_set = "pentominoes"
    <BLANKLINE>
    [region]
    rows = 6
    cols = 10
    <BLANKLINE>
"""
from __future__ import annotations

import json
import re
from typing import Any

BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_text(data: dict[str, Any]) -> str:
    lines = [f"{_key(k)} = {_value(v)}" for k, v in data.items() if not _table(v) and not _tables(v)]
    for k, v in data.items():
        if _table(v):
            lines += ["", f"[{_key(k)}]", *(f"{_key(kk)} = {_value(vv)}" for kk, vv in v.items())]
    for k, v in data.items():
        if _tables(v):
            for entry in v:
                lines += ["", f"[[{_key(k)}]]", *(f"{_key(kk)} = {_value(vv)}" for kk, vv in entry.items())]
    return "\n".join(lines) + "\n"


def _table(v: Any) -> bool:
    return isinstance(v, dict)


def _tables(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(e, dict) for e in v)


def _key(k: str) -> str:
    return k if BARE_KEY.fullmatch(k) else json.dumps(k, ensure_ascii=False)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        if "\n" in v and "'''" not in v and not v.startswith("\n"):
            return f"'''\n{v}'''"          # ASCII art as the files write it
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (int, float)):
        return json.dumps(v)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise ValueError(f"no TOML value for {type(v).__name__}")
