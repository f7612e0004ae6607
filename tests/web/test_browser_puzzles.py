"""The See view poses a puzzle as `satiling show` draws it, and a user's puzzles keep their titles,
in a real browser.

See's picture is checked against the command line's (`satiling show NAME --svg`), the facts
against the instance file's published count and source; a posted puzzle's title is looked for
wherever the page names a puzzle; the task and engine menus against the server's engine table.
"""
from __future__ import annotations

import json
import re
import subprocess
from xml.etree import ElementTree
import sys
from pathlib import Path

import pytest

from .browser import server, browser  # noqa: F401  (the module's fixtures)
from .browser import (Server, check_solution, open_page, run_row, score_board, screenshot, shown, start_run, tall_cards_keep_their_size,
                      text, wait_end, wait_for, webdriver)
from selenium.webdriver.common.by import By  # noqa: E402  (after the skip)
from selenium.webdriver.support.ui import Select  # noqa: E402

from clirun import run_cli
from satiling import catalog
from e2boards import BLACKWOOD_470


def show_svg(name: str, folder: Path) -> str:
    """What `satiling show NAME --svg` draws."""
    out = folder / f"{name}.svg"
    done = subprocess.run([sys.executable, "-m", "satiling.cli", "show", name, "--svg", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return out.read_text()


def drawing(svg: str) -> list[tuple[str, tuple, str]]:
    """An SVG as its elements in order, each with its attributes and text: the same for the
    file and for the browser's copy of it (which writes `<circle ...></circle>` for `<circle/>`)."""
    root = ElementTree.fromstring(svg)
    return [(e.tag.rsplit("}", 1)[-1], tuple(sorted(e.attrib.items())), (e.text or "").strip())
            for e in root.iter()]


def see(driver: webdriver.Chrome, server: Server, name: str) -> list[str]:
    """Open NAME on See; the pictures it shows (the board and the pieces, each apart)."""
    open_page(driver, server, f"#see/{name}")
    svgs = wait_for(lambda: text(driver, "see-name") == name
                    and driver.find_elements(By.CSS_SELECTOR, "#see-svg > .see-part > svg"), 60, f"{name} is not drawn")
    return [svg.get_attribute("outerHTML") for svg in svgs]


def parts(svg: str) -> list[str]:
    """A picture of satiling's as See shows it: each of its nested pictures (the board, the
    pieces) on its own, or the picture itself."""
    root = ElementTree.fromstring(svg)
    nested = [e for e in root if e.tag.endswith("}svg")]
    return [ElementTree.tostring(e, encoding="unicode") for e in nested] if len(nested) > 1 else [svg]


@pytest.mark.parametrize("name", ["pentomino-6x10", "eternity2", "iqlink-wizard"])
def test_see_draws_the_puzzle_as_satiling_show_does(browser: webdriver.Chrome, server: Server,
                                                     tmp_path: Path, name: str) -> None:
    """The old page drew 6x10 as an empty grid without its twelve pentominoes, Eternity II without
    its starter piece, IQ-Link's challenge as bare pegs captioned "solution"."""
    driver = browser
    page = see(driver, server, name)
    assert [drawing(p) for p in page] == [drawing(p) for p in parts(show_svg(name, tmp_path))]
    caption = text(driver, "see-caption").lower()
    assert "the puzzle" in caption and "not a solution" in caption
    assert "solution" not in "".join(re.findall(r"<text[^>]*>([^<]*)</text>", "".join(page))).lower()


def test_see_keeps_the_answer_out_and_the_facts_apart_from_the_model(browser: webdriver.Chrome,
                                                                      server: Server) -> None:
    driver = browser
    see(driver, server, "iqlink-wizard")
    answer = re.search(r'^answer = "(\w+)"', (Path(__file__).parents[2] / "instances" / "iqlink-wizard.toml")
                       .read_text(), re.M).group(1)
    wait_for(lambda: text(driver, "see-toml"), 10, "no instance text")
    assert answer not in text(driver, "see-toml")
    # 6x10: its published count and where it comes from, in the puzzle's facts; the model's sizes
    # (variables, groups) in a table of their own
    see(driver, server, "pentomino-6x10")
    facts = wait_for(lambda: not text(driver, "see-pending") and text(driver, "see-facts")
                     and text(driver, "see-about") + "\n" + text(driver, "see-facts"), 120, "the facts never came")
    assert "2339" in facts.replace(",", "") and "Knuth" in facts, facts
    assert "variables" not in facts and "lazy" not in facts
    model = driver.find_element(By.ID, "see-model").get_attribute("textContent")
    assert "variables" in model
    screenshot(driver, "see")
    # a board settled before any search says how, in words
    see(driver, server, "tetromino-4x5")
    obstruction = wait_for(lambda: shown(driver, "see-obstruction") and text(driver, "see-obstruction"), 60,
                           "no argument shown for tetromino-4x5")
    assert "checkerboard" in obstruction.lower()


TITLE = "Three rows of twenty, my own"


def test_a_posted_puzzle_keeps_its_title_everywhere(browser: webdriver.Chrome, server: Server) -> None:
    """The old page named a user's puzzle by its id (i-0a5fb29a52ad) in the runs table, the Watch
    view and Browse, and listed it nowhere on Pose."""
    driver = browser
    open_page(driver, server, "#pose")
    box = driver.find_element(By.ID, "upload-toml")
    box.send_keys(f'title = "{TITLE}"\npiece_set = "pentominoes"\n[region]\nrows = 3\ncols = 20\n')
    driver.find_element(By.ID, "upload-send").click()
    wait_for(lambda: text(driver, "see-title") == TITLE, 20, lambda: text(driver, "upload-error"))
    name = text(driver, "see-name")
    run = start_run(driver, server, name, "enumerate")
    assert wait_end(driver, 30) == "done"
    assert TITLE in text(driver, "live-puzzle")
    row = wait_for(lambda: run_row(driver, run), 10, "the run is not listed")
    assert row["title"] == TITLE
    assert json.loads(server.get(f"api/runs/{run}"))["title"] == TITLE
    open_page(driver, server, f"#browse/{run}")
    cards = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#solutions .card svg"), 10, "nothing to browse")
    assert len(cards) == 2                                   # Knuth, Dancing Links (2000)
    assert TITLE in text(driver, "browse-title")
    # a reloaded page lists it among the user's own puzzles, apart from the bundled ones
    open_page(driver, server, "#pose")
    mine = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f'#my-gallery .card[data-name="{name}"]'), 10,
                    "the puzzle is not among the user's own")
    assert mine[0].find_element(By.CSS_SELECTOR, ".card-title").text == TITLE
    assert not driver.find_elements(By.CSS_SELECTOR, f'#gallery .card[data-name="{name}"]')



def test_the_task_and_engine_menus_come_from_the_server(browser: webdriver.Chrome, server: Server) -> None:
    """index.html wrote the engines by hand; the page now asks GET /api/meta."""
    driver = browser
    html = server.get("").decode()
    for menu in ("engine", "task"):
        written = re.search(rf'<select id="{menu}"[^>]*>(.*?)</select>', html, re.S)
        assert written and "<option" not in written.group(1), f"#{menu} has options written in the page"
    meta = json.loads(server.get("api/meta"))
    open_page(driver, server, "#watch/pentomino-6x10")
    tasks = [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "task")).options]
    assert tasks == meta["tasks"]
    for name, family in (("pentomino-6x10", "polyform"), ("clue1", "edgematch")):
        open_page(driver, server, f"#watch/{name}")
        for task in ("solve", "count"):
            Select(driver.find_element(By.ID, "task")).select_by_value(task)
            engines = [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "engine")).options]
            # the engines that take the puzzle's family, in the table's order
            assert engines == [e["name"] for e in meta["engines"][task]
                               if not e["families"] or family in e["families"]], (name, task)
            assert ("backtrack" in engines, "walk" in engines) == (family == "edgematch", family == "polyform")
        # forced: the methods `satiling forced --method` takes (it offered auto alone), exact
        # where the model is an exact cover
        Select(driver.find_element(By.ID, "task")).select_by_value("forced")
        engines = [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "engine")).options]
        assert engines == ["auto", "exact", "sat", "enumerate"] if family == "polyform" else ["auto", "sat", "enumerate"]


def flags_on_see(driver: webdriver.Chrome, name: str, server: Server) -> tuple[list[str], str, str]:
    """The options of the command line See marks in NAME's words and facts, its note on them,
    and the words as shown."""
    see(driver, server, name)
    wait_for(lambda: text(driver, "see-about") and not text(driver, "see-pending"), 120, f"{name}'s facts never came")
    marked = [c.text for c in driver.find_elements(By.CSS_SELECTOR, "#see-about code.cli-flag, #see-facts code.cli-flag")]
    note = text(driver, "see-flags") if shown(driver, "see-flags") else ""
    return marked, note, driver.find_element(By.ID, "see-about").get_attribute("textContent")


def test_see_says_what_the_command_lines_options_it_quotes_are_here(browser: webdriver.Chrome,
                                                                    server: Server) -> None:
    """Eternity II's words ("--hints also fixes the four pieces revealed by the clue puzzles") and
    facts ("hint pieces (--hints)") quote an option of the command line: it is marked as the
    command line's, and a note names the run form's control that does the same (a family's
    model option has one: its label, as the registry words it). The file's words stay as they are
    (its provenance); a "Generated by:" command line is left whole; a fact that is none (clue1's
    hint pieces) quotes nothing."""
    driver = browser
    meta = json.loads(server.get("api/meta"))
    helps = {o["flag"]: o["label"] for record in meta["families"].values() for o in record["options"]}
    marked, note, words = flags_on_see(driver, "eternity2", server)
    assert marked == ["--hints", "--hints"], marked                     # the words', the facts'
    assert note == f"--hints is the option “{helps['--hints']}” in the run form on Watch.", note
    about = json.loads(server.get("api/puzzles/eternity2?facts=0"))["facts"]["about"]
    assert words == about                                               # the file's words, whole
    screenshot(driver, "see-flags", whole=False, at="see-facts-head")
    marked, note, _ = flags_on_see(driver, "tetromino-fixed-4x19", server)
    assert marked == ["--parity"] and f"--parity is the option “{helps['--parity']}”" in note, (marked, note)
    marked, note, words = flags_on_see(driver, "iqlink-starter", server)
    assert (marked, note) == ([], "") and "satiling iqlink generate --pieces-to-place 3" in words
    marked, note, _ = flags_on_see(driver, "clue1", server)
    assert (marked, note) == ([], ""), (marked, note)
    assert "hint pieces" in text(driver, "see-facts")


def numbers_drawn(driver: webdriver.Chrome, box: str) -> list[dict]:
    """Each tile number of the picture in #BOX as the screen shows it: its size in CSS pixels,
    whether it is drawn, and its halo (a white stroke painted under its dark fill)."""
    return driver.execute_script("""
        return [...document.querySelectorAll('#' + arguments[0] + ' text.tile-number')].map((t) => {
          const s = getComputedStyle(t);
          return {px: Number(t.getAttribute('font-size')) * t.getScreenCTM().a, shown: s.display !== 'none',
                  halo: s.paintOrder.startsWith('stroke') && s.stroke === 'rgb(255, 255, 255)', fill: s.fill}; });""",
        box)


def test_eternity_iis_tile_numbers_are_readable_at_a_laptops_width(browser: webdriver.Chrome,
                                                                   server: Server) -> None:
    """Eternity II's 256 tiles were numbered in 8 px type outlined thinly in white, lost on the
    tiles' dark sides: now bold, 11 px and more, on a white halo; each tile's title names it too."""
    driver = browser
    see(driver, server, "eternity2")
    numbers = numbers_drawn(driver, "see-svg")
    assert len(numbers) == 256                                       # the starter piece and the 255 to place
    assert all(n["shown"] and n["px"] >= 10 and n["halo"] and n["fill"] == "rgb(17, 17, 17)" for n in numbers), numbers[:3]
    titles = driver.execute_script(      # read at once: the picture is drawn again as the facts come
        "return [...document.querySelectorAll('#see-svg polygon title')].map((t) => t.textContent)")
    assert "tile 139 on I8, rotation 2: top colour" in " ".join(titles)
    assert not text(driver, "see-figure").count("too small")
    labels = labels_drawn(driver, "#see-svg")                      # A-P and 1-16, on all four sides
    assert sorted(t for t, px in labels if px >= 8) == sorted([*"ABCDEFGHIJKLMNOP", *map(str, range(1, 17))] * 2)
    screenshot(driver, "see-eternity2", whole=False, at="see-figure")


def labels_drawn(driver: webdriver.Chrome, where: str) -> list[tuple[str, float]]:
    """The row letters and column numbers of the pictures at ``where`` that the screen shows,
    each with its size in CSS pixels."""
    return [tuple(x) for x in driver.execute_script("""
        return [...document.querySelectorAll(arguments[0] + ' .board-labels text')]
          .filter((t) => getComputedStyle(t).display !== 'none' && t.getBoundingClientRect().width > 0)
          .map((t) => [t.textContent, Number(t.getAttribute('font-size')) * t.getScreenCTM().a]);""", where)]


def test_a_gallery_card_draws_no_labels_too_small_to_read(browser: webdriver.Chrome, server: Server) -> None:
    """A card shows an edge-matching board a few pixels a square: its row letters and column
    numbers, 2-6 px there, are left out by the rule that leaves out its tile numbers (8 px)."""
    driver = browser
    driver.get("about:blank")
    open_page(driver, server, "#pose")
    # the edge-matching cards are far down the gallery (its kinds in order): drawn once seen
    for name in ("clue1", "eternity2"):
        card = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f'#gallery .card[data-name="{name}"]'),
                        30, f"no card for {name}")[0]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", card)
        wait_for(lambda: card.find_elements(By.CSS_SELECTOR, ".board-labels"), 60, f"{name}'s card has no picture")
    wait_for(lambda: not labels_drawn(driver, "#gallery .card"), 10,
             lambda: f"labels drawn on the cards: {labels_drawn(driver, '#gallery .card')[:6]}")


def test_the_gallerys_tall_puzzles_are_not_slivers(browser: webdriver.Chrome, server: Server) -> None:
    tall_cards_keep_their_size(browser, server)
    screenshot(browser, "gallery-tall", whole=False)


def test_see_scores_a_pasted_board_as_satiling_score_does(browser: webdriver.Chrome, server: Server,
                                                          tmp_path: Path) -> None:
    """Blackwood's published 470/480 board, typed into See's box as its e2.bucas.name link: its
    score, the picture ``satiling score eternity2 FILE --svg -`` draws, the starter in place and
    the four clue squares named; a board that does not read is refused in one line, nothing drawn."""
    driver = browser
    assert score_board(driver, server, "eternity2", BLACKWOOD_470) == "score 470/480 (256/256 squares filled)"
    path = tmp_path / "b470.txt"
    path.write_text(BLACKWOOD_470)
    done = subprocess.run([sys.executable, "-m", "satiling.cli", "score", "eternity2", str(path), "--svg", "-"],
                          capture_output=True, text=True, timeout=120)
    page = driver.find_element(By.CSS_SELECTOR, "#see-score-svg > svg").get_attribute("outerHTML")
    assert drawing(page) == drawing(done.stdout)
    starter, *clues = text(driver, "see-score-pins").splitlines()
    assert starter == "the starter 139/2 on I8 is in place"
    # a board without the clues (Blackwood's): said, not as a fault of the board
    assert sorted(re.search(r" is not on (\w+) ", c).group(1) for c in clues) == ["C14", "C3", "N14", "N3"], clues
    assert all(c.startswith("the hint piece ") and c.endswith(": not a board with the clues") for c in clues), clues
    screenshot(driver, "see-score", whole=False, at="see-score")
    refused = score_board(driver, server, "eternity2", "139/2 1/0")
    assert refused == "a board for eternity2 is 16 lines of 16 'piece/rotation' tokens ('---/-' for an empty square)"
    assert not shown(driver, "see-score-svg") and not text(driver, "see-score-line")



def test_see_checks_a_pasted_solution_as_satiling_verify_does(browser: webdriver.Chrome, server: Server,
                                                              tmp_path: Path) -> None:
    """A solution of pentomino-3x20 as ``satiling solve --json`` writes it, typed into See's box:
    the line ``satiling verify`` prints and the picture ``satiling render --svg -`` draws; the same
    with its first piece moved off the board, the verifier's words and nothing drawn."""
    driver = browser
    good = run_cli("solve", "pentomino-3x20", "--json", timeout=60).stdout.strip()
    path = tmp_path / "s.json"
    path.write_text(good)
    assert check_solution(driver, server, "pentomino-3x20", good) == run_cli(
        "verify", "pentomino-3x20", str(path), timeout=60).stdout.strip() == "1 solution verified"
    page = driver.find_element(By.CSS_SELECTOR, "#see-check-svg > svg").get_attribute("outerHTML")
    assert drawing(page) == drawing(run_cli("render", "pentomino-3x20", str(path), "--svg", "-", timeout=60).stdout)
    screenshot(driver, "see-check", whole=False, at="see-check")
    data = json.loads(good)
    data["placements"][0]["cells"] = [[r + 6, c] for r, c in data["placements"][0]["cells"]]
    path.write_text(json.dumps(data))
    wrong = run_cli("verify", "pentomino-3x20", str(path), timeout=60).stderr.strip().removeprefix("satiling: ")
    assert check_solution(driver, server, "pentomino-3x20", json.dumps(data)) == wrong
    assert wrong.startswith("solution 1 is wrong: piece ") and not shown(driver, "see-check-svg")


def test_the_files_the_puzzles_words_cite_are_links_to_them(browser: webdriver.Chrome,
                                                            server: Server) -> None:
    """Eternity II's words cite its data files by their paths in the instances folder
    ("provenance in data/eternity2/SOURCE.md"), and so does its source fact: each path is a link,
    the words themselves unchanged, and following it gives the file, byte for byte."""
    driver = browser
    see(driver, server, "eternity2")
    about = json.loads(server.get("api/puzzles/eternity2?facts=0"))["facts"]["about"]
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#see-about a"), 60, "no links in the words")
    assert driver.find_element(By.ID, "see-about").get_attribute("textContent") == about
    links = {a.text: a for a in driver.find_elements(By.CSS_SELECTOR, "#see-about a")}
    assert sorted(links) == ["data/eternity2/SOURCE.md", "data/eternity2/hints.txt", "data/eternity2/pieces.txt"]
    in_facts = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "#see-facts a")]
    assert in_facts == ["data/eternity2/SOURCE.md"], in_facts                # the source fact's
    page = driver.current_window_handle
    source = links["data/eternity2/SOURCE.md"]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", source)   # clear of the sticky header
    source.click()                                                           # opens beside the page
    wait_for(lambda: len(driver.window_handles) == 2, 10, "the link opened nothing")
    driver.switch_to.window([h for h in driver.window_handles if h != page][0])
    try:
        wait_for(lambda: driver.execute_script("return document.readyState") == "complete", 10, "not loaded")
        assert driver.current_url == server.url + "api/data/eternity2/SOURCE.md"
        assert driver.execute_script("return document.contentType") == "text/plain"
        served = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(location.href).then(r => r.arrayBuffer()).then(b => done([...new Uint8Array(b)]));")
        assert bytes(served) == (catalog.instances_dir() / "data" / "eternity2" / "SOURCE.md").read_bytes()
    finally:
        driver.close()
        driver.switch_to.window(page)
