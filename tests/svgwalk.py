"""An SVG picture as a viewer sees it: each element with where its own coordinates start in the
outermost picture (nested ``<svg x= y=>`` pictures and ``translate`` moves followed), for tests
that check where things are drawn."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Iterator

#: the SVG namespace, as ElementTree names its tags
SVG = "{http://www.w3.org/2000/svg}"


def placed(root: ET.Element) -> Iterator[tuple[str, ET.Element, float, float]]:
    """(tag without its namespace, element, dx, dy) of every element under ``root`` (itself
    first): add (dx, dy) to its coordinates for their place in the outermost picture."""
    def walk(el: ET.Element, dx: float, dy: float) -> Iterator[tuple[str, ET.Element, float, float]]:
        tag = el.tag.rpartition("}")[2]
        if tag == "svg" and el is not root:
            dx, dy = dx + float(el.get("x", 0)), dy + float(el.get("y", 0))
        move = re.fullmatch(r"translate\(([-0-9.]+),\s*([-0-9.]+)\)", el.get("transform", ""))
        if move:
            dx, dy = dx + float(move.group(1)), dy + float(move.group(2))
        yield tag, el, dx, dy
        for child in el:
            yield from walk(child, dx, dy)
    return walk(root, 0.0, 0.0)
