"""Applications of one family built on the search: they sit above ``search`` and below the CLI.

* :mod:`.maximize` -- the best edge-matching board in a time budget;
* :mod:`.packing` -- the most pieces of a polyform set on a board;
* :mod:`.iqlink_generate` -- new IQ-Link challenges with exactly one solution.
"""
