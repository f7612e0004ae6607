"""The Watch form and the Browse view show one run, or one puzzle, and nothing of another, in a
real browser.

A run started elsewhere (See's workbench, a share link's run) is shown with the form set as the
run was (its puzzle, a share text included, its task, engine, count and limit): its command line
is the run's and Start repeats it, as the server's record of the new run says. Watch with no
puzzle asks for one (Start runs nothing); with a puzzle last seen on See it offers that one. An
unknown run is said to be unknown, with none of another run's title, outcome or links; a new
run's first paint holds none of the run before. A run with no time limit on a puzzle whose file
says no solution is known (Eternity II) is warned of on the form.
"""
from __future__ import annotations

import json
import shlex

from .browser import server, browser  # noqa: F401  (the module's fixtures)
from .browser import (Server, open_page, screenshot, shown, start_run, text, wait_end, wait_for, webdriver)
from .test_browser_workbench import X_CELLS, choose, cell, pinned, see
from selenium.webdriver.common.by import By  # noqa: E402  (after the skip)
from selenium.webdriver.support.ui import Select  # noqa: E402

#: a run id no server made
UNKNOWN = "r-000000000000"


def record(server: Server, run_id: str) -> dict:
    return json.loads(server.get(f"api/runs/{run_id}"))


def runs(server: Server) -> list[dict]:
    return json.loads(server.get("api/runs"))


def form(driver: webdriver.Chrome) -> dict:
    """The run form as it stands: each menu's value, the time limit and the command line."""
    value = lambda i: driver.find_element(By.ID, i).get_attribute("value")  # noqa: E731
    return {"puzzle": value("watch-puzzle"), "task": value("task"), "engine": value("engine"),
            "time_limit": value("time-limit"), "symmetry": value("symmetry"),
            "command": text(driver, "run-command-line") if shown(driver, "run-command") else ""}


def fresh(driver: webdriver.Chrome, server: Server, route: str) -> None:
    """ROUTE opened in a page loaded anew (nothing kept from the tests before)."""
    driver.get("about:blank")
    open_page(driver, server, route)


def pin_x(driver: webdriver.Chrome, server: Server) -> None:
    see(driver, server, "pentomino-6x10")
    choose(driver, "X")
    cell(driver, 1, 2).click()
    wait_for(lambda: pinned(driver) == X_CELLS, 5, lambda: f"X not pinned: {pinned(driver)}")


def follows(driver: webdriver.Chrome, run: dict) -> bool:
    """Whether the form is set as RUN was (its engine where the menu has it)."""
    now = form(driver)
    return (now["puzzle"], now["task"]) == (run["puzzle"], run["task"]) and now["engine"] in (run["engine"], "auto")


def test_a_workbench_count_sets_the_form_and_start_repeats_it(browser: webdriver.Chrome, server: Server) -> None:
    """A count with X pinned, started on See, is followed on Watch with the form on its puzzle
    (the pinned share text, not the first of the list), its task and its raw count; the command
    line is `satiling count <share text> --raw`; Start runs the same count again (389 raw
    tilings, as the workbench's own test counts it). Opened anew (the share text in no list of
    the page), the run's page sets the form the same way."""
    driver = browser
    pin_x(driver, server)
    driver.find_element(By.ID, "wb-count").click()
    wait_for(lambda: driver.execute_script("return location.hash").startswith("#run/"), 20,
             lambda: f"no run: {text(driver, 'wb-error')!r}")
    first = driver.execute_script("return decodeURIComponent(location.hash.slice(5))")
    assert wait_end(driver, 60) == "done"
    run = record(server, first)
    assert run["puzzle"].startswith("satiling:") and run["raw"]
    wait_for(lambda: follows(driver, run), 20, lambda: f"the form is not the run's: {form(driver)}")
    now = form(driver)
    assert now["symmetry"] == "none" and now["time_limit"] == ""
    words = shlex.split(now["command"])
    assert words[:3] == ["satiling", "count", run["puzzle"]] and "--raw" in words, words
    screenshot(driver, "watch-form-follows-workbench-run")
    before = {r["id"] for r in runs(server)}
    start = driver.find_element(By.ID, "run-start")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", start)
    start.click()
    wait_for(lambda: driver.execute_script("return location.hash") != f"#run/{first}", 20,
             lambda: f"Start started nothing: {text(driver, 'run-error')!r}")
    again = driver.execute_script("return decodeURIComponent(location.hash.slice(5))")
    assert again not in before
    assert wait_end(driver, 60) == "done"
    repeat = record(server, again)
    assert {k: repeat[k] for k in ("puzzle", "task", "raw", "symmetry", "time_limit", "options", "found")} \
        == {k: run[k] for k in ("puzzle", "task", "raw", "symmetry", "time_limit", "options", "found")}
    assert repeat["found"] == 389
    fresh(driver, server, f"#run/{first}")
    wait_for(lambda: follows(driver, run), 20, lambda: f"opened anew, the form is not the run's: {form(driver)}")
    assert shlex.split(form(driver)["command"])[:3] == ["satiling", "count", run["puzzle"]]


def test_a_run_sets_engine_limit_and_options(browser: webdriver.Chrome, server: Server) -> None:
    """A run with an engine, a time limit and a model option, opened anew on its page: the
    form has each, and the command line says them."""
    driver = browser
    run_id = start_run(driver, server, "pentomino-3x20", "count", time_limit="30", engine="sat", symmetry="",
                       options={"parity": True})
    wait_end(driver, 60)
    fresh(driver, server, "#watch/boat")              # the form elsewhere first
    open_page(driver, server, f"#run/{run_id}")
    run = record(server, run_id)
    wait_for(lambda: follows(driver, run) and form(driver)["engine"] == "sat", 20,
             lambda: f"the form is not the run's: {form(driver)}")
    assert driver.find_element(By.ID, "option-parity").is_selected()
    assert form(driver)["command"] == "satiling count pentomino-3x20 --engine sat --time-limit 30 --parity"


def test_watch_with_no_puzzle_asks_for_one(browser: webdriver.Chrome, server: Server) -> None:
    """Opened with no puzzle and no run, the form has none chosen (it had Boat, the first of
    the list, which a Start ran): no command line, and Start says to choose one and runs
    nothing. After See of a puzzle, Watch offers that puzzle."""
    driver = browser
    fresh(driver, server, "#watch")
    assert form(driver)["puzzle"] == "" and form(driver)["command"] == ""
    assert Select(driver.find_element(By.ID, "watch-puzzle")).first_selected_option.text == "choose a puzzle…"
    before = len(runs(server))
    driver.find_element(By.ID, "run-start").click()
    wait_for(lambda: "Choose the puzzle" in driver.find_element(By.ID, "start-panel").text, 10,
             "Start with no puzzle said nothing")
    screenshot(driver, "watch-no-puzzle")
    assert len(runs(server)) == before
    open_page(driver, server, "#see/pentomino-3x20")
    wait_for(lambda: text(driver, "see-title"), 20, "See showed no puzzle")
    driver.find_element(By.ID, "nav-watch").click()
    wait_for(lambda: form(driver)["puzzle"] == "pentomino-3x20", 10, lambda: f"Watch offers {form(driver)}")
    assert form(driver)["command"] == "satiling solve pentomino-3x20"


def test_an_unknown_run_shows_nothing_of_another(browser: webdriver.Chrome, server: Server) -> None:
    """Browse of an unknown run, reached from a run's page or opened anew, says it is unknown
    with a way back, and shows no title, outcome, JSON Lines link or pager (it kept the run
    before's "459 / 480" title and offered its links); Watch's page of it shows no figures."""
    driver = browser
    known = start_run(driver, server, "pentomino-3x20", "enumerate")
    wait_end(driver, 60)
    open_page(driver, server, f"#browse/{known}")
    wait_for(lambda: known in text(driver, "browse-id") and text(driver, "browse-state"), 20, "Browse of a run")
    for route in (f"#browse/{UNKNOWN}", None):
        if route:
            open_page(driver, server, route)               # from the known run's page
        else:
            fresh(driver, server, f"#browse/{UNKNOWN}")
        wait_for(lambda: shown(driver, "browse-unknown"), 20, "the unknown run is not said")
        assert UNKNOWN in text(driver, "browse-unknown")
        assert driver.find_element(By.CSS_SELECTOR, '#browse-unknown a[href="#watch"]')
        for part in ("browse-body", "browse-title", "browse-state", "jsonl", "page-prev", "page-next", "solutions"):
            assert not shown(driver, part), part
        assert known not in driver.find_element(By.ID, "view-browse").text
    screenshot(driver, "browse-unknown-run")
    open_page(driver, server, f"#run/{UNKNOWN}")
    wait_for(lambda: f"There is no run {UNKNOWN}" in text(driver, "live-error"), 20, "Watch does not say the run is unknown")
    for part in ("run-state", "found", "elapsed", "run-outcome"):
        assert not shown(driver, part), part


#: each change of the live panel and the runs table: the run shown, its state and outcome, and
#: the table's marked row with its state
WATCH_CHANGES = """
window.watchChanges = [];
new MutationObserver(() => {
  const g = (i) => document.getElementById(i).textContent;
  const row = document.querySelector('#runs tr.current');
  window.watchChanges.push({id: g('live-id'), state: g('run-state'), outcome: g('run-outcome'),
                            row: row ? row.id.slice(4) : null, rowState: row ? row.dataset.state : null});
}).observe(document.getElementById('view-watch'), {subtree: true, childList: true, characterData: true});
"""


def test_a_new_run_shows_none_of_the_run_before(browser: webdriver.Chrome, server: Server) -> None:
    """After a count its time limit cut (partial), Start of a solve: from the first change the
    new run is shown, nothing on the view is the partial run's (the table went on marking it,
    "partial", beside the new run's outcome)."""
    driver = browser
    before = start_run(driver, server, "obeirne-hexagon", "count", time_limit="1")
    assert wait_end(driver, 60) == "partial"
    driver.execute_script(WATCH_CHANGES)
    Select(driver.find_element(By.ID, "task")).select_by_value("solve")
    driver.find_element(By.ID, "time-limit").clear()
    driver.find_element(By.ID, "run-start").click()
    wait_for(lambda: driver.execute_script("return location.hash") != f"#run/{before}", 20, "no new run")
    new = driver.execute_script("return decodeURIComponent(location.hash.slice(5))")
    assert wait_end(driver, 60) == "done"
    changes = driver.execute_script("return window.watchChanges")
    shown_new = [c for c in changes if c["id"] == new]
    assert shown_new, changes
    for change in shown_new:
        assert change["row"] in (None, new) and change["state"] in ("", "queued", "running", "done"), change
        assert "Partial" not in change["outcome"], change


def test_a_run_that_may_never_end_is_warned_of(browser: webdriver.Chrome, server: Server) -> None:
    """Eternity II (its file: no solution is known) with no time limit: the form warns that the
    run may never end and holds a core, for a solve and a count; a time limit takes the warning
    away; a puzzle that solves (the 6x10 pentominoes) has none."""
    driver = browser
    fresh(driver, server, "#watch/eternity2")
    wait_for(lambda: form(driver)["puzzle"] == "eternity2", 20, "eternity2 not chosen")
    for task in ("solve", "count"):
        Select(driver.find_element(By.ID, "task")).select_by_value(task)
        wait_for(lambda: "may never end" in text(driver, "run-warning"), 20,
                 lambda: f"no warning for {task}: {text(driver, 'run-warning')!r}")
        assert "No solution of this puzzle is known" in text(driver, "run-warning")
    screenshot(driver, "watch-warning-eternity2")
    limit = driver.find_element(By.ID, "time-limit")
    limit.send_keys("60")
    wait_for(lambda: not shown(driver, "run-warning"), 10, "the warning stays with a time limit")
    limit.clear()
    wait_for(lambda: shown(driver, "run-warning"), 10, "no warning once the limit is cleared")
    Select(driver.find_element(By.ID, "watch-puzzle")).select_by_value("pentomino-6x10")
    wait_for(lambda: not shown(driver, "run-warning"), 10, "a puzzle that solves is warned of")
