"""The JSON API of `bakers serve`, through Starlette's TestClient (no network)."""

from __future__ import annotations

import datetime
import warnings

import pytest

pytest.importorskip("starlette", reason="the serve extra (starlette) is not installed")
pytest.importorskip("httpx", reason="httpx (the test extra) is not installed")

with warnings.catch_warnings():
    # newer Starlette asks for httpx2 and warns when it finds only httpx, which works
    warnings.filterwarnings("ignore", message=".*httpx2", category=Warning)
    from starlette.testclient import TestClient  # noqa: E402

from bakers import Board, Deal, daily, hint  # noqa: E402
from bakers.hinting import forget_lines  # noqa: E402
from bakers.serve import MAX_BODY, EngineLimits, create_app  # noqa: E402
from bakers.serve.position import MAX_MOVES  # noqa: E402
from bakers.variants import PRESETS  # noqa: E402
from helpers_serve import hold_hints  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def _forget_the_lines_afterwards():
    # the hints here remember their lines in this process: later tests of `hint` must
    # not find them
    yield
    forget_lines()


@pytest.fixture(scope="module")
def client() -> TestClient:
    with TestClient(create_app(EngineLimits(hint_seconds=5.0, solve_seconds=10.0)),
                    base_url="http://localhost") as c:
        yield c


def post(client: TestClient, path: str, body: dict, status: int = 200) -> dict:
    answer = client.post(f"/api/{path}", json=body)
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    return answer.json()


def game(number: int = 1, name: str = "freecell", moves: tuple[str, ...] = ()) -> dict:
    return {"game": name, "deal": {"number": number}, "moves": list(moves)}


def test_page_and_static_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name in ("app.js", "style.css"):
        assert name in page.text
        asset = client.get(f"/static/{name}")
        assert asset.status_code == 200 and len(asset.content) > 1000
    # nothing is loaded from elsewhere: the page works offline
    assert "http://" not in page.text and "https://" not in page.text


def test_games_lists_every_preset_with_its_fields(client: TestClient) -> None:
    answer = client.get("/api/games").json()
    names = [g["name"] for g in answer["games"]]
    assert names == list(PRESETS)
    by_name = {g["name"]: g for g in answer["games"]}
    assert by_name["bakers_dozen"]["cells"] == 0 and by_name["bakers_dozen"]["columns"] == 13
    assert by_name["bulochnik"]["moves"] == "sequence"
    assert by_name["freecell36"]["deck"] == 36
    assert answer["grades"] == ["easy", "medium", "hard"]


@pytest.mark.parametrize("name", list(PRESETS))
def test_deal_by_number_is_the_library_deal(client: TestClient, name: str) -> None:
    state = post(client, "deal", {"game": name, "deal": {"number": 5}})
    board = Board(Deal.from_number(name, 5))
    assert state["columns"] == [[str(c) for c in col] for col in board.columns]
    assert state["home"] == board.foundation_count() and not state["won"]
    assert state["deal"] == {"number": 5} and state["moves"] == []
    assert len(state["runs"]) == len(board.columns)


def test_a_legal_move_is_played_and_the_state_follows(client: TestClient) -> None:
    board = Board.from_number("freecell", 1)
    first = next(iter(board.legal_moves))
    state = post(client, "move", {**game(1), "move": first.notation()})
    board.push(first)
    assert state["played"] == first.notation()
    assert state["moves"] == [first.notation()]
    assert state["columns"] == [[str(c) for c in col] for col in board.columns]
    assert state["cells"] == [None if c is None else str(c) for c in board.cells]
    # and the moves so far are replayed by /api/state
    again = post(client, "state", game(1, moves=(first.notation(),)))
    assert again["columns"] == state["columns"]


def test_an_illegal_move_is_refused_with_the_reason(client: TestClient) -> None:
    board = Board.from_number("freecell", 1)
    illegal = next(f"{i}h" for i in range(1, 9)
                   if board.columns[i - 1][-1].rank != 1)
    answer = post(client, "move", {**game(1), "move": illegal}, 422)
    assert "reason" in answer and answer["reason"]
    assert illegal in answer["error"]


def test_an_illegal_move_in_the_history_is_refused_by_number(client: TestClient) -> None:
    board = Board.from_number("freecell", 1)
    first = next(iter(board.legal_moves)).notation()
    answer = post(client, "state", game(1, moves=(first, "1h", first)), 400)
    assert "move 2" in answer["error"]


def test_a_bad_move_text_is_named(client: TestClient) -> None:
    answer = post(client, "move", {**game(1), "move": "zz9"}, 400)
    assert "'zz9'" in answer["error"]


def test_a_click_sends_a_card_home_else_onto_a_build_else_to_a_cell(client: TestClient) -> None:
    board = Board.from_number("freecell", 1)
    state = post(client, "click", {**game(1), "from": "1", "count": 1})
    played = state["played"]
    expected = board.copy()
    card = board.columns[0][-1]
    homes = any(m.notation() == "1h" for m in board.legal_moves)
    onto = [m.dst.index for m in board.legal_moves
            if m.src.index == 0 and m.src.kind == "column" and m.dst.kind == "column"
            and board.columns[m.dst.index]]
    if homes:
        assert played == "1h"
    elif onto:
        assert played == f"1{min(onto) + 1}"
    else:
        assert played == "1a", card
    expected.push_notation(played)
    assert state["columns"] == [[str(c) for c in col] for col in expected.columns]


def test_a_click_with_nowhere_to_go_is_refused_with_the_reason(client: TestClient) -> None:
    # Baker's Dozen has no cells and no empty column takes a card: find a stuck top card
    board = Board.from_number("bakers_dozen", 1)
    stuck = next(i for i, col in enumerate(board.columns)
                 if not any(m.src.index == i for m in board.legal_moves))
    answer = post(client, "click", {**game(1, "bakers_dozen"), "from": str(stuck + 1),
                                    "count": 1}, 422)
    assert str(board.columns[stuck][-1]) in answer["error"]


def test_a_click_in_a_bulochnik_run_moves_the_run_from_that_card(client: TestClient) -> None:
    # find a Bulochnik position (deal by number, after one move) where a run of 2+ cards
    # of one suit can go onto another column
    for number in range(1, 200):
        board = Board.from_number("bulochnik", number)
        for move in board.legal_moves:
            if move.count and move.count >= 2 and board.columns[move.dst.index]:
                state = post(client, "click", {**game(number, "bulochnik"),
                                               "from": str(move.src.index + 1),
                                               "count": move.count})
                assert state["played"] == move.notation()
                return
    pytest.fail("no Bulochnik deal in 1..199 starts with a run to move")


def test_hint_answers_a_winning_move_that_the_referee_accepts(client: TestClient) -> None:
    answer = post(client, "hint", game(3))
    assert answer["verdict"] == "win" and answer["move"] and answer["supermove"]
    board = Board.from_number("freecell", 3)
    board.push_notation(answer["supermove"])
    # the library agrees on the hint of the same position (the same remembered line)
    assert hint(Board.from_number("freecell", 3)).supermove.notation() == answer["supermove"]


def test_hint_says_no_win_when_proved(client: TestClient) -> None:
    # FreeCell 11982 is the one MS deal of 1..32000 with no win
    answer = post(client, "hint", game(11982))
    assert answer["verdict"] == "no_win" and answer["move"] is None


def test_following_the_hints_wins(client: TestClient) -> None:
    moves: list[str] = []
    for _ in range(200):
        answer = post(client, "hint", game(2, "freecell36", tuple(moves)))
        if answer["won_already"]:
            break
        state = post(client, "move", {**game(2, "freecell36", tuple(moves)),
                                      "move": answer["supermove"]})
        moves = state["moves"]
    assert post(client, "state", game(2, "freecell36", tuple(moves)))["won"]


@pytest.mark.parametrize("name", ["bakers_game", "bulochnik", "bakers_dozen", "freecell36"])
def test_solve_gives_a_line_that_wins(client: TestClient, name: str) -> None:
    # the line as the page plays it: each move sent alone, multi-card moves whole
    answer = post(client, "solve", game(7, name))
    assert answer["verdict"] == "win"
    moves: list[str] = []
    for move in answer["moves"]:
        moves = post(client, "move", {**game(7, name, tuple(moves)), "move": move})["moves"]
    state = post(client, "state", game(7, name, tuple(moves)))
    assert state["won"] and state["home"] == PRESETS[name].deck


def test_autocomplete_finishes_a_game_that_plays_itself(client: TestClient) -> None:
    solved = post(client, "solve", game(4))
    line = solved["moves"]
    # walk the line until autocomplete is offered, then let it finish
    for n in range(len(line) + 1):
        state = post(client, "state", game(4, moves=tuple(line[:n])))
        if state["autocomplete"]:
            break
    rest = post(client, "autocomplete", game(4, moves=tuple(line[:n])))["moves"]
    assert rest
    assert post(client, "state", game(4, moves=(*line[:n], *rest)))["won"]
    assert post(client, "autocomplete", game(4))["moves"] is None


def test_daily_is_the_library_daily_deal(client: TestClient) -> None:
    state = post(client, "daily", {"game": "freecell36", "date": "2026-05-17"})
    assert state["date"] == "2026-05-17"
    expected = daily("freecell36", "2026-05-17")
    assert state["deal"] == {"seed": str(expected.seed)}  # 64 bits: as text for a browser
    board = Board(expected)  # its exposed aces home, as the game says
    assert state["columns"] == [[str(c) for c in col] for col in board.columns]
    today = post(client, "daily", {"game": "freecell36"})
    assert today["date"] == datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    post(client, "daily", {"game": "freecell36", "date": "2026-02-30"}, 400)


@pytest.mark.parametrize("difficulty", ["any", "easy", "hard"])
def test_generate_gives_a_winnable_deal_of_the_grade(client: TestClient,
                                                     difficulty: str) -> None:
    state = post(client, "generate", {"game": "freecell36", "difficulty": difficulty})
    assert "seed" in state["deal"] and state["moves"] == []
    if difficulty != "any":
        assert state["grade"]["grade"] == difficulty
    solved = post(client, "solve", {"game": "freecell36", "deal": state["deal"]})
    assert solved["verdict"] == "win"
    post(client, "generate", {"game": "freecell36", "difficulty": "brutal"}, 400)


def test_grade_of_a_deal(client: TestClient) -> None:
    answer = post(client, "grade", {"game": "freecell", "deal": {"number": 1}})
    assert answer["grade"] in ("easy", "medium", "hard") and 0 <= answer["score"] <= 100


@pytest.mark.parametrize("body", [
    b"{", b'{"game": "freecell",', b"[1, 2]", b"\xff\xfe", b"[" * 30000 + b"]" * 30000,
    b'{"game": "freecell", "deal": {"number": ' + b"9" * 5000 + b"}}",
])
def test_malformed_json_is_a_400_naming_the_problem(client: TestClient, body: bytes) -> None:
    answer = client.post("/api/state", content=body,
                         headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert answer.json()["error"]


def test_unknown_game_is_a_404_naming_it(client: TestClient) -> None:
    answer = post(client, "deal", {"game": "spider", "deal": {"number": 1}}, 404)
    assert "'spider'" in answer["error"] and "freecell" in answer["error"]
    # a huge name is quoted by its start only
    answer = post(client, "deal", {"game": "q" * 50_000, "deal": {"number": 1}}, 404)
    assert answer["error"].startswith("unknown game 'qqq") and len(answer["error"]) <= 300


@pytest.mark.parametrize(("body", "words"), [
    ({"game": "freecell"}, "'deal'"),
    ({"game": "freecell", "deal": {"number": 0}}, "out of range"),
    ({"game": "freecell", "deal": {"number": "7x"}}, "integer"),
    ({"game": "freecell", "deal": {"seed": -1}}, "seed"),
    ({"game": "freecell", "deal": {"number": 1, "seed": 2}}, "exactly one"),
    ({"game": 7, "deal": {"number": 1}}, "'game'"),
    ({"game": "freecell", "deal": {"number": 1}, "moves": "3a"}, "'moves'"),
    ({"game": "freecell", "deal": {"number": 1}, "moves": [3]}, "move 1"),
    ({"game": "freecell", "deal": {"number": 1}, "cheat": True}, "'cheat'"),
])
def test_bad_fields_are_named(client: TestClient, body: dict, words: str) -> None:
    answer = post(client, "state", body, 400)
    assert words in answer["error"]


def test_too_many_moves_are_refused(client: TestClient) -> None:
    answer = post(client, "state", game(1, moves=("1a", "a1") * (MAX_MOVES // 2 + 1)), 400)
    assert str(MAX_MOVES) in answer["error"]


def test_a_huge_body_is_refused_before_it_is_read(client: TestClient) -> None:
    big = b'{"game": "freecell", "pad": "' + b"x" * (MAX_BODY + 1) + b'"}'
    answer = client.post("/api/state", content=big, headers={"content-type": "application/json"})
    assert answer.status_code == 413 and str(MAX_BODY) in answer.json()["error"]

    def chunks():  # no Content-Length: counted as it arrives
        yield b'{"pad": "'
        for _ in range(MAX_BODY // 1024 + 2):
            yield b"y" * 1024
        yield b'"}'

    answer = client.post("/api/state", content=chunks(),
                         headers={"content-type": "application/json"})
    assert answer.status_code == 413


def test_wrong_method_and_unknown_route_answer_json(client: TestClient) -> None:
    assert client.get("/api/move").status_code == 405
    assert client.get("/api/move").json()["status"] == 405
    missing = client.post("/api/nothing", json={})
    assert missing.status_code == 404 and missing.json()["error"]
    text = client.post("/api/state", content=b"game=freecell",
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert text.status_code == 415


def test_engine_work_runs_off_the_event_loop_and_a_full_queue_says_busy() -> None:
    # the one worker held by a slow hint (a sleep releases the GIL as the core does):
    # the API still answers at once, and one more engine request gets 503
    import threading
    import time

    app = create_app(EngineLimits(workers=1, queue=0))
    engine = app.state.engine
    real_hint = engine.hint
    entered = threading.Event()

    def slow_hint(board):
        entered.set()
        time.sleep(1.5)
        return real_hint(board)

    engine.hint = slow_hint
    with TestClient(app, base_url="http://localhost") as c:
        slow = threading.Thread(target=lambda: c.post("/api/hint", json=game(1)))
        slow.start()
        assert entered.wait(5)
        started = time.perf_counter()
        quick = c.post("/api/state", json=game(1))
        quick_time = time.perf_counter() - started
        busy = c.post("/api/hint", json=game(5))
        slow.join()
    assert quick.status_code == 200 and quick_time < 1.0
    assert busy.status_code == 503 and "busy" in busy.json()["error"]


def test_a_hint_on_a_remembered_line_needs_no_worker() -> None:
    # the one worker busy and no queue: a search is refused, the next move of a line
    # found before is answered
    import threading

    app = create_app(EngineLimits(workers=1, queue=0))
    engine = app.state.engine
    with TestClient(app, base_url="http://localhost") as c:
        first = post(c, "hint", game(8))
        played = post(c, "move", {**game(8), "move": first["supermove"]})["moves"]
        entered, release = hold_hints(engine)
        holder = threading.Thread(target=lambda: c.post("/api/hint", json=game(9)))
        holder.start()
        assert entered.wait(5)
        try:
            assert c.post("/api/hint", json=game(10)).status_code == 503
            answer = post(c, "hint", game(8, moves=tuple(played)))
        finally:
            release.set()
            holder.join()
    assert answer["verdict"] == "win" and answer["supermove"]


# -- the command ------------------------------------------------------------------------


def test_serve_says_when_the_port_is_taken(bakers) -> None:
    from bakers.serve import listen
    from helpers_cli import one_error_line

    with listen("127.0.0.1", 0) as taken:
        port = taken.getsockname()[1]
        code, _, err = bakers("serve", "--port", str(port))
    assert code == 2 and f"--port {port}" in one_error_line(err)


def test_serve_without_the_extra_says_how_to_install_it(bakers, monkeypatch) -> None:
    import sys

    import bakers as package
    from helpers_cli import one_error_line

    for name in [n for n in sys.modules if n == "bakers.serve" or n.startswith("bakers.serve.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.delattr(package, "serve", raising=False)  # else `from .. import` finds it
    for name in [n for n in sys.modules if n == "starlette" or n.startswith("starlette.")]:
        monkeypatch.setitem(sys.modules, name, None)  # as if it were not installed
    monkeypatch.setitem(sys.modules, "starlette", None)
    code, _, err = bakers("serve")
    assert code == 2 and "pip install 'bakers[serve]'" in one_error_line(err)
