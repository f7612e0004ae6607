"""The run form's model options in a real browser: one control per option of the puzzle's family
(the table of ``GET /api/meta``), shown where the task takes them; a run started with one set
sends it, gets the answer the brute force gives with it, and names it on Watch, in the runs
table and on Browse; the command line the form shows is one satiling's own parser reads with
the same option.
"""
from __future__ import annotations

import json
import shlex
import sys
import tomllib
from pathlib import Path

from .api import CLUED
from .browser import browser, server  # noqa: F401  (the module's fixtures)
from .browser import (PHONE, WIDE, found, open_page, post_instance, resize, run_row, screenshot, shown,
                      start_run, text, wait_end, wait_for, webdriver)
from selenium.webdriver.common.by import By  # noqa: E402  (after the skip)
from selenium.webdriver.support.ui import Select  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # tests/brute.py
import brute  # noqa: E402


def form_options(driver: webdriver.Chrome) -> list[tuple[str, str, bool]]:
    """The run form's option controls as shown: each one's flag, its label's words and whether
    it can be set; none while their box is hidden."""
    if not shown(driver, "model-options"):
        return []
    return [(label.find_element(By.CSS_SELECTOR, "code").text, label.text,
             label.find_element(By.CSS_SELECTOR, "[data-key]").is_enabled())
            for label in driver.find_elements(By.CSS_SELECTOR, "#model-option-list label")]


def choose(driver: webdriver.Chrome, server, puzzle: str, task: str) -> None:
    open_page(driver, server, f"#watch/{puzzle}")
    wait_for(lambda: Select(driver.find_element(By.ID, "watch-puzzle")).first_selected_option
             .get_attribute("value") == puzzle, 10, f"{puzzle} never selected")
    Select(driver.find_element(By.ID, "task")).select_by_value(task)


def test_an_option_set_in_the_form_reaches_the_run_and_is_named(browser: webdriver.Chrome, server) -> None:
    """The clue of a small board pinned by ``--hints``, ticked in the form: the raw count is the
    brute force's with the clue in place; the run says "with --hints" wherever it is shown."""
    from satiling.cli.parser import build_parser
    driver = browser
    meta = json.loads(server.get("api/meta"))
    name = post_instance(server, CLUED)
    driver.get("about:blank")              # a page loaded before lists the user's puzzles of then
    choose(driver, server, name, "count")
    edge = meta["families"]["edgematch"]["options"]
    shown_options = form_options(driver)
    assert [flag for flag, _, _ in shown_options] == [o["flag"] for o in edge]
    for (flag, words, settable), option in zip(shown_options, edge):
        assert option["label"] in words and flag in words and settable, (flag, words)

    run_id = start_run(driver, server, name, "count", symmetry="none", options={"hints": True})
    # the form's command line, as satiling's parser reads it: the same count, with the clue
    command = shlex.split(text(driver, "run-command-line"))
    args = build_parser().parse_args(command[1:])
    assert (command[:2], args.name, args.raw, args.model_hints) == (["satiling", "count"], f"{name}.toml", True, True)
    assert wait_end(driver, 60) == "done"
    assert found(driver) == brute.edge_answer(tomllib.loads(CLUED), hints=True)[0] == 4
    assert json.loads(server.get(f"api/runs/{run_id}"))["options"] == {"hints": True}
    assert text(driver, "live-options") == "with --hints"
    wait_for(lambda: (run_row(driver, run_id) or {}).get("state") == "done", 10, "the run is not listed")
    task_cell = driver.find_element(By.CSS_SELECTOR, f"#run-{run_id} td.task").text
    assert task_cell == "count with --hints", task_cell
    screenshot(driver, "watch-options", whole=False, at="live")
    open_page(driver, server, f"#browse/{run_id}")
    wait_for(lambda: text(driver, "browse-options") == "with --hints", 10,
             lambda: f"Browse names {text(driver, 'browse-options')!r}")


def test_the_form_offers_the_familys_options_where_the_task_takes_them(browser: webdriver.Chrome,
                                                                       server) -> None:
    """A polyform puzzle offers --parity; forced, whose command takes no model option, none;
    maximise on Eternity II --hints alone (the others are the SAT model's), and its command line
    is ``satiling solve eternity2 --maximize-matches --hints``."""
    driver = browser
    choose(driver, server, "pentomino-6x10", "solve")
    assert [flag for flag, _, on in form_options(driver) if on] == ["--parity"]
    Select(driver.find_element(By.ID, "task")).select_by_value("forced")
    assert form_options(driver) == []
    eternity_with_hints(driver, server)
    assert [flag for flag, _, on in form_options(driver) if on] == ["--hints"]
    assert len(form_options(driver)) == 6
    assert text(driver, "run-command-line") == "satiling solve eternity2 --maximize-matches --time-limit 20 --hints"
    for width in (WIDE, PHONE):
        resize(driver, width, 900 if width == WIDE else 844)
        eternity_with_hints(driver, server)
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        screenshot(driver, f"form-options-eternity2-{width}", whole=False, at="start-panel")
        choose(driver, server, "pentomino-6x10", "count")
        driver.find_element(By.ID, "option-parity").click()
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        screenshot(driver, f"form-options-pentomino-{width}", whole=False, at="start-panel")
    resize(driver, WIDE, 900)


def eternity_with_hints(driver: webdriver.Chrome, server) -> None:
    """The form set for Eternity II's scoring search with its clue pieces, for 20 seconds."""
    choose(driver, server, "eternity2", "maximise")
    hints = driver.find_element(By.ID, "option-hints")
    if not hints.is_selected():
        hints.click()
    driver.find_element(By.ID, "time-limit").clear()
    driver.find_element(By.ID, "time-limit").send_keys("20")
