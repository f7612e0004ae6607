"""What the tests of the web app's API share: the states a run ends in, and a wait for its end."""
from __future__ import annotations

import time
from typing import Any

#: the states a run ends in
FINAL = ("done", "partial", "stopped", "failed")


def wait(client: Any, run_id: str, seconds: float = 60) -> dict:
    """The run once it has ended (``client``: a TestClient of the app)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        run = client.get(f"/api/runs/{run_id}").json()
        if run["state"] in FINAL:
            return run
        time.sleep(0.1)
    raise AssertionError(f"run {run_id} still {run['state']} after {seconds} s")
