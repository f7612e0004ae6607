"""The painter's pieces in a real browser: the bundled set of each flat lattice, a set's copies and
a piece drawn by hand, each painted, created and counted on the page.

The counts are checked against answers from outside the web code: the 12 hexiamonds tile the 6x6
parallelogram 156 ways and the 7 tetrahexes the 4x7 one 9 ways (up to the board's symmetry:
Knuth, "Dancing Links", 2000; Goodger's Polyform Puzzler, as the bundled files cite them); two sets
of tetrominoes in a 4x10 box as `satiling count tetromino-4x10` counts that bundled instance (its
pieces written by hand, count = 2); a hand-drawn piece's board by the brute force of tests/brute.py.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

from satiling import catalog

from .browser import browser, server  # noqa: F401  (the module's fixtures)
from .browser import (PHONE, WIDE, found, open_page, resize, screenshot, start_run, text, wait_end,
                      wait_for, webdriver)
from selenium.webdriver.common.by import By  # noqa: E402  (after the skip)
from selenium.webdriver.support.ui import Select  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # tests/brute.py
import brute  # noqa: E402


def paint(driver: webdriver.Chrome, server, lattice: str, rows: int, cols: int, pieces: str) -> None:
    """The Pose view with a ROWS x COLS board of LATTICE painted whole and the set PIECES chosen
    (its pieces listed)."""
    open_page(driver, server, "#pose")
    Select(driver.find_element(By.ID, "paint-lattice")).select_by_value(lattice)
    for field, number in (("paint-rows", rows), ("paint-cols", cols)):
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(str(number))
    driver.find_element(By.ID, "paint-fill").click()
    wait_for(lambda: [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "piece-set")).options
                      if o.get_attribute("value") == pieces], 10, f"{pieces} never offered for {lattice}")
    Select(driver.find_element(By.ID, "piece-set")).select_by_value(pieces)
    wait_for(lambda: chips(driver), 10, f"the pieces of {pieces} never shown")


def chips(driver: webdriver.Chrome) -> dict[str, str]:
    """The set's pieces the page lists, each with how many it will put on the board."""
    return {i.get_attribute("data-piece"): i.get_attribute("value")
            for i in driver.find_elements(By.CSS_SELECTOR, "#set-pieces input")}


def create(driver: webdriver.Chrome) -> str:
    """Create the painted puzzle; its name (the page goes to See)."""
    driver.find_element(By.ID, "create").click()
    wait_for(lambda: driver.execute_script("return location.hash").startswith("#see/i-"), 20,
             lambda: f"not created: {text(driver, 'paint-error')!r}")
    return driver.execute_script("return decodeURIComponent(location.hash.slice(5))")


def counted(driver: webdriver.Chrome, server, name: str, symmetry: str = "") -> int:
    start_run(driver, server, name, "count", symmetry=symmetry)
    assert wait_end(driver, 60) == "done", text(driver, "live-error")
    return found(driver)


def test_the_bundled_set_of_each_flat_lattice(browser, server) -> None:
    driver = browser
    for lattice, rows, cols, pieces, known in (("triangle", 6, 6, "hexiamonds", 156),
                                                ("hexagon", 4, 7, "tetrahexes", 9)):
        paint(driver, server, lattice, rows, cols, pieces)
        assert len(chips(driver)) == {"hexiamonds": 12, "tetrahexes": 7}[pieces]
        if lattice == "triangle":
            screenshot(driver, "paint-pieces", whole=False, at="paint-head")
        name = create(driver)
        assert counted(driver, server, name) == known, (lattice, pieces)


def test_two_sets_of_tetrominoes(browser, server) -> None:
    driver = browser
    paint(driver, server, "square", 4, 10, "tetrominoes")
    copies = driver.find_element(By.ID, "set-copies")
    copies.clear()
    copies.send_keys("2")
    assert chips(driver) == {p: "2" for p in "IOTLS"}
    name = create(driver)
    done = subprocess.run([sys.executable, "-m", "satiling.cli", "count", "tetromino-4x10"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert counted(driver, server, name) == int(done.stdout.split()[0])


def draw(driver: webdriver.Chrome, cells: list[tuple[int, int]], name: str, count: int) -> None:
    """Draw a piece on the small grid and add it to the pieces."""
    if not driver.find_element(By.ID, "draw-box").get_attribute("open"):
        driver.find_element(By.CSS_SELECTOR, "#draw-box summary").click()
    for r, c in cells:
        driver.find_element(By.CSS_SELECTOR, f'#draw-grid polygon[data-cell="{r},{c}"]').click()
    for field, value in (("draw-name", name), ("draw-count", str(count))):
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    driver.find_element(By.ID, "draw-add").click()
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f'#drawn-pieces [data-piece="{name}"]'), 5,
             lambda: f"{name} not added: {text(driver, 'draw-error')!r}")


def test_a_piece_drawn_by_hand_and_a_bad_one_refused(browser, server) -> None:
    driver = browser
    paint(driver, server, "square", 3, 4, "tetrominoes")
    Select(driver.find_element(By.ID, "piece-set")).select_by_value("")
    draw(driver, [(0, 0), (0, 2)], "Q", 1)              # two cells apart: not a piece
    driver.find_element(By.CSS_SELECTOR, "#draw-box summary").click()   # closed: the error opens it
    driver.find_element(By.ID, "create").click()
    refused = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#drawn-pieces + .field-error"), 10,
                       lambda: f"no error beside the drawn pieces: {text(driver, 'paint-error')!r}")
    assert "Q is not connected" in refused[0].text
    driver.find_element(By.CSS_SELECTOR, '#drawn-pieces [data-piece="Q"] .remove').click()
    draw(driver, [(0, 0), (1, 0), (1, 1)], "L", 4)      # four L trominoes in the 3x4 box
    assert not driver.find_elements(By.CSS_SELECTOR, "#drawn-pieces + .field-error")   # gone with Q
    screenshot(driver, "paint-drawn", whole=False, at="paint-head")
    name = create(driver)
    data = tomllib.loads(json.loads(server.get(f"api/puzzles/{name}"))["toml"])
    puzzle = catalog.load_data(data, "drawn", None)
    assert counted(driver, server, name, symmetry="none") == len(brute.polyform_solutions(puzzle)) > 0


def test_the_pieces_fit_a_phone(browser, server) -> None:
    """At a phone's width the set's pieces and the drawing grid wrap inside the page."""
    driver = browser
    resize(driver, PHONE, 844)
    try:
        paint(driver, server, "square", 6, 10, "pentominoes")
        if not driver.find_element(By.ID, "draw-box").get_attribute("open"):
            driver.find_element(By.CSS_SELECTOR, "#draw-box summary").click()
        wide = driver.execute_script("return document.documentElement.scrollWidth")
        assert wide <= PHONE, f"the page is {wide} px wide at {PHONE}"
        screenshot(driver, "phone-paint-pieces", whole=False, at="set-note")
        screenshot(driver, "phone-paint-drawn", whole=False, at="draw-box")
    finally:
        resize(driver, WIDE, 900)
