"""Corrections through the app (EVENTS.md §11, §12): a finished records event's result
voided and replaced, the old record withdrawn (410 afterwards, 409 while a result rests on
it), standings and ratings computed again; an entrant withdrawn after round 1 of a round
robin, a bot whose token is revoked, and a bot that never joins (no_show); every one in
the ledger."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from referee.api.corrections import EventLedgerEntry
from referee.api.events import Event
from referee.events import live_matches
from referee.events import service as events
from referee.live import service as live
from tests.events.records import played_record, winner_of
from tests.events.support import Site
from tests.live.test_join_and_clock import FakeTime

RECORDS = {"format": "round-robin", "kind": "records", "entrants": ["Ann", "Bob"]}


def post(site: Site, path: str, body: dict[str, Any], secret: str | None = None) -> Any:
    return site.client.post(path, json=body, headers=site.auth(secret))


def ledger(site: Site, event_id: int) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = site.client.get(f"/v1/events/{event_id}/ledger").get_json()
    assert all(EventLedgerEntry().validate(entry) == {} for entry in found)
    return found


def test_a_finished_result_is_voided_and_replaced(site: Site) -> None:
    event_id = site.start(site.create(**RECORDS)["id"])["id"]
    first = played_record("Ann", "Bob", 1, seed=1)
    path = f"/v1/events/{event_id}/rounds/1/pairings/1"
    old = post(site, f"{path}/record", {"record": first}).get_json()["match_id"]
    assert site.event(event_id)["status"] == "finished"
    admin = site.storage.tokens.create(("archive:admin",), "auditor").secret
    held = site.client.delete(f"/v1/matches/{old}", json={"reason": "x"}, headers=site.auth(admin))
    assert (held.status_code, held.get_json()["code"]) == (409, "match_in_use")
    assert post(site, f"{path}/void", {"reason": "r"}, site.other_host).status_code == 403
    voided = post(site, f"{path}/void", {"reason": "wrong names"})
    assert voided.status_code == 200, voided.get_json()
    pairing = voided.get_json()["pairing"]
    assert (pairing["status"], pairing["winner"], pairing["match_ids"]) == ("pending", None, [])
    event = site.event(event_id)
    assert event["status"] == "running" and Event().validate(event) == {}
    assert all(line["wins"] == 0 for line in event["standings"])
    assert site.client.get("/v1/ratings?variant=backgammon").get_json() == []
    again = post(site, f"{path}/void", {"reason": "twice"})
    assert (again.status_code, again.get_json()["code"]) == (409, "pairing_undecided")
    # the old record may go now; the new one decides the pairing and the event ends again
    gone = site.client.delete(
        f"/v1/matches/{old}", json={"reason": "wrong names"}, headers=site.auth(admin)
    )
    assert gone.status_code == 200 and gone.get_json()["withdrawn_by"] == "auditor"
    read = site.client.get(f"/v1/matches/{old}")
    assert (read.status_code, read.get_json()["code"]) == (410, "withdrawn")
    assert read.get_json()["reason"] == "wrong names"
    assert old not in [m["id"] for m in site.client.get("/v1/matches").get_json()["matches"]]
    second = played_record("Ann", "Bob", 1, seed=2)
    new = post(site, f"{path}/record", {"record": second}).get_json()
    event = site.event(event_id)
    assert event["status"] == "finished"
    winner = winner_of(second)
    assert event["standings"][0]["name"] == winner and event["standings"][0]["wins"] == 1
    history = site.client.get(f"/v1/ratings/{winner}?variant=backgammon").get_json()["history"]
    assert [step["match_id"] for step in history] == [new["match_id"]]
    assert [(e["action"], e["by"], e["round"], e["table"]) for e in ledger(site, event_id)] == [
        ("void", "director", 1, 1)
    ]
    bot = site.auth(site.secrets["b1"])
    assert site.client.delete(f"/v1/matches/{new['match_id']}", headers=bot).status_code == 403


def test_an_entrant_withdrawn_after_round_1_is_paired_no_more(site: Site) -> None:
    entrants = ["b1", "b2", "b3", "b4"]
    created = site.create(format="round-robin", kind="bots", entrants=entrants)
    event_id = site.start(created["id"])["id"]
    site.play_round(event_id, seed=3)
    name = "/v1/events/{}/entrants/{}/withdraw"
    unknown = post(site, name.format(event_id, "zz"), {"reason": "r"})
    assert (unknown.status_code, unknown.get_json()["code"]) == (422, "unknown_entrant")
    out = post(site, name.format(event_id, "b4"), {"reason": "went home"})
    assert out.status_code == 200, out.get_json()
    assert out.get_json()["withdrawn"] == ["b4"]
    twice = post(site, name.format(event_id, "b4"), {"reason": "again"})
    assert (twice.status_code, twice.get_json()["code"]) == (409, "already_withdrawn")
    event = site.play_out(event_id, seed=5)
    assert event["status"] == "finished"
    later = [p for r in event["rounds_played"][1:] for p in r["pairings"]]
    of_b4 = [p for p in later if "b4" in (p["w"], p["b"])]
    assert len(of_b4) == 2  # the Berger table stays; b4's pairings are forfeited
    for pairing in of_b4:
        other = pairing["b"] if pairing["w"] == "b4" else pairing["w"]
        assert (pairing["termination"], pairing["winner"]) == ("forfeit", other)
    # round 2 was paired (its live match made) before the withdrawal: that match is
    # aborted; round 3 is paired afterwards, its pairing of b4 forfeited at once
    (in_play,) = of_b4[0]["live_ids"]
    assert live.state(site.storage, in_play)["status"] == "aborted"
    assert of_b4[1]["live_ids"] == []
    b4 = next(line for line in event["standings"] if line["name"] == "b4")
    assert b4["wins"] <= 1 and b4["losses"] == 3 - b4["wins"]  # round 1, then two forfeits
    actions = [(e["action"], e["name"]) for e in ledger(site, event_id)]
    assert actions == [("withdraw", "b4"), ("forfeit", "b4"), ("forfeit", "b4")]
    page = site.client.get(f"/events/{event_id}").get_data(as_text=True)
    assert "<dt>Withdrawn</dt><dd>b4" in page and f"/v1/events/{event_id}/ledger" in page
    for pairing in of_b4:
        assert f"{pairing['winner']} wins (forfeit)." in page


def test_a_bot_whose_token_is_revoked_is_withdrawn(site: Site) -> None:
    created = site.create(format="swiss", rounds=2, kind="bots", entrants=["b1", "b2", "b3", "b4"])
    event = site.start(created["id"])
    (live_id,) = next(p for p in event["rounds_played"][0]["pairings"] if "b2" in (p["w"], p["b"]))[
        "live_ids"
    ]
    site.storage.tokens.revoke(site.bots["b2"].id)
    events.settle(site.storage, event["id"])
    assert live.state(site.storage, live_id)["status"] == "aborted"
    event = site.play_out(event["id"], seed=7)
    assert event["status"] == "finished" and event["withdrawn"] == ["b2"]
    second = event["rounds_played"][1]
    assert all("b2" not in (p["w"], p["b"]) for p in second["pairings"])
    assert len(second["pairings"]) == 1 and len(second["byes"]) == 1  # three left
    assert "b2" not in second["byes"]
    first, forfeit = ledger(site, event["id"])[:2]
    assert (first["action"], first["by"], first["name"]) == ("withdraw", "server", "b2")
    assert (forfeit["action"], forfeit["round"]) == ("forfeit", 1)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, site: Site) -> Iterator[FakeTime]:
    fake = FakeTime()
    fake.storage = site.storage
    for module in (live, live_matches, events):
        monkeypatch.setattr(module, "time", fake)
    live.refresh_deadlines(site.storage)
    yield fake
    live.CLOCK.beaten = 0.0


def test_a_bot_that_never_joins_loses_by_no_show_and_the_event_goes_on(
    site: Site, clock: FakeTime
) -> None:
    body = {"format": "swiss", "rounds": 2, "kind": "bots", "join_seconds": 30}
    event = site.start(site.create(**body, entrants=["b1", "b2", "b3", "b4"])["id"])
    assert event["join_seconds"] == 30
    (absent,) = [p for p in event["rounds_played"][0]["pairings"] if "b4" in (p["w"], p["b"])]
    (live_id,) = absent["live_ids"]
    present = absent["b"] if absent["w"] == "b4" else absent["w"]
    live.join(site.storage, live_id, site.bots[present], "")
    for pairing in event["rounds_played"][0]["pairings"]:
        if pairing is not absent:
            site.play(pairing["live_ids"][0], random.Random(1))
    clock.passes(31)
    events.settle(site.storage, event["id"])
    event = site.event(event["id"])
    done = event["rounds_played"][0]["pairings"][absent["table"] - 1]
    assert (done["termination"], done["winner"], done["points"]) == (
        "no_show",
        present,
        [1, 0] if present == done["w"] else [0, 1],
    )
    assert event["round"] == 2  # the event goes on
    (entry,) = ledger(site, event["id"])
    assert (entry["action"], entry["by"], entry["name"]) == ("no_show", "server", "b4")


def test_a_finished_bots_pairing_voided_is_played_again_in_new_live_matches(site: Site) -> None:
    body = {"format": "round-robin", "kind": "bots", "mirrored": True, "entrants": ["b1", "b2"]}
    event_id = site.start(site.create(**body)["id"])["id"]
    event = site.play_out(event_id, seed=2)
    (played,) = event["rounds_played"][0]["pairings"]
    assert event["status"] == "finished" and len(played["match_ids"]) == 2
    rated = site.client.get("/v1/ratings/b1?variant=backgammon").get_json()["history"]
    assert sorted(step["match_id"] for step in rated) == sorted(played["match_ids"])
    path = f"/v1/events/{event_id}/rounds/1/pairings/1/void"
    again = post(site, path, {"reason": "the dice server was misconfigured"}).get_json()["pairing"]
    assert again["status"] == "playing" and len(again["live_ids"]) == 2  # a mirrored pair: both
    assert set(again["live_ids"]).isdisjoint(played["live_ids"])
    assert site.client.get("/v1/ratings?variant=backgammon").get_json() == []
    event = site.play_out(event_id, seed=9)
    (replayed,) = event["rounds_played"][0]["pairings"]
    assert event["status"] == "finished" and replayed["live_ids"] == again["live_ids"]
    rated = site.client.get("/v1/ratings/b1?variant=backgammon").get_json()["history"]
    assert sorted(step["match_id"] for step in rated) == sorted(replayed["match_ids"])


def test_an_award_is_in_the_ledger(site: Site) -> None:
    event_id = site.start(site.create(**RECORDS)["id"])["id"]
    path = f"/v1/events/{event_id}/rounds/1/pairings/1/result"
    assert post(site, path, {"winner": "b", "reason": "Ann left early"}).status_code == 200
    (entry,) = ledger(site, event_id)
    assert (entry["action"], entry["by"], entry["name"], entry["reason"]) == (
        "award",
        "director",
        "Bob",
        "Ann left early",
    )
    assert (entry["round"], entry["table"]) == (1, 1)
    assert site.client.get("/v1/events/999/ledger").status_code == 404


def test_a_withdrawn_match_is_gone_for_every_read(site: Site) -> None:
    writer = site.storage.tokens.create(("archive:write",), "clerk").secret
    admin = site.auth(site.storage.tokens.create(("archive:admin",), "auditor").secret)
    record = played_record("Ann", "Bob", 1, seed=3)
    stored = site.client.post("/v1/matches", json={"record": record}, headers=site.auth(writer))
    match_id = stored.get_json()["id"]
    path = f"/v1/matches/{match_id}"
    assert site.client.delete(path, json={"reason": "r"}).status_code == 401
    assert (
        site.client.delete("/v1/matches/999", json={"reason": "r"}, headers=admin).status_code
        == 404
    )
    assert site.client.delete(path, json={"reason": "a test"}, headers=admin).status_code == 200
    for read in (path, f"{path}?format=canonical", f"{path}/games/1/replay"):
        answer = site.client.get(read)
        assert (answer.status_code, answer.get_json()["withdrawn_by"]) == (410, "auditor"), read
    again = site.client.delete(path, json={"reason": "twice"}, headers=admin)
    assert (again.status_code, again.get_json()["code"]) == (410, "withdrawn")
    assert site.client.get("/v1/matches?player=Ann").get_json()["matches"] == []


def test_an_events_clock_and_join_time_are_shown(site: Site) -> None:
    body = {"format": "swiss", "rounds": 1, "kind": "bots", "entrants": ["b1", "b2"]}
    event = site.create(**body, length=3, join_seconds=90, clock={"reserve_per_point": 120})
    assert (event["join_seconds"], event["clock"]) == (90, {"reserve_per_point": 120, "delay": 0})
    page = site.client.get(f"/events/{event['id']}").get_data(as_text=True)
    assert "a clock: 360 seconds of reserve each, 0 seconds of delay a decision" in page
    assert "90 seconds: a bot not joined by then loses (no show)" in page
    started = site.start(event["id"])
    (live_id,) = started["rounds_played"][0]["pairings"][0]["live_ids"]
    state = live.state(site.storage, live_id)
    assert (state["join_seconds"], state["clock"]["reserve"], state["clock"]["delay"]) == (
        90,
        360,
        0,
    )
    records = site.create(format="round-robin", kind="records", entrants=["Ann", "Bob"])
    assert (records["join_seconds"], records["clock"]) == (None, None)  # nobody joins there
