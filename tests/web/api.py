"""What the tests of the web app's API share: the states a run ends in, a wait for its end, and a
small edge-matching board with a clue piece (a model option, ``hints``, pins it)."""
from __future__ import annotations

import time
from typing import Any

#: the states a run ends in
FINAL = ("done", "partial", "stopped", "failed")

#: a random 3x3 board (``satiling generate-edgematch 3 3 --seed 7``) with one piece of its
#: planted solution given as a clue, pinned only with ``hints``
CLUED = """title = "a 3x3 board with a clue"
family = "edgematch"
rows = 3
cols = 3
pieces = [[1, 2, 0, 0], [2, 1, 0, 0], [1, 1, 0, 0], [2, 2, 0, 0], [4, 1, 0, 2], [3, 2, 0, 2],
          [4, 2, 0, 1], [3, 1, 0, 1], [4, 4, 3, 3]]

[[hint]]
square = "B2"
piece = 9
rotation = 0
"""


def wait(client: Any, run_id: str, seconds: float = 60) -> dict:
    """The run once it has ended (``client``: a TestClient of the app)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        run = client.get(f"/api/runs/{run_id}").json()
        if run["state"] in FINAL:
            return run
        time.sleep(0.1)
    raise AssertionError(f"run {run_id} still {run['state']} after {seconds} s")
