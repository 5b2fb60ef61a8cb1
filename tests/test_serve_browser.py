"""`bakers serve` in a real browser: headless Chromium, driven by Selenium, plays a
winnable deal to the win by clicking the hinted moves, then undoes and redoes.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them) and
``selenium`` (the test extra); skips with the reason where one is missing.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the serve extra (starlette) is not installed")
webdriver = pytest.importorskip("selenium.webdriver",
                                reason="selenium (the test extra) is not installed")

from helpers_browser import run_server  # noqa: E402
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

pytestmark = [
    pytest.mark.slow,  # a browser's start and some forty moves: about 20 s on 2 cores
    pytest.mark.skipif(
        CHROMIUM is None or DRIVER is None,
        reason="headless Chromium is not installed (apt-get install chromium chromium-driver)"),
]

# A FreeCell with 36 cards deal that wins in about 40 moves: short enough to play whole
# by clicking each hinted move.
GAME, NUMBER = "freecell36", 1243


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """Run `bakers serve --port 0` and yield the address it prints."""
    yield from run_server()


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1000,860"):
        options.add_argument(argument)
    service = webdriver.ChromeService(executable_path=DRIVER)
    driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()


def body(driver: webdriver.Chrome, key: str) -> str:
    return driver.find_element(By.TAG_NAME, "body").get_attribute(f"data-{key}") or ""


def wait_for(driver: webdriver.Chrome, condition, what: str, seconds: float = 10.0) -> None:
    try:
        WebDriverWait(driver, seconds, poll_frequency=0.02).until(lambda d: condition())
    except TimeoutException:
        status = driver.find_element(By.ID, "status").text
        pytest.fail(f"waited {seconds} s for {what}; the page says {status!r}")


def test_play_a_deal_to_the_win_by_the_hinted_moves(server: str, browser: webdriver.Chrome,
                                                    tmp_path: Path) -> None:
    started = time.perf_counter()
    # auto-move home off: the test counts the moves it makes
    browser.get(f"{server}static/style.css")
    browser.execute_script("localStorage.clear(); localStorage.setItem('bakers:options', "
                           "JSON.stringify({autoHome: 'off'}))")
    browser.get(f"{server}?game={GAME}&number={NUMBER}")
    wait_for(browser, lambda: body(browser, "moves") == "0"
             and browser.find_elements(By.CSS_SELECTOR, "#columns .card"), "the deal")
    assert "#1243" in browser.find_element(By.ID, "title").text
    on_table = browser.find_elements(By.CSS_SELECTOR, "#columns .card")
    assert len(on_table) == 36 - int(body(browser, "home"))

    # an illegal move, dragged: refused with the reason, nothing moves
    top = browser.find_element(By.CSS_SELECTOR, '#columns [data-drop="1"] .card:last-child')
    other = next(c for c in browser.find_elements(By.CSS_SELECTOR, "#columns .column")
                 if c.get_attribute("data-drop") != "1"
                 and not _builds(top.get_attribute("data-card"), c))
    ActionChains(browser).click_and_hold(top).move_by_offset(10, 10).move_to_element(
        other).release().perform()
    wait_for(browser, lambda: "Not allowed" in browser.find_element(By.ID, "status").text,
             "the refusal of an illegal move")
    assert body(browser, "moves") == "0"

    played = 0
    for _ in range(120):
        if body(browser, "won") == "true":
            break
        browser.find_element(By.ID, "hint").click()
        wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".card.hint-src")
                 or body(browser, "hint") in ("no_win", "unknown"), "a hint")
        assert body(browser, "hint") == "win", browser.find_element(By.ID, "status").text
        hinted = browser.find_elements(By.CSS_SELECTOR, ".card.hint-src")[-1]
        if played == 0:
            # the first hinted move dragged to the highlighted place instead of clicked
            target = browser.find_element(By.CSS_SELECTOR, ".hint-dst")
            ActionChains(browser).click_and_hold(hinted).move_by_offset(12, 12) \
                .move_to_element(target).release().perform()
        else:
            hinted.click()
        wait_for(browser, lambda n=played: body(browser, "moves") == str(n + 1), "the move")
        played += 1
    assert body(browser, "won") == "true", f"not won after {played} hinted moves"
    assert body(browser, "home") == "36"
    assert "Won" in browser.find_element(By.ID, "status").text
    browser.save_screenshot(str(tmp_path / "won.png"))
    assert (tmp_path / "won.png").stat().st_size > 10_000
    if os.environ.get("BAKERS_SCREENSHOT_DIR"):
        browser.save_screenshot(str(Path(os.environ["BAKERS_SCREENSHOT_DIR"]) / "won.png"))

    # undo takes the last move back, redo plays it again (buttons and keys)
    browser.find_element(By.ID, "undo").click()
    wait_for(browser, lambda: body(browser, "moves") == str(played - 1), "undo")
    assert body(browser, "won") == "false" and int(body(browser, "home")) < 36
    assert browser.find_element(By.ID, "best").text == "36"
    browser.find_element(By.TAG_NAME, "body").send_keys("r")
    wait_for(browser, lambda: body(browser, "moves") == str(played), "redo")
    assert body(browser, "won") == "true"

    # a few foundation moves back, the rest plays itself: Auto plays it home; back
    # again, Solve plays the engine's line from there
    moves = browser.execute_script("return view.state.moves")
    back = 0
    while back < 3 and moves[-1 - back].endswith("h"):
        back += 1
    assert back, f"the winning line ends with {moves[-1]!r}, not a move home"
    for button in ("auto", "solve"):
        for n in range(1, back + 1):
            browser.find_element(By.TAG_NAME, "body").send_keys("u")
            wait_for(browser, lambda n=n: body(browser, "moves") == str(played - n), "undo")
        assert browser.find_element(By.ID, "auto").is_enabled()
        browser.find_element(By.ID, button).click()
        wait_for(browser, lambda: body(browser, "won") == "true", f"the win by {button}")
    browser.find_element(By.TAG_NAME, "body").send_keys("b")
    wait_for(browser, lambda: body(browser, "moves") == "0", "restart")
    assert time.perf_counter() - started < 60


def _builds(card: str, column) -> bool:
    """Return whether ``card`` builds on the top of ``column`` (alternate colours)."""
    cards = column.find_elements(By.CSS_SELECTOR, ".card")
    if not cards:
        return True
    onto = cards[-1].get_attribute("data-card")
    ranks = "0A23456789TJQK"
    red = {"H", "D"}
    return (ranks.index(card[0]) == ranks.index(onto[0]) - 1
            and (card[1] in red) != (onto[1] in red))


def test_a_phone_sized_screen_shows_every_column(server: str,
                                                 browser: webdriver.Chrome) -> None:
    # Baker's Dozen has the most columns (13): on a phone's 390 CSS pixels they all fit
    # without scrolling sideways, and a hint played by a tap still moves a card
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    try:
        browser.get(f"{server}?game=bakers_dozen&number=3")
        wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#columns .column"))
                 == 13 and body(browser, "moves") == "0", "the deal")
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert width == 390
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
        for column in browser.find_elements(By.CSS_SELECTOR, "#columns .column"):
            box = column.rect
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        browser.find_element(By.TAG_NAME, "body").send_keys("h")
        wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".card.hint-src"),
                 "a hint")
        browser.find_elements(By.CSS_SELECTOR, ".card.hint-src")[-1].click()
        wait_for(browser, lambda: body(browser, "moves") == "1", "the hinted move")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
