"""The web page in a real browser: Debian's chromium driven by Selenium against `satiling serve`.

One server process on a temporary store serves the whole module; the tests run in order (the
last one restarts the server on the same store and finds the earlier runs). The answers are
checked against published counts (2339 for the 6x10 pentomino board, 2 for 3x20) and against
`satiling score` on the board the page offers for download. With SATILING_SCREENSHOTS=docs/web
set, each view is saved there at 1366 px (the README shows them).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest

from .browser import browser  # noqa: F401  (the module's fixtures)
from .browser import (SHOTS, Server, chromium, found, open_page, run_row, run_state, screenshot,
                      start_run, text, wait_end, wait_for, webdriver)
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402  (after the skip)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("web") / "x.sqlite"


@pytest.fixture(scope="module")
def servers(store: Path) -> Iterator[list[Server]]:
    """The running server last; a test may replace it (the restart)."""
    running = [Server(store)]
    yield running
    running[-1].stop()


# ---- the scenario -------------------------------------------------------------------------------------

RUNS: dict[str, str] = {}      # what the restart must find: name -> run id


def test_paint_the_6x10_board_and_count_2339(browser: webdriver.Chrome, servers: list[Server]) -> None:
    driver = browser
    open_page(driver, servers[-1], "#pose")
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#gallery .card.drawn svg"), 30,
             "the gallery drew no puzzles")
    for field, value in (("paint-rows", "6"), ("paint-cols", "10")):
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    Select(driver.find_element(By.ID, "paint-lattice")).select_by_value("square")
    # Create before painting: the page says to paint the region first, and sends nothing.
    driver.find_element(By.ID, "create").click()
    assert "paint the region first" in text(driver, "paint-cells-error").lower()
    # Paint by dragging along each row.
    for r in range(6):
        cells = [driver.find_element(By.CSS_SELECTOR, f'#paint-grid [data-cell="{r},{c}"]') for c in range(10)]
        chain = ActionChains(driver, duration=10).click_and_hold(cells[0])   # 10 ms a move, not 250
        for cell in cells[1:]:
            chain.move_to_element(cell)
        chain.release().perform()
    assert len(driver.find_elements(By.CSS_SELECTOR, "#paint-grid .cell.on")) == 60
    wait_for(lambda: "pentominoes" in [o.get_attribute("value") for o in
                                       Select(driver.find_element(By.ID, "piece-set")).options], 10,
             "no pentominoes among the piece sets")
    Select(driver.find_element(By.ID, "piece-set")).select_by_value("pentominoes")
    title = driver.find_element(By.ID, "paint-title")
    title.clear()
    title.send_keys("painted 6x10")
    screenshot(driver, "paint", whole=False, at="paint-head")
    driver.find_element(By.ID, "create").click()
    wait_for(lambda: driver.find_element(By.ID, "see-name").text.startswith("i-"), 20,
             lambda: f"no instance created: {text(driver, 'paint-error')!r} {text(driver, 'paint-cells-error')!r}")
    assert text(driver, "see-title") == "painted 6x10"
    assert "pentominoes" in text(driver, "see-toml")
    assert driver.find_elements(By.CSS_SELECTOR, "#see-svg svg")
    # the model's facts, once measured (the see view's picture shows them)
    wait_for(lambda: not text(driver, "see-pending") and driver.find_elements(By.CSS_SELECTOR, "#see-model tr"),
             120, lambda: text(driver, "see-pending"))
    RUNS["count"] = start_run(driver, servers[-1], text(driver, "see-name"), "count")
    assert wait_end(driver, 30) == "done"
    assert found(driver) == 2339


def test_the_gallery_draws_every_card_without_measuring_its_puzzle(browser: webdriver.Chrome,
                                                                   servers: list[Server]) -> None:
    """A card is a picture: scrolled through, the whole gallery is drawn without asking the facts
    process (one puzzle at a time, some 17 s for Eternity's 1.4 million placements) for any of
    its puzzles, so it stays free for the puzzle a user opens (each card had waited up to two
    seconds for facts it does not show)."""
    driver = browser
    open_page(driver, servers[-1], "#pose")
    screenshot(driver, "pose", whole=False)
    total = len(wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#gallery .card"), 30,
                         "no gallery"))
    assert "eternity" in [c.get_attribute("data-name") for c in
                          driver.find_elements(By.CSS_SELECTOR, "#gallery .card")]

    def drawn() -> bool:                  # scrolled card by card, as a reader would
        left = driver.find_elements(By.CSS_SELECTOR, "#gallery .card:not(.drawn)")
        if left:
            driver.execute_script("arguments[0].scrollIntoView()", left[0])
        return not left
    wait_for(drawn, 60, lambda: "undrawn: " + ", ".join(
        c.get_attribute("data-name") for c in
        driver.find_elements(By.CSS_SELECTOR, "#gallery .card:not(.drawn)"))[:300])
    # asked now for the first time, Eternity's facts take longer than the page waits for them
    page = json.loads(servers[-1].get("api/puzzles/eternity"))
    assert page["pending"] is True, page["info"]


def test_enumerate_3x20_shows_two_pictures(browser: webdriver.Chrome, servers: list[Server]) -> None:
    driver = browser
    RUNS["enumerate"] = start_run(driver, servers[-1], "pentomino-3x20", "enumerate")
    assert wait_end(driver, 30) == "done"
    assert found(driver) == 2
    driver.find_element(By.ID, "live-browse").click()
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#solutions .card svg")) == 2, 10,
             "the gallery does not show the 2 solutions")
    screenshot(driver, "browse")


def test_maximise_eternity2_plots_and_scores_its_board(browser: webdriver.Chrome, servers: list[Server],
                                                       tmp_path: Path) -> None:
    driver = browser
    # a second, or ten for the README's picture (a better board to show)
    run = start_run(driver, servers[-1], "eternity2", "maximise", time_limit="10" if SHOTS else "1")
    # a second's maximisation ends by its time limit: the best board so far, not a proved optimum
    assert wait_end(driver, 40) == "partial", text(driver, "live-error")
    RUNS["maximise"] = run
    points = wait_for(lambda: int(driver.find_element(By.ID, "score-line").get_attribute("data-points")), 5,
                      "the score plot has no points")
    assert points >= 1
    assert driver.find_elements(By.CSS_SELECTOR, "#best-board svg")
    shown = int(text(driver, "score").split("/")[0])
    href = wait_for(lambda: driver.find_element(By.ID, "best-json").get_attribute("href"), 10,
                    "no download of the best board")
    board = tmp_path / "best.json"
    with urllib.request.urlopen(href, timeout=30) as resp:
        board.write_bytes(resp.read())
    scored = subprocess.run([sys.executable, "-m", "satiling.cli", "score", "eternity2", str(board)],
                            capture_output=True, text=True, timeout=60)
    assert scored.returncode == 0, scored.stderr
    assert int(re.search(r"score (\d+)/480", scored.stdout).group(1)) == shown
    screenshot(driver, "watch")
    # the run's one answer, on Browse, at the page's width (a 160 px thumbnail of 256 tiles was
    # the picture a maximisation kept), where the two of an enumeration are cards side by side
    sizes = {}
    for task in ("maximise", "enumerate"):
        driver.get(servers[-1].url + f"#browse/{RUNS[task]}")
        sizes[task] = wait_for(lambda: [round(e.rect["height"]) for e in
                                        driver.find_elements(By.CSS_SELECTOR, "#solutions .card svg")
                                        if e.rect["width"] > 0] or None, 10, f"Browse draws no {task} picture")
    assert len(sizes["maximise"]) == 1 and sizes["maximise"][0] >= 500, sizes
    assert len(sizes["enumerate"]) == 2 and max(sizes["enumerate"]) <= 180, sizes     # the CSS's


def test_stop_ends_a_count_within_a_second_and_keeps_it(browser: webdriver.Chrome,
                                                         servers: list[Server]) -> None:
    driver = browser
    RUNS["stopped"] = start_run(driver, servers[-1], "obeirne-hexagon", "count")
    wait_for(lambda: run_state(driver) == "running" and found(driver) > 0, 30, "the count never found any")
    before = found(driver)
    driver.find_element(By.ID, "stop").click()
    clicked = time.monotonic()
    state = wait_end(driver, 5)
    assert time.monotonic() - clicked < 10     # not a timing check: the whole count takes minutes
    assert state == "stopped"
    assert found(driver) >= before
    RUNS["stopped-found"] = str(found(driver))


def test_an_upload_shows_errors_and_titles_as_text(browser: webdriver.Chrome, servers: list[Server]) -> None:
    driver = browser
    open_page(driver, servers[-1], "#pose")
    box = driver.find_element(By.ID, "upload-toml")
    box.send_keys('piece_set = "pentominoes"\n[region]\nrows = 6\ncols = 10\nfredom = 1\n')
    driver.find_element(By.ID, "upload-send").click()
    error = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "#upload .field-error").text, 10,
                     "no error beside the instance box")
    assert "fredom" in error and "Traceback" not in error
    assert "bad" in box.get_attribute("class")
    trap = "<img src=x onerror=\"document.title='ran'\">"
    box.clear()
    box.send_keys(f"title = {json.dumps(trap)}\n" 'piece_set = "pentominoes"\n[region]\nrows = 6\ncols = 10\n')
    driver.find_element(By.ID, "upload-send").click()
    wait_for(lambda: text(driver, "see-title") == trap, 20, lambda: f"not shown as text: {text(driver, 'see-title')!r}")
    assert not driver.find_elements(By.CSS_SELECTOR, "img")
    assert driver.title != "ran"


def test_a_restarted_server_lists_the_runs_and_their_solutions(browser: webdriver.Chrome,
                                                               servers: list[Server], store: Path) -> None:
    driver = browser
    assert {"count", "enumerate", "stopped"} <= RUNS.keys(), "the tests above must run first"
    servers[-1].stop()
    servers.append(Server(store))
    open_page(driver, servers[-1], "#watch")
    ids = {RUNS[k] for k in ("count", "enumerate", "stopped", "maximise") if k in RUNS}

    def listed() -> dict[str, str] | None:
        rows = {row.get_attribute("id")[4:]: row.get_attribute("data-state")
                for row in driver.find_elements(By.CSS_SELECTOR, "#runs tbody tr")}
        return rows if ids <= rows.keys() else None
    rows = wait_for(listed, 10, "the runs are not listed after the restart")
    assert rows[RUNS["count"]] == "done"
    assert rows[RUNS["enumerate"]] == "done"
    assert rows[RUNS["stopped"]] == "stopped"
    if "maximise" in RUNS:             # its best board is kept too
        assert rows[RUNS["maximise"]] == "partial"
        page = json.loads(servers[-1].get(f"api/runs/{RUNS['maximise']}/solutions?offset=0&limit=1"))
        assert page["total"] >= 1
    row = wait_for(lambda: run_row(driver, RUNS["stopped"]), 10, "the stopped run is not listed")
    assert row["found"].replace(",", "") == RUNS["stopped-found"]
    driver.get(servers[-1].url + f"#browse/{RUNS['enumerate']}")
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#solutions .card svg")) == 2, 10,
             "the enumerated solutions are gone after the restart")
    jsonl = servers[-1].get(f"api/runs/{RUNS['enumerate']}/solutions.jsonl").decode().splitlines()
    assert len(jsonl) == 2 and all(json.loads(line) for line in jsonl)
