"""``copy-archive`` with events (issue 20): an archive holding a records event (a dispute,
a correction, an award, a round still to play) and a mirrored bots event (a round played,
the next announced to its bots), the ratings' ledger and the ratings kept from it, all
made through the API, goes from SQLite to PostgreSQL and back; every table the same, the
events API and the event stores answering the same on each copy, and what is made on a
copy afterwards (an event, announcements, a rated match) numbered after what was copied."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

import tests.api.support
from referee.app import create_app
from referee.cli import main
from referee.storage import open_storage
from referee.storage.model.events import EventQuery
from referee.storage.stores import Storage
from tests.events.records import played_record, spoiled
from tests.events.support import BOTS, Site, make_site
from tests.storage.test_copy_archive import postgresql, tables  # noqa: F401 (a fixture)

RECORDS = {"format": "round-robin", "kind": "records", "entrants": ["Ann", "Bob", "Cy"]}
MIRRORED = {"format": "round-robin", "kind": "bots", "entrants": list(BOTS[:3]), "mirrored": True}


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    """A site on a SQLite file, whichever backend the suite runs on (the copy's source);
    events move on when read (no keeper polling)."""
    monkeypatch.setenv("NARDY_REFEREE_EVENTS_POLL", "0")
    monkeypatch.setattr(tests.api.support, "BACKEND", "sqlite")
    made = make_site(tmp_path / "first")
    yield made
    made.storage.close()


def record_path(event_id: int, number: int, table: int) -> str:
    return f"/v1/events/{event_id}/rounds/{number}/pairings/{table}/record"


def pairing_of(site: Site, event_id: int, number: int) -> dict[str, Any]:
    [pairing] = site.event(event_id)["rounds_played"][number - 1]["pairings"]
    found: dict[str, Any] = pairing
    return found


def records_event(site: Site) -> int:
    """Round 1 disputed (an invalid record) then decided by the right one, round 2 awarded,
    round 3 paired and not yet played."""
    event_id = site.start(site.create(**RECORDS)["id"])["id"]
    first = pairing_of(site, event_id, 1)
    good = played_record(first["w"], first["b"], 1, seed=4)
    path = record_path(event_id, 1, first["table"])
    disputed = site.client.post(path, json={"record": spoiled(good)}, headers=site.auth())
    assert disputed.get_json()["pairing"]["status"] == "disputed"
    corrected = site.client.post(path, json={"record": good}, headers=site.auth())
    assert corrected.get_json()["pairing"]["status"] == "finished", corrected.get_json()
    second = pairing_of(site, event_id, 2)
    awarded = site.client.post(
        f"/v1/events/{event_id}/rounds/2/pairings/{second['table']}/result",
        json={"winner": "b", "reason": "no show"},
        headers=site.auth(),
    )
    assert awarded.get_json()["pairing"]["termination"] == "award"
    assert pairing_of(site, event_id, 3)["status"] == "pending"
    return event_id


def bots_event(site: Site) -> int:
    """A mirrored round robin of three bots: its first round played, its second announced."""
    event_id = site.start(site.create(**MIRRORED)["id"])["id"]
    event = site.play_round(event_id, seed=7)
    assert event["round"] == 2 and event["status"] == "running"
    assert len(pairing_of(site, event_id, 2)["live_ids"]) == 2
    return event_id


READER = "director"
"""Whose token reads the API on every copy (tokens are copied with their hashes)."""


def answers(client: FlaskClient, secret: str, event_ids: list[int]) -> dict[str, Any]:
    """What the events API answers about the events and ratings."""
    auth = {"Authorization": f"Bearer {secret}"}
    paths = ["/v1/events", "/v1/events?limit=1", "/v1/ratings", "/v1/ratings?variant=backgammon"]
    for event_id in event_ids:
        paths += [f"/v1/events/{event_id}", f"/v1/events/{event_id}/standings.json"]
        paths.append(f"/v1/events/{event_id}/standings.csv")
    for name in ("Ann", "Bob", "Cy", *BOTS[:3]):
        paths.append(f"/v1/ratings/{name}?variant=backgammon")
    found = {}
    for path in paths:
        answer = client.get(path, headers=auth)
        found[path] = (answer.status_code, answer.get_json(silent=True) or answer.get_data())
    return found


def stored(storage: Storage, event_ids: list[int]) -> dict[str, Any]:
    """What the event and rating stores hold, read through their own reads."""
    announcements = {name: storage.events.announced(name) for name in BOTS}
    after = min(live.seq for found in announcements.values() for live in found)
    return {
        "events": [storage.events.get(event_id) for event_id in event_ids],
        "listed": storage.events.search(EventQuery()),
        "running": storage.events.running(),
        "in play": [storage.events.in_play(event_id) for event_id in event_ids],
        "announced": announcements,
        "announced after": {name: storage.events.announced(name, after) for name in BOTS},
        "last announcement": storage.events.last_announcement(),
        "variants": storage.ratings.variants(),
        "ledger": storage.ratings.ledger("backgammon"),
        "kept": storage.ratings.kept("backgammon"),
        "history": {
            name: storage.ratings.history("backgammon", name)
            for name in ("Ann", "Bob", "Cy", *BOTS[:3])
        },
    }


def test_events_and_ratings_go_to_postgresql_and_back_the_same(
    site: Site,
    tmp_path: Path,
    postgresql: str,  # noqa: F811 (the fixture)
    capsys: pytest.CaptureFixture[str],
) -> None:
    event_ids = [records_event(site), bots_event(site)]
    before = answers(site.client, site.host, event_ids)  # what moves on when read, moved
    first = site.app.config["DATABASE"]
    original = stored(site.storage, event_ids)
    assert original["announced after"]["b1"] != []
    assert len(original["ledger"]) >= 3 and original["kept"].players
    assert any(step for step in original["history"].values())
    counts = site.storage.tables.counts()
    for table in ("events", "event_entrants", "event_pairings", "event_byes", "event_live"):
        assert counts[table] > 0, table
    for table in ("rated_matches", "ratings", "rating_history", "rating_marks"):
        assert counts[table] > 0, table

    back = str(tmp_path / "back.sqlite3")
    assert main(["copy-archive", first, postgresql]) == 0
    out = capsys.readouterr().out
    for table, (count, digest) in tables(first).items():
        assert f"{table:<14} {count:>8}  {digest}  same" in out
    assert main(["copy-archive", postgresql, back]) == 0
    assert capsys.readouterr().out.rstrip().endswith("every table copied and verified")
    assert tables(back) == tables(first) == tables(postgresql)

    assert answers(site.client, site.host, event_ids) == before
    copies = {location: create_app({"DATABASE": location}) for location in (postgresql, back)}
    for location, app in copies.items():
        copy = open_storage(location)
        try:
            assert stored(copy, event_ids) == original, location
        finally:
            copy.close()
        assert answers(app.test_client(), site.host, event_ids) == before, location

    for location, app in copies.items():
        made_after(app.test_client(), site, location, event_ids, original)


def made_after(
    client: FlaskClient,
    site: Site,
    location: str,
    event_ids: list[int],
    original: dict[str, Any],
) -> None:
    """On a copy: a new event, its live matches' announcements and a new rated match are
    numbered after the ids and seq copied."""
    auth = {"Authorization": f"Bearer {site.host}"}
    body = {"name": "after", "variant": "backgammon", "length": 1, **MIRRORED}
    created = client.post("/v1/events", json=body, headers=auth)
    assert created.status_code == 201, created.get_json()
    event_id = created.get_json()["id"]
    assert event_id == max(event_ids) + 1
    assert client.post(f"/v1/events/{event_id}/start", headers=auth).status_code == 200
    client.get(f"/v1/events/{event_id}", headers=auth)  # its live matches made when read
    copy = open_storage(location)
    try:
        announced = [live for name in BOTS for live in copy.events.announced(name)]
        new = sorted({live.seq for live in announced if live.event_id == event_id})
        assert new and new[0] == original["last announcement"] + 1, location
        # the records event's last round played on the copy: a rated match, after the ledger
        [third] = client.get(f"/v1/events/{event_ids[0]}", headers=auth).get_json()[
            "rounds_played"
        ][2]["pairings"]
        record = played_record(third["w"], third["b"], 1, seed=9)
        path = record_path(event_ids[0], 3, third["table"])
        decided = client.post(path, json={"record": record}, headers=auth)
        assert decided.get_json()["pairing"]["status"] == "finished", decided.get_json()
        ledger = copy.ratings.ledger("backgammon")
        assert ledger[: len(original["ledger"])] == original["ledger"]
        last = original["ledger"][-1].seq
        assert [entry.seq for entry in ledger[len(original["ledger"]) :]] == [last + 1]
        assert ledger[-1].match.match_id == decided.get_json()["match_id"]
    finally:
        copy.close()
