"""The one error type a user can cause.

Anything raised as :class:`SatilingError` is the user's to fix (a malformed file, an unknown puzzle,
an impossible option, a corrupt solver output).  The CLI prints its message as one line on stderr and
exits with code 2; library callers catch it like any other exception.

A message that names an option of a run names it by an :class:`Option`: as the library's calls
and a :class:`~satiling.run.Request` take it (``workers``, ``engine='race'``), which is what
``str(error)`` says; the command line says the option's flag instead (``--workers``, ``--engine
race``), by its one table of flags (:meth:`SatilingError.worded`, ``satiling.cli.parser.flags``).
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class Option:
    """An option of a run, named in a message: ``key`` as the library's calls and a Request take
    it, and the value given when the message shows it (None: the option alone)."""

    key: str
    value: Any = None

    def __str__(self) -> str:                   # the library's words
        return self.key if self.value is None else f"{self.key}={self.value!r}"


class SatilingError(Exception):
    """A problem with the input, not a bug: reported as one clear line.

    ``SatilingError(message)`` says ``message`` as it is.  Given parts, ``message`` is a template
    (:meth:`str.format`) and a part is an :class:`Option`, a list of them, another error (its
    message) or any value::

        SatilingError("{engine} runs a SAT solver, not {solver}",
                      engine=Option("engine", "sat"), solver=Option("solver", name))
    """

    #: the template and its parts (None and none: a message that names no option)
    template: str | None = None
    parts: Mapping[str, Any] = MappingProxyType({})

    def __init__(self, *args: Any, **parts: Any) -> None:
        if not parts:                           # a message as it is (or none)
            super().__init__(*args)
            return
        template, = args
        super().__init__(_worded(template, parts, str))
        self.template, self.parts = template, parts

    def worded(self, say: Callable[[Option], str]) -> str:
        """The message with each option it names as ``say`` words it (the command line: its flag)."""
        return str(self) if self.template is None else _worded(self.template, self.parts, say)


def _worded(template: str, parts: Mapping[str, Any], say: Callable[[Option], str]) -> str:
    def word(value: Any) -> Any:
        if isinstance(value, Option):
            return say(value)
        if isinstance(value, SatilingError):
            return value.worded(say)
        if isinstance(value, (tuple, list)) and all(isinstance(v, Option) for v in value):
            return ", ".join(say(v) for v in value)
        return value
    return template.format_map({key: word(value) for key, value in parts.items()})


class VerificationError(SatilingError):
    """A solution failed the independent check against the puzzle's own geometry."""
