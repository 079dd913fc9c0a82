"""Streams cannot exhaust the service (issue 22), through real gunicorn with the shipped
config (2 gthread workers), loopback only, bounded (about a minute).

500 anonymous streams from 500 loopback addresses (100 networks) on a dozen matches, and
20 spectators that never read, on the matches being played: /healthz answers at least 90 %
of its probes within 2 s, two matches played by bots (who stream with their tokens) keep
their pace, refusals are problem+json with Retry-After, the never-reading spectators are
dropped; a stream ends within seconds of its token's revocation. The bot stream goes
through the same admission (issue 33): one play token opening 300 bot streams leaves
/healthz answering and the other matches at pace.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from referee.live.bot import LiveClient, RandomStrategy, play_match
from tests.live.harness import Tokens
from tests.reliability.gunicorns import call, open_stream, port_of, start_on, stop
from tests.server import Server

ANONYMOUS = 500
NEVER_READING = 20
PROBES = 60  # four a second: 15 s of load
BOT_STREAMS = 300
PER_TOKEN = 16  # StreamLimits.per_token


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Tokens]]:
    database = tmp_path_factory.mktemp("streams") / "archive.sqlite3"
    tokens = Tokens.create(database)
    server = start_on(database)
    try:
        yield server, tokens
    finally:
        stop(server)


def create(server: Server, tokens: Tokens, move_seconds: int = 60) -> int:
    body = {"variant": "backgammon", "length": 0, "move_seconds": move_seconds,
            "players": {"w": "alice", "b": "bob"}}  # fmt: skip
    status, state = call(server.base, "POST", "/v1/live", body, tokens.host)
    assert status == 201, state
    live_id: int = state["id"]
    return live_id


def bots(server: Server, tokens: Tokens, live_id: int, seed: int) -> tuple[float, int]:
    """The reference bots play the match to its end: (seconds, plies)."""
    finals: list[dict[str, object]] = []

    def bot(token: str, offset: int) -> None:
        client = LiveClient(f"{server.base}/v1/live/{live_id}", token)
        finals.append(play_match(client, RandomStrategy(random.Random(seed + offset))))

    started = time.monotonic()
    threads = [
        threading.Thread(target=bot, args=(t, n)) for n, t in enumerate((tokens.alice, tokens.bob))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    state = call(server.base, "GET", f"/v1/live/{live_id}")[1]
    assert state["status"] == "finished" and state["termination"] != "timeout", state
    return time.monotonic() - started, int(state["ply"])


def probed_while_playing(
    server: Server, tokens: Tokens, played: list[int]
) -> tuple[int, list[tuple[float, int]]]:
    """``PROBES`` /healthz probes, four a second, while the bots play ``played``: how many
    were answered 200 within 2 s, and each match's (seconds, plies)."""
    answered: list[int] = []
    paces: list[tuple[float, int]] = []
    prober = threading.Thread(target=lambda: answered.append(server.probe_healthz(PROBES)))
    prober.start()
    players = [
        threading.Thread(target=lambda i=i, n=n: paces.append(bots(server, tokens, i, 10 + n)))
        for n, i in enumerate(played)
    ]
    for thread in players:
        thread.start()
    for thread in players:
        thread.join(timeout=150)
    prober.join()
    return answered[0], paces


def test_streams_cannot_take_the_service_down(setup: tuple[Server, Tokens]) -> None:
    server, tokens = setup
    port = port_of(server)
    seconds, plies = bots(server, tokens, create(server, tokens), seed=1)
    baseline = plies / seconds  # actions a second of a match with nothing else going on

    played = [create(server, tokens) for _ in range(2)]
    waiting = [create(server, tokens) for _ in range(10)]
    never_reading = []
    for number in range(NEVER_READING):
        sock, status, _ = open_stream(
            port, f"/v1/live/{played[number % 2]}/stream", f"127.9.{number}.1", rcvbuf=2048
        )
        assert status == 200
        never_reading.append(sock)

    def anonymous(number: int) -> tuple[socket.socket | None, int, bytes]:
        source = f"127.20.{number // 5}.{number % 5 + 1}"
        target = (waiting + played)[number % 12]
        return open_stream(port, f"/v1/live/{target}/stream", source)

    with ThreadPoolExecutor(50) as pool:
        opened = list(pool.map(anonymous, range(ANONYMOUS)))
    statuses = Counter(status for _, status, _ in opened)
    assert set(statuses) <= {200, 429, 503}, statuses
    for _, status, body in opened:
        if status != 200:
            problem = json.loads(body)
            assert problem["code"] in ("streams_full", "too_many_streams"), problem

    answered, paces = probed_while_playing(server, tokens, played)

    print(f"streams: {dict(statuses)}; /healthz {answered}/{PROBES};"
          f" pace {[round(p / s, 1) for s, p in paces]} vs {baseline:.1f} actions/s")  # fmt: skip
    assert answered >= PROBES * 9 // 10, f"/healthz answered {answered} of {PROBES}"
    assert len(paces) == 2
    for match_seconds, match_plies in paces:
        assert match_plies / match_seconds >= baseline / 3, (match_plies, match_seconds, baseline)

    # the spectators that never read were dropped: their connections end (after the
    # states that fit in the buffers; a write blocked by a full buffer is given up after
    # the stream limits' write_seconds, 10 s by default: a busy machine may leave it to
    # the end of the matches, so the wait for the close spans it twice)
    for sock in never_reading:
        sock.settimeout(20)
        closed = False
        try:
            while sock.recv(65536):
                pass
            closed = True
        except (TimeoutError, OSError):
            closed = False
        sock.close()
        assert closed, "a spectator that never read is still being served"
    for sock, _, _ in opened:
        if sock is not None:
            sock.close()


@pytest.mark.parametrize(("kind", "scope"), [("live", "archive:read"), ("bot", "play")])
def test_a_revoked_token_ends_its_stream(
    setup: tuple[Server, Tokens], kind: str, scope: str
) -> None:
    server, tokens = setup
    from tests.server import write_token

    database = Path(str(server.log).removesuffix(".log") + ".sqlite3")
    name = f"watcher-{kind}"
    secret = write_token(database, name, scope)
    path = f"/v1/live/{create(server, tokens)}/stream" if kind == "live" else "/v1/bot/stream"
    sock, status, _ = open_stream(port_of(server), path, token=secret)
    assert status == 200 and sock is not None
    from referee.storage import open_storage

    storage = open_storage(database)
    try:
        watcher = next(token for token in storage.tokens.all() if token.name == name)
        assert storage.tokens.revoke(watcher.id)
    finally:
        storage.close()
    revoked = time.monotonic()
    sock.settimeout(10)
    seen = b""
    # the stream's last chunk (alone when open_stream's read of the head took every line)
    while not (b"\r\n" + seen).endswith(b"\r\n0\r\n\r\n"):
        chunk = sock.recv(65536)
        assert chunk, "the connection closed before the stream ended"
        seen += chunk
    assert time.monotonic() - revoked < 5
    sock.close()


def test_one_token_s_bot_streams_cannot_take_the_service_down(
    setup: tuple[Server, Tokens],
) -> None:
    """Issue 33: 300 bot streams with one play token (lichess's bots open one each): at
    most ``PER_TOKEN`` are held, the rest are 429 problems at once; /healthz answers and
    two matches of other bots keep a third of their pace alone."""
    server, tokens = setup
    port = port_of(server)
    seconds, plies = bots(server, tokens, create(server, tokens), seed=3)
    baseline = plies / seconds
    with ThreadPoolExecutor(50) as pool:
        opened = list(
            pool.map(
                lambda _: open_stream(port, "/v1/bot/stream", token=tokens.mallory),
                range(BOT_STREAMS),
            )
        )
    statuses = Counter(status for _, status, _ in opened)
    assert statuses[200] == PER_TOKEN and set(statuses) <= {200, 429, 503}, statuses
    # the rest refused at once: past the token's limit, or (while the streams an earlier
    # test closed are still held, until their next write shows them gone) a full worker
    refusals = [json.loads(body) for sock, _, body in opened if sock is None]
    assert {(refusal["code"], refusal.get("limit")) for refusal in refusals} <= {
        ("too_many_streams", PER_TOKEN),
        ("streams_full", None),
    }, refusals[:3]
    assert statuses[429] >= statuses[503], statuses
    answered, paces = probed_while_playing(server, tokens, [create(server, tokens) for _ in "ab"])
    print(f"bot streams: {dict(statuses)}; /healthz {answered}/{PROBES};"
          f" pace {[round(p / s, 1) for s, p in paces]} vs {baseline:.1f} actions/s")  # fmt: skip
    assert answered >= PROBES * 9 // 10, f"/healthz answered {answered} of {PROBES}"
    assert len(paces) == 2
    for match_seconds, match_plies in paces:
        assert match_plies / match_seconds >= baseline / 3, (match_plies, match_seconds, baseline)
    for sock, _, _ in opened:
        if sock is not None:
            sock.close()


def test_limits_answer_problems(setup: tuple[Server, Tokens]) -> None:
    server, tokens = setup
    port = port_of(server)
    live_id = create(server, tokens)
    kept, refusals = [], []
    for _ in range(12):  # one address: at most 8 at once
        sock, status, body = open_stream(port, f"/v1/live/{live_id}/stream", "127.33.0.7")
        if sock is not None:
            kept.append(sock)
        else:
            refusals.append((status, body))
    assert len(kept) == 8
    status, body = refusals[0]
    problem = json.loads(body)
    assert (status, problem["code"], problem["limit"]) == (429, "too_many_streams", 8)
    for sock in kept:
        sock.close()
