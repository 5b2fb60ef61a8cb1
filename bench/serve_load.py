"""A bounded load run of `bakers serve` on loopback: concurrent players asking for hints.

Starts ``bakers serve --port 0`` in a process of its own (so that the players' client
code does not share the server's interpreter) and runs ``--clients`` players at once
against it, until ``--requests`` hints in all have been answered or ``--max-seconds``
have passed. Each player plays deals the way a person leaning on the hint button does:
ask for a hint (``POST /api/hint`` with the moves so far), play the hinted move
(``POST /api/move``), ask again; a won deal, a proved loss or an unknown answer moves
the player to its next deal. Players take distinct deal numbers (player ``i`` takes
``--first + i``, then ``+ clients`` each deal) of the games given by ``--game`` in
turn (default: every preset).

The first hint of a deal is a search; the hints that follow it are the next moves of
the line the server remembered (see `bakers.hinting`), as on a real site, so the run
measures both: the percentiles cover every hint, and the slowest are the searches (the
table of the slowest hints says which deal and how many moves in).

Hostile clients can run alongside the players: ``--slow-clients N`` connections that
send a request's first header line and never finish it (opened again as the server
closes them), and ``--leavers N`` clients that ask for a hint on an undecided deal
(Baker's Dozen 417) and hang up at once, again and again. The players' figures then
say whether they shut anyone out; the server's standard error (tracebacks, "Too many
open files") is counted in the report.

Printed: hints answered, wall time and hints a second, the p50 / p90 / p99 / max latency
of the hints (milliseconds, from the request sent to the answer read) and of the moves,
the verdicts, and the errors (any answer but 200, or a failed request) by kind. Exit
status 1 when any request failed. Every request goes to 127.0.0.1 only.

Measured (2 cores, shared with other work; default options: 20 players, 1,000 hints,
every preset, 2 search workers): see docs/benchmarks.md.

Example::

    python bench/serve_load.py                      # 20 players, 1,000 hints
    python bench/serve_load.py --game freecell --clients 50 --requests 5000
    python bench/serve_load.py --slow-clients 2000 --leavers 20   # under attack
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field

import httpx
from bakers.variants import PRESETS, find_variant


@dataclass
class Tally:
    """What the players saw: latencies in seconds, verdicts, errors, the slowest hints."""

    hints: list[float] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)
    verdicts: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    slowest: list[tuple[float, str, int, int]] = field(default_factory=list)
    deals: int = 0


def percentile(values: list[float], share: float) -> float:
    """Return the ``share`` percentile of ``values`` (nearest rank), in milliseconds."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))
    return ordered[rank] * 1000


def start_server(workers: int, stderr: object = None) -> tuple[subprocess.Popen[str], str]:
    """Start `bakers serve` on a free loopback port; return the process and its address."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bakers", "serve", "--host", "127.0.0.1", "--port", "0",
         "--workers", str(workers)], stdout=subprocess.PIPE, stderr=stderr, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:\d+/", line)
    if match is None:
        process.kill()
        raise SystemExit(f"serve_load: the server did not start: {line!r}")
    return process, match.group(0)


async def player(client: httpx.AsyncClient, index: int, args: argparse.Namespace,
                 games: list[str], tally: Tally, budget: list[int], deadline: float) -> None:
    """Play deals by hints until the run's hint budget or its time is spent."""
    round_ = 0
    while budget[0] > 0 and time.perf_counter() < deadline:
        game = games[(index + round_) % len(games)]
        number = args.first + index + round_ * args.clients
        round_ += 1
        tally.deals += 1
        position = {"game": game, "deal": {"number": number}, "moves": []}
        while budget[0] > 0 and time.perf_counter() < deadline:
            budget[0] -= 1
            started = time.perf_counter()
            try:
                answer = await client.post("/api/hint", json=position)
            except httpx.HTTPError as exc:
                tally.errors[f"hint: {type(exc).__name__}"] += 1
                break
            spent = time.perf_counter() - started
            tally.hints.append(spent)
            if answer.status_code != 200:
                tally.errors[f"hint: {answer.status_code}"] += 1
                break
            hint = answer.json()
            tally.verdicts[hint["verdict"]] += 1
            tally.slowest.append((spent, game, number, len(position["moves"])))
            if hint["verdict"] != "win" or hint["won_already"]:
                break
            started = time.perf_counter()
            try:
                played = await client.post("/api/move",
                                           json={**position, "move": hint["supermove"]})
            except httpx.HTTPError as exc:
                tally.errors[f"move: {type(exc).__name__}"] += 1
                break
            tally.moves.append(time.perf_counter() - started)
            if played.status_code != 200:
                tally.errors[f"move: {played.status_code}"] += 1
                break
            position["moves"] = played.json()["moves"]


async def slow_client(address: str, done: asyncio.Event, tally: Tally) -> None:
    """Hold a connection that sends a request's first line and never finishes it,
    opening another whenever the server closes it, until ``done``."""
    host, port = address.split("//")[1].rstrip("/").split(":")
    while not done.is_set():
        try:
            reader, writer = await asyncio.open_connection(host, int(port))
        except OSError:
            tally.errors["slow client: cannot connect"] += 1
            await asyncio.sleep(0.1)
            continue
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        closed = asyncio.ensure_future(reader.read())
        await asyncio.wait([closed, asyncio.ensure_future(done.wait())],
                           return_when=asyncio.FIRST_COMPLETED)
        tally.verdicts["slow client closed by the server"] += closed.done()
        closed.cancel()
        writer.close()


async def leaver(address: str, done: asyncio.Event, tally: Tally) -> None:
    """Ask for a hint on an undecided deal and hang up at once, until ``done``."""
    host, port = address.split("//")[1].rstrip("/").split(":")
    body = json.dumps({"game": "bakers_dozen", "deal": {"number": 417}, "moves": []})
    request = (f"POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
               f"application/json\r\nContent-Length: {len(body)}\r\n\r\n{body}").encode()
    while not done.is_set():
        try:
            _, writer = await asyncio.open_connection(host, int(port))
        except OSError:
            tally.errors["leaver: cannot connect"] += 1
            await asyncio.sleep(0.1)
            continue
        writer.write(request)
        await asyncio.sleep(0.05)
        writer.close()
        tally.verdicts["hints given up by their clients"] += 1
        await asyncio.sleep(0.2)


async def load(address: str, args: argparse.Namespace, games: list[str]) -> tuple[Tally, float]:
    """Run the players (and the hostile clients) against ``address``; return what the
    players saw and the wall time."""
    tally = Tally()
    budget = [args.requests]
    limits = httpx.Limits(max_connections=args.clients)
    timeout = httpx.Timeout(args.max_seconds)
    done = asyncio.Event()
    hostile = [asyncio.ensure_future(slow_client(address, done, tally))
               for _ in range(args.slow_clients)]
    hostile += [asyncio.ensure_future(leaver(address, done, tally))
                for _ in range(args.leavers)]
    await asyncio.sleep(1.0 if hostile else 0.0)  # the attack is on before the players come
    async with httpx.AsyncClient(base_url=address, limits=limits, timeout=timeout) as client:
        started = time.perf_counter()
        deadline = started + args.max_seconds
        await asyncio.gather(*(player(client, i, args, games, tally, budget, deadline)
                               for i in range(args.clients)))
        wall = time.perf_counter() - started
    done.set()
    await asyncio.gather(*hostile, return_exceptions=True)
    return tally, wall


def report(tally: Tally, wall: float, args: argparse.Namespace, games: list[str]) -> None:
    print(f"bakers serve on loopback: {args.clients} players, {args.workers} search workers, "
          f"games {', '.join(games)}")
    print(f"hints answered {len(tally.hints)} in {wall:.2f} s "
          f"({len(tally.hints) / wall:.0f} a second), moves {len(tally.moves)}, "
          f"deals {tally.deals}")
    for name, values in (("hint", tally.hints), ("move", tally.moves)):
        if values:
            print(f"{name} latency ms: p50 {percentile(values, 0.50):.1f}  "
                  f"p90 {percentile(values, 0.90):.1f}  p99 {percentile(values, 0.99):.1f}  "
                  f"max {max(values) * 1000:.1f}  mean {statistics.fmean(values) * 1000:.1f}")
    print("verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.verdicts.items())))
    errors = sum(tally.errors.values())
    print(f"errors: {errors}" + (" (" + ", ".join(
        f"{k} x{v}" for k, v in sorted(tally.errors.items())) + ")" if errors else ""))
    print("slowest hints (ms, game, deal, moves in):")
    for spent, game, number, moves in sorted(tally.slowest, reverse=True)[:5]:
        print(f"  {spent * 1000:8.1f}  {game} {number} after {moves} moves")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20, help="players at once (20)")
    parser.add_argument("--requests", type=int, default=1000, help="hints in all (1000)")
    parser.add_argument("--game", action="append", help="a game to play (default: all)")
    parser.add_argument("--first", type=int, default=1, help="the first deal number (1)")
    parser.add_argument("--workers", type=int, default=2, help="the server's search workers")
    parser.add_argument("--max-seconds", type=float, default=300.0,
                        help="stop the run after this long (300)")
    parser.add_argument("--slow-clients", type=int, default=0,
                        help="connections that never finish their request (0)")
    parser.add_argument("--leavers", type=int, default=0,
                        help="clients that ask for a hard hint and hang up, again and again (0)")
    args = parser.parse_args(argv)
    if args.clients < 1 or args.requests < 1 or args.max_seconds <= 0:
        parser.error("--clients, --requests and --max-seconds must be positive")
    if args.slow_clients < 0 or args.leavers < 0:
        parser.error("--slow-clients and --leavers are 0 or more")
    games = [find_variant(name).name for name in (args.game or list(PRESETS))]
    with tempfile.TemporaryFile("w+") as log:
        process, address = start_server(args.workers, stderr=log)
        try:
            tally, wall = asyncio.run(load(address, args, games))
        finally:
            process.terminate()
            process.communicate(timeout=30)
        log.seek(0)
        server_log = log.read()
    report(tally, wall, args, games)
    print(f"server's standard error: {len(server_log):,} bytes, "
          f"{server_log.count('Traceback')} tracebacks, "
          f"{server_log.count('Too many open files')} 'Too many open files'")
    return 1 if tally.errors or "Traceback" in server_log else 0


if __name__ == "__main__":
    raise SystemExit(main())
