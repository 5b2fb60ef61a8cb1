"""The page of `bakers serve` as a player meets it, in headless Chromium at four window
sizes (a laptop, a short laptop screen, a phone upright and sideways): one browser a
size, shared by the tests of that size. The position is always the referee's: each
check reads the page's drawn cards and the server's answers, never a screenshot."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from bakers import Board, Deal, solve
from bakers.notation import Move
from bakers.variants import PRESETS
from helpers_browser import (
    SIZES,
    body,
    load,
    needs_chromium,
    open_browser,
    run_server,
    save_game,
    wait_for,
)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

pytestmark = [pytest.mark.slow, needs_chromium]

# A FreeCell with 36 cards deal that wins in about 50 single moves, the last few home.
GAME, NUMBER = "freecell36", 1243
# FreeCell deal 37 after these 32 moves: a column of 17 cards.
LONG_GAME, LONG_NUMBER = "freecell", 37
LONG_MOVES = ["4h", "16", "1a", "1b", "1h", "7c", "7h", "12", "1d", "1h", "61", "63", "13",
              "63", "61", "67", "6h", "8h", "a3", "58", "53", "5a", "53", "5h", "62", "76",
              "73", "63", "72", "86", "83", "63"]
# the options with auto-move home off: the tests count the moves they make
MANUAL = {"fourColour": False, "size": "medium", "autoHome": "off"}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from run_server()


@pytest.fixture(scope="module", params=SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    yield from open_browser(request.param)


@pytest.fixture
def page(server: str, browser: Any) -> Any:
    """The browser on the page, its storage empty."""
    browser.get(server + "static/style.css")  # the origin, without starting a game
    browser.execute_script("localStorage.clear()")
    return browser


@pytest.fixture(scope="module")
def winning_line() -> list[str]:
    result = solve(Deal.from_number(GAME, NUMBER))
    assert result.solved
    return [m.notation() for m in result.solution]


def url(server: str, game: str, number: int) -> str:
    return f"{server}?game={game}&number={number}"


def size_of(driver: Any) -> tuple[int, int]:
    """The window size the browser was opened at; the page has it (no zooming out)."""
    size = driver.screen_size
    if driver.execute_script("return document.body.dataset.ready"):
        assert tuple(driver.execute_script("return [innerWidth, innerHeight]")) == size
    return size


def state(driver: Any) -> dict[str, Any]:
    return driver.execute_script("return view.state")


def play_hinted(driver: Any, count: int) -> None:
    """Ask for a hint and click the hinted card, ``count`` times."""
    for _ in range(count):
        before = int(body(driver, "moves"))
        driver.find_element(By.ID, "hint").click()
        wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, ".card.hint-src"), "a hint")
        driver.find_elements(By.CSS_SELECTOR, ".card.hint-src")[-1].click()
        wait_for(driver, lambda b=before: int(body(driver, "moves")) > b, "the hinted move")


# ---------------------------------------------------------------- never lose a game

def test_a_reload_a_link_and_back_resume_the_moves(page: Any, server: str) -> None:
    save_game(page, GAME, NUMBER, [], MANUAL)
    load(page, url(server, GAME, NUMBER), moves=0)
    play_hinted(page, 2)
    moves = state(page)["moves"]
    assert len(moves) == 2
    page.refresh()
    wait_for(page, lambda: body(page, "ready") == "true", "the reload")
    assert state(page)["moves"] == moves
    # the address of the same deal, typed again: the same moves
    load(page, url(server, GAME, NUMBER))
    assert state(page)["moves"] == moves
    # another deal from the deal box: asked first, then the game is one Back away
    box = page.find_element(By.ID, "number")
    if not box.is_displayed():
        page.find_element(By.ID, "menu-btn").click()
    box.clear()
    box.send_keys(str(NUMBER + 1), Keys.ENTER)
    wait_for(page, lambda: page.find_element(By.ID, "confirm-panel").is_displayed(), "the question")
    page.find_element(By.ID, "confirm-stay").click()
    assert state(page)["moves"] == moves and state(page)["deal"] == {"number": NUMBER}
    box.send_keys(Keys.ENTER)
    wait_for(page, lambda: page.find_element(By.ID, "confirm-panel").is_displayed(), "the question")
    page.find_element(By.ID, "confirm-leave").click()
    wait_for(page, lambda: state(page)["deal"] == {"number": NUMBER + 1}, "the next deal")
    assert state(page)["moves"] == []
    page.back()
    wait_for(page, lambda: state(page)["deal"] == {"number": NUMBER}, "the game left")
    assert state(page)["moves"] == moves


def test_keys_after_the_game_list_and_the_deal_box_leave_the_game(page: Any,
                                                                   server: str) -> None:
    load(page, url(server, GAME, NUMBER), moves=0)
    if not page.find_element(By.ID, "game").is_displayed():
        page.find_element(By.ID, "menu-btn").click()
    Select(page.find_element(By.ID, "game")).select_by_value("bakers_game")
    wait_for(page, lambda: state(page)["game"] == "bakers_game", "the game chosen")
    # letters that pick games in the list (Citadel, Eight Off, Tuxedo, Opus, Penguin):
    # typed now they go to the table, not to the list
    ActionChains(page).send_keys("cetop").perform()
    assert state(page)["game"] == "bakers_game"
    assert Select(page.find_element(By.ID, "game")).first_selected_option.get_attribute(
        "value") == "bakers_game"
    box = page.find_element(By.ID, "number")
    box.clear()
    box.send_keys("5", Keys.ENTER)
    wait_for(page, lambda: state(page)["deal"] == {"number": 5}, "deal 5")
    # digits and Enter now pick a column of the table, not another deal
    ActionChains(page).send_keys("7", Keys.ENTER, "9", Keys.ENTER).perform()
    assert state(page)["deal"] == {"number": 5} and state(page)["game"] == "bakers_game"
    assert page.execute_script("return document.activeElement.id") != "number"
    assert box.get_attribute("value") == "5"


# ---------------------------------------------------------------- the outcome

def _won_panel(driver: Any) -> str:
    wait_for(driver, lambda: body(driver, "outcome") == "won", "the win panel", 30)
    panel = driver.find_element(By.ID, "outcome")
    assert panel.is_displayed()
    text = panel.text
    assert "Won!" in text and "Next deal" in text and "Today's deal" in text
    return text


def test_a_win_by_a_click_by_auto_and_by_solve_shows_the_panel(
        page: Any, server: str, winning_line: list[str]) -> None:
    stats = f"return statsOf('{GAME}')"
    # by a click: the last card home
    save_game(page, GAME, NUMBER, winning_line[:-1], MANUAL)
    load(page, url(server, GAME, NUMBER), moves=len(winning_line) - 1)
    assert body(page, "outcome") == ""
    last = winning_line[-1][0]
    card = page.find_elements(By.CSS_SELECTOR, f'.card.movable[data-place="{last}"]')[-1]
    card.click()
    text = _won_panel(page)
    assert f"in {len(winning_line)} moves" in text
    counted = page.execute_script(stats)
    assert counted["played"] == 1 and counted["won"] == 1 and counted["streak"] == 1
    assert counted["bestMoves"] == len(winning_line)
    # the statistics panel shows it
    page.find_element(By.ID, "outcome-close").click()
    page.find_element(By.ID, "stats-btn").click()
    assert page.find_element(By.CSS_SELECTOR, '[data-stat="won"]').text.startswith("1")
    page.find_element(By.CSS_SELECTOR, "#stats-panel form button:not([type])").click()
    # undo hides the panel; redo shows it again, counted once
    page.find_element(By.ID, "undo").click()
    wait_for(page, lambda: body(page, "outcome") == "", "the panel gone")
    page.find_element(By.ID, "redo").click()
    _won_panel(page)
    assert page.execute_script(stats)["won"] == 1

    # by Auto: the rest plays itself home
    board = Board(Deal.from_number(GAME, NUMBER))
    back = 0
    for move in winning_line:
        board.push(move)
    while board.move_stack[-1 - back].dst.kind == "foundation":
        back += 1
    save_game(page, GAME, NUMBER, winning_line[:-back], MANUAL)
    load(page, url(server, GAME, NUMBER), moves=len(winning_line) - back)
    page.find_element(By.ID, "auto").click()
    _won_panel(page)

    # by Solve: the engine's line; the win is shown and not counted as the player's
    save_game(page, GAME, NUMBER, winning_line[:-back - 4], MANUAL)
    load(page, url(server, GAME, NUMBER), moves=len(winning_line) - back - 4)
    page.find_element(By.ID, "solve").click()
    assert "not counted" in _won_panel(page)
    assert page.execute_script(stats)["won"] == 2  # the Auto win, not this one


def test_a_proved_loss_shows_the_panel(page: Any, server: str) -> None:
    if size_of(page) != (1280, 800):
        pytest.skip("one size suffices: the panel is the win panel's")
    load(page, url(server, "freecell", 11982), moves=0)
    page.find_element(By.ID, "hint").click()
    wait_for(page, lambda: body(page, "outcome") == "lost", "the loss panel", 30)
    text = page.find_element(By.ID, "outcome").text
    assert "No win from here" in text and "Undo" in text


# ---------------------------------------------------------------- fitting the screen

def _check_table(driver: Any, where: str) -> None:
    """Every card of the table on the screen (or reachable by scrolling the page down),
    and every covered card's corner, its rank and suit, in sight above the next card."""
    problems = driver.execute_script("""
      const out = [], width = document.documentElement.clientWidth;
      const page = document.documentElement.scrollHeight;
      if (document.documentElement.scrollWidth > width) out.push('the page scrolls sideways');
      for (const el of document.querySelectorAll('#table .card, #table .slot, #table .column')) {
        const r = el.getBoundingClientRect();
        if (r.left < 0 || r.right > width + 0.5 || r.top + scrollY < 0
            || r.bottom + scrollY > page + 0.5)
          out.push((el.dataset.card || el.className) + ' off the page ' + JSON.stringify(r));
      }
      for (const column of document.querySelectorAll('#columns .column')) {
        const cards = [...column.querySelectorAll('.card')];
        cards.forEach((card, i) => {
          const box = card.getBoundingClientRect();
          const cover = i + 1 < cards.length ? cards[i + 1].getBoundingClientRect().top
                                             : box.bottom;
          const rank = card.querySelector('.rank'), suit = card.querySelector('.corner svg');
          const range = document.createRange();
          range.selectNodeContents(rank);
          const want = card.dataset.card[0] === 'T' ? '10' : card.dataset.card[0];
          if (rank.textContent !== want) out.push(card.dataset.card + ' shows ' + rank.textContent);
          const parts = [['rank', range.getBoundingClientRect()],
                         ['suit', suit.getBoundingClientRect()]];
          for (const [what, r] of parts) {
            if (r.width < 4 || r.height < 6 || r.left < box.left || r.right > box.right + 0.5
                || r.top < box.top || r.bottom > cover + 0.5)
              out.push(card.dataset.card + "'s " + what + ' hidden '
                       + JSON.stringify([r, box, cover]));
          }
        });
      }
      return out;""")
    assert not problems, f"{where}: {problems[:5]}"


def test_every_game_fits_and_covered_cards_read_whole(page: Any, server: str) -> None:
    width, height = page.screen_size
    for name in PRESETS:
        load(page, url(server, name, 3), moves=0)
        assert size_of(page) == (width, height)
        _check_table(page, f"{name} at {width}x{height}")
    # a column of 17 cards closes up and still shows every rank and suit
    save_game(page, LONG_GAME, LONG_NUMBER, LONG_MOVES, MANUAL)
    load(page, url(server, LONG_GAME, LONG_NUMBER), moves=len(LONG_MOVES))
    assert max(len(c) for c in state(page)["columns"]) == 17
    _check_table(page, f"a 17-card column at {width}x{height}")
    if min(width, height) < 500:  # a phone: buttons a finger hits
        for button in page.find_elements(By.CSS_SELECTOR, "header button"):
            if button.is_displayed():
                assert button.size["height"] >= 40 and button.size["width"] >= 40, button.text
        assert not page.find_element(By.CSS_SELECTOR, ".long-help").is_displayed()
        assert page.find_element(By.CSS_SELECTOR, ".short-help").is_displayed()


# ---------------------------------------------------------------- play feedback

def _referee_targets(game: str, number: int, moves: list[str], src: str,
                     count: int) -> set[str]:
    board = Board(Deal.from_number(game, number))
    for move in moves:
        board.push(move)
    places = [*"abcdefgi"[:board.variant.cells], "h",
              *(str(i + 1) for i in range(board.variant.columns))]
    legal = set()
    for dst in places:
        if dst == src:
            continue
        text = f"{src}{dst}" if len(src) == len(dst) == 1 else f"{src}-{dst}"
        if src.isdigit() and dst.isdigit():
            text += f"x{count}"
        elif count != 1:
            continue
        if board.is_legal(Move.parse(text)):
            legal.add(dst)
    return legal


def test_a_drag_lights_its_legal_places(page: Any, server: str) -> None:
    save_game(page, LONG_GAME, LONG_NUMBER, LONG_MOVES[:12], MANUAL)
    load(page, url(server, LONG_GAME, LONG_NUMBER), moves=12)
    for card in page.find_elements(By.CSS_SELECTOR, "#columns .card.movable"):
        src, depth = card.get_attribute("data-place"), int(card.get_attribute("data-depth"))
        ActionChains(page).click_and_hold(card).move_by_offset(0, 12).move_by_offset(
            0, 12).perform()
        wait_for(page, lambda: page.find_elements(By.CSS_SELECTOR, ".drag-ghost"), "the drag")
        lit = set(body(page, "legal").split())
        expected = _referee_targets(LONG_GAME, LONG_NUMBER, LONG_MOVES[:12], src, depth)
        assert lit == expected, (src, depth)
        assert len(page.find_elements(By.CSS_SELECTOR, ".legal")) >= len(lit)
        # the marks lie above the cards: the column's mark is drawn over its top card
        on_top = page.execute_script("""
          const col = document.querySelector('#columns .column.legal');
          if (!col) return true;
          return getComputedStyle(col, '::after').zIndex === '5';""")
        assert on_top
        # let go back where it started: nothing moves
        ActionChains(page).move_to_element(card).release().perform()
        wait_for(page, lambda: not page.find_elements(By.CSS_SELECTOR, ".drag-ghost"), "the drop")
        assert body(page, "moves") == "12" and not page.find_elements(By.CSS_SELECTOR, ".legal")


def test_keyboard_play_selects_then_moves(page: Any, server: str) -> None:
    if size_of(page) != (1280, 800):
        pytest.skip("keys are the same at every size")
    save_game(page, LONG_GAME, LONG_NUMBER, LONG_MOVES[:11], MANUAL)
    load(page, url(server, LONG_GAME, LONG_NUMBER), moves=11)
    src, dst = LONG_MOVES[11]  # "63": column 6 onto column 3
    page.find_element(By.ID, "table").click()
    ActionChains(page).send_keys(src).perform()
    assert page.find_elements(By.CSS_SELECTOR, f'#columns [data-drop="{src}"] .card.selected')
    lit = set(body(page, "legal").split())
    assert dst in lit
    ActionChains(page).send_keys(dst).perform()
    wait_for(page, lambda: body(page, "moves") == "12", "the move")
    assert state(page)["moves"][-1] == LONG_MOVES[11]


# ---------------------------------------------------------------- rules, options

def test_rules_show_for_every_game(page: Any, server: str) -> None:
    if size_of(page) != (1280, 800):
        pytest.skip("the rules are the same text at every size")
    load(page, url(server, GAME, NUMBER), moves=0)
    for variant in PRESETS.values():
        Select(page.find_element(By.ID, "game")).select_by_value(variant.name)
        wait_for(page, lambda v=variant: state(page)["game"] == v.name, variant.name)
        page.find_element(By.ID, "rules-btn").click()
        panel = page.find_element(By.ID, "rules-panel")
        assert panel.is_displayed()
        text = panel.text
        assert variant.title in text
        assert {"suit": "down by suit", "alternate": "alternate colours",
                "any": "regardless of suit"}[variant.build] in text
        assert ("No free cells" in text) == (variant.cells == 0)
        assert ("takes only" in text) == (variant.empty == "kings")
        assert ("stays empty" in text) == (variant.empty == "none")
        assert ("goes home at once" in text) == variant.auto_aces
        assert ("Round the corner" in text) == variant.wrap
        panel.find_element(By.TAG_NAME, "button").click()
        wait_for(page, lambda p=panel: not p.is_displayed(), "the panel closed")


def test_the_lit_places_agree_with_the_referee_in_every_game(page: Any, server: str) -> None:
    if size_of(page) != (1280, 800):
        pytest.skip("the rules do not depend on the size")
    load(page, url(server, GAME, NUMBER), moves=0)
    for variant in PRESETS.values():
        # a position some moves in: the first legal moves that keep cards off the
        # foundations, so that runs, cells and empty columns come up
        board = Board(Deal.from_number(variant.name, 7))
        for _ in range(25):
            moves = [m for m in board.legal_moves if m.dst.kind != "foundation"]
            if not moves:
                break
            board.push(moves[len(board.move_stack) * 7 % len(moves)])
        moves = [m.notation() for m in board.move_stack]
        answer = page.execute_async_script("""
          const [game, moves, done] = arguments;
          api('/api/state', {game, deal: {number: 7}, moves}).then((s) => {
            const g = view.games.find((x) => x.name === game);
            const out = {};
            for (const src of places(s)) {
              if (src === 'h') continue;
              const most = /^\\d+$/.test(src) ? s.columns[Number(src) - 1].length : 1;
              for (let n = 1; n <= most; n++) out[src + ':' + n] = legalTargets(g, s, src, n);
            }
            done(out);
          });""", variant.name, moves)
        for key, lit in answer.items():
            src, count = key.split(":")
            expected = _referee_targets(variant.name, 7, moves, src, int(count))
            assert set(lit) == expected, (variant.name, key)


def test_options_four_colours_card_size_and_auto_home(page: Any, server: str) -> None:
    if size_of(page) != (1280, 800):
        pytest.skip("one size suffices")
    save_game(page, LONG_GAME, LONG_NUMBER, LONG_MOVES[:3], MANUAL)
    load(page, url(server, LONG_GAME, LONG_NUMBER), moves=3)
    colour = "return getComputedStyle(document.querySelector('.card.suit-D')).color"
    red = page.execute_script(colour)
    width = page.execute_script("return document.querySelector('.card').offsetWidth")
    page.find_element(By.ID, "options-btn").click()
    page.find_element(By.ID, "opt-four").click()
    Select(page.find_element(By.ID, "opt-size")).select_by_value("small")
    Select(page.find_element(By.ID, "opt-auto")).select_by_value("on")
    page.find_element(By.CSS_SELECTOR, "#options-form > button").click()
    assert page.execute_script(colour) != red
    assert page.execute_script("return document.querySelector('.card').offsetWidth") < width
    # auto-move home: the player's next move (the queen over the two of clubs, the ace
    # home) is followed by the two going home
    page.find_element(By.CSS_SELECTOR, '#columns [data-drop="1"] .card:last-child').click()
    wait_for(page, lambda: int(body(page, "moves")) >= 5, "the two home")
    assert state(page)["moves"][4].endswith("h")
    assert page.execute_script("return readOptions()")["autoHome"] == "on"
    page.refresh()
    wait_for(page, lambda: body(page, "ready") == "true", "the reload")
    assert page.execute_script(colour) != red  # kept
