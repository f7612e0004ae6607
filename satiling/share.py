"""A puzzle in one line of text that opens on any machine: ``satiling:`` then the instance.

The text is ``satiling:`` + a version letter + the instance data (what its TOML file holds, any
family, files it names read in) as compact JSON, compressed by zlib with a preset dictionary of
the words instance files use, in base64url without padding: only letters, digits, ``-`` and
``_``, so it goes into an address or a chat as it is.  zlib's checksum catches a text cut short
or mistyped.  Wherever a puzzle's name is taken (``satiling show 'satiling:...'``, ``solve``,
``count``, the library's ``load``) the text opens the puzzle it holds:
:func:`satiling.catalog.load` reads it here.

    >>> text = encode({"name": "box", "piece_set": "pentominoes", "region": {"rows": 6, "cols": 10}})
    >>> text.startswith("satiling:1"), decode(text)["region"]
    (True, {'rows': 6, 'cols': 10})
"""
from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from pathlib import Path
from typing import Any

from .errors import SatilingError

PREFIX = "satiling:"
VERSION = "1"
#: the longest share text read (Eternity II, the largest bundled instance, is some 5,000 characters)
MAX_TEXT = 2_000_000
#: the most its instance may unpack to
MAX_DATA = 16_000_000
#: words instance files use, in JSON, most common last (zlib finds them nearest): a short
#: instance costs a few bytes beyond its own numbers.  Part of version 1: never changed.
_DICTIONARY = (
    '"source":"","title":"","family":"edgematch","rows":,"cols":,"pieces":[[0,0,'
    '"hint":[{"square":"","piece":,"rotation":}],"fixed":[{"square":"","piece":,"rotation":}],'
    '"family":"iqlink","linked":true,"placed":"'
    '"lattice":"cubic","box":[,"layers":["lattice":"drafter","word":"'
    '"lattice":"hexagon","hexagon":"lattice":"triangle","triangle":,"parallelogram":[,'
    '"topology":"torus","topology":"cylinder","wrap":"rows","wrap":"cols",'
    '"rules":{"cells":"at-most","pieces":"at-most"},"freedom":"one-sided","freedom":"fixed",'
    '"count":2,"piece":[{"name":"","cells":[[0,0],[0,1],[1,0],[1,1]]},{"name":"","ascii":"'
    '"piece_set":"tetrominoes","piece_set":"hexiamonds","piece_set":"pentominoes",'
    '"placed":[{"piece":"","cells":[[0,0],[0,1],[0,2],[1,0],[1,1],[1,2],[2,0],[2,1],[2,2]]}],'
    '"region":{"rows":6,"cols":10},"ascii":"########\\n'
    '{"name":"","family":"polyform","lattice":"square",'
).encode()


def encode(data: dict[str, Any]) -> str:
    """The share text of instance data (a dict as an instance file's TOML reads; its files read
    in already: :func:`self_contained`)."""
    try:
        payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()
    except (TypeError, ValueError) as e:
        raise SatilingError(f"an instance to share holds plain values only ({e})") from None
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS, 9, zlib.Z_DEFAULT_STRATEGY, _DICTIONARY)
    packed = packer.compress(payload) + packer.flush()
    return PREFIX + VERSION + base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")


def is_share(text: Any) -> bool:
    """Whether ``text`` is meant as a share text (it starts with ``satiling:``, after any white
    space a copy and paste leaves)."""
    return isinstance(text, str) and text.lstrip().startswith(PREFIX)


def canonical(name: Any) -> Any:
    """A share text as one line with nothing around it (the white space a copy and paste leaves
    is no part of it: a server keeps one name per puzzle); any other name as it is."""
    if not is_share(name):
        return name
    return PREFIX + name.strip()[len(PREFIX):].strip()


def decode(text: str) -> dict[str, Any]:
    """The instance data a share text holds; a text that is not one, cut short, mistyped or too
    large is refused with one SatilingError saying which."""
    shown = f"share text {text[:24] + '...' if len(text) > 24 else text!r}"
    if not is_share(text):
        raise SatilingError(f"{shown} does not start with {PREFIX!r}")
    if len(text) > MAX_TEXT:
        raise SatilingError(f"share text of {len(text)} characters: at most {MAX_TEXT}")
    body = canonical(text)[len(PREFIX):]
    if not body:
        raise SatilingError(f"{shown} is empty: a share text is what 'satiling share NAME' prints")
    if body[0] != VERSION:
        raise SatilingError(f"{shown} is of an unknown version {body[:1]!r} (this satiling reads "
                            f"version {VERSION}: a newer satiling wrote it?)")
    body = body[1:]
    if not re.fullmatch(r"[A-Za-z0-9_-]+", body):
        bad = next((ch for ch in body if not (ch.isascii() and (ch.isalnum() or ch in "-_"))), "")
        raise SatilingError(f"{shown} holds {bad!r}" if bad else f"{shown} is empty after its version")
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        # characters added at the end: a last one that holds no whole byte, or bytes after zlib's
        # stream, which its checksum does not cover
        if base64.urlsafe_b64encode(packed).decode().rstrip("=") != body:
            raise zlib.error("a character too many")
        unpacker = zlib.decompressobj(zlib.MAX_WBITS, _DICTIONARY)
        payload = unpacker.decompress(packed, MAX_DATA)
        if unpacker.unconsumed_tail:
            raise SatilingError(f"{shown} unpacks to more than {MAX_DATA} bytes")
        if not unpacker.eof or unpacker.unused_data:
            raise zlib.error("cut short, or more after its end")
        data = json.loads(payload.decode("utf-8"))
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError, RecursionError):
        raise SatilingError(f"{shown} is damaged (cut short or mistyped: its checksum or its "
                            "contents do not hold)") from None
    if not isinstance(data, dict):
        raise SatilingError(f"{shown} holds no instance")
    return data


def self_contained(data: dict[str, Any], base: Path | None) -> dict[str, Any]:
    """The instance with the files it names read in (an edge-matching ``pieces_file``, relative
    to ``base``), so that its share text opens where those files are not."""
    if "pieces_file" not in data:
        return dict(data)
    from .families.edgematch.io import read_pieces_file
    rows, cols, pieces = read_pieces_file(Path(base or ".") / str(data["pieces_file"]))
    out = {k: v for k, v in data.items() if k != "pieces_file"}
    out.update(rows=rows, cols=cols, pieces=[list(p) for p in pieces])
    return out
