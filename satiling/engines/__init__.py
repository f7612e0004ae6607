"""Compiled search engines, each beside a readable Python reference of the same search.

A compiled module ``_NAME`` is built from ``_NAME.c`` by the build backend (``pip install .``); its
Python reference lives in ``NAME_ref.py`` or is named in the module that wraps it, and the tests hold
the two to the same answers.
"""
