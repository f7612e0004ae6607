"""`pack`, IQ-Link's proof of uniqueness and `forced` run from the Watch view, in a real browser:
each a run like the others (its state, the stop button, its result drawn).

The answers come from outside the web code: `satiling pack --json` of the same board (the 15
tetrominoes of tetromino-4x15 cannot tile it, by the checkerboard argument its file cites: at most
14 fit), `satiling iqlink unique` and `satiling forced --json` of the same challenge; every packing and solution the page keeps
is checked here against the puzzle's own placements and verifier.
"""
from __future__ import annotations

import json
import subprocess
import sys

from satiling import catalog

from .browser import browser, server  # noqa: F401  (the module's fixtures)
from .browser import (PHONE, WIDE, found, open_page, resize, run_row, run_state, screenshot, start_run,
                      text, wait_end, wait_for, webdriver)
from selenium.webdriver.common.by import By  # noqa: E402  (after the skip)


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "satiling.cli", *args], capture_output=True, text=True,
                          timeout=300)


def kept(server, run_id: str, k: int, name: str) -> list:
    """Solution K the run kept, as placements of the puzzle NAME."""
    puzzle = catalog.load(name)
    line = json.loads(server.get(f"api/runs/{run_id}/solutions/{k}.json"))
    return [puzzle.placement_from_json(p) for p in line["placements"]]


def a_packing(name: str, placements: list) -> None:
    """Placements of NAME's own, no two on a cell, no piece more often than the set has it."""
    puzzle = catalog.load(name)
    legal = set(puzzle.placements())
    assert all(p in legal for p in placements)
    cells = [c for p in placements for c in p.cells]
    assert len(cells) == len(set(cells))
    have = {piece.name: piece.count for piece in puzzle.pieces}
    assert all(sum(q.piece == p.piece for q in placements) <= have[p.piece] for p in placements)


def no_wider_than_a_phone(driver: webdriver.Chrome, name: str) -> None:
    resize(driver, PHONE, 844)
    try:
        wide = driver.execute_script("return document.documentElement.scrollWidth")
        assert wide <= PHONE, f"the Watch view is {wide} px wide at {PHONE}"
        screenshot(driver, f"phone-{name}", whole=False, at="live")
    finally:
        resize(driver, WIDE, 900)


def test_pack_proves_the_most_pieces_and_draws_the_packing(browser, server) -> None:
    driver = browser
    run_id = start_run(driver, server, "tetromino-4x15", "pack", time_limit="120")
    assert wait_end(driver, 150) == "done", text(driver, "live-error")
    done = cli("pack", "tetromino-4x15", "--json", "--time-limit", "120")
    answer = json.loads(done.stdout)
    assert answer["status"] == "OPTIMAL" and answer["pieces"] == 14
    assert found(driver) == answer["pieces"]
    assert "at most 14 pieces fit" in text(driver, "run-outcome")
    wait_for(lambda: "packing" in text(driver, "solution-caption")
             and driver.find_elements(By.CSS_SELECTOR, "#solution-board svg"), 10, "no packing drawn")
    packing = kept(server, run_id, 0, "tetromino-4x15")
    assert len(packing) == 14
    a_packing("tetromino-4x15", packing)
    screenshot(driver, "watch-pack", whole=False, at="live")
    no_wider_than_a_phone(driver, "watch-pack")
    assert listed(driver, server, {run_id: "14 pieces"})


def test_pack_stopped_keeps_the_best_so_far(browser, server) -> None:
    """45 tetrominoes on 4x45 do not fit (its file: no solution): CP-SAT works on, the stop
    button ends it with the best packing so far."""
    driver = browser
    run_id = start_run(driver, server, "tetromino-4x45", "pack")
    wait_for(lambda: run_state(driver) == "running" and found(driver) > 0, 60, "no packing found")
    driver.find_element(By.ID, "stop").click()
    assert wait_end(driver, 20) == "stopped"
    best = found(driver)
    assert 0 < best < 45
    assert f"holds {best} pieces, not proved the most" in text(driver, "run-outcome")
    packing = kept(server, run_id, 0, "tetromino-4x45")
    assert len(packing) == best
    a_packing("tetromino-4x45", packing)


def test_unique_and_not_unique(browser, server) -> None:
    driver = browser
    done = cli("iqlink", "unique", "iqlink-wizard")
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "unique", done.stdout
    run_id = wizard = start_run(driver, server, "iqlink-wizard", "unique")
    assert wait_end(driver, 60) == "done", text(driver, "live-error")
    assert found(driver) == 1 and "Done" in text(driver, "run-outcome")
    assert "unique. No second solution" in text(driver, "run-outcome")
    puzzle = catalog.load("iqlink-wizard")
    puzzle.verify(kept(server, run_id, 0, "iqlink-wizard"))

    done = cli("iqlink", "unique", "iqlink-empty")
    assert done.returncode == 1 and "not unique" in done.stdout
    run_id = start_run(driver, server, "iqlink-empty", "unique")
    assert wait_end(driver, 90) == "done", text(driver, "live-error")
    assert found(driver) == 2 and "not unique" in text(driver, "run-outcome")
    wait_for(lambda: text(driver, "solution-caption").startswith("The second solution"), 10,
             lambda: f"caption {text(driver, 'solution-caption')!r}")
    empty = catalog.load("iqlink-empty")
    first, second = (kept(server, run_id, k, "iqlink-empty") for k in (0, 1))
    empty.verify(first)
    empty.verify(second)
    assert set(first) != set(second)
    screenshot(driver, "watch-unique", whole=False, at="live")
    no_wider_than_a_phone(driver, "watch-unique")
    # the runs table says what `satiling iqlink unique` prints, not the number of solutions kept
    assert listed(driver, server, {wizard: "unique", run_id: "not unique"})


def test_forced_as_a_run_and_its_stop(browser, server) -> None:
    """Forced as a run keeps the placements `satiling forced --json` proves (IQ-Link's wizard
    challenge: its 12 placements); on Eternity II, where no solution is found in any time, Stop
    ends it and the page says the list is partial."""
    driver = browser
    done = cli("forced", "iqlink-wizard", "--json", "--time-limit", "120")
    answer = json.loads(done.stdout.splitlines()[-1])
    assert answer["complete"] and len(answer["forced"]) == 12, done.stdout
    run_id = start_run(driver, server, "iqlink-wizard", "forced", time_limit="120")
    assert wait_end(driver, 150) == "done", text(driver, "live-error")
    assert found(driver) == 12 and "12 placements in every solution" in text(driver, "run-outcome")
    as_text = lambda placements: sorted(json.dumps(p, sort_keys=True) for p in placements)  # noqa: E731
    assert as_text(p.to_json() for p in kept(server, run_id, 0, "iqlink-wizard")) == as_text(answer["forced"])
    stopped = start_run(driver, server, "eternity2", "forced")
    wait_for(lambda: run_state(driver) == "running", 60, lambda: f"state {run_state(driver)!r}")
    driver.find_element(By.ID, "stop").click()
    assert wait_end(driver, 30) == "stopped"
    assert "proved in every solution so far; the list is partial" in text(driver, "run-outcome")
    # the runs table names what was counted: "found 0" read as "no solution"
    assert listed(driver, server, {run_id: "12 forced", stopped: "0 forced"})


def listed(driver, server, cells: dict[str, str]) -> bool:
    """The runs table of the Watch view shows each run's "found" cell as ``cells`` says."""
    open_page(driver, server, "#watch")
    shown = wait_for(lambda: all(run_row(driver, r) for r in cells) and
                     {r: run_row(driver, r)["found"] for r in cells}, 10, "the runs are not listed")
    assert shown == cells
    return True


def test_the_tasks_offered_by_family(browser, server) -> None:
    """Pack is offered for polyforms only, unique for IQ-Link only; the server refuses them
    elsewhere naming the task."""
    driver = browser
    start_run(driver, server, "iqlink-starter", "solve")
    disabled = {o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#task option")
                if not o.is_enabled()}
    assert {"pack", "maximise"} <= disabled and "unique" not in disabled
    refused = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('api/runs', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({puzzle: 'pentomino-6x10', task: 'unique'})})"
        ".then(r => r.json().then(j => done([r.status, j.field]))).catch(e => done(String(e)));")
    assert refused == [400, "task"]
