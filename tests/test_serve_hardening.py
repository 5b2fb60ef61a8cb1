"""`bakers serve` under hostile or careless clients: bodies cut short, requests that
never finish arriving, clients that leave while their search runs, long move lists,
many long games, bad limits at start, Ctrl-C with clients waiting, other sites' pages."""

from __future__ import annotations

import json
import random
import select
import socket
import threading
import time
import tracemalloc
import warnings

import pytest

pytest.importorskip("starlette", reason="the serve extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the serve extra (uvicorn) is not installed")
httpx = pytest.importorskip("httpx", reason="httpx (the test extra) is not installed")

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2", category=Warning)
    from starlette.testclient import TestClient  # noqa: E402

from bakers import Board, Deal  # noqa: E402
from bakers.errors import InvalidOptionError  # noqa: E402
from bakers.serve import EngineLimits, create_app  # noqa: E402
from bakers.serve import position as position_module  # noqa: E402
from bakers.serve.hosts import host_name  # noqa: E402
from bakers.serve.position import MAX_MOVES, Game, board_bytes  # noqa: E402
from helpers_serve import hold_hints, served  # noqa: E402

# Baker's Dozen 417 is never decided: its hint searches until its time is up.
UNDECIDED = {"game": "bakers_dozen", "deal": {"number": 417}, "moves": []}
EASY = {"game": "freecell", "deal": {"number": 1}, "moves": []}


def long_game(number: int, moves: int = MAX_MOVES, game: str = "freecell") -> list[str]:
    """Return ``moves`` legal moves of deal ``number``, a random walk that keeps its
    cards off the foundations (so that it never runs out of moves for long)."""
    rng = random.Random(number)
    board = Board(Deal.from_number(game, number))
    while len(board.move_stack) < moves:
        options = [m for m in board.legal_moves if m.dst.kind != "foundation"]
        if not options:
            for _ in range(min(5, len(board.move_stack))):
                board.pop()
            continue
        board.push(rng.choice(options))
    return [m.notation() for m in board.move_stack]


def post_raw(sock: socket.socket, path: str, body: bytes, length: int | None = None) -> None:
    """Send a POST of ``body`` on ``sock`` that announces ``length`` bytes of body."""
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body) if length is None else length}\r\n\r\n")
    sock.sendall(head.encode() + body)


def closed_by_server(socks: list[socket.socket], wanted: int, within: float) -> int:
    """Return how many of ``socks`` the server has closed (EOF) once ``wanted`` have or
    ``within`` seconds have passed."""
    closed: set[socket.socket] = set()
    deadline = time.monotonic() + within
    while len(closed) < wanted and time.monotonic() < deadline:
        ready, _, _ = select.select([s for s in socks if s not in closed], [], [], 0.1)
        for s in ready:
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                closed.add(s)
    return len(closed)


# -- 1. a client that goes before its body has arrived ---------------------------------


def test_a_body_cut_short_logs_no_traceback() -> None:
    with served() as server:
        for _ in range(20):
            with server.connect() as sock:
                post_raw(sock, "/api/state", b'{"game": "freecell", "de', length=1000)
        # the server still answers, and said nothing about the clients that went
        answer = httpx.post(f"{server.base}/api/state", json=EASY, timeout=10)
        assert answer.status_code == 200
        time.sleep(0.3)
        assert "Traceback" not in server.stderr() and "Exception" not in server.stderr()


# -- 2. requests that never finish arriving --------------------------------------------


def test_a_request_that_never_finishes_arriving_is_closed() -> None:
    with served("--request-seconds", "0.5") as server:
        sock = server.connect()
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        body = server.connect()
        post_raw(body, "/api/state", b'{"game": ', length=500)
        closed = closed_by_server([sock, body], 2, within=10)
        sock.close()
        body.close()
        assert closed == 2
        time.sleep(0.2)
        assert "Traceback" not in server.stderr() and "Exception" not in server.stderr()


def test_slow_clients_cannot_shut_others_out() -> None:
    with served("--max-connections", "8") as server:
        slow = [server.connect() for _ in range(30)]
        for sock in slow:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        # beyond 8 open, each new connection closes the one that waited longest
        assert closed_by_server(slow, 22, within=10) >= 22
        answer = httpx.get(f"{server.base}/api/games", timeout=10)
        assert answer.status_code == 200
        for sock in slow:
            sock.close()


def test_more_slow_clients_than_open_files_leave_the_server_up_and_quiet() -> None:
    # a process that may open 200 files: the server keeps its connections below that
    with served(open_files=200) as server:
        slow = []
        for _ in range(300):
            sock = server.connect()
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            slow.append(sock)
        answer = httpx.get(f"{server.base}/api/games", timeout=10)
        assert answer.status_code == 200
        for sock in slow:
            sock.close()
        time.sleep(0.3)
        err = server.stderr()
        assert "Too many open files" not in err and len(err) < 2000, err[:2000]


# -- 3. a client that leaves while its search runs -------------------------------------


def test_the_search_of_a_client_that_has_gone_is_stopped() -> None:
    # one worker and a minute a hint: the undecided deal's search would hold the worker
    # for a minute, and the next hint would wait for it; once its client has gone the
    # search stops and the next hint is answered
    with served("--workers", "1", "--hint-seconds", "60") as server:
        with server.connect() as sock:
            post_raw(sock, "/api/hint", json.dumps(UNDECIDED).encode())
            time.sleep(0.5)  # the search is running
        answer = httpx.post(f"{server.base}/api/hint", json=EASY, timeout=20)
        assert answer.status_code == 200 and answer.json()["verdict"] == "win"
        assert "Traceback" not in server.stderr()


def test_a_stopped_search_raises_in_the_engine() -> None:
    # the engine's own hint call, given up while it runs, stops its search at once
    import anyio
    from bakers.serve.engine import Engine, GoneError

    engine = Engine(EngineLimits(hint_seconds=60, workers=1))
    board = Board(Deal.from_number("bakers_dozen", 417))

    async def main() -> None:
        gone_at = time.monotonic() + 0.3

        async def gone() -> bool:
            return time.monotonic() > gone_at

        with pytest.raises(GoneError), anyio.fail_after(20):
            await engine.run(engine.hint, board, gone=gone)

    anyio.run(main)


def test_a_grade_given_up_stops_its_searches() -> None:
    # a grade with a node limit far beyond the undecided deal's: given up, it stops
    import anyio
    from bakers.serve.engine import Engine, GoneError

    engine = Engine(EngineLimits(nodes=10**12, workers=1))
    deal = Deal.from_number("bakers_dozen", 417)

    async def main() -> None:
        gone_at = time.monotonic() + 0.3

        async def gone() -> bool:
            return time.monotonic() > gone_at

        with pytest.raises(GoneError), anyio.fail_after(20):
            await engine.run(engine.grade, deal, gone=gone)

    anyio.run(main)


def test_generate_and_grade_raise_what_their_progress_raises() -> None:
    # (progress is called while a search runs, about every 50 ms: a search this long
    # sees it; one of a few milliseconds ends first)
    from bakers import Limits, generate, grade

    class Enough(Exception):
        pass

    def stop(_) -> None:
        raise Enough

    long = Limits(nodes=10**12, memory="1G")
    with pytest.raises(Enough):
        generate("bakers_dozen", seed=145, limits=long, progress=stop)
    with pytest.raises(Enough):
        grade(Deal.from_number("bakers_dozen", 417), limits=long, progress=stop)


# -- 4. replays off the event loop, under the engine's queue ---------------------------


def test_replays_run_on_a_worker_under_the_engines_queue(monkeypatch) -> None:
    app = create_app(EngineLimits(workers=1, queue=0))
    engine = app.state.engine
    threads: list[str] = []
    real_replay = Game.replay.__func__  # type: ignore[attr-defined]

    def replay(cls, body):
        threads.append(threading.current_thread().name)
        return real_replay(cls, body)

    monkeypatch.setattr(Game, "replay", classmethod(replay))
    entered, release = hold_hints(engine)
    moves = long_game(3, 300)
    with TestClient(app, base_url="http://localhost") as c:
        first = c.post("/api/state", json={**EASY, "deal": {"number": 3}, "moves": moves})
        assert first.status_code == 200
        assert threads and all(name != threading.current_thread().name for name in threads)
        assert "AnyIO worker" in threads[0]
        holder = threading.Thread(target=lambda: c.post("/api/hint", json=UNDECIDED))
        holder.start()
        assert entered.wait(10)
        try:
            # the worker busy and no queue: a replay waits its turn like a search...
            other = c.post("/api/state", json={**EASY, "deal": {"number": 4},
                                               "moves": long_game(4, 50)})
            # ...and a board a recent request reached needs none
            again = c.post("/api/state", json={**EASY, "deal": {"number": 3}, "moves": moves})
        finally:
            release.set()
            holder.join()
    assert other.status_code == 503
    assert again.status_code == 200 and again.json()["moves"] == first.json()["moves"]


# -- 5. the board cache by bytes -------------------------------------------------------


@pytest.mark.parametrize("game", ["freecell", "bakers_dozen"])
@pytest.mark.parametrize("length", [20, MAX_MOVES])
def test_the_board_cache_estimate_covers_what_boards_take(game: str, length: int) -> None:
    # what a kept board really takes, by tracemalloc: the referee's board after the
    # moves, with its undo records, and its key (the moves' texts, as `remember` makes
    # them), against what the cache counts for it: never less, nor far more
    games = [long_game(n, length, game) for n in (1, 2, 3)]
    boards = position_module._Boards(2**40)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for n, moves in enumerate(games, 1):
            board = Board(Deal.from_number(game, n))
            for move in moves:
                board.push_notation(move)
            key = tuple(m.notation() for m in board.move_stack)
            boards.put((game, n, None, key), board)
            del board, key
        taken = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    counted = sum(board_bytes(len(moves)) for moves in games)
    assert taken <= counted <= 2 * taken, (taken, counted)


def test_the_board_cache_holds_its_byte_budget() -> None:
    budget = 3 * board_bytes(MAX_MOVES)
    boards = position_module._Boards(budget)
    for n in range(1, 7):
        moves = long_game(n, MAX_MOVES)
        boards.put(("freecell", n, None, tuple(moves)), Board(Deal.from_number("freecell", n)))
        assert boards.held <= budget
    assert len(boards.boards) == 3
    # short games: many more of them
    for n in range(1, 200):
        boards.put(("freecell", n, None, ("1a",)), Board(Deal.from_number("freecell", 1)))
    assert boards.held <= budget and len(boards.boards) > 100


def test_the_server_keeps_boards_by_bytes_not_count() -> None:
    assert position_module.KEPT_BYTES <= 128 * 2**20
    assert not hasattr(position_module, "KEPT_BOARDS")


# -- 6. every limit checked at start ---------------------------------------------------


@pytest.mark.parametrize(("argv", "words"), [
    (("--hint-seconds", "inf"), "--hint-seconds inf"),
    (("--solve-seconds", "inf"), "--solve-seconds inf"),
    (("--hint-seconds", "nan"), "--hint-seconds nan"),
    (("--search-memory", "99999999999999999999G"), "--search-memory 99999999999999999999G"),
    (("--search-memory", "0"), "--search-memory 0"),
    (("--workers", "1000"), "--workers 1000"),
    (("--workers", "2.5"), "--workers '2.5'"),
    (("--queue", "-1"), "--queue -1"),
    (("--max-connections", "0"), "--max-connections 0"),
    (("--max-connections", "100000000000"), "--max-connections 100000000000"),
    (("--request-seconds", "inf"), "--request-seconds inf"),
    (("--request-seconds", "1e30"), "--request-seconds 1e30"),
    (("--allowed-host", "evil/site"), "--allowed-host 'evil/site'"),
    (("--port", "70000"), "--port 70000"),
    (("--workers", "0"), "--workers 0"),
    (("--hint-seconds", "-1"), "--hint-seconds -1"),
    (("--search-memory", "lots"), "--search-memory"),
])
def test_serve_refuses_every_bad_limit_at_start(bakers, argv: tuple[str, ...],
                                                words: str) -> None:
    from helpers_cli import one_error_line

    code, out, err = bakers("serve", *argv)
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert line.startswith("bakers: error:") and words in line, line


@pytest.mark.parametrize("field", ["hint_seconds", "solve_seconds"])
def test_engine_limits_refuse_what_a_search_would(field: str) -> None:
    with pytest.raises(InvalidOptionError, match=field):
        EngineLimits(**{field: float("inf")})
    with pytest.raises(InvalidOptionError):
        EngineLimits(memory=2**64)


# -- 7. Ctrl-C ------------------------------------------------------------------------


def test_one_ctrl_c_stops_the_server_and_tells_waiting_clients() -> None:
    answers: list[int] = []
    with served("--workers", "1", "--hint-seconds", "60") as server:
        def ask(number: int) -> None:
            try:
                answers.append(httpx.post(f"{server.base}/api/hint", json=UNDECIDED,
                                          timeout=60).status_code)
            except httpx.HTTPError as exc:
                answers.append(type(exc).__name__)  # type: ignore[arg-type]

        clients = [threading.Thread(target=ask, args=(i,)) for i in range(6)]
        for client in clients:
            client.start()
        time.sleep(1.0)  # one search runs, five wait
        seconds = server.interrupt(within=30)
        for client in clients:
            client.join(10)
        code, err = server.process.returncode, server.stderr()
    assert code == 0, err
    assert "stopped" in err and "Traceback" not in err and "interrupted" not in err
    assert answers == [503] * 6, answers
    assert seconds < 10  # the search had a minute to run; a stop gives it none


# -- 8. other sites' pages ------------------------------------------------------------


@pytest.fixture(scope="module")
def app_client():
    with TestClient(create_app(allowed_hosts=["play.example.org"]),
                    base_url="http://localhost") as c:
        yield c


@pytest.mark.parametrize(("host", "status"), [
    ("localhost:8000", 200), ("127.0.0.1:8000", 200), ("[::1]:8000", 200),
    ("192.168.1.5", 200), ("play.example.org", 200), ("PLAY.example.org:443", 200),
    ("evil.example.com", 400), ("127.0.0.1.evil.example.com", 400), ("", 400),
    ("localhost.evil.example", 400),
])
def test_only_this_servers_names_are_answered(app_client, host: str, status: int) -> None:
    answer = app_client.get("/api/games", headers={"host": host})
    assert answer.status_code == status
    if status == 400:
        assert "--allowed-host" in answer.json()["error"]


def test_a_post_without_the_json_content_type_is_refused(app_client) -> None:
    body = json.dumps(EASY).encode()
    for headers in ({}, {"content-type": "text/plain"},
                    {"content-type": "application/x-www-form-urlencoded"}):
        answer = app_client.post("/api/state", content=body, headers=headers)
        assert answer.status_code == 415, headers
        assert "application/json" in answer.json()["error"]
    assert app_client.post("/api/state", content=body, headers={
        "content-type": "application/json; charset=utf-8"}).status_code == 200


def test_host_names_are_read_as_browsers_send_them() -> None:
    assert host_name("[::1]:8000") == "::1"
    assert host_name("Example.ORG:80") == "example.org"
    assert host_name("::1") == "::1"
