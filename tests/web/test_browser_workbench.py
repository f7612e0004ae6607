"""The workbench on See, in a real browser: pieces pinned by hand (a clash refused, undo and
redo), then counted (389 raw tilings of the 6x10 box with X where the CLI's example pins it:
`satiling count` of that instance, itself checked against an enumeration in the CLI's tests),
the forced placements drawn, the share link opened on a second server with an empty store, and
the PNG links serving PNG.
"""
from __future__ import annotations

import json
import re
from typing import Iterator

import pytest

from .browser import server, browser  # noqa: F401  (the module's fixtures)
from .browser import (Server, open_page, screenshot, resize, PHONE, WIDE, text, wait_end, wait_for,
                      webdriver, found)
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402  (after the skip)
from selenium.webdriver.common.by import By  # noqa: E402

X_CELLS = [[0, 2], [1, 1], [1, 2], [1, 3], [2, 2]]


@pytest.fixture(scope="module")
def second(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Another server, its store empty: it never saw a puzzle the first one made."""
    running = Server(tmp_path_factory.mktemp("other") / "y.sqlite")
    yield running
    running.stop()


def cell(driver: webdriver.Chrome, r: int, c: int):
    return driver.find_element(By.CSS_SELECTOR, f'#wb-board polygon[data-cell="{r},{c}"]')


def pinned(driver: webdriver.Chrome) -> list[list[int]]:
    return sorted(json.loads("[" + p.get_attribute("data-cell") + "]")
                  for p in driver.find_elements(By.CSS_SELECTOR, "#wb-board polygon.pinned"))


def choose(driver: webdriver.Chrome, piece: str) -> None:
    driver.find_element(By.CSS_SELECTOR, f'.wb-piece[data-piece="{piece}"]').click()
    wait_for(lambda: text(driver, "wb-orientation").startswith(piece), 5, f"{piece} not chosen")


def first_bytes(driver: webdriver.Chrome, element_id: str) -> list[int]:
    """The first 8 bytes of what the link with ``element_id`` serves, fetched by the page."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(document.getElementById(arguments[0]).href).then(r => r.arrayBuffer())"
        ".then(b => done([...new Uint8Array(b).slice(0, 8)])).catch(e => done(String(e)));", element_id)


PNG = list(b"\x89PNG\r\n\x1a\n")


def see(driver: webdriver.Chrome, server: Server, name: str) -> None:
    open_page(driver, server, f"#see/{name}")
    wait_for(lambda: driver.execute_script(
        "const b = document.getElementById('wb-board');"
        "return b.dataset.name === arguments[0] && b.querySelector('polygon') !== null", name),
        20, f"no workbench board of {name}")


def test_pin_by_hand_refuse_a_clash_undo_redo_count_and_forced(browser, server) -> None:
    driver = browser
    see(driver, server, "pentomino-6x10")
    assert first_bytes(driver, "picture-png") == PNG                       # the puzzle as PNG
    assert len(driver.find_elements(By.CSS_SELECTOR, "#wb-board polygon")) == 60
    choose(driver, "X")
    ActionChains(driver).move_to_element(cell(driver, 1, 2)).perform()     # the preview
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#wb-board .preview")) == 5, 5, "no preview")
    cell(driver, 1, 2).click()
    wait_for(lambda: pinned(driver) == X_CELLS, 5, lambda: f"X not pinned: {pinned(driver)}")
    choose(driver, "I")                      # an I held at [2,3] crosses X either way it lies
    cell(driver, 2, 3).click()
    assert text(driver, "wb-error") == "refused: I would overlap the pinned X (in red)", text(driver, "wb-error")
    assert pinned(driver) == X_CELLS
    cell(driver, 5, 5).click()               # clear of X: pinned
    wait_for(lambda: len(pinned(driver)) == 10, 5, "I not pinned")
    with_i = pinned(driver)
    screenshot(driver, "workbench-pins", whole=False, at="workbench")
    driver.find_element(By.ID, "wb-undo").click()
    assert pinned(driver) == X_CELLS
    driver.find_element(By.ID, "wb-redo").click()
    assert pinned(driver) == with_i
    driver.find_element(By.ID, "wb-undo").click()
    assert pinned(driver) == X_CELLS and not driver.find_element(By.ID, "wb-undo").get_attribute("disabled")
    driver.find_element(By.ID, "wb-forced").click()
    wait_for(lambda: driver.find_element(By.ID, "wb-result").get_attribute("data-count"), 60,
             lambda: f"no forced answer: {text(driver, 'wb-result')!r} {text(driver, 'wb-error')!r}")
    assert text(driver, "wb-result").startswith("Nothing is forced beyond the 1 pinned piece, proved by"), \
        text(driver, "wb-result")                                 # X is pinned: nothing more is forced
    drawn = driver.find_element(By.CSS_SELECTOR, "#wb-picture svg").get_attribute("outerHTML")
    assert drawn.count("<title>X") or ">X<" in drawn                     # the forced X drawn
    screenshot(driver, "workbench-forced", whole=False, at="workbench")
    driver.execute_script("document.getElementById('wb-result').removeAttribute('data-count')")
    driver.find_element(By.ID, "wb-hint").click()              # one placement more, not the pin
    wait_for(lambda: driver.find_element(By.ID, "wb-result").get_attribute("data-count"), 60,
             lambda: f"no hint: {text(driver, 'wb-result')!r} {text(driver, 'wb-error')!r}")
    # the hint is named as the board shows it (it said "F on [0,4] [1,3] ...", coordinates the
    # board does not draw) and outlined in orange among the pins
    hint = re.match(r"A hint: (\w), outlined in orange on the board\.", text(driver, "wb-result"))
    assert hint and hint.group(1) != "X" and "[" not in text(driver, "wb-result"), text(driver, "wb-result")
    marked = driver.find_elements(By.CSS_SELECTOR, "#wb-picture svg g.marked")
    assert [g.find_element(By.TAG_NAME, "title").get_attribute("textContent") for g in marked] == [hint.group(1)]
    screenshot(driver, "workbench-hint")
    driver.find_element(By.ID, "wb-count").click()
    wait_for(lambda: driver.execute_script("return location.hash").startswith("#run/"), 20,
             lambda: f"no run: {text(driver, 'wb-error')!r}")
    assert wait_end(driver, 60) == "done"
    assert found(driver) == 389                # satiling count --raw of the pinned instance


def test_the_share_link_opens_the_pinned_puzzle_on_a_server_with_an_empty_store(browser, server, second) -> None:
    driver = browser
    see(driver, server, "pentomino-6x10")
    if pinned(driver) != X_CELLS:
        driver.find_element(By.ID, "wb-clear").click()
        choose(driver, "X")
        cell(driver, 1, 2).click()
    driver.find_element(By.ID, "wb-apply").click()
    wait_for(lambda: driver.execute_script("return location.hash").startswith("#see/satiling:"), 20,
             lambda: f"not opened: {text(driver, 'wb-error')!r}")
    # the view has the shared puzzle (its title says what is pinned) and its link (its own address)
    wait_for(lambda: text(driver, "see-title") == "12 pentominoes in a 6x10 rectangle, X pinned", 20,
             lambda: f"the shared puzzle is not shown: {text(driver, 'see-title')!r}")
    hash_ = driver.execute_script("return location.hash")
    link = wait_for(lambda: (driver.find_element(By.ID, "share-link").get_attribute("href") or "")
                    .endswith(hash_) and driver.find_element(By.ID, "share-link").get_attribute("href"),
                    20, "no share link of the shared puzzle")
    assert link == server.url + hash_ and "#see/satiling:1" in link and "token" not in link
    here = driver.find_element(By.ID, "see-svg").get_attribute("innerHTML")
    wait_for(lambda: pinned(driver) == X_CELLS, 20, "the pins are not on the shared puzzle's board")
    screenshot(driver, "workbench-share", whole=False, at="see-title")
    assert json.loads(second.get("api/instances")) == []                  # it never saw it
    driver.get(second.url + link[len(server.url):])
    wait_for(lambda: driver.execute_script("return document.body.dataset.ready"), 20, "not ready")
    wait_for(lambda: driver.find_element(By.ID, "see-svg").get_attribute("innerHTML") == here, 20,
             "the second server draws another puzzle")
    wait_for(lambda: pinned(driver) == X_CELLS, 20, "the second server's board lacks the pin")
    assert text(driver, "see-title") and driver.find_element(By.ID, "share-link").get_attribute("href") \
        == second.url + link[len(server.url):]


def answer(driver: webdriver.Chrome, button: str) -> str:
    """What the workbench says once the question of ``button`` (wb-forced, wb-hint) is answered."""
    driver.execute_script("document.getElementById('wb-result').removeAttribute('data-count')")
    driver.find_element(By.ID, button).click()
    wait_for(lambda: driver.find_element(By.ID, "wb-result").get_attribute("data-count"), 60,
             lambda: f"no answer to {button}: {text(driver, 'wb-result')!r} {text(driver, 'wb-error')!r}")
    return text(driver, "wb-result")


def test_with_pins_that_leave_no_solution_forced_and_hint_say_so_alike(browser, server) -> None:
    """X pinned in the corner's way, [0, 0] cut off: "What every solution holds" said "No
    solution with these pins." and "Hint" "no solution: cell (0, 0) ...: nothing to hint at".
    Both now say the one sentence, with the reason (the argument before any search)."""
    driver = browser
    see(driver, server, "pentomino-6x10")
    driver.find_element(By.ID, "wb-clear").click()
    choose(driver, "X")
    cell(driver, 1, 1).click()
    wait_for(lambda: pinned(driver) == [[0, 1], [1, 0], [1, 1], [1, 2], [2, 1]], 5,
             lambda: f"X not pinned: {pinned(driver)}")
    said = "No solution with the pinned pieces: cell (0, 0) is covered by no placement."
    assert answer(driver, "wb-forced") == said
    screenshot(driver, "workbench-no-solution", whole=False, at="workbench")
    assert answer(driver, "wb-hint") == said
    driver.find_element(By.ID, "wb-clear").click()


def test_png_links_beside_the_svg_ones_serve_png(browser, server) -> None:
    driver = browser
    open_page(driver, server, "#watch/pentomino-3x20")
    from .browser import start_run
    run = start_run(driver, server, "pentomino-3x20", "enumerate")
    assert wait_end(driver, 60) == "done"
    open_page(driver, server, f"#browse/{run}")
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#solutions .card")) == 2, 20, "no solutions")
    links = driver.find_elements(By.CSS_SELECTOR, "#solutions .card .links a")
    assert [a.text for a in links] == ["SVG", "PNG", "JSON"] * 2
    for k, a in enumerate(a for a in links if a.text == "PNG"):
        driver.execute_script("arguments[0].id = arguments[1]", a, f"png-{k}")
        assert re.search(rf"/solutions/{k}\.png", a.get_attribute("href"))
        assert first_bytes(driver, f"png-{k}") == PNG


def test_the_workbench_at_phone_width(browser, server) -> None:
    driver = browser
    resize(driver, PHONE, 844)
    try:
        see(driver, server, "pentomino-6x10")
        width = driver.execute_script("return document.getElementById('wb-board').getBoundingClientRect().right")
        assert width <= PHONE, width                                        # the board fits
        screenshot(driver, "workbench-phone", whole=False, at="workbench")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        resize(driver, WIDE, 900)


@pytest.mark.parametrize("name, size", [("hexiamond-6x6", 6), ("tetrahex-4x7", 4)])
def test_pins_by_hand_on_the_triangle_and_hexagon_lattices(browser, server, name, size) -> None:
    """A piece pinned where the pointer holds it: its cells (the piece's size of them) pinned,
    the cell clicked among them; a second click takes it off."""
    driver = browser
    see(driver, server, name)
    first = driver.find_element(By.CSS_SELECTOR, ".wb-piece").get_attribute("data-piece")
    choose(driver, first)
    polys = driver.find_elements(By.CSS_SELECTOR, "#wb-board polygon")
    target = polys[len(polys) // 2]
    at = json.loads("[" + target.get_attribute("data-cell") + "]")
    target.click()
    wait_for(lambda: len(pinned(driver)) == size, 5, lambda: f"{pinned(driver)} {text(driver, 'wb-error')!r}")
    assert at in pinned(driver)
    screenshot(driver, f"workbench-{name}", whole=False, at="workbench")
    target.click()
    wait_for(lambda: pinned(driver) == [], 5, "the pin was not taken off")
    driver.find_element(By.ID, "wb-undo").click()
    assert len(pinned(driver)) == size
