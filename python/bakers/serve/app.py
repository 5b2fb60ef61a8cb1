"""The ASGI app of `bakers serve`: one page and a JSON API over the engine and the referee.

Every POST takes a JSON object (at most `MAX_BODY` bytes, sent with ``Content-Type:
application/json``) and answers JSON; a bad request gets a 4xx whose body is
``{"error": "...", "status": N}`` naming the problem (an illegal move also carries
``reason``). The position is rebuilt and checked by the referee on every request
(`position.Game.replay`), so no move is taken on the page's word; the replay runs on
the engine's workers, under its queue, unless a recent request reached the same board.
Requests whose ``Host`` is not this server's are refused (`hosts.AllowedHosts`).

Routes: ``GET /`` the page, ``/static/*`` its files, ``GET /api/openapi.json`` the
API's OpenAPI description (`api_schema`), ``GET /api/games`` the presets;
POST ``/api/deal`` (a deal by number or seed), ``/api/daily``, ``/api/generate``,
``/api/state``, ``/api/move``, ``/api/click``, ``/api/hint``, ``/api/autocomplete``,
``/api/solve``, ``/api/grade``.
"""

from __future__ import annotations

import datetime
import functools
import json
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import __version__
from ..difficulty import GRADES
from ..errors import AttemptsExhaustedError, BakersError, IllegalMoveError, NotWinnableError
from ..generating import Generated, parse_date
from ..hinting import remembered_hint
from ..notation import Place
from .api_schema import OPENAPI_PATH, document
from .engine import BusyError, Engine, EngineLimits, GoneError, StoppingError
from .hosts import AllowedHosts
from .position import (
    Game,
    RequestError,
    check_keys,
    click_move,
    find_game,
    games_info,
    read_deal,
    read_move,
    state_of,
)
from .responses import HEADERS, error, ok

__all__ = ["create_app", "MAX_BODY", "STATIC"]

#: The largest request body accepted: a game's longest move list fits many times over.
MAX_BODY = 64 * 1024
#: The page's files, shipped in the package.
STATIC = Path(__file__).with_name("static")

_GAME_KEYS = ("game", "deal", "moves")

Handler = Callable[[Request], Awaitable[Response]]


async def read_json(request: Request) -> dict[str, Any]:
    """Return the request's JSON object, read up to `MAX_BODY` bytes.

    Raises RequestError: 413 for a larger body (by its Content-Length, or counted as it
    arrives), 415 for a body not sent as JSON (a browser sends a form or text across
    sites without asking; JSON it does not), 400 for malformed JSON or not an object;
    GoneError when the client goes before its body has arrived.
    """
    length = request.headers.get("content-length")
    if length is not None and not (length.isascii() and length.isdigit()):
        raise RequestError(f"Content-Length {length[:20]!r} is not a number")
    if length is not None and int(length) > MAX_BODY:
        raise RequestError(f"the request body is larger than {MAX_BODY} bytes", 413)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise RequestError(f"the request body must be JSON, sent with Content-Type: "
                           f"application/json, not {kind[:40]!r}", 415)
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise RequestError(f"the request body is larger than {MAX_BODY} bytes", 413)
    except ClientDisconnect:
        raise GoneError("the client went before its request arrived") from None
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RequestError(f"the request body is not UTF-8 (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise RequestError(f"malformed JSON at line {exc.lineno} column {exc.colno}: "
                           f"{exc.msg}") from None
    except RecursionError:
        raise RequestError("the JSON is nested too deeply") from None
    except ValueError as exc:  # an integer of more digits than Python reads
        raise RequestError(f"unreadable JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RequestError(f"the request body must be a JSON object, not "
                           f"{type(data).__name__}")
    return data


def _guard(handler: Handler) -> Handler:
    """Return ``handler`` with the API's errors turned into JSON 4xx/503 answers (and its
    docstring, which describes it in the OpenAPI document)."""

    @functools.wraps(handler)
    async def guarded(request: Request) -> Response:
        try:
            return await handler(request)
        except RequestError as exc:
            return error(exc.status, str(exc))
        except IllegalMoveError as exc:
            return error(422, str(exc), reason=getattr(exc, "reason", str(exc)))
        except (AttemptsExhaustedError, NotWinnableError) as exc:
            return error(422, str(exc))
        except BakersError as exc:
            return error(400, str(exc))
        except (BusyError, StoppingError) as exc:
            return error(503, str(exc))
        except GoneError:  # nobody reads the answer (uvicorn drops it)
            return Response(status_code=499)

    return guarded


def _routes(engine: Engine) -> list[Route | Mount]:
    """Return the app's routes, the engine's calls made through ``engine``."""

    async def playing(request: Request, body: dict[str, Any]) -> Game:
        """Return the game a request names: the board a recent request reached, else
        its moves replayed on a worker (under the engine's queue and limits)."""
        game = Game.known(body)
        if game is not None:
            return game
        return await engine.run(Game.replay, body, gone=request.is_disconnected)

    async def started(request: Request, make: Callable[[], Any]) -> dict[str, Any]:
        """Return the state of the game at the start of the deal ``make()`` returns,
        both made on a worker."""
        return await engine.run(lambda: state_of(Game.start(make())),
                                gone=request.is_disconnected)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={**HEADERS,
                                                            "Cache-Control": "no-cache"})

    async def games(request: Request) -> Response:
        """
        ---
        summary: "the games with their rules and deal ranges, and the grades"
        responses:
          200: {$ref: '#/components/responses/Games'}
          4XX: {$ref: '#/components/responses/Error'}
        """
        return ok({"games": games_info(), "grades": list(GRADES)})

    async def deal(request: Request) -> Response:
        """
        ---
        summary: "a deal by its number or seed, at its start"
        requestBody: {$ref: '#/components/requestBodies/Deal'}
        responses:
          200: {$ref: '#/components/responses/State'}
          4XX: {$ref: '#/components/responses/Error'}
          503: {$ref: '#/components/responses/Error'}
        """
        body = await read_json(request)
        check_keys(body, ("game", "deal"))
        variant = find_game(body)
        return ok(await started(request, lambda: read_deal(variant, body.get("deal"))))

    async def daily_deal(request: Request) -> Response:
        """
        ---
        summary: "a day's winnable deal (today, UTC, without a date)"
        requestBody: {$ref: '#/components/requestBodies/Daily'}
        responses:
          200: {$ref: '#/components/responses/Daily'}
          4XX: {$ref: '#/components/responses/Error'}
          503: {$ref: '#/components/responses/Error'}
        """
        body = await read_json(request)
        check_keys(body, ("game", "date"))
        variant = find_game(body)
        date = body.get("date")
        if date is None:
            day = datetime.datetime.now(datetime.timezone.utc).date()
        elif isinstance(date, str):
            day = parse_date(date)
        else:
            raise RequestError(f"'date' must be a text YYYY-MM-DD, not {date!r}")
        state = await started(request, lambda: engine.daily(variant, day))
        return ok({**state, "date": day.isoformat()})

    async def generated(request: Request) -> Response:
        """
        ---
        summary: "a new winnable deal, of a difficulty if given, with its grade"
        requestBody: {$ref: '#/components/requestBodies/Generate'}
        responses:
          200: {$ref: '#/components/responses/Generated'}
          4XX: {$ref: '#/components/responses/Error'}
          503: {$ref: '#/components/responses/Error'}
        """
        body = await read_json(request)
        check_keys(body, ("game", "difficulty"))
        variant = find_game(body)
        difficulty = body.get("difficulty")
        if difficulty in ("any", ""):
            difficulty = None
        if difficulty is not None and difficulty not in GRADES:
            raise RequestError(f"difficulty {difficulty!r} is not one of "
                               f"{', '.join(map(repr, ('any', *GRADES)))}")

        def make() -> tuple[Generated, dict[str, Any]]:
            made = engine.generate(variant, difficulty)
            return made, state_of(Game.start(made.deal))

        made, state = await engine.run(make, gone=request.is_disconnected)
        extra = {} if made.grade is None else {"grade": made.grade.to_dict()}
        return ok({**state, **extra})

    async def state(request: Request) -> Response:
        """
        ---
        summary: "the position a game in play has reached"
        requestBody: {$ref: '#/components/requestBodies/Playing'}
        responses:
          200: {$ref: '#/components/responses/State'}
          4XX: {$ref: '#/components/responses/Error'}
          503: {$ref: '#/components/responses/Error'}
        """
        body = await read_json(request)
        check_keys(body, _GAME_KEYS)
        return ok(state_of(await playing(request, body)))

    async def move(request: Request) -> Response:
        """
        ---
        summary: "the position after a move, checked by the referee"
        requestBody: {$ref: '#/components/requestBodies/Move'}
        responses:
          200: {$ref: '#/components/responses/Moved'}
          4XX: {$ref: '#/components/responses/Error'}
          503: {$ref: '#/components/responses/Error'}
        """
        body = await read_json(request)
        check_keys(body, (*_GAME_KEYS, "move"))
        game = await playing(request, body)
        made = game.board.push(read_move(body))
        game.remember()
        return ok({**state_of(game), "played": made.notation()})

    async def click(request: Request) -> Response:
        """
        ---
        summary: "the position after the move that a click on a card makes"
        requestBody: {$ref: '#/components/requestBodies/Click'}
        responses:
          200: {$ref: '#/components/responses/Moved'}
          4XX: {$ref: '#/components/responses/Error'}
          503: {$ref: '#/components/responses/Error'}
        """
        body = await read_json(request)
        check_keys(body, (*_GAME_KEYS, "from", "count"))
        game = await playing(request, body)
        source = body.get("from")
        count = body.get("count", 1)
        if not isinstance(source, str):
            raise RequestError(f"'from' must be a place like '3' or 'a', not {source!r}")
        if isinstance(count, bool) or not isinstance(count, int):
            raise RequestError(f"'count' must be an integer, not {count!r}")
        made = game.board.push(click_move(game.board, Place.parse(source), count))
        game.remember()
        return ok({**state_of(game), "played": made.notation()})

    async def hint(request: Request) -> Response:
        """
        ---
        summary: "the next move of a winning line, or a proof that no win is left"
        requestBody: {$ref: '#/components/requestBodies/Playing'}
        responses:
          200: {$ref: '#/components/responses/Hint'}
          4XX: {$ref: '#/components/responses/Error'}
          503: {$ref: '#/components/responses/Error'}
        """
        body = await read_json(request)
        check_keys(body, _GAME_KEYS)
        game = await playing(request, body)
        # the next move of a remembered line needs no worker: only searches wait for one
        answer = remembered_hint(game.board)
        if answer is None:
            answer = await engine.run(engine.hint, game.board, gone=request.is_disconnected)
        data = answer.to_dict()
        data.pop("line", None)  # the page shows one move; the line can be long
        return ok(data)

    async def autocomplete(request: Request) -> Response:
        """
        ---
        summary: "the moves that finish a game that plays itself"
        requestBody: {$ref: '#/components/requestBodies/Playing'}
        responses:
          200: {$ref: '#/components/responses/Autocomplete'}
          4XX: {$ref: '#/components/responses/Error'}
          503: {$ref: '#/components/responses/Error'}
        """
        body = await read_json(request)
        check_keys(body, _GAME_KEYS)
        moves = (await playing(request, body)).board.autocomplete()
        return ok({"moves": None if moves is None else [m.notation() for m in moves]})

    async def solve(request: Request) -> Response:
        """
        ---
        summary: "the engine's line from the position, or its proof of no win"
        requestBody: {$ref: '#/components/requestBodies/Playing'}
        responses:
          200: {$ref: '#/components/responses/Solved'}
          4XX: {$ref: '#/components/responses/Error'}
          503: {$ref: '#/components/responses/Error'}
        """
        body = await read_json(request)
        check_keys(body, _GAME_KEYS)
        game = await playing(request, body)
        result = await engine.run(engine.solve, game.board, gone=request.is_disconnected)
        line = None if result.supermoves is None else [m.notation() for m in result.supermoves]
        verdict = {"solved": "win", "impossible": "no_win"}.get(result.verdict, "unknown")
        return ok({"verdict": verdict, "moves": line, "reason": result.reason,
                   "most_home": result.most_home})

    async def graded(request: Request) -> Response:
        """
        ---
        summary: "the difficulty of a deal: easy, medium or hard"
        requestBody: {$ref: '#/components/requestBodies/Deal'}
        responses:
          200: {$ref: '#/components/responses/Grade'}
          4XX: {$ref: '#/components/responses/Error'}
          503: {$ref: '#/components/responses/Error'}
        """
        body = await read_json(request)
        check_keys(body, ("game", "deal"))
        variant = find_game(body)
        dealt = read_deal(variant, body.get("deal"))
        result = await engine.run(engine.grade, dealt, gone=request.is_disconnected)
        return ok(result.to_dict())

    api = [("deal", deal), ("daily", daily_deal), ("generate", generated), ("state", state),
           ("move", move), ("click", click), ("hint", hint), ("autocomplete", autocomplete),
           ("solve", solve), ("grade", graded)]
    described: list[dict[str, Any]] = []

    async def openapi(request: Request) -> Response:
        """
        ---
        summary: "this description of the API (OpenAPI 3.1)"
        responses:
          200: {description: the OpenAPI document, content: {application/json: {}}}
        """
        if not described:
            described.append(document(routes, __version__))
        return ok(described[0])

    routes: list[Route | Mount] = [
        Route("/", page, methods=["GET", "HEAD"]),
        Route(OPENAPI_PATH, openapi, methods=["GET"]),
        Route("/api/games", _guard(games), methods=["GET"]),
        *[Route(f"/api/{name}", _guard(handler), methods=["POST"]) for name, handler in api],
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return routes


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return error(exc.status_code, exc.detail)


async def _server_error(request: Request, exc: Exception) -> Response:
    return error(500, f"internal error: {type(exc).__name__}")


def create_app(limits: EngineLimits | None = None, *,
               allowed_hosts: Iterable[str] = ()) -> Starlette:
    """Return the app: the page, its files and the JSON API, the engine's searches
    bounded by ``limits`` (default `EngineLimits()`), answering requests to localhost,
    IP addresses and ``allowed_hosts`` (`hosts.AllowedHosts`).

    Raises ValueError for a name in ``allowed_hosts`` that is not a host name.
    """
    engine = Engine(limits)
    app = Starlette(routes=_routes(engine),
                    middleware=[Middleware(AllowedHosts, names=tuple(allowed_hosts))],
                    exception_handlers={HTTPException: _http_error, 500: _server_error})
    app.state.engine = engine
    return app
