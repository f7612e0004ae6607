"""What the parsed options mean to the model: the family options a user set.
"""
from __future__ import annotations

import argparse
from typing import Any

from ..registry import model_options as family_options

#: a model option's ``dest`` on the parser: its key after this prefix
MODEL_DEST = "model_"


def model_options(args: argparse.Namespace) -> dict[str, Any]:
    """The model options a user set, keyed as ``puzzle.problem`` expects them."""
    out = {}
    for _, opt in family_options():
        value = getattr(args, MODEL_DEST + opt.key, None)
        if value not in (None, False):
            out[opt.key] = value
    return out
