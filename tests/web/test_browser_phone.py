"""The page on a phone, 390 CSS pixels wide (chromium told it is a phone of that width): nothing
wider than the screen in any view, the whole nav in view, tables scrolling inside themselves, the
gallery part of the page rather than a box scrolling inside it. The old page was 453 to 784 px
wide there. With SATILING_SCREENSHOTS=DIR set, each view is saved as DIR/phone-VIEW.png.
"""
from __future__ import annotations

from typing import Iterator

import pytest

from .browser import server  # noqa: F401  (the module's fixtures)
from .browser import (PHONE, Server, chromium, open_page, score_board, screenshot, start_run, tall_cards_keep_their_size,
                      text, wait_end, wait_for, webdriver)
from selenium.webdriver.common.by import By  # noqa: E402  (after the skip)

from e2boards import BLACKWOOD_470


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    driver = chromium(tmp_path_factory.mktemp("chromium"), width=PHONE)
    yield driver
    driver.quit()


def too_wide(driver: webdriver.Chrome) -> list[str]:
    """What sticks out past the screen's right edge and is not inside something that scrolls
    sideways (a table in its scroll box may be wider: it scrolls inside itself)."""
    return driver.execute_script("""
        const out = [];
        for (const e of document.body.querySelectorAll('*')) {
          const r = e.getBoundingClientRect();
          if (r.width === 0 || r.right <= innerWidth + 0.5) continue;
          let p = e.parentElement, scrolls = false;
          for (; p && p !== document.body; p = p.parentElement) {
            const o = getComputedStyle(p).overflowX;
            if (o === 'auto' || o === 'scroll' || o === 'hidden') { scrolls = true; break; }
          }
          if (!scrolls) out.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className.baseVal ?? e.className} ${Math.round(r.right)}px`);
        }
        return out.slice(0, 10);""")


def fits(driver: webdriver.Chrome, view: str) -> None:
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert driver.execute_script("return window.innerWidth") == PHONE
    assert width <= PHONE, f"{view}: the page is {width} px wide: {too_wide(driver)}"
    links = driver.find_elements(By.CSS_SELECTOR, "header nav a")
    assert len(links) == 4
    for link in links:
        box = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.right]", link)
        assert 0 <= box[0] and box[1] <= PHONE, f"{view}: the nav's {link.text} is off the screen at {box}"


def test_pose_fits_a_phone_and_its_gallery_is_part_of_the_page(browser: webdriver.Chrome,
                                                               server: Server) -> None:
    driver = browser
    open_page(driver, server, "#pose")
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#gallery .card.drawn svg"), 30, "no gallery")
    fits(driver, "pose")
    gallery = driver.find_element(By.ID, "gallery")
    assert gallery.value_of_css_property("overflow-y") == "visible"
    assert driver.execute_script("return arguments[0].scrollHeight <= arguments[0].clientHeight + 1", gallery)
    screenshot(driver, "phone-pose", whole=False)


def test_see_fits_a_phone(browser: webdriver.Chrome, server: Server) -> None:
    driver = browser
    open_page(driver, server, "#see/pentomino-6x10")
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#see-svg svg"), 30, "6x10 is not drawn")
    fits(driver, "see")
    screenshot(driver, "phone-see")


def test_see_with_a_scored_board_fits_a_phone(browser: webdriver.Chrome, server: Server) -> None:
    driver = browser
    assert score_board(driver, server, "eternity2", BLACKWOOD_470).startswith("score 470/480")
    fits(driver, "see with a scored board")
    screenshot(driver, "phone-see-score", whole=False, at="see-score")


def test_watch_and_browse_fit_a_phone(browser: webdriver.Chrome, server: Server) -> None:
    driver = browser
    run = start_run(driver, server, "pentomino-3x20", "enumerate")
    assert wait_end(driver, 30) == "done"
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f"#run-{run}"), 10, "the run is not listed")
    fits(driver, "watch")
    # the runs table is wider than a phone: it scrolls in its own box, which fits the screen
    table = driver.find_element(By.ID, "runs")
    box = table.find_element(By.XPATH, "..")
    assert box.value_of_css_property("overflow-x") in ("auto", "scroll")
    assert driver.execute_script("return arguments[0].getBoundingClientRect().right", box) <= PHONE
    screenshot(driver, "phone-watch")
    open_page(driver, server, f"#browse/{run}")
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#solutions .card svg")) == 2, 10,
             "the 2 solutions are not shown")
    assert "done" in text(driver, "browse-state").lower()
    fits(driver, "browse")
    screenshot(driver, "phone-browse")


def test_the_workbench_turns_keep_one_line_on_a_phone(browser: webdriver.Chrome, server: Server) -> None:
    """The workbench's turn back (↺) and turn (↻) buttons stood on two lines at 390 px, ↺ at the
    end of one and ↻ at the start of the next, away from the piece they turn: now the piece, its
    orientation and both turns share one line, for every piece (I's shape is the widest)."""
    driver = browser
    driver.get("about:blank")     # a page that showed another puzzle keeps its pieces until 6x10's come
    open_page(driver, server, "#see/pentomino-6x10")
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, ".wb-piece"), 30, "no workbench")
    driver.execute_script("document.getElementById('workbench').scrollIntoView()")
    for piece in [b.get_attribute("data-piece") for b in driver.find_elements(By.CSS_SELECTOR, ".wb-piece")]:
        driver.find_element(By.CSS_SELECTOR, f'.wb-piece[data-piece="{piece}"]').click()
        wait_for(lambda: text(driver, "wb-orientation").startswith(piece), 5, f"{piece} not chosen")
        boxes = driver.execute_script("""
            return ['wb-shape', 'wb-orientation', 'wb-turn-back', 'wb-turn'].map((id) => {
              const r = document.getElementById(id).getBoundingClientRect();
              return [id, r.top, r.bottom, r.right]; });""")
        middles = [(top + bottom) / 2 for _, top, bottom, _ in boxes]
        assert max(middles) - min(middles) < 8, (piece, boxes)        # one line, centred alike
        assert all(right <= PHONE for *_, right in boxes), (piece, boxes)
    screenshot(driver, "phone-workbench", whole=False, at="workbench")


def test_eternity_iis_tile_numbers_too_small_for_a_phone_are_told_by_a_tap(browser: webdriver.Chrome,
                                                                            server: Server) -> None:
    """On a phone Eternity II's board is 20 px a tile: its numbers came out 4 px high, unreadable.
    Now they are not drawn there, a line under the picture says so, and a tap on a tile says its
    number (and square) there."""
    driver = browser
    open_page(driver, server, "#see/eternity2")
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#see-svg .numbers-hidden svg"), 60,
             "the numbers are drawn too small to read")
    assert not [t for t in driver.find_elements(By.CSS_SELECTOR, "#see-svg text.tile-number") if t.is_displayed()]
    note = driver.find_element(By.CSS_SELECTOR, "#see-svg .see-part ~ .tile-said")      # the board's
    assert "tap a tile" in note.text, note.text
    starter = driver.execute_script("""
        return [...document.querySelectorAll('#see-svg polygon')].find((p) =>
          p.querySelector('title').textContent.startsWith('tile 139 on I8'));""")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", starter)
    starter.click()
    wait_for(lambda: note.text.startswith("tile 139 on I8, rotation 2"), 5, lambda: note.text)
    fits(driver, "see eternity2")
    screenshot(driver, "phone-see-eternity2", whole=False, at="see-figure")
    # a picture large enough for its numbers (Clue Puzzle 1's 6x6) draws them and says nothing
    open_page(driver, server, "#see/clue1")
    wait_for(lambda: text(driver, "see-name") == "clue1"
             and driver.find_elements(By.CSS_SELECTOR, "#see-svg text.tile-number"), 60, "clue1 not drawn")
    assert not driver.find_elements(By.CSS_SELECTOR, "#see-svg .numbers-hidden")
    assert not driver.find_elements(By.CSS_SELECTOR, "#see-svg .tile-said:not(:empty)")


def test_the_gallerys_tall_puzzles_are_not_slivers_on_a_phone(browser: webdriver.Chrome, server: Server) -> None:
    tall_cards_keep_their_size(browser, server)
    fits(browser, "pose")
    screenshot(browser, "phone-gallery-tall", whole=False)
