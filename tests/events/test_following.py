"""EVENTS.md §9, §10 and §13's last point through the API: the event's stream sends the
event at once and again after each change, and ends after the finished event; every match
an event makes or takes carries the event's tags, is found by ``?event=``, and its exports
(the .mat, the SGF, the event's records.zip) read back through the referee with the same
tags; the standings count each match at most its length while the pairing keeps its real
points."""

from __future__ import annotations

import io
import json
import queue
import random
import threading
import time
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from notation.records.mat_reader import read_mat
from referee.adjudication.match import check_and_write
from referee.archive.sgf import sgf_of
from referee.events.follow import follow
from referee.events.tagging import tagged
from referee.http.streams import StreamLimits
from referee.storage import Location, open_storage
from referee.storage.model.events import EventSeat
from referee.storage.stores import Storage
from tests.events.records import played_record, winner_of
from tests.events.support import Site, make_site
from tests.players.gnubg import run_batch

DEADLINE = 30.0


class Lines:
    """What ``follow`` yields for an event, read as it comes by a thread of its own (with
    a storage of its own, as the endpoint's stream has)."""

    def __init__(self, location: Location, event_id: int) -> None:
        self.got: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.ended = threading.Event()
        threading.Thread(target=self._read, args=(location, event_id), daemon=True).start()

    def _read(self, location: Location, event_id: int) -> None:
        watching = open_storage(location)
        try:
            for line in follow(watching, event_id, Always()):
                self.got.put(line)
        finally:
            watching.close()
            self.ended.set()

    def next_event(self) -> dict[str, Any]:
        """The next line that is an event (keepalives skipped), within the deadline."""
        until = time.monotonic() + DEADLINE
        while time.monotonic() < until:
            try:
                found = self.got.get(timeout=max(until - time.monotonic(), 0.01))
            except queue.Empty:
                break
            if found is not None:
                return found
        raise AssertionError("no event line within the deadline")


class Always:
    """A stream check that always lets the stream go on (no token, no worker)."""

    def alive(self, storage: Storage) -> bool:
        return True

    def wait_seconds(self, seconds: float) -> float:
        return seconds


def pairings(event: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for played in event["rounds_played"] for p in played["pairings"]]


def test_following_gives_the_event_then_every_change_and_ends_after_the_finish(
    site: Site,
) -> None:
    created = site.create(
        name="Stream cup", format="round-robin", kind="bots", entrants=["b1", "b2", "b3"]
    )
    lines = Lines(site.app.config["DATABASE"], created["id"])
    assert lines.next_event()["status"] == "open"
    site.start(created["id"])
    seen = lines.next_event()
    assert (seen["status"], seen["round"]) == ("running", 1)
    rng = random.Random(3)
    for number in range(1, seen["rounds"] + 1):
        # The round's live matches are attached in a change of their own: a line shows it.
        while len(seen["rounds_played"]) < number or any(
            not p["live_ids"] for p in seen["rounds_played"][number - 1]["pairings"]
        ):
            seen = lines.next_event()
        for pairing in seen["rounds_played"][number - 1]["pairings"]:
            site.play(pairing["live_ids"][0], rng)
        # Lines follow until this round has its results (taken by the keeper).
        while any(p["status"] != "finished" for p in seen["rounds_played"][number - 1]["pairings"]):
            seen = lines.next_event()
    assert seen["status"] == "finished"
    assert seen == site.event(created["id"])
    assert lines.ended.wait(DEADLINE), "the stream ends after the finished event"


def test_the_stream_endpoint_answers_the_event_first_and_is_admitted_as_every_stream(
    site: Site,
) -> None:
    created = site.create(format="round-robin", kind="records", entrants=["A", "B"])
    path = f"/v1/events/{created['id']}/stream"
    site.app.config["STREAM_LIMITS"] = StreamLimits(per_subject=1)
    first = site.client.get(path, buffered=False)
    try:
        assert first.status_code == 200 and first.mimetype == "application/x-ndjson"
        assert first.headers["X-Accel-Buffering"] == "no"
        line = next(chunk for chunk in first.response if chunk)  # the head's empty one first
        assert json.loads(line) == site.event(created["id"])
        refused = site.client.get(path)
        assert refused.status_code == 429
        assert refused.get_json()["code"] == "too_many_streams"
    finally:
        first.close()
    assert site.client.get("/v1/events/999/stream").status_code == 404


def tags_of(text: str) -> dict[str, str]:
    """The header tags the referee reads from a record."""
    return dict(check_and_write(text).tags)


EVENT_TAGS = ("Event", "EventId", "Round", "Table", "Leg")


def test_a_bots_events_matches_carry_its_tags_in_the_archive_and_every_export(
    site: Site, tmp_path: Path
) -> None:
    name = "Tuesday Swiss"
    created = site.create(
        name=name,
        format="round-robin",
        kind="bots",
        mirrored=True,
        length=3,
        entrants=["b1", "b2", "b3"],
    )
    site.start(created["id"])
    event = site.play_out(created["id"], seed=5)
    assert event["status"] == "finished"
    expected: dict[int, dict[str, str]] = {}
    for played in event["rounds_played"]:
        for pairing in played["pairings"]:
            assert len(pairing["match_ids"]) == 2
            for leg, match_id in enumerate(pairing["match_ids"], start=1):
                expected[match_id] = {
                    "Event": name,
                    "EventId": str(event["id"]),
                    "Round": str(played["number"]),
                    "Table": str(pairing["table"]),
                    "Leg": str(leg),
                }
    found = site.client.get(f"/v1/matches?event={quote(name)}&limit=100").get_json()
    assert sorted(m["id"] for m in found["matches"]) == sorted(expected)
    assert all(m["event"] == name for m in found["matches"])
    by_id = site.client.get(f"/v1/matches?event_id={event['id']}&limit=100").get_json()
    assert sorted(m["id"] for m in by_id["matches"]) == sorted(expected)
    elsewhere = make_site(tmp_path / "elsewhere")
    writer = elsewhere.auth(elsewhere.storage.tokens.create(("archive:write",), "w").secret)
    try:
        for match_id, tags in expected.items():
            for form in ("original", "canonical"):
                text = site.client.get(f"/v1/matches/{match_id}?format={form}").get_data(
                    as_text=True
                )
                read = tags_of(text)
                assert {key: read.get(key) for key in EVENT_TAGS} == tags, (match_id, form)
            # Stored again in another archive, the export is found there by the event too.
            stored = elsewhere.client.post(
                "/v1/matches", data=text, content_type="text/plain", headers=writer
            )
            assert stored.status_code in (200, 201), stored.get_json()
        again = elsewhere.client.get(f"/v1/matches?event={quote(name)}&limit=100").get_json()
        assert len(again["matches"]) == len(expected)
    finally:
        elsewhere.storage.close()
    archive = zipfile.ZipFile(
        io.BytesIO(site.client.get(f"/v1/events/{event['id']}/records.zip").data)
    )
    zipped = [tags_of(archive.read(entry).decode()) for entry in archive.namelist()]
    wanted = sorted(tuple(tags[key] for key in EVENT_TAGS) for tags in expected.values())
    assert sorted(tuple(read[key] for key in EVENT_TAGS) for read in zipped) == wanted
    sgf_reads_back_through_gnubg(site, expected, tmp_path)


def sgf_reads_back_through_gnubg(
    site: Site, expected: dict[int, dict[str, str]], folder: Path
) -> None:
    """Each match's SGF carries the tags (``EV``, ``RO``, and ``XE``, ``XT``, ``XL`` that
    gnubg skips); loaded by gnubg and exported by it as .mat, the referee reads the event
    and the round back (gnubg keeps no other)."""
    commands = []
    for match_id, tags in expected.items():
        sgf = site.client.get(f"/v1/matches/{match_id}?format=sgf").get_data(as_text=True)
        (folder / f"{match_id}.sgf").write_text(sgf)
        commands += [f'load match "{match_id}.sgf"', f'export match mat "{match_id}.mat"']
        for key, value in (
            ("EV", tags["Event"]),
            ("RO", tags["Round"]),
            ("XE", tags["EventId"]),
            ("XT", tags["Table"]),
            ("XL", tags["Leg"]),
        ):
            assert f"{key}[{value}]" in sgf, (match_id, key)
    output = run_batch(commands, folder)
    assert "rror" not in output, output
    for match_id, tags in expected.items():
        read = tags_of((folder / f"{match_id}.mat").read_text())
        assert (read.get("Event"), read.get("Round")) == (tags["Event"], tags["Round"])


def first_record(site: Site, event_id: int, record: str) -> int:
    """Submit round 1, table 1's record (as text); the stored match's id."""
    answer = site.client.post(
        f"/v1/events/{event_id}/rounds/1/pairings/1/record",
        data=record,
        content_type="text/plain",
        headers=site.auth(),
    )
    assert answer.status_code == 200, answer.get_json()
    return int(answer.get_json()["match_id"])


def test_a_records_events_matches_take_its_tags(site: Site) -> None:
    name = "Club night"
    created = site.create(
        name=name, format="round-robin", kind="records", length=1, entrants=["Ann", "Bob"]
    )
    site.start(created["id"])
    record = '; [Event "Somewhere else"]\n' + played_record("Ann", "Bob", 1, seed=1)
    match_id = first_record(site, created["id"], record)
    found = site.client.get(f"/v1/matches?event={quote(name)}").get_json()["matches"]
    assert [m["id"] for m in found] == [match_id]
    # Another event of the same name takes another record: by its id each finds its own.
    again = site.create(
        name=name, format="round-robin", kind="records", length=1, entrants=["Ann", "Bob"]
    )
    site.start(again["id"])
    other = first_record(site, again["id"], played_record("Ann", "Bob", 1, seed=2))
    # A record anyone stores with the event's tags is not one of its matches.
    spoof = f'; [Event "{name}"]\n; [EventId "{created["id"]}"]\n'
    writer = site.auth(site.storage.tokens.create(("archive:write",), "w").secret)
    stored = site.client.post(
        "/v1/matches",
        data=spoof + played_record("Ann", "Bob", 1, seed=3),
        content_type="text/plain",
        headers=writer,
    )
    assert stored.status_code in (200, 201), stored.get_json()
    for event_id, expected in ((created["id"], match_id), (again["id"], other)):
        by_id = site.client.get(f"/v1/matches?event_id={event_id}").get_json()["matches"]
        assert [m["id"] for m in by_id] == [expected]
    named = site.client.get(f"/v1/matches?event={quote(name)}").get_json()["matches"]
    assert len(named) == 3 and {match_id, other} < {m["id"] for m in named}
    assert site.client.get("/v1/matches?event_id=999").get_json()["matches"] == []
    assert site.client.get("/v1/matches?event_id=0").status_code == 422
    text = site.client.get(f"/v1/matches/{match_id}?format=original").get_data(as_text=True)
    read = tags_of(text)
    assert {key: read.get(key) for key in EVENT_TAGS} == {
        "Event": name,
        "EventId": str(created["id"]),
        "Round": "1",
        "Table": "1",
        "Leg": None,
    }
    assert text.count("[Event ") == 1  # the record's own Event tag gave way to the event's


def sgf_of_record(record: str) -> str:
    """A .mat record as the gnubg SGF the archive exports of it."""
    return sgf_of(read_mat(record), check_and_write(record).verdict.to_json())


def test_an_sgf_and_a_mat_tagged_by_an_event_read_back_as_the_same_tags() -> None:
    record = '; [Event "Elsewhere"]\n; [Round "7"]\n' + played_record("Ann", "Bob", 1, seed=1)
    tags = EventSeat(12, "Odd ] name \\ here", 3, 2).tags(leg=1)
    sgf = tagged(sgf_of_record(record), tags)
    assert sgf.count("EV[") == 1 and sgf.count("RO[") == 1
    as_sgf, as_mat = tags_of(sgf), tags_of(tagged(record, tags))
    assert {key: as_sgf.get(key) for key in EVENT_TAGS} == tags
    assert {key: as_mat.get(key) for key in EVENT_TAGS} == tags


@pytest.mark.parametrize("sent", ["json", "json-format", "sgf-media-type"])
def test_a_records_event_takes_an_sgf_record_with_its_tags(site: Site, sent: str) -> None:
    name = "SGF night"
    created = site.create(
        name=name, format="round-robin", kind="records", length=1, entrants=["Ann", "Bob"]
    )
    site.start(created["id"])
    record = '; [Event "Somewhere else"]\n' + played_record("Ann", "Bob", 1, seed=1)
    sgf = sgf_of_record(record)
    path = f"/v1/events/{created['id']}/rounds/1/pairings/1/record"
    if sent == "sgf-media-type":
        answer = site.client.post(
            path, data=sgf, content_type="application/x-go-sgf", headers=site.auth()
        )
    else:
        body = {"record": sgf, **({"format": "sgf"} if sent == "json-format" else {})}
        answer = site.client.post(path, json=body, headers=site.auth())
    assert answer.status_code == 200, answer.get_json()
    done = answer.get_json()
    assert done["verdict"]["valid"] is True
    assert done["pairing"]["status"] == "finished"
    assert done["pairing"]["winner"] == winner_of(record)
    match_id = done["match_id"]
    expected = {"Event": name, "EventId": str(created["id"]), "Round": "1", "Table": "1"}
    for form in ("original", "canonical"):
        text = site.client.get(f"/v1/matches/{match_id}?format={form}").get_data(as_text=True)
        read = tags_of(text)
        assert {key: read[key] for key in expected} == expected
        assert "Leg" not in read
    original = site.client.get(f"/v1/matches/{match_id}?format=original").get_data(as_text=True)
    assert original.lstrip().startswith("(;") and "Somewhere else" not in original
    found = site.client.get(f"/v1/matches?event={quote(name)}").get_json()["matches"]
    assert [m["id"] for m in found] == [match_id]
    by_id = site.client.get(f"/v1/matches?event_id={created['id']}").get_json()["matches"]
    assert [m["id"] for m in by_id] == [match_id]


def over_the_length(length: int) -> tuple[str, tuple[int, int]]:
    """A record of a match of ``length`` whose winner scores more than ``length`` (its last
    game a gammon or backgammon), with its final score as the referee's checker adds it."""
    from referee.adjudication import adjudicate

    for seed in range(200):
        record = played_record("Ann", "Bob", length, seed)
        final = adjudicate(record).verdict.match.scores_after[-1]
        if max(final) > length:
            return record, final
    raise AssertionError("no such record in 200 seeds")


@pytest.mark.parametrize("length", [1, 3])
def test_standings_count_each_match_at_most_its_length(site: Site, length: int) -> None:
    created = site.create(
        format="round-robin", kind="records", length=length, entrants=["Ann", "Bob"]
    )
    site.start(created["id"])
    record, final = over_the_length(length)
    first_record(site, created["id"], record)
    event = site.event(created["id"])
    pairing = pairings(event)[0]
    assert pairing["points"] == list(final)  # the real points stay
    winner, loser = ("Ann", "Bob") if final[0] > final[1] else ("Bob", "Ann")
    low = min(final)
    lines = {line["name"]: line for line in event["standings"]}
    assert (lines[winner]["points_for"], lines[winner]["points_against"]) == (length, low)
    assert lines[loser]["tiebreaks"]["points_difference"] == low - length
