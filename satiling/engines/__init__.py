"""Compiled search engines, each beside a readable Python reference of the same search.

One naming rule: the compiled module ``_NAME`` is built from ``_NAME.c`` by the build backend
(``pip install .``), ``NAME.py`` wraps it for the rest of satiling, and ``NAME_ref.py`` is the
readable Python reference of the same search; the tests hold the two to the same answers
(``exactcover`` / ``exactcover_ref`` -- the walk --, ``edgematch`` / ``edgematch_ref``, ``edgescore``
/ ``edgescore_ref``).  Every engine hands control back to Python by time and reports how a run
ended with the same codes (``_handback.h``).
"""
