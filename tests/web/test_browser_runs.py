"""The Watch and Browse views tell what a run is doing and how it ended, in a real browser.

A run ends as one of four states, each worded and coloured its own way: done (the search
finished: the bar full), partial (a time limit cut it: the count so far, or "no answer in N s"),
stopped (the Stop button), failed. The clock moves at every progress tick in every task, a bar
shows the share of the time limit used, a solve shows its solution and a count the latest one
found and the board the engine is working on; the score plot is a maximisation's only; Browse
follows a run to its end. Counts are checked against published ones (2 for the 3x20 pentomino
board, 16146 for 8x8 with the square: Goodger's Polyform Puzzler), a shown solution by
`satiling verify`.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from .browser import server, browser  # noqa: F401  (the module's fixtures)
from .browser import (ENDS, Server, elapsed, found, open_page, run_row, run_state, screenshot, shown,
                      start_run, text, value, wait_end, wait_for, webdriver)
from selenium.webdriver.common.by import By  # noqa: E402  (after the skip)
from selenium.webdriver.support.ui import Select  # noqa: E402


#: the colour each end state was shown in, as the runs below met them
COLOURS: dict[str, str] = {}


def colour(driver: webdriver.Chrome) -> str:
    return driver.find_element(By.ID, "run-state").value_of_css_property("color")


def record(server: Server, run_id: str) -> dict:
    return json.loads(server.get(f"api/runs/{run_id}"))


def while_running(driver: webdriver.Chrome, sample: Callable[[], object], seconds: float) -> list:
    """``sample()`` every 0.2 s from the run's start to its end."""
    wait_for(lambda: run_state(driver) in ("running",) + ENDS, 30, "the run never started")
    samples = []
    deadline = time.monotonic() + seconds
    while run_state(driver) == "running" and time.monotonic() < deadline:
        taken = sample()
        if run_state(driver) != "running":       # it ended meanwhile: the sample may be the end's
            break
        samples.append(taken)
        time.sleep(0.2)
    return samples


def clock_and_bar(driver: webdriver.Chrome) -> tuple[float, float]:
    """The clock (seconds) and the time-limit bar, read at one moment."""
    words, bar = driver.execute_script(
        "return [document.getElementById('elapsed').textContent, document.getElementById('time-bar').value]")
    minutes = re.search(r"(\d+) min", words)
    return (int(minutes.group(1)) * 60 if minutes else 0) + float(re.search(r"([\d.]+) s", words).group(1)), float(bar)


def rising(values: list[float], least: int) -> bool:
    """At least ``least`` different values, never going back."""
    return len(set(values)) >= least and values == sorted(values)


def test_a_count_cut_by_its_time_limit_is_partial_and_its_clock_and_bar_move(
        browser: webdriver.Chrome, server: Server) -> None:
    """O'Beirne's hexagon has some 124,000 solutions: 3 s of counting is part of the count. The
    old page said "done" in green with the bar full."""
    driver = browser
    run = start_run(driver, server, "obeirne-hexagon", "count", time_limit="3")
    samples = while_running(driver, lambda: clock_and_bar(driver), 30)
    clocks, shares = [s[0] for s in samples], [s[1] for s in samples]
    assert rising(clocks, 3), clocks                       # the clock moves while it runs
    assert rising(shares, 3) and 0 < shares[-1] <= 1, shares   # the share of the limit used
    assert not shown(driver, "maximise-box")                # no score plot for a count
    assert wait_end(driver, 30) == "partial"
    COLOURS["partial"] = colour(driver)
    kept = record(server, run)
    assert kept["stop"] == "time" and found(driver) == kept["found"] > 0
    outcome = text(driver, "run-outcome")
    assert f"{kept['found']:,} solutions (up to the board's symmetries) counted so far" in outcome
    assert "not the whole count" in outcome
    assert value(driver, "progress") < 1                     # the search bar: not finished
    assert "finished" not in text(driver, "progress-text")
    assert elapsed(driver) >= 3.0
    row = wait_for(lambda: run_row(driver, run), 10, "the run is not listed")
    assert row["state"] == "partial"
    assert not row["solutions"]            # a count keeps no solutions: no link to a page of them
    assert not shown(driver, "live-browse")


def test_a_finished_count_is_done_with_the_bar_full(browser: webdriver.Chrome, server: Server) -> None:
    driver = browser
    start_run(driver, server, "pentomino-3x20", "count")
    assert wait_end(driver, 30) == "done"
    assert found(driver) == 2                                # Knuth, Dancing Links (2000)
    assert value(driver, "progress") == 1
    assert "2 solutions (up to the board's symmetries), the whole search" in text(driver, "run-outcome")
    start_run(driver, server, "pentomino-3x20", "count", symmetry="none")
    assert wait_end(driver, 30) == "done"
    assert found(driver) == 8                                # every rotation and reflection
    assert "8 solutions (each rotation and reflection apart), the whole search" in text(driver, "run-outcome")
    COLOURS["done"] = colour(driver)


def test_a_solve_without_an_answer_in_its_time_says_so(browser: webdriver.Chrome, server: Server) -> None:
    """Eternity II is not solved in a second: the old page said "done" for this."""
    driver = browser
    start_run(driver, server, "eternity2", "solve", time_limit="1")
    assert wait_end(driver, 30) == "partial"
    assert text(driver, "run-outcome") == "No answer in 1 s: the time limit ended the search."
    assert not shown(driver, "solution-box")


def test_stop_is_stopped_and_each_end_has_a_colour_of_its_own(browser: webdriver.Chrome,
                                                              server: Server) -> None:
    driver = browser
    run = start_run(driver, server, "obeirne-hexagon", "count")
    wait_for(lambda: run_state(driver) == "running" and found(driver) > 0, 30, "the count never found any")
    driver.find_element(By.ID, "stop").click()
    assert wait_end(driver, 10) == "stopped"
    assert "not the whole count" in text(driver, "run-outcome")
    assert found(driver) == record(server, run)["found"]
    COLOURS["stopped"] = colour(driver)
    # a failed run cannot be had on purpose from the page: its colour as the page's style gives it
    COLOURS["failed"] = driver.execute_script(
        "const s = document.createElement('span'); s.className = 'state state-failed';"
        "document.body.append(s); const c = getComputedStyle(s).color; s.remove(); return c")
    assert COLOURS.keys() == {"done", "partial", "stopped", "failed"}, "the runs above must run first"
    assert len(set(COLOURS.values())) == 4, COLOURS


def test_a_solve_shows_its_solution_and_it_verifies(browser: webdriver.Chrome, server: Server,
                                                   tmp_path: Path) -> None:
    """The old page showed nothing of a solve's answer on Watch: one had to go to Browse."""
    driver = browser
    run = start_run(driver, server, "pentomino-6x10", "solve")
    assert wait_end(driver, 30) == "done"
    wait_for(lambda: shown(driver, "solution-box") and driver.find_elements(By.CSS_SELECTOR, "#solution-board svg"),
             10, "no solution on the Watch view")
    assert "solution" in text(driver, "solution-caption").lower()
    answer = tmp_path / "answer.jsonl"
    answer.write_bytes(server.get(f"api/runs/{run}/solutions/0.json"))
    checked = subprocess.run([sys.executable, "-m", "satiling.cli", "verify", "pentomino-6x10", str(answer)],
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0 and "1 solution verified" in checked.stdout, checked.stdout + checked.stderr
    shown_svg = driver.find_element(By.CSS_SELECTOR, "#solution-board svg").get_attribute("outerHTML")
    stored_svg = server.get(f"api/runs/{run}/solutions/0.svg").decode()
    assert _pieces(shown_svg) == _pieces(stored_svg) != ""     # the same picture
    assert not shown(driver, "maximise-box")


def _pieces(svg: str) -> str:
    """The letters an SVG writes, in order: what tells one drawn solution from another."""
    return "".join(re.findall(r"<text[^>]*>([^<]*)</text>", svg))


def test_a_count_shows_the_board_at_work(browser: webdriver.Chrome, server: Server) -> None:
    """The 12 pentominoes and the square in 8x8, counted (16146: Goodger): while it runs the page
    shows the board the engine stands on, a few pictures a second (a count hears how many
    solutions, not which: its picture is the search's board)."""
    driver = browser
    start_run(driver, server, "pentomino-8x8-square", "count")
    pictured: list[bool] = []

    def board_now() -> str:
        board = driver.execute_script(       # read at once: the page replaces it a few times a second
            "const b = document.querySelector('#partial-board svg'); return b ? b.outerHTML : ''")
        if board and elapsed(driver) > 1.0 and not pictured:
            screenshot(driver, "live", whole=False)      # the README's picture: a count at work
            pictured.append(True)
        return board
    samples = while_running(driver, board_now, 60)
    pictures = {board for board in samples if board}
    assert len(pictures) >= 2, f"{len(pictures)} partial boards seen in {len(samples)} looks"
    assert wait_end(driver, 60) == "done"
    assert found(driver) == 16146
    assert int(driver.find_element(By.ID, "partial-board").get_attribute("data-snapshots")) >= 2
    # finished, the search has no board at work any more
    wait_for(lambda: not shown(driver, "partial-box"), 5, "the board at work is still shown after the end")
    assert not shown(driver, "maximise-box")


def test_an_enumeration_shows_the_latest_solution_found(browser: webdriver.Chrome, server: Server) -> None:
    """While O'Beirne's hexagon is enumerated the Watch view shows the latest solution found, its
    number rising; each such solution is one the run keeps."""
    driver = browser

    def latest() -> int | None:
        number = re.search(r"no\. ([\d,]+)", text(driver, "solution-caption")) if shown(driver, "solution-box") else None
        return int(number.group(1).replace(",", "")) if number else None
    for limit in ("3", "10", "30"):        # a loaded machine may show one solution in 3 s: longer
        run = start_run(driver, server, "obeirne-hexagon", "enumerate", time_limit=limit)
        numbers = [n for n in while_running(driver, latest, 60) if n is not None]
        assert numbers == sorted(numbers), numbers
        assert wait_end(driver, 60) == "partial"
        assert not numbers or numbers[-1] <= record(server, run)["found"]
        if len(set(numbers)) >= 2:
            break
    assert len(set(numbers)) >= 2, numbers


def test_maximise_has_its_plot_and_a_clock_that_moves(browser: webdriver.Chrome, server: Server) -> None:
    """The old page's clock read 0.0 s from the start of a maximisation to its end.  (6 s: its
    model takes a second or two of them, more on a busy machine, before the clock is sampled.)"""
    driver = browser
    start_run(driver, server, "eternity2", "maximise", time_limit="6")
    # the engine "auto" chose, named while the run goes (its label in the menu's words)
    wait_for(lambda: run_state(driver) == "running" and text(driver, "live-engine").startswith("backtrack"),
             20, lambda: f"the engine while running: {text(driver, 'live-engine')!r}")
    samples = while_running(driver, lambda: clock_and_bar(driver), 30)
    assert rising([s[0] for s in samples], 3), samples
    assert rising([s[1] for s in samples], 3), samples
    assert shown(driver, "maximise-box") and not shown(driver, "found-box")
    assert wait_end(driver, 30) == "partial"          # the best board in the time given
    assert "the best board so far scores" in text(driver, "run-outcome")
    wait_for(lambda: int(driver.find_element(By.ID, "score-line").get_attribute("data-points")), 5,
             "the score plot has no points")


def test_browse_follows_a_run_to_its_end(browser: webdriver.Chrome, server: Server) -> None:
    """Opened while an enumeration runs, Browse says so, then says how it ended, unprompted (the
    old page said "running" until reloaded)."""
    driver = browser
    run = start_run(driver, server, "obeirne-hexagon", "enumerate", time_limit="3")
    open_page(driver, server, f"#browse/{run}")
    states = []

    def ended() -> bool:
        states.append(driver.find_element(By.ID, "browse-state").get_attribute("data-state"))
        return states[-1] in ENDS
    wait_for(ended, 30, lambda: f"Browse never showed the end: {states[-5:]}")
    assert "running" in states, states
    assert states[-1] == "partial"
    assert "so far" not in text(driver, "page-info")
    kept = record(server, run)["found"]                      # what the stop kept, all of it shown
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#solutions .card svg")) == min(kept, 24), 10,
             lambda: f"{len(driver.find_elements(By.CSS_SELECTOR, '#solutions .card svg'))} solutions drawn of {kept}")
    assert "not all of them" in text(driver, "browse-state")
    if kept > 24:               # the pager below the page too: the next page, from its top
        assert text(driver, "page-info-end") == text(driver, "page-info")
        driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        driver.find_element(By.ID, "page-next-end").click()
        wait_for(lambda: text(driver, "page-info").startswith("25–"), 10, lambda: text(driver, "page-info"))
        assert driver.execute_script("return document.getElementById('browse-body')"
                                     ".getBoundingClientRect().top") < 200
    open_page(driver, server, "#watch")
    row = wait_for(lambda: run_row(driver, run), 10, "the run is not listed")
    assert row["solutions"]                                   # an enumeration keeps its solutions
