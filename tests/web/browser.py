"""What the browser tests share: `satiling serve` as a real process, Debian's chromium driven by
Selenium, and the page's own ways (open a view, start a run, wait for its end).

Each test module makes one server and one browser (module fixtures built from these), so the
suite pays for a chromium start once a module. With ``SATILING_SCREENSHOTS=DIR`` set, the tests
save what they show as PNG files in DIR (``docs/web`` renews the README's pictures).
"""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Callable, Iterator

import pytest

CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path("/usr/bin/chromedriver")
ROOT = Path(__file__).resolve().parents[2]
#: the widths the page is checked and pictured at: a laptop's and a phone's
WIDE, PHONE = 1366, 390
#: where SATILING_SCREENSHOTS=DIR saves the pictures (read before a test moves to a folder of its own)
SHOTS = Path(os.environ["SATILING_SCREENSHOTS"]).resolve() if os.environ.get("SATILING_SCREENSHOTS") else None
#: how a run may end, as the page words it
ENDS = ("done", "partial", "stopped", "failed")

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

if not (CHROMIUM.exists() and DRIVER.exists()):
    pytest.skip("chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)",
                allow_module_level=True)


class Server:
    """`satiling serve` as a real process on a free port; `stop` ends it as Ctrl-C does."""

    def __init__(self, store: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "satiling.cli", "serve", "--port", str(port), "--store", str(store)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=store.parent)
        self.url = self._address()

    def _address(self) -> str:
        """The address the server prints on stdout, once it answers."""
        found: list[str] = []
        reader = threading.Thread(target=lambda: found.append(self.proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(30)
        line = found[0] if found else ""
        match = re.search(r"serving on (http://\S+)", line)
        if not match:
            self.stop()
            pytest.fail(f"satiling serve printed {line!r}; stderr: {self.proc.stderr.read()[-2000:]}")
        url = match.group(1)
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(url + "api/puzzles", timeout=5):
                    return url
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url.rstrip("/") + "/" + path.lstrip("/"), timeout=30) as resp:
            return resp.read()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            stream.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A module's server, its store empty (import it into the module: ``from .browser import server``)."""
    running = Server(tmp_path_factory.mktemp("web") / "x.sqlite")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """A module's chromium, as wide as a laptop's screen."""
    driver = chromium(tmp_path_factory.mktemp("chromium"))
    yield driver
    driver.quit()


def chromium(profile: Path, width: int = WIDE) -> webdriver.Chrome:
    """A headless chromium ``width`` CSS pixels wide (a phone's width as a phone shows it: the
    window cannot be narrower than 500 px, so the device's metrics are set instead)."""
    options = Options()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--no-first-run", "--disable-sync", "--hide-scrollbars",
                f"--window-size={max(width, 500)},900", f"--user-data-dir={profile}"):
        options.add_argument(arg)
    try:
        driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    except WebDriverException as e:
        pytest.skip(f"chromium does not start here: {e.msg}")
    if width < 500:
        phone(driver, width, 844)
    return driver


def phone(driver: webdriver.Chrome, width: int, height: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})


#: the shortest wait for the page: a wait is a poll, never a check of time
LEAST_WAIT = 30.0


def wait_for(what: Callable[[], object], seconds: float, message: str | Callable[[], str]) -> object:
    """What ``what`` returns once it is true; a failure saying ``message`` (read then) after ``seconds``
    (at least :data:`LEAST_WAIT`: a wait that ends when the page is ready costs nothing more, and
    a machine under load may take a while to get there)."""
    seconds = max(seconds, LEAST_WAIT)
    deadline = time.monotonic() + seconds
    while True:
        try:
            value = what()
        except WebDriverException:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"after {seconds} s: {message() if callable(message) else message}")
        time.sleep(0.05)


def text(driver: webdriver.Chrome, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def shown(driver: webdriver.Chrome, element_id: str) -> bool:
    """Whether the element takes room on the page (not hidden, nor inside something hidden)."""
    return bool(driver.execute_script(
        "const e = document.getElementById(arguments[0]); return !!e && e.getClientRects().length > 0",
        element_id))


def open_page(driver: webdriver.Chrome, server: Server, route: str) -> None:
    driver.get(server.url + route)
    wait_for(lambda: driver.execute_script("return document.body.dataset.ready"), 20, "the page never got ready")


def screenshot(driver: webdriver.Chrome, name: str, whole: bool = True, at: str | None = None) -> None:
    """The page as DIR/NAME.png when SATILING_SCREENSHOTS=DIR is set, at the width the browser
    has: the whole page (up to 2400 px), or with ``whole`` False one screen, from the top or from
    the element with id ``at``."""
    if SHOTS is None:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = driver.execute_script("return window.innerWidth")
    screen = 900 if width >= 500 else 844
    height = min(max(driver.execute_script("return document.documentElement.scrollHeight") + 40, screen), 2400)
    resize(driver, width, height if whole else screen)
    if at:
        driver.execute_script("document.getElementById(arguments[0]).scrollIntoView()", at)
    else:
        driver.execute_script("window.scrollTo(0, 0)")
    # the pictures now in view are drawn (the gallery draws a card as it comes into view)
    wait_for(lambda: not driver.execute_script(
        "return [...document.querySelectorAll('.card:not(.drawn)')].some(c => {"
        " const r = c.getBoundingClientRect(); return c.closest('#gallery, #my-gallery')"
        " && r.bottom > 0 && r.top < innerHeight && r.height > 0; })"), 30, "cards in view not drawn")
    time.sleep(0.3)
    driver.save_screenshot(str(SHOTS / f"{name}.png"))
    resize(driver, width, screen)


def resize(driver: webdriver.Chrome, width: int, height: int) -> None:
    if width < 500:
        phone(driver, width, height)
    else:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})   # a phone's, if any
        driver.set_window_size(width, height)
        # the window's frame: make the page itself WIDTH wide
        inner = driver.execute_script("return window.innerWidth")
        if inner != width:
            driver.set_window_size(2 * width - inner, height)


def start_run(driver: webdriver.Chrome, server: Server, puzzle: str, task: str, time_limit: str = "",
              engine: str = "auto", symmetry: str | None = None, options: dict | None = None) -> str:
    """Start TASK on PUZZLE from the Watch view (a count up to ``symmetry``: "" the board's,
    "rotations", "none"; the family's model ``options`` set in the form, :func:`set_options`);
    the run's id (the page follows it)."""
    open_page(driver, server, f"#watch/{puzzle}")
    wait_for(lambda: Select(driver.find_element(By.ID, "watch-puzzle")).first_selected_option
             .get_attribute("value") == puzzle, 10, f"{puzzle} never selected")
    Select(driver.find_element(By.ID, "task")).select_by_value(task)
    Select(driver.find_element(By.ID, "engine")).select_by_value(engine)
    if symmetry is not None:
        Select(driver.find_element(By.ID, "symmetry")).select_by_value(symmetry)
    set_options(driver, options or {})
    limit = driver.find_element(By.ID, "time-limit")
    limit.clear()
    if time_limit:
        limit.send_keys(time_limit)
    before = driver.execute_script("return location.hash")
    start = driver.find_element(By.ID, "run-start")
    # where an earlier view left the page scrolled, the sticky header may lie over the button
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", start)
    start.click()
    wait_for(lambda: driver.execute_script("return location.hash") != before
             and driver.execute_script("return location.hash").startswith("#run/"), 10,
             lambda: f"{task} {puzzle} did not start: {text(driver, 'run-error')!r}")
    return driver.execute_script("return decodeURIComponent(location.hash.slice(5))")


def set_options(driver: webdriver.Chrome, options: dict) -> None:
    """Set the run form's model options as the API keys them: ``{"hints": True}`` ticks the
    box of ``--hints``, ``{"encoding": "compact"}`` chooses in the menu of ``--encoding``."""
    for key, value in options.items():
        control = driver.find_element(By.ID, f"option-{key}")
        if value is True:
            if not control.is_selected():
                control.click()
        elif control.tag_name == "select":
            Select(control).select_by_value(str(value))
        else:
            control.clear()
            control.send_keys(str(value))


def run_row(driver: webdriver.Chrome, run_id: str) -> dict | None:
    """The runs table's row of a run, read at once (the page rebuilds the table every second):
    its state, title, found and whether it links to solutions; None while it is not listed."""
    return driver.execute_script("""
        const r = document.getElementById('run-' + arguments[0]);
        if (!r) return null;
        const t = (s) => { const e = r.querySelector(s); return e ? e.textContent : null; };
        return {state: r.dataset.state, title: t('.run-title'), found: t('.found'),
                solutions: !!r.querySelector('.solutions-link')};""", run_id)


def run_state(driver: webdriver.Chrome) -> str:
    return text(driver, "run-state")


def wait_end(driver: webdriver.Chrome, seconds: float) -> str:
    wait_for(lambda: run_state(driver) in ENDS, seconds,
             lambda: f"the run did not end (state {run_state(driver)!r})")
    return run_state(driver)


def found(driver: webdriver.Chrome) -> int:
    return int(text(driver, "found").replace(",", "") or 0)


def elapsed(driver: webdriver.Chrome) -> float:
    """The Watch view's clock in seconds ("2.4 s", "1 min 3 s")."""
    words = text(driver, "elapsed")
    minutes = re.search(r"(\d+) min", words)
    seconds = re.search(r"([\d.]+) s", words)
    return (int(minutes.group(1)) * 60 if minutes else 0) + (float(seconds.group(1)) if seconds else 0.0)


def value(driver: webdriver.Chrome, element_id: str) -> float:
    """A progress bar's value, 0 to 1."""
    return float(driver.find_element(By.ID, element_id).get_attribute("value") or 0)


def card_pictures(driver: webdriver.Chrome, names: list[str]) -> dict[str, dict]:
    """The gallery cards of NAMES, each scrolled into view and drawn: its picture's width as
    shown, its box's width, and how many of the picture's parts (board, pieces) it shows."""
    out = {}
    for name in names:
        card = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f'.card[data-name="{name}"]'), 30,
                        f"no card of {name}")[0]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", card)
        wait_for(lambda: "drawn" in card.get_attribute("class"), 60, f"the card of {name} is not drawn")
        out[name] = driver.execute_script("""
            const box = arguments[0].querySelector('.picture'), svg = box.querySelector('svg');
            const parts = [...svg.children].filter((n) => n.tagName === 'svg');
            return {width: svg.getBoundingClientRect().width, box: box.clientWidth,
                    parts: parts.filter((p) => p.getAttribute('display') !== 'none').length,
                    beside: parts.length > 1 && parts[1].getBoundingClientRect().top < parts[0].getBoundingClientRect().bottom - 1};""",
            card)
    return out


def post_instance(server: Server, toml: str) -> str:
    """A puzzle posted to SERVER as an instance file (the user's own); its name."""
    request = urllib.request.Request(server.url + "api/instances", data=json.dumps({"toml": toml}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as resp:
        return json.loads(resp.read())["name"]


#: a tall box of pentominoes, the user's own: stacked above its pieces, its card was a sliver
TALL_BOX = 'title = "a tall box, 20 by 3"\npiece_set = "pentominoes"\n[region]\nrows = 20\ncols = 3\n'


def tall_cards_keep_their_size(driver: webdriver.Chrome, server: Server) -> dict[str, dict]:
    """The gallery's cards of tall puzzles show their pictures at least a third as wide as the
    card (Eternity's was 28 px of 200, its 209 pieces stacked under its board): the pieces beside
    the board where that shows more, the board alone where even that is a sliver; a wide board
    (3x20) keeps its pieces below. The cards, as :func:`card_pictures` measures them."""
    mine = post_instance(server, TALL_BOX)
    driver.get("about:blank")              # a page loaded before lists the user's puzzles of then
    open_page(driver, server, "#pose")
    cards = card_pictures(driver, ["eternity", "boomerang", "pram", "tortoise", "boat", "clue1", "eternity2",
                                   "pentomino-6x10", "pentomino-3x20", "tetromino-4x45", mine])
    for name, card in cards.items():
        assert card["width"] >= card["box"] / 3 - 0.5, (name, card)
    assert cards["eternity"]["parts"] == 1                   # its board, the dodecagon, alone
    assert all(cards[n]["parts"] == 2 and cards[n]["beside"] for n in ("clue1", "eternity2", mine)), cards
    assert cards["pentomino-3x20"]["parts"] == 2 and not cards["pentomino-3x20"]["beside"], cards
    return cards


def score_board(driver: webdriver.Chrome, server: Server, name: str, board: str) -> str:
    """On See of NAME, BOARD typed into the "Score a board" box and scored; the score line, or
    the error the box shows."""
    return paste(driver, server, name, "see-score", "board", board)


def check_solution(driver: webdriver.Chrome, server: Server, name: str, solution: str) -> str:
    """On See of NAME, SOLUTION typed into the "Check a solution" box and checked; the result
    line, or the error the box shows."""
    return paste(driver, server, name, "see-check", "solution", solution)


def paste(driver: webdriver.Chrome, server: Server, name: str, box: str, field: str, text_: str) -> str:
    """On See of NAME, TEXT_ typed into the FIELD of See's BOX and sent; its line, or its error."""
    open_page(driver, server, f"#see/{name}")
    area = wait_for(lambda: shown(driver, f"{box}-{field}") and driver.find_element(By.ID, f"{box}-{field}"),
                    60, f"{name} has no box {box} to paste in")
    area.clear()
    area.send_keys(text_)
    driver.find_element(By.ID, f"{box}-send").click()
    return wait_for(lambda: text(driver, f"{box}-line") or driver.execute_script(
        f"return [...document.querySelectorAll('#{box} .error')].map((e) => e.textContent).join('')"),
        60, f"what was pasted in {box} is neither answered nor refused")
