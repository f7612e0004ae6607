"""Write the Eternity-family instance files from the bundled JSON data.

    python tools/data/eternity_toml.py

Reads ``instances/data/eternity/{tiles_boundary_words,puzzles}.json`` (transcribed from
John Burkardt's repository, see the SOURCE.md beside them) and writes

* piece sets ``instances/sets/{eternity,trinity-tiles,serenity-tiles}.toml``;
* instances ``instances/{trinity,serenity,whale,boat,pram,tortoise,boomerang,eternity}.toml``
  (a puzzle whose tiles are exactly one set names the set; the others list their tiles).

Words are copied unchanged; rerunning the script reproduces the files byte for byte.
"""
from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "instances"
DATA = ROOT / "data" / "eternity"

PROVENANCE = ("# Data: boundary words from John Burkardt's repository jvburkardt/Eternity (commit 4004d6dd),\n"
              "# transcribed in data/eternity/ -- see data/eternity/SOURCE.md for conventions and licence.\n")

SETS = {  # set name -> (title, tile ids)
    "eternity": ("the 209 pieces of Monckton's Eternity puzzle (Burkardt's numbering)", range(1, 210)),
    "trinity-tiles": ("the four tiles of Selby's small example (Burkardt & Garvie's Trinity)", range(210, 214)),
    "serenity-tiles": ("the eight tiles of Burkardt & Garvie's Serenity puzzle", range(214, 222)),
}

TITLES = {
    "trinity": "Trinity: 4 polydrafters (Selby's example, named by Burkardt & Garvie)",
    "serenity": "Serenity: 8 polydrafters in a dodecagon (Burkardt & Garvie)",
    "whale": "Whale: 8 Eternity pieces (Burkardt & Garvie)",
    "boat": "Boat: 21 Eternity pieces (Burkardt & Garvie)",
    "pram": "Pram: 64 Eternity pieces (Burkardt & Garvie)",
    "tortoise": "Tortoise: 45 Eternity pieces (Burkardt & Garvie)",
    "boomerang": "Boomerang: 66 Eternity pieces (Burkardt & Garvie)",
    "eternity": "Eternity: Monckton's 209 polydrafters in the dodecagon (1999)",
}


def main() -> None:
    tiles = json.loads((DATA / "tiles_boundary_words.json").read_text())["tiles"]
    puzzles = json.loads((DATA / "puzzles.json").read_text())["puzzles"]
    set_of = {}
    for name, (title, ids) in SETS.items():
        set_of[tuple(ids)] = name
        text = f"# Piece set: {title}.\n{PROVENANCE}title = \"{title}\"\nlattice = \"drafter\"\n"
        text += "".join(_piece(i, tiles) for i in ids)
        _write(ROOT / "sets" / f"{name}.toml", text)
    for name, p in puzzles.items():
        ids = tuple(p["tile_ids"])
        _write(ROOT / f"{name}.toml", _instance(name, p, ids, tiles, set_of.get(tuple(sorted(ids)))))


def _instance(name: str, p: dict, ids: tuple, tiles: dict, piece_set: str | None) -> str:
    configs = p["our_configs"]
    lines = [f"# {TITLES[name]}.", PROVENANCE.rstrip("\n"),
             f"# {p['tiles']} tiles of 36 elements; region of {p['elements']} elements.",
             f"# Configurations (placements): {configs}"
             + (f" (Burkardt & Garvie's paper: {p['paper_configs']})" if p["paper_configs"] else "") + "."]
    if p["note"]:
        lines.append(f"# Note: {p['note']}.")
    if p["solutions"] is not None:
        lines.append(f"# Solutions: {p['solutions']} (all listed in data/eternity/solutions/{name}.json).")
    text = "\n".join(lines) + "\n"
    text += f"title = \"{TITLES[name]}\"\n"
    text += "source = \"Burkardt & Garvie, The Eternity Puzzle: A Linear Algebraic Approach (2021); data jvburkardt/Eternity\"\n"
    text += "family = \"polyform\"\nlattice = \"drafter\"\n"
    if piece_set:
        text += f"piece_set = \"{piece_set}\"\n"
    text += f"\n[region]\nword = \"{p['grid_word']}\"\n"
    if not piece_set:
        text += "".join(_piece(i, tiles) for i in ids)
    return text


def _piece(tile_id: int, tiles: dict) -> str:
    return f"\n[[piece]]\nname = \"{tile_id}\"\nword = \"{tiles[str(tile_id)]}\"\n"


def _write(path: Path, text: str) -> None:
    path.write_text(text)
    print(f"wrote {path.relative_to(ROOT.parent.parent)}")


if __name__ == "__main__":
    main()
