"""Challenges between bots through the API (EVENTS.md §14, docs/challenges.md): made by
name or as an open call, accepted into one live match announced to both, declined with a
reason, answered at once by a policy (each reason), lapsing, the two limits, and the
bots online."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from referee.challenges import service
from referee.events import stream
from referee.events.hub import hub
from referee.events.rated import current, rerate
from referee.events.stream import matches_for
from tests.api.support import assert_problem
from tests.events.support import Site

BODY = {"opponent": "b2", "variant": "backgammon", "length": 3}
DEADLINE = 20.0
"""Seconds a poll waits for what must happen (far above what it takes)."""


def auth(site: Site, bot: str) -> dict[str, str]:
    return site.auth(site.secrets[bot])


def challenge(site: Site, bot: str = "b1", status: int = 201, **body: Any) -> Any:
    answer = site.client.post("/v1/challenges", json={**BODY, **body}, headers=auth(site, bot))
    assert answer.status_code == status, answer.get_json()
    return answer.get_json()


def set_policy(site: Site, bot: str, **policy: Any) -> Any:
    answer = site.client.put(f"/v1/bots/{bot}/policy", json=policy, headers=auth(site, bot))
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def first_lines(site: Site, name: str, count: int) -> list[dict[str, Any]]:
    """The first ``count`` lines of ``name``'s bot stream (each one waiting already)."""
    lines = matches_for(hub(site.app.config["DATABASE"]), site.storage, name)
    try:
        found = [next(lines) for _ in range(count)]
    finally:
        lines.close()
    assert all(line is not None for line in found)
    return found  # type: ignore[return-value]


def test_a_challenge_by_name_is_open_and_told_to_the_opponent(site: Site) -> None:
    made = challenge(site, options={"jacoby": True}, clock={"reserve": 120, "delay": 5})
    assert made["status"] == "open" and made["challenger"] == "b1" and made["opponent"] == "b2"
    assert made["clock"] == {"reserve": 120, "delay": 5} and made["options"]["jacoby"] is True
    assert made["live_id"] is None and made["rated"] is False
    assert made["expires_at"] - made["created_at"] == pytest.approx(60, abs=1)
    assert site.client.get(f"/v1/challenges/{made['id']}").get_json() == made
    (line,) = first_lines(site, "b2", 1)
    assert line["type"] == "challenge" and line["id"] == made["id"] and line["from"] == "b1"
    assert (line["variant"], line["length"], line["clock"]) == ("backgammon", 3, made["clock"])


def test_an_accepted_challenge_is_one_live_match_announced_to_both(site: Site) -> None:
    made = challenge(site)
    path = f"/v1/challenges/{made['id']}"
    assert_problem(site.client.post(f"{path}/accept", headers=auth(site, "b3")), 403)
    accepted = site.client.post(f"{path}/accept", headers=auth(site, "b2")).get_json()
    assert accepted["status"] == "accepted" and accepted["live_id"] is not None
    state = site.client.get(f"/v1/live/{accepted['live_id']}").get_json()
    assert state["players"] == {"w": "b1", "b": "b2"} and state["length"] == 3
    again = site.client.post(f"{path}/accept", headers=auth(site, "b2"))
    assert_problem(again, 409, "challenge_answered")
    for name, side, opponent in (("b1", "w", "b2"), ("b2", "b", "b1")):
        # b2 was told of the challenge first: no longer open, it is not told again
        assert first_lines(site, name, 1) == [
            {"type": "match", "live_id": accepted["live_id"], "event_id": None, "round": None,
             "side": side, "table": None, "opponent": opponent, "challenge_id": made["id"]}
        ]  # fmt: skip


def test_a_declined_challenge_keeps_its_reason(site: Site) -> None:
    made = challenge(site)
    path = f"/v1/challenges/{made['id']}/decline"
    refused = site.client.post(path, json={"reason": "x"}, headers=auth(site, "b1"))
    assert_problem(refused, 403)
    declined = site.client.post(path, json={"reason": "too slow"}, headers=auth(site, "b2"))
    assert declined.status_code == 200
    assert (declined.get_json()["status"], declined.get_json()["reason"]) == (
        "declined",
        "too slow",
    )
    assert_problem(site.client.post(path, json={}, headers=auth(site, "b2")), 422)
    late = site.client.post(path, json={"reason": "again"}, headers=auth(site, "b2"))
    assert_problem(late, 409, "challenge_answered")
    assert first_line_or_none(site, "b1") is None  # nothing for the challenger to play


def first_line_or_none(site: Site, name: str) -> dict[str, Any] | None:
    """The first line of a stream when one waits; None when it would be a keep-alive
    (sent at once here, the keep-alive's time made 0)."""
    lines = matches_for(hub(site.app.config["DATABASE"]), site.storage, name)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stream, "KEEPALIVE_SECONDS", 0.0)
        try:
            return next(lines)
        finally:
            lines.close()


@pytest.mark.parametrize(
    ("policy", "body", "reason"),
    [
        ({"accept": "any", "block": ["b1"]}, {}, "blocked"),
        ({"accept": "none"}, {}, "not_accepted"),
        ({"accept": ["b3", "b4"]}, {}, "not_accepted"),
        ({"accept": "any", "variants": ["long-nardy"]}, {}, "variant"),
        ({"accept": "any", "rated": False}, {"rated": True}, "rated"),
    ],
)
def test_a_policy_declines_at_once_with_its_reason(
    site: Site, policy: dict[str, Any], body: dict[str, Any], reason: str
) -> None:
    set_policy(site, "b2", **policy)
    made = challenge(site, **body)
    assert (made["status"], made["reason"], made["live_id"]) == ("declined", reason, None)


def test_a_policy_accepts_at_once_until_its_bot_is_busy(site: Site) -> None:
    kept = set_policy(site, "b2", accept=["b1", "b3"], variants=["bg"], max_concurrent=1)
    assert kept["variants"] == ["backgammon"] and kept["accept"] == ["b1", "b3"]
    first = challenge(site, rated=True)
    assert first["status"] == "accepted" and first["live_id"] is not None
    second = challenge(site, "b3")
    assert (second["status"], second["reason"]) == ("declined", "busy")
    site.client.post(f"/v1/live/{first['live_id']}/abort", headers=auth(site, "b1"))
    third = challenge(site, "b3")  # the first match ended: room again
    assert third["status"] == "accepted" and third["live_id"] != first["live_id"]


def test_only_the_bot_itself_sets_its_policy(site: Site) -> None:
    answer = site.client.put("/v1/bots/b2/policy", json={"accept": "any"}, headers=auth(site, "b1"))
    assert_problem(answer, 403)
    host = site.client.put("/v1/bots/b2/policy", json={"accept": "any"}, headers=site.auth())
    assert_problem(host, 403)
    bad = site.client.put("/v1/bots/b2/policy", json={"accept": "some"}, headers=auth(site, "b2"))
    assert_problem(bad, 422, "validation_failed")
    assert site.storage.challenges.policy("b2") is None


def test_an_unanswered_challenge_lapses_by_the_sweeper(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NARDY_REFEREE_CHALLENGE_SECONDS", "0.5")
    made = challenge(site)
    deadline = time.monotonic() + DEADLINE
    stored = site.storage.challenges.get(made["id"])  # as stored: no lapse on this read
    while stored is not None and stored.status == "open" and time.monotonic() < deadline:
        site.client.get("/healthz")  # the clock's thread runs while the app serves
        time.sleep(0.1)
        stored = site.storage.challenges.get(made["id"])
    assert stored is not None and stored.status == "lapsed"
    late = site.client.post(f"/v1/challenges/{made['id']}/accept", headers=auth(site, "b2"))
    assert_problem(late, 409, "challenge_answered")
    assert first_line_or_none(site, "b2") is None  # a lapsed challenge is not told


def test_a_challenge_past_its_time_reads_as_lapsed(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NARDY_REFEREE_CHALLENGE_SECONDS", "0")
    made = challenge(site)
    found = site.client.get(f"/v1/challenges/{made['id']}").get_json()
    assert found["status"] == "lapsed"


def test_open_challenges_per_token_are_limited(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NARDY_REFEREE_CHALLENGES_PER_TOKEN", "2")
    first = challenge(site)
    challenge(site, opponent="b3")
    over = site.client.post("/v1/challenges", json=BODY, headers=auth(site, "b1"))
    body = assert_problem(over, 429, "too_many_challenges")
    assert over.headers["Retry-After"] and body["ratelimit"]["key"] == "challenges"
    challenge(site, "b3")  # another token's are its own
    site.client.post(f"/v1/challenges/{first['id']}/decline", json={"reason": "no"},
                     headers=auth(site, "b2"))  # fmt: skip
    challenge(site)  # answered: no longer open


def test_rated_matches_between_two_names_are_limited_per_day(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NARDY_REFEREE_RATED_PER_PAIR_DAY", "1")
    set_policy(site, "b1", accept="any")
    set_policy(site, "b2", accept="any")
    assert challenge(site, rated=True)["status"] == "accepted"
    over = site.client.post(
        "/v1/challenges", json={**BODY, "opponent": "b1", "rated": True}, headers=auth(site, "b2")
    )
    assert_problem(over, 429, "rated_pair_limit")
    assert challenge(site, rated=False)["status"] == "accepted"  # unrated: no limit
    assert challenge(site, opponent="b3", rated=True)["status"] == "open"  # another pair


def test_an_open_call_goes_to_the_first_online_bot_that_takes_it(site: Site) -> None:
    now = time.time()
    for number, name in enumerate(("b2", "b3", "b4", "b1")):
        site.storage.challenges.seen(f"stream-{number}", name, now)
    set_policy(site, "b3", accept="any", variants=["long-nardy"])
    set_policy(site, "b4", accept="any")  # b2 has none: it is not asked
    made = challenge(site, opponent=None, rating_range=[1400, 1600])
    assert (made["opponent"], made["status"]) == ("b4", "accepted")
    nobody = site.client.post(
        "/v1/challenges",
        json={**BODY, "opponent": None, "rating_range": [1600, 1700]},
        headers=auth(site, "b1"),
    )
    assert_problem(nobody, 409, "no_opponent")
    upside = {**BODY, "opponent": None, "rating_range": [1600, 1500]}
    refused = site.client.post("/v1/challenges", json=upside, headers=auth(site, "b1"))
    assert_problem(refused, 422, "validation_failed")


def test_unknown_and_self_challenges_are_refused(site: Site) -> None:
    unknown = site.client.post(
        "/v1/challenges", json={**BODY, "opponent": "nobody"}, headers=auth(site, "b1")
    )
    assert_problem(unknown, 422, "unknown_bot")
    itself = site.client.post(
        "/v1/challenges", json={**BODY, "opponent": "b1"}, headers=auth(site, "b1")
    )
    assert_problem(itself, 422, "self_challenge")
    variant = site.client.post(
        "/v1/challenges", json={**BODY, "variant": "chess"}, headers=auth(site, "b1")
    )
    assert_problem(variant, 422, "unknown_variant")
    host = site.client.post("/v1/challenges", json=BODY, headers=site.auth())
    assert_problem(host, 403)
    assert_problem(site.client.get("/v1/challenges/999"), 404)


def test_the_bots_online_are_those_reading_their_stream(site: Site) -> None:
    set_policy(site, "b2", accept=["b1"], block=["b5"], variants=["backgammon"])
    made = challenge(site)  # b2 has a policy: answered at once; b3 gets one to read
    assert made["status"] == "accepted"
    challenge(site, opponent="b3")
    assert site.client.get("/v1/bots/online").get_json() == []
    reading = site.client.get("/v1/bot/stream", headers=auth(site, "b3"), buffered=False)
    try:
        line = json.loads(next(chunk for chunk in reading.response if chunk))  # after the head
        assert line["type"] == "challenge" and line["from"] == "b1"
        online = site.client.get("/v1/bots/online").get_json()
        assert online == [{"name": "b3", "ratings": {}, "policy": None}]
        site.storage.challenges.seen("stale", "b2", time.time() - 60)  # killed long ago
        set_policy(site, "b3", accept="any", block=["b5"])
        online = site.client.get("/v1/bots/online").get_json()
        policy = {"accept": "any", "variants": None, "rated": True, "max_concurrent": None}
        assert online == [{"name": "b3", "ratings": {}, "policy": policy}]  # no block list
    finally:
        reading.close()
    assert site.client.get("/v1/bots/online").get_json() == []


def test_a_rated_challenges_match_is_rated_and_an_unrated_ones_is_not(site: Site) -> None:
    set_policy(site, "b2", accept="any")
    rated = challenge(site, rated=True, length=1)
    unrated = challenge(site, "b3", rated=False, length=1)
    rng = random.Random(3)
    for made in (rated, unrated):
        site.play(made["live_id"], rng)
    service.sweep(site.storage)  # as the clock's thread does each second
    ratings = {
        found["name"]: found
        for found in site.client.get("/v1/ratings?variant=backgammon").get_json()
    }
    assert sorted(ratings) == ["b1", "b2"]  # b3's match was unrated
    assert ratings["b1"]["matches"] == ratings["b2"]["matches"] == 1
    assert ratings["b1"]["rating"] + ratings["b2"]["rating"] == pytest.approx(3000)
    assert ratings["b1"]["rating"] != 1500
    history = site.client.get("/v1/ratings/b1?variant=backgammon").get_json()["history"]
    live = site.client.get(f"/v1/live/{rated['live_id']}").get_json()
    assert [(step["match_id"], step["event_id"]) for step in history] == [(live["match_id"], None)]
    service.sweep(site.storage)  # rated once
    assert rerate(site.storage)["backgammon"] == current(site.storage, "backgammon")
    again = site.client.get("/v1/ratings?variant=backgammon").get_json()
    assert {found["name"]: found for found in again} == ratings  # the archive says the same


def test_the_pair_limit_holds_when_the_bot_accepts_itself(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two rated challenges made while none was accepted: the bot's second acceptance
    would pass the limit, so it is refused and no match is left of it."""
    monkeypatch.setenv("NARDY_REFEREE_RATED_PER_PAIR_DAY", "1")
    first, second = challenge(site, rated=True), challenge(site, rated=True)
    ok = site.client.post(f"/v1/challenges/{first['id']}/accept", headers=auth(site, "b2"))
    assert ok.status_code == 200
    over = site.client.post(f"/v1/challenges/{second['id']}/accept", headers=auth(site, "b2"))
    assert_problem(over, 429, "rated_pair_limit")
    found = site.client.get(f"/v1/challenges/{second['id']}").get_json()
    assert (found["status"], found["live_id"]) == ("open", None)
    assert site.storage.challenges.in_play("b2") == 1  # the refused one's match was aborted


def test_the_challenger_cancels_an_open_challenge(site: Site) -> None:
    made = challenge(site)
    path = f"/v1/challenges/{made['id']}"
    assert_problem(site.client.post(f"{path}/cancel", headers=auth(site, "b2")), 403)
    cancelled = site.client.post(f"{path}/cancel", headers=auth(site, "b1")).get_json()
    assert cancelled["status"] == "cancelled"
    assert_problem(site.client.post(f"{path}/accept", headers=auth(site, "b2")), 409)
    assert_problem(site.client.post(f"{path}/cancel", headers=auth(site, "b1")), 409)
    assert site.storage.challenges.open_count(site.bots["b1"].id, time.time()) == 0


@pytest.mark.parametrize("value", ["ten", "-5", "nan"])
def test_a_wrong_challenge_setting_stops_the_start(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    from referee.app import create_app

    monkeypatch.setenv("NARDY_REFEREE_CHALLENGES_PER_TOKEN", value)
    with pytest.raises(
        ValueError, match="NARDY_REFEREE_CHALLENGES_PER_TOKEN must be a number, 0 or more"
    ):
        create_app()
