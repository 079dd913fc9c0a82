"""The events API (EVENTS.md §2-§6) through the app: creating with a clear 422 and a stable
code for each bad input, starting, a records event's records (valid, invalid, incomplete,
of other players, of another length, twice), awards, the list, the exports, the ratings,
private reads; every answer holds to its documented schema."""

from __future__ import annotations

import csv
import io
import zipfile
from typing import Any

import pytest

from referee.api.events import Event, EventPage, PlayerRatingHistory
from referee.app import create_app
from tests.events.records import cut, played_record, spoiled, winner_of
from tests.events.support import Site

RECORDS = {"format": "round-robin", "kind": "records", "entrants": ["Ann", "Bob", "Cy"]}


def refused(site: Site, body: dict[str, Any], secret: str | None = None) -> dict[str, Any]:
    event = {"name": "bad", "variant": "backgammon", "length": 1, **body}
    answer = site.client.post("/v1/events", json=event, headers=site.auth(secret))
    assert answer.status_code == 422, answer.get_json()
    assert answer.mimetype == "application/problem+json"
    found: dict[str, Any] = answer.get_json()
    return found


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"format": "swiss", "rounds": 2, "kind": "bots", "entrants": ["b1", "zz"]}, "unknown_bot"),
        ({**RECORDS, "entrants": ["Ann", "Bob", "Ann"]}, "duplicate_entrant"),
        ({**RECORDS, "entrants": ["Ann", "Bob", "ann "]}, "duplicate_entrant"),
        ({**RECORDS, "entrants": ["Ann"]}, "entrant_count"),
        ({**RECORDS, "entrants": []}, "entrant_count"),
        ({**RECORDS, "entrants": [f"p{n}" for n in range(257)]}, "entrant_count"),
        (
            {"format": "knockout", "kind": "bots", "entrants": ["b1", "b2"], "mirrored": True},
            "mirrored_not_allowed",
        ),
        ({**RECORDS, "mirrored": True}, "mirrored_not_allowed"),
        ({**RECORDS, "format": "swiss"}, "invalid_rounds"),
        ({**RECORDS, "rounds": 7}, "invalid_rounds"),
        ({**RECORDS, "format": "swiss", "rounds": 2, "double": True}, "invalid_rounds"),
        ({**RECORDS, "variant": "chess"}, "unknown_variant"),
        ({**RECORDS, "options": {"block_rule": False}}, "invalid_option"),
        ({**RECORDS, "length": 0}, "validation_failed"),
        ({**RECORDS, "entrants": ["Ann", " "]}, "validation_failed"),
        ({**RECORDS, "tiebreaks": ["buchholz", "coin_toss"]}, "validation_failed"),
        ({**RECORDS, "tiebreaks": []}, "validation_failed"),
        ({**RECORDS, "tiebreaks": ["progressive", "progressive"]}, "invalid_tiebreaks"),
        ({**RECORDS, "tiebreaks": ["head_to_head", "pr"]}, "invalid_tiebreaks"),
        ({**RECORDS, "format": "knockout", "tiebreaks": ["buchholz"]}, "invalid_tiebreaks"),
    ],
)
def test_bad_events_are_refused_with_a_stable_code(
    site: Site, body: dict[str, Any], code: str
) -> None:
    assert refused(site, body)["code"] == code


def test_an_events_tiebreaks_are_its_standings_order(site: Site) -> None:
    order = ["head_to_head", "median_buchholz", "progressive"]
    event = site.create(**RECORDS, tiebreaks=order)
    assert event["tiebreaks"] == order
    started = site.start(event["id"])
    assert started["tiebreaks"] == order
    assert Event().validate(started) == {}
    assert [list(line["tiebreaks"]) for line in started["standings"]] == [order] * 3
    plain = site.start(site.create(**RECORDS)["id"])
    assert plain["tiebreaks"] == ["buchholz", "sonneborn_berger", "points_difference"]
    knockout = site.create(**{**RECORDS, "format": "knockout"})
    assert knockout["tiebreaks"] == []


def test_creating_needs_a_host(site: Site) -> None:
    body = {"name": "x", "variant": "backgammon", "length": 1, **RECORDS}
    assert site.client.post("/v1/events", json=body).status_code == 401
    bot = site.auth(site.secrets["b1"])
    assert site.client.post("/v1/events", json=body, headers=bot).status_code == 403


def test_an_open_event_shows_its_seeds_and_starts_once_by_its_host(site: Site) -> None:
    event = site.create(**RECORDS)
    assert (event["status"], event["round"], event["rounds"], event["rounds_played"]) == (
        "open",
        0,
        3,
        [],
    )
    assert [e["name"] for e in event["entrants"]] == ["Ann", "Bob", "Cy"]  # 1500 each: names
    path = f"/v1/events/{event['id']}/start"
    assert site.client.post(path, headers=site.auth(site.other_host)).status_code == 403
    started = site.start(event["id"])
    assert (started["status"], started["round"]) == ("running", 1)
    # Berger table for 3 (a dummy fourth): seed 1 rests, 2 meets 3.
    [first] = started["rounds_played"]
    assert first["byes"] == ["Ann"]
    assert [(p["w"], p["b"], p["status"]) for p in first["pairings"]] == [("Bob", "Cy", "pending")]
    again = site.client.post(path, headers=site.auth())
    assert (again.status_code, again.get_json()["code"]) == (409, "event_state")
    assert Event().validate(site.event(event["id"])) == {}


def record_path(event: dict[str, Any], number: int, table: int) -> str:
    return f"/v1/events/{event['id']}/rounds/{number}/pairings/{table}/record"


def submit(site: Site, event: dict[str, Any], number: int, table: int, record: str) -> Any:
    return site.client.post(
        record_path(event, number, table), json={"record": record}, headers=site.auth()
    )


def test_a_records_event_with_disputes_corrections_and_an_award(site: Site) -> None:
    event = site.start(site.create(**RECORDS)["id"])
    good = played_record("Bob", "Cy", 1, seed=4)
    invalid = submit(site, event, 1, 1, spoiled(good))
    assert invalid.status_code == 200
    body = invalid.get_json()
    assert body["verdict"]["valid"] is False
    pairing = body["pairing"]
    assert (pairing["status"], pairing["verdict_id"]) == ("disputed", body["match_id"])
    incomplete = submit(site, event, 1, 1, cut(good)).get_json()
    assert incomplete["pairing"]["status"] == "disputed"
    assert incomplete["pairing"]["dispute"] == "the record does not reach the end of the match"
    others = submit(site, event, 1, 1, played_record("Ann", "Dee", 1, seed=4))
    assert others.status_code == 200
    pairing = others.get_json()["pairing"]
    assert (pairing["status"], pairing["verdict_id"]) == ("disputed", others.get_json()["match_id"])
    assert pairing["dispute"] == "the record is of Ann and Dee, not of Bob and Cy"
    longer = submit(site, event, 1, 1, played_record("Bob", "Cy", 3, seed=4))
    assert longer.status_code == 200
    pairing = longer.get_json()["pairing"]
    assert (pairing["status"], pairing["verdict_id"]) == ("disputed", longer.get_json()["match_id"])
    assert pairing["dispute"] == "the record is of a 3-point match, the event plays 1"
    # Either column will do, names compared as a director reads them.
    corrected = submit(site, event, 1, 1, good.replace("Cy :", "cy :"))
    assert corrected.status_code == 200, corrected.get_json()
    done = corrected.get_json()["pairing"]
    assert (done["status"], done["winner"], done["match_ids"]) == (
        "finished",
        winner_of(good).replace("cy", "Cy"),
        [corrected.get_json()["match_id"]],
    )
    assert done["verdict_id"] == longer.get_json()["match_id"]  # the last dispute's
    twice = submit(site, event, 1, 1, good)
    assert (twice.status_code, twice.get_json()["code"]) == (422, "pairing_decided")
    event = site.event(event["id"])
    assert event["round"] == 2  # paired as soon as round 1 had its result
    award = f"/v1/events/{event['id']}/rounds/2/pairings/9/result"
    unknown = site.client.post(award, json={"winner": "w", "reason": "r"}, headers=site.auth())
    assert (unknown.status_code, unknown.get_json()["code"]) == (422, "unknown_pairing")
    [pairing] = event["rounds_played"][1]["pairings"]
    award = f"/v1/events/{event['id']}/rounds/2/pairings/1/result"
    given = site.client.post(
        award, json={"winner": "b", "reason": "Ann left early"}, headers=site.auth()
    )
    assert given.status_code == 200
    decided = given.get_json()["pairing"]
    assert decided["termination"] == "award"
    assert decided["award"] == {"winner": "b", "reason": "Ann left early"}
    assert decided["winner"] == pairing["b"]
    assert decided["points"] == [0, 1]
    after = site.client.post(award, json={"winner": "w", "reason": "x"}, headers=site.auth())
    assert after.get_json()["code"] == "pairing_decided"
    ratings = site.client.get("/v1/ratings?variant=backgammon").get_json()
    assert sorted(r["name"] for r in ratings) == ["Bob", "Cy"]  # the award is not rated
    assert all(r["matches"] == 1 for r in ratings)
    rating = site.client.get("/v1/ratings/Bob?variant=backgammon").get_json()
    assert PlayerRatingHistory().validate(rating) == {}
    assert [step["match_id"] for step in rating["history"]] == done["match_ids"]


def test_a_record_for_a_bots_event_or_an_unknown_round_is_refused(site: Site) -> None:
    created = site.create(format="swiss", rounds=1, kind="bots", entrants=["b1", "b2"])
    bots = site.start(created["id"])
    wrong = submit(site, bots, 1, 1, played_record("b1", "b2"))
    assert (wrong.status_code, wrong.get_json()["code"]) == (422, "wrong_kind")
    event = site.start(site.create(**RECORDS)["id"])
    later = submit(site, event, 2, 1, played_record("Ann", "Bob"))
    assert (later.status_code, later.get_json()["code"]) == (422, "unknown_pairing")
    missing = site.client.post(
        "/v1/events/99/rounds/1/pairings/1/record",
        json={"record": played_record("Ann", "Bob")},
        headers=site.auth(),
    )
    assert missing.status_code == 404


def finish_records_event(site: Site) -> dict[str, Any]:
    event = site.start(site.create(**RECORDS)["id"])
    seed = 10
    while event["status"] == "running":
        number = event["round"]
        for pairing in event["rounds_played"][-1]["pairings"]:
            seed += 1
            record = played_record(pairing["w"], pairing["b"], 1, seed)
            assert submit(site, event, number, pairing["table"], record).status_code == 200
        event = site.event(event["id"])
    return event


def test_a_finished_event_exports_its_standings_and_records(site: Site) -> None:
    event = finish_records_event(site)
    assert Event().validate(event) == {}
    base = f"/v1/events/{event['id']}"
    table = site.client.get(f"{base}/standings.csv")
    assert table.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(table.get_data(as_text=True))))
    assert [row["name"] for row in rows] == [line["name"] for line in event["standings"]]
    assert list(rows[0])[-3:] == ["buchholz", "sonneborn_berger", "points_difference"]
    assert rows[0]["match_points"] == str(event["standings"][0]["match_points"])
    document = site.client.get(f"{base}/standings.json").get_json()
    assert document["standings"] == event["standings"]
    assert document["event"]["status"] == "finished"
    archive = zipfile.ZipFile(io.BytesIO(site.client.get(f"{base}/records.zip").data))
    names = archive.namelist()
    match_ids = [m for r in event["rounds_played"] for p in r["pairings"] for m in p["match_ids"]]
    assert len(names) == len(match_ids) == 3
    assert names[0].startswith("round-01-table-001-Bob-v-Cy")
    first = site.storage.matches.get(match_ids[0])
    assert first is not None and archive.read(names[0]).decode() == first.original


def test_events_are_listed_newest_first_in_pages_and_ndjson(site: Site) -> None:
    ids = [site.create(**RECORDS)["id"] for _ in range(3)]
    site.start(ids[0])
    page = site.client.get("/v1/events?limit=2").get_json()
    assert EventPage().validate(page) == {}
    assert [e["id"] for e in page["events"]] == [ids[2], ids[1]]
    rest = site.client.get(f"/v1/events?limit=2&cursor={page['next_cursor']}").get_json()
    assert ([e["id"] for e in rest["events"]], rest["next_cursor"]) == ([ids[0]], None)
    running = site.client.get("/v1/events?status=running").get_json()["events"]
    assert [(e["id"], e["entrants"], e["round"]) for e in running] == [(ids[0], 3, 1)]
    lines = site.client.get("/v1/events", headers={"Accept": "application/x-ndjson"})
    assert lines.mimetype == "application/x-ndjson"
    assert len(lines.get_data(as_text=True).splitlines()) == 3
    assert site.client.get("/v1/events?status=closed").status_code == 422


def test_ratings_answer_by_variant_and_name(site: Site) -> None:
    finish_records_event(site)
    every = site.client.get("/v1/ratings").get_json()
    assert {r["variant"] for r in every} == {"backgammon"}
    assert [r["rating"] for r in every] == sorted((r["rating"] for r in every), reverse=True)
    assert site.client.get("/v1/ratings?variant=long-nardy").get_json() == []
    assert site.client.get("/v1/ratings/Ann").status_code == 422  # which variant?
    assert site.client.get("/v1/ratings/Nobody?variant=backgammon").status_code == 404


def test_private_reads_need_a_token(site: Site) -> None:
    private = create_app({"DATABASE": site.app.config["DATABASE"], "PRIVATE": True})
    client = private.test_client()
    for path in ("/v1/events", "/v1/ratings", "/v1/events/1"):
        assert client.get(path).status_code == 401
    assert client.get("/v1/events", headers=site.auth(site.secrets["b1"])).status_code == 200


@pytest.mark.parametrize("variant", ["backgammon", "long-nardy", "khachapuri"])
def test_a_bots_events_records_read_back_as_its_results(site: Site, variant: str) -> None:
    """What a bots event exports, the referee's own checker reads back: every record of
    the zip valid and complete, won by the pairing's winner, under the right names."""
    from referee.adjudication import adjudicate

    created = site.create(
        format="round-robin", kind="bots", variant=variant, length=1, entrants=["b1", "b2", "b3"]
    )
    site.start(created["id"])
    event = site.play_out(created["id"], seed=11)
    assert event["status"] == "finished"
    base = f"/v1/events/{event['id']}"
    archive = zipfile.ZipFile(io.BytesIO(site.client.get(f"{base}/records.zip").data))
    pairings = [p for r in event["rounds_played"] for p in r["pairings"]]
    assert len(archive.namelist()) == len(pairings) == 3
    for name, pairing in zip(archive.namelist(), pairings, strict=True):
        verdict = adjudicate(archive.read(name).decode(), variant).verdict
        assert verdict.valid and verdict.match.complete, name
        assert set(verdict.match.players) == {pairing["w"], pairing["b"]}
        winner = verdict.match.winner
        assert winner is not None
        assert verdict.match.players[0 if str(winner) == "w" else 1] == pairing["winner"]
