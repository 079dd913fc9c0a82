"""gnubg (Debian's package, a separate program) plays live matches through the bridge
against the reference random bot on a real gunicorn: every action it chose accepted."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.adjudication.match import check_record
from referee.live.bot import LiveClient, RandomStrategy, play_match
from referee.players.fibs import NotBackgammonError
from referee.players.gnubg import GnubgExternal
from referee.players.seat import BridgeStopped, EngineStrategy, play_engine_match
from referee.players.ubgi import UbgiEngine
from tests.live.harness import Tokens, create, token_of
from tests.players.gnubg import run_batch
from tests.players.live_play import challenge_taken, engine_match
from tests.server import ROOT, Server

Setup = tuple[Server, Tokens]


def finished(final: dict[str, Any], length: int) -> None:
    assert final["status"] == "finished"
    assert final["match_id"] is not None  # stored: its record checked valid
    assert max(final["score"]) >= length


def test_gnubg_plays_whole_matches(setup: Setup, gnubg: GnubgExternal) -> None:
    """gnubg plays four whole matches from either side, and over them it both plays and,
    asked whether to double, rolls instead. The dice are the server's, so one match alone
    can end before gnubg ever declines to double (a 5-point match did, in 28 plays)."""
    server, tokens = setup
    kinds: Counter[str] = Counter()
    for side, length in [("w", 3), ("b", 3), ("w", 7), ("b", 5)]:
        final, strategy = engine_match(server, tokens, gnubg, side, length, seed=length)
        finished(final, length)
        kinds.update(action["action"] for action in strategy.actions)
    assert kinds["play"] > 0 and kinds["roll"] > 0


def test_the_acceptance_run(setup: Setup, gnubg: GnubgExternal) -> None:
    """Five one-point matches and a five-point match, gnubg alternating sides: no refused
    action (a refusal raises), and gnubg wins nearly all of them."""
    server, tokens = setup
    won = 0
    cube: Counter[str] = Counter()
    for number, length in enumerate([1, 1, 1, 1, 1, 5]):
        side = "wb"[number % 2]
        final, strategy = engine_match(server, tokens, gnubg, side, length, seed=100 + number)
        finished(final, length)
        won += final["winner"] == side
        cube.update(a["action"] for a in strategy.actions if a["action"] != "play")
    print(f"gnubg won {won} of 6 matches; its cube actions: {dict(cube)}")
    assert won >= 5


def test_a_money_game_with_jacoby_and_beavers(setup: Setup, gnubg: GnubgExternal) -> None:
    server, tokens = setup
    options = {"jacoby": True, "beavers": True}
    final, _ = engine_match(server, tokens, gnubg, "w", 0, seed=3, options=options)
    assert final["status"] == "finished"


def test_no_crawford_rule(setup: Setup, gnubg: GnubgExternal) -> None:
    server, tokens = setup
    final, _ = engine_match(server, tokens, gnubg, "b", 3, seed=5, options={"crawford": False})
    finished(final, 3)


def test_a_ubgi_engine(setup: Setup, gnubg: GnubgExternal) -> None:
    server, tokens = setup
    command = f"{sys.executable} -m tests.players.ubgi_gnubg {gnubg.port}"
    gnubg.close()  # gnubg takes one controller at a time: the UBGI engine's, now
    engine = UbgiEngine(command)
    try:
        engine.connect()
        assert engine.identity["name"] == "gnubg-over-ubgi"
        final, strategy = engine_match(
            server, tokens, engine, "w", 3, seed=9, session_options=False
        )
    finally:
        engine.close()
    finished(final, 3)
    assert any(a["action"] == "play" and a["play"] for a in strategy.actions)


class Wrong:
    """An engine that always answers one fixed illegal move."""

    name = "wrong"

    def ask(self, line: str) -> str:
        fields = line.split()[0].split(":")
        if fields[40] == "1":
            return "take"
        return "24/23 24/23 24/23" if fields[33] != "0" else "roll"

    def close(self) -> None:
        pass


def test_a_refused_action_stops_the_bridge(setup: Setup) -> None:
    server, tokens = setup
    state = create(server, tokens, length=1, move_seconds=600)
    url = f"{server.base}/v1/live/{state['id']}"
    opponent = threading.Thread(
        target=play_match,
        args=(LiveClient(url, token_of(tokens, "b")), RandomStrategy(random.Random(2))),
    )
    opponent.start()
    strategy = EngineStrategy(Wrong(), session_options=False)
    try:
        with pytest.raises(BridgeStopped) as stopped:
            play_engine_match(LiveClient(url, token_of(tokens, "w")), strategy)
        message = str(stopped.value)
        assert "'24/23 24/23 24/23'" in message  # the engine's line
        assert "illegal_action" in message  # the server's reason
        after = server.json("GET", f"/v1/live/{state['id']}")
        assert after["status"] == "playing"  # nothing was played in its place
        assert after["to_act"] == "w" and "play" in after["expect"]
    finally:
        server.request("POST", f"/v1/live/{state['id']}/abort", {}, tokens.host)
        opponent.join(timeout=60)


def test_a_nardy_match_is_refused_before_joining(setup: Setup) -> None:
    server, tokens = setup
    state = create(server, tokens, variant="long-nardy", length=1)
    url = f"{server.base}/v1/live/{state['id']}"
    with pytest.raises(NotBackgammonError, match="backgammon only"):
        play_engine_match(LiveClient(url, token_of(tokens, "w")), EngineStrategy(Wrong()))
    assert server.json("GET", f"/v1/live/{state['id']}")["status"] == "waiting"


def test_the_command(setup: Setup, gnubg: GnubgExternal) -> None:
    """``nardy-referee bot --engine gnubg:HOST:PORT`` against the random bot; and a nardy
    match refused with a clear message (exit 2)."""
    server, tokens = setup
    nardy = create(server, tokens, variant="khachapuri", length=1)
    command = [sys.executable, "-m", "referee.cli", "bot", "--token", tokens.alice]
    spec = ["--engine", f"gnubg:127.0.0.1:{gnubg.port}"]
    url = f"{server.base}/v1/live/{nardy['id']}"
    refused = subprocess.run(
        [*command, "--url", url, *spec], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert refused.returncode == 2
    assert "backgammon only" in refused.stderr
    gnubg.close()  # gnubg takes one controller at a time: the command's, now
    state = create(server, tokens, length=1)
    url = f"{server.base}/v1/live/{state['id']}"
    bot = subprocess.Popen(
        [*command, "--url", url, *spec], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    random_bot = LiveClient(url, tokens.bob)
    final = play_match(random_bot, RandomStrategy(random.Random(1)))
    out, _ = bot.communicate(timeout=300)
    assert bot.returncode == 0
    assert json.loads(out) == {key: final[key] for key in ("id", "status", "score", "winner")}
    assert final["status"] == "finished"


def test_the_engine_takes_a_challenge_by_its_policy(setup: Setup, gnubg: GnubgExternal) -> None:
    """``nardy-referee bot --engine gnubg:HOST:PORT --name alice --accept POLICY``: gnubg's
    bot sets its policy, takes the random bot's challenge at once and plays its match."""
    server, tokens = setup
    gnubg.close()  # gnubg takes one controller at a time: the command's, now
    command = [sys.executable, "-m", "referee.cli", "bot", "--url", server.base,
               "--token", tokens.alice, "--name", "alice", "--matches", "1",
               "--accept", '{"accept": ["bob"]}',
               "--engine", f"gnubg:127.0.0.1:{gnubg.port}"]  # fmt: skip
    taken = challenge_taken(server, tokens, command, "backgammon")
    assert taken.returncode == 0
    summary = {key: taken.final[key] for key in ("id", "status", "score", "winner")}
    assert json.loads(taken.out) == summary
    assert taken.final["id"] == taken.challenge["live_id"]
    assert taken.final["status"] == "finished"


def test_a_live_match_exports_with_its_dice_tags(
    setup: Setup, gnubg: GnubgExternal, tmp_path: Path
) -> None:
    """The stored record of a match gnubg played, as SGF: the dice tags as properties of
    the first game's root, and gnubg loads it to the live match's winner."""
    server, tokens = setup
    final, _ = engine_match(server, tokens, gnubg, "w", 3, seed=21)
    status, headers, body = server.request(
        "GET", f"/v1/matches/{final['match_id']}?format=sgf", accept="*/*"
    )
    assert status == 200 and headers["Content-Type"].startswith("application/x-go-sgf")
    sgf = body.decode()
    proof = server.json("GET", f"/v1/live/{final['id']}/dice")
    assert f"XA[{proof['algorithm']}]XC[{proof['commitment']}]XS[{proof['server_seed']}]" in sgf
    assert "XK[w=engine,b=rnd]" in sgf
    (tmp_path / "live.sgf").write_text(sgf)
    run_batch(['load match "live.sgf"', 'export match mat "live.mat"'], tmp_path)
    back = check_record((tmp_path / "live.mat").read_text()).to_json()
    assert back["match"]["winner"] == final["winner"]
    assert [game["winner"] for game in back["games"]] == [g["winner"] for g in final["games"]]
