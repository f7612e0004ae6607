"""The puzzle families satiling knows: one :class:`Family` record each.

A family is a package under ``satiling/families/`` whose ``__init__.py`` defines ``FAMILY``, a
:class:`Family` that says everything the rest of satiling needs to know about it: how an instance
file of the family is loaded (the loader checks the file's keys against the family's format), the
model options it takes, how its solutions are drawn, and the subcommands it adds to the CLI.  The
families shipped with satiling are listed in :data:`BUILTIN`, one line each; a family from another
package registers itself with :func:`register`, or through the entry point group
``satiling.families`` (``name = "package.module"``, whose ``FAMILY`` is read).

Where a record names code (a loader, a picture), it gives either the callable or a string
``"module:function"`` imported the first time it is used.  Strings keep the layers in order (the
families never import the renderers or the CLI, yet their records can name them) and keep
``satiling --help`` from importing every family's heavy modules.

    >>> from satiling.registry import family
    >>> family("edgematch").title
    'edge matching'
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Callable, Union

from .errors import SatilingError
from .options import ModelOption

#: a callable, or "module:function" (imported when first used)
Target = Union[str, Callable[..., Any]]

#: the packages of the families shipped with satiling; adding a family is one folder and one line
BUILTIN: tuple[str, ...] = (
    "satiling.families.polyform",
    "satiling.families.edgematch",
    "satiling.families.iqlink",
)


@dataclass(frozen=True)
class Family:
    """What satiling needs to know about one puzzle family."""

    name: str                          # the ``family = "..."`` of its instance files
    title: str                         # for people: the title of its help group
    load: Target                       # (data, name, base folder) -> Puzzle; checks the keys first
    options: tuple[ModelOption, ...] = ()      # model options: flags of info/encode/solve/...
    text: Target | None = None         # (puzzle, solution) -> str; None: ``puzzle.text``
    svg: Target | None = None          # (puzzle, solution) -> str; None: ``puzzle.svg``
    commands: tuple[str, ...] = ()     # modules with ``register(subparsers)``: its subcommands
    instances: Path | None = None      # a folder of its own instance files, listed and loaded by name


def resolve(target: Target) -> Callable[..., Any]:
    """The callable a :data:`Target` names."""
    if callable(target):
        return target
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


class Registry:
    """The registered families, read once: the built-in ones, then the entry points', then
    :func:`register`'s (a later record of the same name replaces an earlier one)."""

    def __init__(self) -> None:
        self._families: dict[str, Family] | None = None
        self._added: dict[str, Family] = {}

    def families(self) -> dict[str, Family]:
        if self._families is None:
            found: dict[str, Family] = {}
            for module in BUILTIN:
                record = importlib.import_module(module).FAMILY
                found[record.name] = record
            for point in entry_points(group="satiling.families"):
                record = _record_of(point.value, point.name)
                found[record.name] = record
            self._families = found
        return {**self._families, **self._added}

    def register(self, record: Family) -> None:
        if not isinstance(record, Family):
            raise SatilingError(f"register() takes a Family record, not {type(record).__name__}")
        self._added[record.name] = record

    def unregister(self, name: str) -> None:
        self._added.pop(name, None)


def _record_of(module: str, label: str) -> Family:
    try:
        record = importlib.import_module(module).FAMILY
    except (ImportError, AttributeError) as e:
        raise SatilingError(f"the family plug-in {label!r} ({module}) cannot be loaded: {e}") from None
    if not isinstance(record, Family):
        raise SatilingError(f"the family plug-in {label!r}: {module}.FAMILY is not a Family record")
    return record


#: the one registry of this process (what ``satiling.register_family`` adds to)
REGISTRY = Registry()


def families() -> dict[str, Family]:
    """Every registered family by name."""
    return REGISTRY.families()


def register(record: Family) -> None:
    """Add a family (or replace one of the same name) for this process."""
    REGISTRY.register(record)


def unregister(name: str) -> None:
    """Remove a family added by :func:`register`."""
    REGISTRY.unregister(name)


def family(name: str) -> Family:
    """The family called ``name`` (SatilingError naming the known ones otherwise)."""
    known = families()
    if not isinstance(name, str) or name not in known:
        raise SatilingError(f"unknown family {name!r} (known: {', '.join(sorted(known))})")
    return known[name]


def picture(family_name: str, kind: str) -> Target | None:
    """The picture (``kind`` "text" or "svg") the family's record names, or None: the puzzle's
    own ``text`` / ``svg`` then."""
    record = families().get(family_name)
    return getattr(record, kind) if record else None


def model_options() -> list[tuple[Family, ModelOption]]:
    """Every family's model options, with the family that takes each, in registration order."""
    return [(rec, opt) for rec in families().values() for opt in rec.options]


def instance_folders() -> list[Path]:
    """Folders of instance files found by name: satiling's own first, then the families'."""
    from .bundled import instances_dir
    return [instances_dir()] + [rec.instances for rec in families().values() if rec.instances]
