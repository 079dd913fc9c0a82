"""What a host's token may do and no more (issue 33): an answer other than 2xx stores
nothing, a records event's entrants are people, private mode covers the records zip; and
entrants' names: one Unicode spelling each, no control character, no lone surrogate."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest

from referee.app import create_app
from tests.events.records import played_record
from tests.events.support import Site

RECORDS = {"format": "round-robin", "kind": "records", "entrants": ["Ann", "Bob", "Cy"]}


def create(site: Site, **body: Any) -> Any:
    event = {"name": "names", "variant": "backgammon", "length": 1, **RECORDS, **body}
    return site.client.post("/v1/events", json=event, headers=site.auth())


def stored_matches(site: Site) -> int:
    return len(site.client.get("/v1/matches").get_json()["matches"])


def test_a_record_of_other_players_or_length_is_stored_and_disputes_the_pairing(
    site: Site,
) -> None:
    """EVENTS.md §6: such a record leaves the pairing disputed with the verdict's id; it is
    stored like an invalid record, in a 200 (only a 2xx answer stores)."""
    event = site.start(create(site).get_json()["id"])
    path = f"/v1/events/{event['id']}/rounds/1/pairings/1/record"
    for count, (record, why) in enumerate(
        (
            (played_record("Ann", "Dee", 1, seed=4), "not of Bob and Cy"),
            (played_record("Bob", "Cy", 3, seed=4), "3-point match, the event plays 1"),
        ),
        1,
    ):
        answer = site.client.post(path, json={"record": record}, headers=site.auth())
        assert answer.status_code == 200, answer.get_json()
        body = answer.get_json()
        pairing = body["pairing"]
        assert (pairing["status"], pairing["verdict_id"]) == ("disputed", body["match_id"])
        assert why in pairing["dispute"]
        assert stored_matches(site) == count
        shown = site.event(event["id"])["rounds_played"][0]["pairings"][0]
        assert (shown["status"], shown["verdict_id"]) == ("disputed", body["match_id"])
    good = site.client.post(
        path, json={"record": played_record("Bob", "Cy", 1, seed=4)}, headers=site.auth()
    )
    assert good.status_code == 200 and stored_matches(site) == 3
    assert good.get_json()["pairing"]["status"] == "finished"


@pytest.mark.parametrize("spelling", ["b1", "B1", " b1 "])
def test_a_records_event_refuses_a_bots_name(site: Site, spelling: str) -> None:
    answer = create(site, entrants=["Ann", spelling])
    assert answer.status_code == 422
    problem = answer.get_json()
    assert (problem["code"], problem["names"]) == ("bot_entrant", [spelling])
    revoked = site.storage.tokens.create(("play",), "gone")
    site.storage.tokens.revoke(revoked.token.id)
    assert create(site, entrants=["Ann", "gone"]).get_json()["code"] == "bot_entrant"
    assert create(site, entrants=["Ann", "Bob"]).status_code == 201


@pytest.mark.parametrize(
    "name", ["\ud800", "a\udfffb", "Ann\x00", "Ann\x07", "Ann\x85", "x\u009fy"]
)
def test_a_name_with_a_lone_surrogate_or_control_character_is_a_422_naming_it(
    site: Site, name: str
) -> None:
    body = {"name": "n", "variant": "backgammon", "length": 1, **RECORDS}
    body["entrants"] = ["Bob", name]
    raw = json.dumps(body)  # lone surrogates as \\u escapes, as a client would send them
    answer = site.client.post(
        "/v1/events", data=raw, content_type="application/json", headers=site.auth()
    )
    assert answer.status_code == 422
    problem = answer.get_json()
    assert problem["code"] == "validation_failed"
    assert [error["field"] for error in problem["errors"]] == ["entrants.1"]


def test_names_equal_under_nfc_are_one_entrant_stored_composed(site: Site) -> None:
    composed, decomposed = "Zo\u00eb", "Zoe\u0308"  # the same name, two spellings
    twice = create(site, entrants=[composed, decomposed, "Bob"])
    assert twice.get_json()["code"] == "duplicate_entrant"
    made = create(site, entrants=[decomposed, "Bob"]).get_json()
    names = [entrant["name"] for entrant in made["entrants"]]
    assert composed in names and decomposed not in names
    assert all(unicodedata.is_normalized("NFC", name) for name in names)


def test_in_private_mode_the_records_zip_needs_what_a_match_needs(site: Site) -> None:
    event = site.start(create(site).get_json()["id"])
    path = f"/v1/events/{event['id']}/rounds/1/pairings/1/record"
    record = played_record("Bob", "Cy", 1, seed=4)
    done = site.client.post(path, json={"record": record}, headers=site.auth()).get_json()
    private = create_app({"DATABASE": site.app.config["DATABASE"], "PRIVATE": True})
    client = private.test_client()
    reader = site.storage.tokens.create(("archive:read",), "reader").secret
    for secret in (site.host, site.secrets["b1"]):
        headers = site.auth(secret)
        match = client.get(f"/v1/matches/{done['match_id']}", headers=headers)
        records = client.get(f"/v1/events/{event['id']}/records.zip", headers=headers)
        assert (match.status_code, records.status_code) == (403, 403)
    answer = client.get(f"/v1/events/{event['id']}/records.zip", headers=site.auth(reader))
    assert answer.status_code == 200 and answer.mimetype == "application/zip"


def test_at_most_six_rated_matches_a_day_between_the_same_two_names(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight rated events of one match between Ann and Bob within a minute: the first six
    move their ratings, the last two count for their events only, each decided from the
    last day's ledger alone (never the whole of it); a re-rating agrees."""
    from referee.events import rated
    from referee.storage.model.ratings import LedgerEntry
    from referee.storage.ratings import Ratings

    whole: list[int] = []  # the entries of each read of the ledger from its start
    ledger = Ratings.ledger

    def reading(self: Ratings, variant: str, after_seq: int = 0) -> list[LedgerEntry]:
        entries = ledger(self, variant, after_seq)
        if after_seq == 0 and entries:
            whole.append(len(entries))
        return entries

    monkeypatch.setattr(Ratings, "ledger", reading)
    for seed in range(8):
        made = create(site, entrants=["Ann", "Bob"] if seed % 2 else ["bob", "Ann"]).get_json()
        event = site.start(made["id"])
        path = f"/v1/events/{event['id']}/rounds/1/pairings/1/record"
        pairing = event["rounds_played"][0]["pairings"][0]
        record = played_record(pairing["w"], pairing["b"], 1, seed=seed)
        answer = site.client.post(path, json={"record": record}, headers=site.auth())
        assert answer.get_json()["pairing"]["status"] == "finished", answer.get_json()
        assert site.event(event["id"])["status"] == "finished"
    monkeypatch.undo()
    assert len(whole) <= 1, f"the ledger was read from its start {len(whole)} times"
    history = site.client.get("/v1/ratings/Ann?variant=backgammon").get_json()["history"]
    assert len(history) == rated.DAILY_PAIR_LIMIT == 6
    before = {p.name: p.rating for p in rated.current(site.storage, "backgammon").players}
    again = rated.rerate(site.storage)["backgammon"]
    assert {p.name: p.rating for p in again.players} == pytest.approx(before)
    assert len(site.storage.ratings.ledger("backgammon")) == 6


def test_a_bots_events_matches_are_all_rated_past_the_daily_limit(site: Site) -> None:
    """The daily limit is for records events (a host's records): four double round robins
    of b1 and b2, eight live matches within minutes, all eight rated; a re-rating agrees."""
    from referee.events import rated

    for seed in range(4):
        body = {"format": "round-robin", "kind": "bots", "double": True, "entrants": ["b1", "b2"]}
        event = site.start(site.create(**body)["id"])
        assert site.play_out(event["id"], seed * 10)["status"] == "finished"
    history = site.client.get("/v1/ratings/b1?variant=backgammon").get_json()["history"]
    assert len(history) == 8 > rated.DAILY_PAIR_LIMIT
    before = {p.name: p.rating for p in rated.current(site.storage, "backgammon").players}
    again = rated.rerate(site.storage)["backgammon"]
    assert {p.name: p.rating for p in again.players} == pytest.approx(before)
    assert len(site.storage.ratings.ledger("backgammon")) == 8
