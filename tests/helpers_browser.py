"""What the browser tests of `bakers serve` share: the server, a headless Chromium at a
window size, and waiting for the page.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them) and
``selenium`` (the test extra); a test module that imports this skips where one is missing.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

pytest.importorskip("starlette", reason="the serve extra (starlette) is not installed")
webdriver = pytest.importorskip("selenium.webdriver",
                                reason="selenium (the test extra) is not installed")

from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="headless Chromium is not installed (apt-get install chromium chromium-driver)")

#: The window sizes the page must fit: a laptop, a short laptop screen, a phone upright
#: and the phone held sideways (CSS pixels).
SIZES = [(1280, 800), (1366, 650), (390, 844), (844, 390)]


def run_server() -> Iterator[str]:
    """Run `bakers serve --port 0` and yield the address it prints."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bakers", "serve", "--port", "0", "--hint-seconds", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert match, f"no address in {line!r}; stderr: {process.stderr.read()}"
        yield match.group(0)
    finally:
        process.terminate()
        process.communicate(timeout=10)  # reads and closes the pipes


def open_browser(size: tuple[int, int]) -> Iterator[Any]:
    """Yield a headless Chromium whose page is ``size`` CSS pixels (a phone's size as a
    phone reports it); the size is its ``screen_size``."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options,
                              service=webdriver.ChromeService(executable_path=DRIVER))
    width, height = size
    phone = min(width, height) < 500
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": phone})
    driver.screen_size = size
    try:
        yield driver
    finally:
        driver.quit()


def body(driver: Any, key: str) -> str:
    """The page's ``data-KEY`` on its body (moves, won, home, outcome, legal, ...)."""
    return driver.find_element(By.TAG_NAME, "body").get_attribute(f"data-{key}") or ""


def wait_for(driver: Any, condition: Callable[[], Any], what: str,
             seconds: float = 10.0) -> None:
    try:
        WebDriverWait(driver, seconds, poll_frequency=0.02).until(lambda d: condition())
    except TimeoutException:
        status = driver.find_element(By.ID, "status").text
        pytest.fail(f"waited {seconds} s for {what}; the page says {status!r}")


def load(driver: Any, url: str, moves: int | None = None) -> None:
    """Open ``url`` and wait until the page has drawn its deal (with ``moves`` moves)."""
    driver.get(url)
    wait_for(driver, lambda: body(driver, "ready") == "true"
             and (moves is None or body(driver, "moves") == str(moves)), f"the page at {url}")


def save_game(driver: Any, game: str, number: int, moves: list[str],
              options: dict[str, Any] | None = None) -> None:
    """Store a game in the page's localStorage as the page saves one (store.js), so that
    the next load of its address resumes it. The page is left first: it saves its own
    game as it goes."""
    origin = urlsplit(driver.current_url)
    driver.get(f"{origin.scheme}://{origin.netloc}/static/style.css")
    key = f"{game}:n{number}"
    record = {"game": game, "deal": {"number": number}, "moves": moves, "redo": [],
              "label": f"{game} #{number}", "kind": "number", "grade": "test",
              "elapsed": 0, "started": False, "result": None, "assisted": False, "best": 0}
    driver.execute_script(
        "const [key, record, options] = arguments;"
        "const games = JSON.parse(localStorage.getItem('bakers:games') || '{}');"
        "games[key] = record;"
        "localStorage.setItem('bakers:games', JSON.stringify(games));"
        "localStorage.setItem('bakers:current', key);"
        "if (options) localStorage.setItem('bakers:options', JSON.stringify(options));",
        key, json.loads(json.dumps(record)), options)
