"""See read by a newcomer, on a phone (390 px) and a laptop (1366 px): no text of a picture is
drawn under 8 px and none is lost (a caption's words are a line of the page, a piece's name its
title, said by a tap; a long thin board is drawn to read in a box that scrolls sideways); a
checked solution says wrong or verified in the page's colours for bad and good; a fact of the
puzzle is said as a fact, not as an error; a proof stands once on the page. Before, Eternity II's
captions were 6.3 px on a phone, tetromino-4x45's piece names 3.5 px (7.1 px on a laptop), the
Soma cube's tray drew piece A as an L and a stray square, and tetromino-4x5's parity proof stood
three times word for word.
"""
from __future__ import annotations

from typing import Iterator

import pytest

from .browser import server  # noqa: F401  (the module's fixtures)
from .browser import (PHONE, Server, check_solution, chromium, open_page, phone, post_instance, resize,
                      screenshot, shown, text, wait_for, webdriver)
from selenium.webdriver.common.by import By  # noqa: E402  (after the skip)

from clirun import run_cli

#: the smallest text the page draws, in CSS pixels
MIN_PX = 8
#: a 3x40 strip with the I pinned along its top: a long thin board with a piece's name on it
PINNED_STRIP = ('title = "3x40, I pinned"\npiece_set = "pentominoes"\n[rules]\ncells = "at-most"\n'
                '[region]\nrows = 3\ncols = 40\n'
                '[[placed]]\npiece = "I"\ncells = [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]]\n')


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    driver = chromium(tmp_path_factory.mktemp("chromium"), width=PHONE)
    yield driver
    driver.quit()


def wide(driver: webdriver.Chrome) -> None:
    """The browser as a laptop's, 1366 px wide."""
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    resize(driver, 1366, 900)


def narrow(driver: webdriver.Chrome) -> None:
    phone(driver, PHONE, 844)


def see(driver: webdriver.Chrome, server: Server, name: str) -> None:
    driver.get("about:blank")               # nothing of the last puzzle's page stays
    open_page(driver, server, f"#see/{name}")
    wait_for(lambda: text(driver, "see-name") == name and driver.find_elements(By.CSS_SELECTOR, "#see-svg svg"),
             60, f"{name} is not drawn")


def texts(driver: webdriver.Chrome) -> list[dict]:
    """Every text of See's pictures: its words, its class, its size on the screen in CSS pixels
    (font size times the picture's scale there) and whether it is drawn."""
    return driver.execute_script("""
        return [...document.querySelectorAll('#see-svg svg text')].map((t) => ({
          words: t.textContent, cls: t.getAttribute('class'),
          px: Number(t.getAttribute('font-size')) * t.parentNode.getScreenCTM().a,
          drawn: getComputedStyle(t).display !== 'none' && t.getClientRects().length > 0}));""")


def too_small(driver: webdriver.Chrome) -> list[dict]:
    return [t for t in texts(driver) if t["drawn"] and t["px"] < MIN_PX]


def said(driver: webdriver.Chrome) -> str:
    """The lines under See's pictures that say what they do not draw."""
    return "\n".join(p.text for p in driver.find_elements(By.CSS_SELECTOR, "#see-svg .said"))


def test_eternity_ii_on_a_phone_draws_no_small_text_and_says_its_captions(browser: webdriver.Chrome,
                                                                         server: Server) -> None:
    driver = browser
    narrow(driver)
    see(driver, server, "eternity2")
    wait_for(lambda: "255 pieces to place" in said(driver), 60, lambda: f"captions not said: {said(driver)!r}")
    assert not too_small(driver), too_small(driver)[:3]
    lines = said(driver).splitlines()
    assert "eternity2: 16x16, 255 pieces to place, 1 fixed" in lines, lines
    assert "255 pieces to place, 1 fixed (as given: N E S W clockwise from the top)" in lines, lines
    # each caption's words under its own picture: the board's first, then the pieces'
    board, pieces = driver.find_elements(By.CSS_SELECTOR, "#see-svg .see-part")
    assert board.find_element(By.XPATH, "following-sibling::p[1]").text.startswith("eternity2: 16x16")
    assert pieces.find_element(By.XPATH, "following-sibling::p[1]").text.startswith("255 pieces to place")
    screenshot(driver, "phone-see-eternity2-captions", whole=False, at="see-figure")


def test_a_long_board_and_its_pieces_read_at_both_widths(browser: webdriver.Chrome, server: Server) -> None:
    """tetromino-4x45's tray was drawn at its 45-square board's scale: names of 3.5 px on a phone,
    7.1 px on a laptop. Each part is now fitted on its own: the names are drawn, at 8 px and more."""
    driver = browser
    for width in ("phone", "laptop"):
        (narrow if width == "phone" else wide)(driver)
        see(driver, server, "tetromino-4x45")
        names = wait_for(lambda: [t for t in texts(driver) if t["cls"] == "label" and t["drawn"]], 30,
                         f"no piece names drawn on a {width}")
        assert sorted(t["words"] for t in names) == ["I x9", "L x9", "O x9", "S x9", "T x9"], names
        assert not too_small(driver), (width, too_small(driver))
        screenshot(driver, f"see-tetromino-4x45-{width}", whole=False, at="see-figure")
    narrow(driver)


def test_a_long_thin_board_with_names_scrolls_sideways_on_a_phone(browser: webdriver.Chrome,
                                                                  server: Server) -> None:
    """A 3x40 board with a pinned piece named on it: 4 px across a phone, so drawn larger, in a
    box that scrolls sideways; the page itself stays as wide as the phone."""
    driver = browser
    narrow(driver)
    see(driver, server, post_instance(server, PINNED_STRIP))
    board = driver.find_element(By.CSS_SELECTOR, "#see-svg .see-part")
    wait_for(lambda: "scrolls" in board.get_attribute("class"), 30, "the board is not drawn to scroll")
    assert driver.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth + 50", board)
    assert board.value_of_css_property("overflow-x") == "auto"
    assert driver.execute_script("return document.documentElement.scrollWidth") <= PHONE
    drawn = [t for t in texts(driver) if t["drawn"]]
    assert "I" in [t["words"] for t in drawn] and not too_small(driver), drawn
    screenshot(driver, "phone-see-strip-pinned", whole=False, at="see-figure")


def test_eternitys_piece_names_too_small_for_a_phone_are_told_by_a_tap(browser: webdriver.Chrome,
                                                                        server: Server) -> None:
    """Eternity's 209 drafter pieces were named in 6 px type on a phone: not drawn now; a tap on a
    piece says its name."""
    driver = browser
    narrow(driver)
    see(driver, server, "eternity")
    wait_for(lambda: "tap a piece" in said(driver), 60, lambda: f"no tap note: {said(driver)!r}")
    assert not too_small(driver), too_small(driver)[:3]
    piece = driver.execute_script("""
        return [...document.querySelectorAll('#see-svg .names-hidden svg g')]
          .find((g) => g.firstElementChild && g.firstElementChild.tagName === 'title').querySelector('polygon');""")
    name = driver.execute_script("return arguments[0].parentNode.firstElementChild.textContent", piece)
    driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", piece)
    wait_for(lambda: f"piece {name}" in said(driver).splitlines(), 10, lambda: said(driver))


def test_the_soma_cube_reads_as_a_solid(browser: webdriver.Chrome, server: Server) -> None:
    """Each Soma piece in the tray is one block drawn in 3-D, named by its title; its layers are
    named from 1; the facts say nothing of a plane's topology; pinning by hand, which is for flat
    boards, is said as a note, not in the error's red."""
    driver = browser
    wide(driver)
    see(driver, server, "soma-cube")
    tray = driver.execute_script("""
        const svg = document.querySelectorAll('#see-svg .see-part svg')[1];
        return [...svg.querySelectorAll('g > title')].map((t) => [t.textContent,
                 t.parentNode.querySelectorAll('polygon.iso').length]);""")
    assert sorted(name for name, _ in tray) == sorted("VLTZABP") and all(faces >= 6 for _, faces in tray), tray
    words = [t["words"] for t in texts(driver)]
    assert "layer 1" in words and "layer 3" in words and "layer 0" not in words, words
    facts = wait_for(lambda: text(driver, "see-facts"), 60, "no facts")
    assert "topology" not in facts and "plane" not in facts, facts
    note = wait_for(lambda: shown(driver, "wb-unavailable") and driver.find_element(By.ID, "wb-unavailable"), 30,
                    "no note on pinning by hand")
    assert "flat" in note.text and "error" not in note.get_attribute("class")
    assert not text(driver, "wb-error")
    assert note.value_of_css_property("color") != driver.find_element(By.ID, "wb-error").value_of_css_property("color")
    screenshot(driver, "see-soma", whole=False, at="see-figure")
    narrow(driver)


def test_a_parity_proof_stands_once(browser: webdriver.Chrome, server: Server) -> None:
    driver = browser
    see(driver, server, "tetromino-4x5")
    banner = wait_for(lambda: shown(driver, "see-obstruction") and text(driver, "see-obstruction"), 60, "no banner")
    facts = wait_for(lambda: text(driver, "see-facts"), 60, "no facts")
    page = driver.find_element(By.ID, "see-body").text
    assert "(mod 4)" in banner and page.count("(mod 4)") == 1, page
    assert "checkerboard" in text(driver, "see-about") and "the argument above" in facts, facts
    assert "obstruction" not in facts


def rgb(css: str) -> list[int]:
    """A computed colour's red, green and blue (rgb(...) or rgba(...))."""
    return [int(float(x)) for x in css[css.index("(") + 1:-1].split(",")[:3]]


def colour(driver: webdriver.Chrome, name: str) -> list[int]:
    """The page's colour NAME (--bad, --good)."""
    return rgb(driver.execute_script("""
        const probe = document.body.appendChild(document.createElement('span'));
        probe.style.color = `var(${arguments[0]})`;
        const c = getComputedStyle(probe).color; probe.remove(); return c;""", name))


def test_a_checked_solution_says_wrong_in_red_and_verified_in_green(browser: webdriver.Chrome,
                                                                    server: Server) -> None:
    driver = browser
    good = run_cli("solve", "pentomino-3x20", "--json", timeout=60).stdout.strip()
    assert check_solution(driver, server, "pentomino-3x20", good) == "1 solution verified"
    line = driver.find_element(By.ID, "see-check-line")
    assert rgb(line.value_of_css_property("color")) == colour(driver, "--good")
    wrong = good.replace('"cells":[[', '"cells":[[9,9],[', 1)
    assert check_solution(driver, server, "pentomino-3x20", wrong).startswith("solution 1 is wrong")
    assert rgb(line.value_of_css_property("color")) == colour(driver, "--bad")
    screenshot(driver, "phone-see-check-wrong", whole=False, at="see-check")


def test_the_check_box_names_a_file_the_command_line_can_read(browser: webdriver.Chrome, server: Server) -> None:
    """A posted puzzle's id is known to this server only: the box tells of its instance file (the
    download, named after it) and of a run's JSON Lines, never `satiling solve i-... --json`."""
    driver = browser
    name = post_instance(server, 'title = "mine"\npiece_set = "pentominoes"\n[region]\nrows = 6\ncols = 10\n')
    see(driver, server, name)
    help_ = wait_for(lambda: text(driver, "see-check-help"), 30, "no help on the check box")
    assert f"satiling solve {name}.toml --json" in help_ and f"solve {name} " not in help_, help_
    assert "JSON Lines" in help_
    assert driver.find_element(By.ID, "toml-download").get_attribute("download") == f"{name}.toml"
    see(driver, server, "pentomino-6x10")
    assert "satiling solve pentomino-6x10 --json" in wait_for(lambda: text(driver, "see-check-help"), 30, "no help")
