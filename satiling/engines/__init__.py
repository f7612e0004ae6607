"""Compiled search engines, each beside a readable Python reference of the same search.

One naming rule: the compiled module ``_NAME`` is built from ``_NAME.c`` by the build backend
(``pip install .``), ``NAME.py`` wraps it for the rest of satiling, and ``NAME_ref.py`` is the
readable Python reference of the same search; the tests hold the two to the same answers
(``exactcover`` / ``exactcover_ref``, ``edgematch`` / ``edgematch_ref``, ``edgescore``
/ ``edgescore_ref``).  Every engine hands control back to Python by time and reports how a run
ended with the same codes (``_handback.h``).

Each compiled engine can also show a watcher the partial solution its search stands on (its
``watch`` method), at the looks it makes anyway, at most once every :data:`PARTIAL_SECONDS`.
"""

#: seconds between two snapshots of a search in progress (a live picture of the board: a few a
#: second, and nothing for the search to pay between them); the one setting every layer reads
PARTIAL_SECONDS = 0.25
