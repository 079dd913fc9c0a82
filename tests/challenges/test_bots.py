"""Challenges between reference bots on a real gunicorn (two workers): ``nardy-referee bot
--name N --accept POLICY`` sets its policy and plays the matches of the challenges it
takes; ``EventsBot`` answers a challenge line by its policy; and the acceptance run:
twenty bots with mixed policies challenging each other at random.

``CHALLENGE_ACCEPTANCE_SECONDS`` is how long the acceptance run challenges (default 20,
as ``make test`` runs it; the issue's acceptance is 60). Afterwards it asserts what must
hold however the run went: every accepted challenge became exactly one live match (and
no other live match is in play or played), and both bots learned of it on their streams
and joined it; no policy was broken (every policy's answer is the one its rules
give, and no bot was seen playing more challenges it accepted at once than its
``max_concurrent``);
no challenge stayed open once its time had run out (the sweeper lapsed every one), and
none was answered after it lapsed."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from referee.challenges.rules import Reason, refusal
from referee.live.bot import EventsBot, RandomStrategy, strategy_player
from referee.storage import open_storage
from referee.storage.challenges import policy_of
from referee.storage.model.challenges import Policy, StoredChallenge
from referee.storage.tables import TABLES
from tests.events.support import until
from tests.server import ROOT, Server, start, stop, write_token

LAPSE_SECONDS = 5
SECONDS = float(os.environ.get("CHALLENGE_ACCEPTANCE_SECONDS", "20"))
"""How long the acceptance run's bots challenge each other."""
DEADLINE = 180.0
"""Seconds a wait for what must happen may take (far above what it takes)."""
ENV = {
    "GUNICORN_CMD_ARGS": "--worker-class gthread --threads 64",
    "NARDY_REFEREE_LIVE_POLL": "0.02",
    "NARDY_REFEREE_BOT_POLL": "0.05",
    "NARDY_REFEREE_CHALLENGE_SECONDS": str(LAPSE_SECONDS),
    "NARDY_REFEREE_RATED_PER_PAIR_DAY": "1000",
}
NAMES = tuple(f"bot{number:02}" for number in range(20))
CLI_NAMES = ("cli-a", "cli-b", "cli-c", "cli-d")
Site = tuple[Server, Path, dict[str, str]]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    database = tmp_path_factory.mktemp("challenges") / "archive.sqlite3"
    bots = {name: write_token(database, name, "play") for name in (*NAMES, *CLI_NAMES)}
    server = start(database, workers=2, env=ENV)
    try:
        yield server, database, bots
    finally:
        stop(server)


def stored(database: Path, challenge_id: int) -> StoredChallenge:
    """A challenge as stored (no lapse on this read: what the sweeper wrote)."""
    storage = open_storage(database)
    try:
        found = storage.challenges.get(challenge_id)
    finally:
        storage.close()
    assert found is not None
    return found


def online_policy(server: Server, name: str) -> Any:
    for bot in server.json("GET", "/v1/bots/online"):
        if bot["name"] == name and bot["policy"] is not None:
            return bot
    return None


def test_the_command_takes_challenges_by_its_policy_and_plays_them(
    site: Site, tmp_path: Path
) -> None:
    server, _, secrets = site
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"accept": ["cli-a"], "max_concurrent": 1}))
    command = [sys.executable, "-m", "referee.cli", "bot", "--url", server.base,
               "--token", secrets["cli-b"], "--name", "cli-b", "--accept", str(policy),
               "--matches", "1", "--seed", "b"]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=ROOT)  # fmt: skip
    try:
        until(lambda: online_policy(server, "cli-b"), DEADLINE)  # its policy set, its stream open
        body = {"opponent": "cli-b", "variant": "backgammon"}
        refused = server.json("POST", "/v1/challenges", body, secrets["cli-c"])
        assert (refused["status"], refused["reason"]) == ("declined", "not_accepted")
        challenger = EventsBot(server.base, secrets["cli-a"], strategy_player(RandomStrategy()), 1)
        thread = threading.Thread(target=challenger.run, daemon=True)
        thread.start()
        made = server.json("POST", "/v1/challenges", body, secrets["cli-a"])
        assert made["status"] == "accepted", made
        out, err = process.communicate(timeout=DEADLINE)
        thread.join(timeout=DEADLINE)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    (line,) = [json.loads(text) for text in out.splitlines()]
    assert line["id"] == made["live_id"] and line["status"] == "finished"
    assert [final["id"] for final in challenger.done] == [made["live_id"]]


def test_the_command_needs_a_name_and_a_policy_it_can_read(site: Site, tmp_path: Path) -> None:
    server, _, secrets = site
    base = [sys.executable, "-m", "referee.cli", "bot", "--url", server.base,
            "--token", secrets["cli-d"]]  # fmt: skip
    for more, said in (
        (["--accept", '{"accept": "any"}'], "--accept needs --name"),
        (["--name", "cli-d", "--accept", str(tmp_path / "none.json")], "cannot read"),
        (["--name", "cli-d", "--accept", "{not json"], "not JSON"),
        (["--name", "cli-d", "--accept", '{"accept": "maybe"}'], "422"),
    ):
        run = subprocess.run([*base, *more], capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert run.returncode != 0 and said in run.stderr, run.stderr


def test_the_bot_answers_a_challenge_line_by_its_policy(site: Site) -> None:
    """A challenge made before the bot set its policy reaches it on its stream: the bot
    declines it by the same rules."""
    server, database, secrets = site
    body = {"opponent": "cli-d", "variant": "long-nardy"}
    made = server.json("POST", "/v1/challenges", body, secrets["cli-c"])
    assert made["status"] == "open"
    policy = {"accept": "any", "variants": ["backgammon"]}
    bot = EventsBot(server.base, secrets["cli-d"], strategy_player(RandomStrategy()),
                    name="cli-d", policy=policy)  # fmt: skip
    bot.start()
    try:  # its answer is noted once the server has taken it: wait for the note
        until(lambda: bot.answers, LAPSE_SECONDS * 10)
    finally:
        bot.stop()
    found = stored(database, made["id"])
    assert (found.status, found.reason) == ("declined", "variant")
    assert bot.answers == [(made["id"], "variant")]


# -- the acceptance run ----------------------------------------------------------------


def policies(rng: random.Random) -> dict[str, dict[str, Any] | None]:
    """A mix: anyone, some names, nobody, blocks, one variant, no rated, limits, and
    bots without a policy (their challenges lapse: the reference bot leaves them)."""
    made: dict[str, dict[str, Any] | None] = {}
    for number, name in enumerate(NAMES):
        others = [other for other in NAMES if other != name]
        kind = number % 5
        if kind == 0:
            made[name] = {"accept": "any", "max_concurrent": 1 + number % 3}
        elif kind == 1:
            made[name] = {"accept": rng.sample(others, 8), "block": rng.sample(others, 2)}
        elif kind == 2:
            made[name] = {"accept": "any", "variants": ["backgammon"], "rated": False,
                          "block": rng.sample(others, 3), "max_concurrent": 2}  # fmt: skip
        elif kind == 3:
            made[name] = None
        else:
            made[name] = {"accept": "none"} if number % 10 == 4 else {"accept": "any"}
        found = made[name]
        if found is not None:  # the load a 2-core machine carries: some matches at once
            found.setdefault("max_concurrent", 3)
    return made


class Run:
    """The acceptance run's challengers and what they saw."""

    def __init__(self, server: Server, database: Path, secrets: dict[str, str]) -> None:
        self.server = server
        self.database = database
        self.secrets = secrets
        self.made: list[int] = []
        self.refusals: list[tuple[int, Any]] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.most: dict[str, int] = {}

    def challenge(self, name: str, seed: int) -> None:
        rng = random.Random(seed)
        others = [other for other in NAMES if other != name]
        while not self.stopping.is_set():
            body = {
                "opponent": None if rng.random() < 0.2 else rng.choice(others),
                "variant": rng.choice(["backgammon", "long-nardy"]),
                "length": 1,
                "rated": rng.random() < 0.3,
            }
            status, _, payload = self.server.request(
                "POST", "/v1/challenges", body, self.secrets[name]
            )
            answer = json.loads(payload)
            with self.lock:
                if status == 201:
                    self.made.append(answer["id"])
                else:
                    self.refusals.append((status, answer))
            self.stopping.wait(rng.uniform(0.3, 1.5))  # a challenger's pace, not a wait

    def sample(self) -> None:
        """The most live matches of challenges it accepted each bot was seen to play at
        once. Its policy counts every match it plays when it accepts one, so these never
        pass its ``max_concurrent``; the matches of its own challenges, which others
        accepted, are not its policy's to limit, and a match made for an acceptance that
        lost (aborted at once) was never its."""
        with closing(sqlite3.connect(self.database)) as connection:
            while not self.stopping.is_set():
                rows = connection.execute(
                    "SELECT c.opponent, count(*) FROM challenges c JOIN live_matches l"
                    " ON l.id = c.live_id WHERE c.status = 'accepted'"
                    " AND l.status IN ('waiting', 'playing') GROUP BY c.opponent"
                ).fetchall()
                for name, playing in rows:
                    self.most[name] = max(self.most.get(name, 0), playing)
                self.stopping.wait(0.02)


def test_twenty_bots_challenge_each_other_at_random(site: Site) -> None:
    server, database, secrets = site
    for name in CLI_NAMES:  # bots of the tests before, maybe still online: out of the way
        server.json("PUT", f"/v1/bots/{name}/policy", {"accept": "none"}, secrets[name])
    rng = random.Random(14)
    chosen = policies(rng)
    bots = [
        EventsBot(
            server.base,
            secrets[name],
            strategy_player(RandomStrategy(random.Random(n))),
            name=name,
            policy=chosen[name],
        )
        for n, name in enumerate(NAMES)
    ]
    for bot in bots:
        bot.start()
    until(
        lambda: {bot["name"] for bot in server.json("GET", "/v1/bots/online")} >= set(NAMES),
        DEADLINE,
    )
    run = Run(server, database, secrets)
    threads = [threading.Thread(target=run.challenge, args=(name, n), daemon=True)
               for n, name in enumerate(NAMES)]  # fmt: skip
    threads.append(threading.Thread(target=run.sample, daemon=True))
    for thread in threads:
        thread.start()
    try:
        run.stopping.wait(SECONDS)  # the run's length, not a wait for something to happen
    finally:
        run.stopping.set()
        for thread in threads:
            thread.join(timeout=DEADLINE)
    codes = {(status, answer.get("code")) for status, answer in run.refusals}
    assert codes <= {(409, "no_opponent"), (429, "too_many_challenges")}, run.refusals
    # Every challenge is answered or lapsed by the sweeper (no read lapses these).
    until(lambda: all(stored(database, c).status != "open" for c in run.made), DEADLINE)
    challenges = [stored(database, challenge_id) for challenge_id in run.made]
    accepted = [found for found in challenges if found.status == "accepted"]
    assert accepted and any(found.status == "lapsed" for found in challenges)
    assert any(found.status == "declined" for found in challenges)
    check_answers(challenges, chosen)
    check_matches(server, database, accepted)
    for bot in bots:
        bot.stop()
    for name, policy in chosen.items():
        limit = None if policy is None else policy.get("max_concurrent")
        if limit is not None:
            assert run.most.get(name, 0) <= limit, (name, run.most)


def check_answers(
    challenges: list[StoredChallenge], chosen: dict[str, dict[str, Any] | None]
) -> None:
    """Each policy's answer is its rules' (busy aside, which depends on the moment); a bot
    without a policy answered nothing (its challenges lapsed); none was answered late."""
    for found in challenges:
        given = chosen[found.opponent]
        policy: Policy | None = None if given is None else policy_of(given)
        assert found.answered_at is not None
        if found.status == "lapsed":
            assert found.answered_at >= found.expires_at
            assert policy is None, found  # a policy answers at once
            continue
        assert found.answered_at < found.expires_at, found
        assert policy is not None, found
        reason = refusal(policy, found.challenger, found.terms, 0)
        if found.status == "accepted":
            assert reason is None, found
        elif found.reason != Reason.BUSY:
            assert found.reason == reason, found
        else:
            assert reason is None and policy.max_concurrent is not None, found


def check_matches(server: Server, database: Path, accepted: list[StoredChallenge]) -> None:
    """Every accepted challenge is one live match of its two bots, joined by both (they
    learned of it on their streams); every other live match was aborted."""
    live_ids = [found.live_id for found in accepted]
    assert None not in live_ids and len(set(live_ids)) == len(live_ids)
    for found in accepted:  # both bots joined it: it was announced to both
        state = until(lambda f=found: joined(server, f.live_id), DEADLINE)
        assert state["players"] == {"w": found.challenger, "b": found.opponent}
        assert state["variant"] == found.terms.variant
    storage = open_storage(database)
    try:
        rows = list(storage.tables.rows("live_matches"))
    finally:
        storage.close()
    columns = TABLES["live_matches"]
    white, status = columns.index("white"), columns.index("status")
    played = {row[0] for row in rows if row[white] in NAMES and row[status] != "aborted"}
    assert played == set(live_ids)


def joined(server: Server, live_id: int | None) -> Any:
    """The live match's state once both bots have joined it (None before)."""
    state = server.json("GET", f"/v1/live/{live_id}")
    return state if state["status"] in ("playing", "finished") else None
