"""The one error type a user can cause.

Anything raised as :class:`SatilingError` is the user's to fix (a malformed file, an unknown puzzle,
an impossible option, a corrupt solver output).  The CLI prints its message as one line on stderr and
exits with code 2; library callers catch it like any other exception.
"""


class SatilingError(Exception):
    """A problem with the input, not a bug: reported as one clear line."""


class VerificationError(SatilingError):
    """A solution failed the independent check against the puzzle's own geometry."""
