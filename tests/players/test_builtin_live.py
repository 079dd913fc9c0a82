"""The builtin nardy engine at live tables on a real gunicorn, against the reference random
bot: seated through the bridge in process, as ``nardy-referee bot --engine builtin``, as a
UBGI program the bridge starts (``ubgi:nardy-referee engine --ubgi``), and answering a
challenge by its policy (the events bot's stream)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

from referee.live.bot import LiveClient, RandomStrategy, play_match
from referee.players.builtin import BuiltinEngine
from tests.live.harness import Tokens, create
from tests.native.conftest import native  # noqa: F401 (the fixture: built, or skipped)
from tests.players.live_play import challenge_taken, engine_match
from tests.server import ROOT, Server

pytestmark = pytest.mark.usefixtures("native")
Setup = tuple[Server, Tokens]
BOT = [sys.executable, "-m", "referee.cli", "bot"]
SUMMARY = ("id", "status", "score", "winner")


def finished(final: dict[str, Any], length: int) -> None:
    assert final["status"] == "finished"
    assert final["match_id"] is not None  # stored: its record checked valid
    assert max(final["score"]) >= length


@pytest.mark.parametrize(
    ("variant", "side", "length", "sure_win"),
    [
        ("long-nardy", "w", 3, True),
        ("long-nardy", "b", 2, True),
        ("khachapuri", "b", 20, False),
        ("khachapuri", "w", 0, False),
    ],
)
def test_the_engine_plays_whole_matches(
    setup: Setup, variant: str, side: str, length: int, sure_win: bool
) -> None:
    """Every play it chose was accepted (a refusal stops the bridge). In long nardy the
    random bot wins about one game in two hundred against it (docs/engine.md §5) and would
    need two here: the engine wins. In khachapuri the random bot wins a few games in a
    hundred, and one game (a money game, length 0) or one mars (30 points) can decide."""
    server, tokens = setup
    final, strategy = engine_match(
        server, tokens, BuiltinEngine(0), side, length, seed=length, variant=variant
    )
    finished(final, length)
    if sure_win:
        assert final["winner"] == side
    assert strategy.actions and all(a["action"] == "play" for a in strategy.actions)


def run_bot(server: Server, state: dict[str, Any], token: str, spec: str) -> Any:
    url = f"{server.base}/v1/live/{state['id']}"
    command = [*BOT, "--token", token, "--url", url, "--engine", spec]
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT
    )


@pytest.mark.parametrize(
    ("variant", "spec"),
    [
        ("khachapuri", "builtin"),
        ("long-nardy", f"ubgi:{sys.executable} -m referee.cli engine --ubgi --plies 0"),
    ],
    ids=["builtin", "ubgi"],
)
def test_the_command(setup: Setup, variant: str, spec: str) -> None:
    """``nardy-referee bot --engine SPEC`` plays a one-point match against the random bot
    and prints its end."""
    server, tokens = setup
    state = create(server, tokens, variant=variant, length=1, move_seconds=600)
    bot = run_bot(server, state, tokens.alice, spec)
    random_bot = LiveClient(f"{server.base}/v1/live/{state['id']}", tokens.bob)
    final = play_match(random_bot, RandomStrategy(random.Random(1)))
    out, err = bot.communicate(timeout=600)
    assert bot.returncode == 0, err
    assert json.loads(out) == {key: final[key] for key in SUMMARY}
    finished(final, 1)


def test_a_backgammon_match_is_refused_before_joining(setup: Setup) -> None:
    server, tokens = setup
    state = create(server, tokens, length=1)
    bot = run_bot(server, state, tokens.alice, "builtin:0")
    _, err = bot.communicate(timeout=120)
    assert bot.returncode == 2
    assert "long nardy and khachapuri only" in err
    assert server.json("GET", f"/v1/live/{state['id']}")["status"] == "waiting"


def test_the_engine_takes_a_nardy_challenge_by_its_policy(setup: Setup) -> None:
    """``bot --engine builtin:0 --name alice --accept POLICY``: the engine's bot sets its
    policy, takes the random bot's khachapuri challenge at once and plays its match."""
    server, tokens = setup
    policy = '{"accept": ["bob"]}'
    command = [*BOT, "--url", server.base, "--token", tokens.alice, "--name", "alice",
               "--matches", "1", "--accept", policy, "--engine", "builtin:0"]  # fmt: skip
    taken = challenge_taken(server, tokens, command, "khachapuri")
    assert taken.returncode == 0
    assert json.loads(taken.out) == {key: taken.final[key] for key in SUMMARY}
    assert taken.final["id"] == taken.challenge["live_id"]
    assert taken.final["status"] == "finished"
