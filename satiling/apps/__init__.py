"""Applications of one family built on the search: they sit above ``search`` and below the CLI.

* :mod:`.iqlink_generate` -- new IQ-Link challenges with exactly one solution.
"""
