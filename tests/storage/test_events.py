"""Events: created open at version 0, changed only from the version read, their pairings
upserted, byes and seeds kept, live matches announced to the bots, rated matches added
to the ledger in the same change; and the dice of a mirrored pair kept with its matches."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from referee.storage.model.events import (
    BracketOptions,
    EventChange,
    EventQuery,
    EventSeat,
    EventSetup,
    Seeded,
    StoredPairing,
)
from referee.storage.model.live import LiveProgress, LiveSetup
from referee.storage.model.matches import MatchQuery
from referee.storage.model.ratings import RatedMatch
from referee.storage.stores import EventConflictError, Storage
from tests.storage.conftest import new_match

SETUP = EventSetup(
    name="December bot Swiss",
    variant="backgammon",
    length=5,
    options={"crawford": True},
    format="swiss",
    rounds=4,
    double=False,
    kind="bots",
    entrants=("gnubot", "randy", "alpha"),
    move_seconds=60,
    mirrored=False,
    rated=True,
    host_token_id=3,
)
SEEDS = (Seeded("alpha", 1, 1510.5), Seeded("gnubot", 2, 1500.0), Seeded("randy", 3, 1490.0))


def pairing(table: int, white: str, black: str, **fields: Any) -> StoredPairing:
    """A pairing of round 1, playing unless ``fields`` say otherwise."""
    found = StoredPairing(round=1, table=table, white=white, black=black, status="playing")
    return replace(found, **fields)


def started(storage: Storage, setup: EventSetup = SETUP) -> int:
    event_id = storage.events.create(setup)
    storage.events.save(
        EventChange(
            event_id,
            0,
            "running",
            1,
            seeds=SEEDS,
            pairings=(pairing(1, "alpha", "randy"),),
            byes=((1, "gnubot"),),
            lease_until=1234.5,
        )
    )
    return event_id


def test_a_created_event_is_open_at_version_0(storage: Storage) -> None:
    event_id = storage.events.create(SETUP)
    event = storage.events.get(event_id)
    assert event is not None
    assert (event.setup, event.status, event.round, event.version) == (SETUP, "open", 0, 0)
    assert (event.seeds, event.pairings, event.byes, event.lease_until) == ((), (), (), None)
    assert event.created_at and event.updated_at
    assert storage.events.get(event_id + 1) is None


def test_an_events_tiebreaks_are_kept_in_their_order(storage: Storage) -> None:
    setup = replace(SETUP, tiebreaks=("progressive", "head_to_head"))
    event = storage.events.get(storage.events.create(setup))
    assert event is not None and event.setup == setup


def test_whether_an_event_analyses_its_matches_is_kept(storage: Storage) -> None:
    for analyse in (True, False):
        setup = replace(SETUP, analyse=analyse)
        event = storage.events.get(storage.events.create(setup))
        assert event is not None and event.setup.analyse is analyse


def test_an_events_brackets_and_each_pairings_bracket_are_kept(storage: Storage) -> None:
    options = BracketOptions(
        grand_final_reset=False,
        consolation=True,
        last_chance=True,
        lengths=(("main", 7), ("consolation", 5), ("last_chance", 3)),
    )
    setup = replace(SETUP, format="knockout", rounds=4, brackets=options)
    event_id = storage.events.create(setup)
    event = storage.events.get(event_id)
    assert event is not None and event.setup == setup
    assert event.setup.brackets is not None
    assert event.setup.brackets.length_of("consolation", 1) == 5
    assert event.setup.brackets.length_of("winners", 9) == 9  # not named: the default
    storage.events.save(
        EventChange(
            event_id,
            0,
            "running",
            1,
            pairings=(
                pairing(1, "alpha", "randy", bracket="main"),
                pairing(2, "gnubot", "zed", bracket="consolation"),
            ),
        )
    )
    event = storage.events.get(event_id)
    assert event is not None
    assert [p.bracket for p in event.pairings] == ["main", "consolation"]
    plain = storage.events.get(started(storage))
    assert plain is not None and plain.setup.brackets is None
    assert [p.bracket for p in plain.pairings] == [None]


def test_an_events_name_is_kept_as_its_tags_write_it_and_finds_its_matches(
    storage: Storage,
) -> None:
    event_id = storage.events.create(replace(SETUP, name="  Club \t night\n  cup "))
    event = storage.events.get(event_id)
    assert event is not None
    assert event.setup.name == "Club night cup"
    tags = EventSeat(event_id, event.setup.name, 1, 1).tags()
    assert tags["Event"] == event.setup.name
    canonical = f'; [Event "{tags["Event"]}"]\n; [EventId "{event_id}"]\n'
    stored = storage.matches.store(new_match(1, event=tags["Event"], canonical=canonical))
    storage.matches.store(new_match(2, event="Club night cup"))  # no EventId tag
    # Anyone may write the tags: only the match the event's pairing counts is the event's.
    storage.matches.store(new_match(3, event=tags["Event"], canonical=canonical + ";\n"))
    storage.events.save(
        EventChange(
            event_id,
            0,
            "running",
            1,
            pairings=(pairing(1, "alpha", "randy", status="finished", match_ids=(stored.id,)),),
        )
    )
    by_id = storage.matches.search(MatchQuery(event_id=event_id))
    assert [found.id for found in by_id] == [stored.id]
    assert storage.matches.search(MatchQuery(event_id=event_id + 1)) == []
    by_name = storage.matches.search(MatchQuery(event="club NIGHT cup"))
    assert len(by_name) == 3


def test_a_change_saves_seeds_pairings_byes_and_lease(storage: Storage) -> None:
    event_id = started(storage)
    event = storage.events.get(event_id)
    assert event is not None
    assert (event.status, event.round, event.version, event.lease_until) == (
        "running",
        1,
        1,
        1234.5,
    )
    assert event.seeds == SEEDS
    assert event.pairings == (pairing(1, "alpha", "randy"),)
    assert event.byes == ((1, "gnubot"),)


def test_a_pairing_is_changed_in_place(storage: Storage) -> None:
    event_id = started(storage)
    done = pairing(
        1,
        "alpha",
        "randy",
        status="finished",
        live_ids=(7,),
        match_ids=(40,),
        winner="alpha",
        points=(5, 2),
        termination="bore_off",
        terminations=("bore_off",),
    )
    storage.events.save(EventChange(event_id, 1, "running", 1, pairings=(done,)))
    event = storage.events.get(event_id)
    assert event is not None
    assert event.pairings == (done,)
    assert event.seeds == SEEDS  # unchanged when the change carries none
    disputed = replace(done, status="disputed", verdict_id=41, dispute="invalid", award="x")
    storage.events.save(EventChange(event_id, 2, "running", 1, pairings=(disputed,)))
    event = storage.events.get(event_id)
    assert event is not None and event.pairings == (disputed,)


def test_a_change_of_an_event_read_at_another_version_is_refused(storage: Storage) -> None:
    event_id = started(storage)
    with pytest.raises(EventConflictError):
        storage.events.save(EventChange(event_id, 0, "finished", 1))
    event = storage.events.get(event_id)
    assert event is not None and (event.status, event.version) == ("running", 1)
    with pytest.raises(EventConflictError):
        storage.events.save(EventChange(event_id + 5, 0, "running", 1))


def test_events_are_listed_newest_first_by_status_and_cursor(storage: Storage) -> None:
    first = storage.events.create(SETUP)
    second = started(storage, replace(SETUP, name="second"))
    third = storage.events.create(replace(SETUP, name="third", entrants=("a", "b")))
    found = storage.events.search(EventQuery())
    assert [summary.id for summary in found] == [third, second, first]
    summary = found[0]
    assert (summary.name, summary.entrants, summary.status, summary.rounds) == (
        "third",
        2,
        "open",
        4,
    )
    assert [s.id for s in storage.events.search(EventQuery(status="running"))] == [second]
    assert [s.id for s in storage.events.search(EventQuery(limit=1, after_id=third))] == [second]
    assert storage.events.running() == [second]


def test_in_play_names_the_live_matches_of_the_undecided_pairings(storage: Storage) -> None:
    event_id = started(storage)
    watched = storage.events.in_play(event_id)
    assert watched is not None
    assert (watched.version, watched.round, watched.lease_until) == (1, 1, 1234.5)
    assert (watched.live_ids, watched.unattached) == ((), True)
    playing = pairing(1, "alpha", "randy", live_ids=(7, 8))
    storage.events.save(EventChange(event_id, 1, "running", 1, pairings=(playing,)))
    watched = storage.events.in_play(event_id)
    assert watched is not None and (watched.live_ids, watched.unattached) == ((7, 8), False)
    assert storage.events.in_play(storage.events.create(SETUP)) is None  # open


def test_live_matches_are_announced_to_both_bots_until_decided(storage: Storage) -> None:
    event_id = started(storage)
    assert storage.events.last_announcement() == 0
    mirrored = pairing(1, "alpha", "randy", live_ids=(7, 8))
    storage.events.save(EventChange(event_id, 1, "running", 1, pairings=(mirrored,)))
    alpha = storage.events.announced("alpha")
    assert [(a.live_id, a.white, a.black, a.event_id, a.round, a.table) for a in alpha] == [
        (7, "alpha", "randy", event_id, 1, 1),
        (8, "randy", "alpha", event_id, 1, 1),  # the pair's second match, sides swapped
    ]
    assert [a.live_id for a in storage.events.announced("randy")] == [7, 8]
    assert storage.events.announced("gnubot") == []
    last = storage.events.last_announcement()
    assert last == alpha[-1].seq
    assert storage.events.announced("alpha", alpha[0].seq) == alpha[1:]
    storage.events.save(EventChange(event_id, 2, "running", 1, pairings=(mirrored,)))
    assert storage.events.last_announcement() == last  # announced once
    decided = replace(mirrored, status="finished", winner="alpha", points=(3, 1))
    storage.events.save(EventChange(event_id, 3, "finished", 1, pairings=(decided,)))
    assert storage.events.announced("alpha") == []


def test_a_change_adds_its_rated_matches_to_the_ledger_once(storage: Storage) -> None:
    event_id = started(storage)
    rated = RatedMatch(40, event_id, "backgammon", "alpha", "randy", "alpha", 5)
    storage.events.save(EventChange(event_id, 1, "running", 1, rated=(rated,)))
    storage.events.save(EventChange(event_id, 2, "running", 1, rated=(rated,)))
    assert [entry.match for entry in storage.ratings.ledger("backgammon")] == [rated]


def test_a_mirrored_pairs_dice_are_kept_with_its_matches(storage: Storage) -> None:
    setup = LiveSetup(
        variant="backgammon",
        length=3,
        options={},
        players=("alice", "bob"),
        move_seconds=30,
        host_token_id=7,
        server_seed="ab" * 32,
        commitment="cd" * 32,
        mirrored=True,
    )
    waiting = LiveProgress("waiting", 0, (None, None), None, {"table": [1]}, 0)
    first = storage.live.create(setup, waiting)
    twin = replace(setup, players=("bob", "alice"), dice_id=first)
    second = storage.live.create(twin, waiting)
    one, other = storage.live.get(first), storage.live.get(second)
    assert one is not None and other is not None
    assert (one.setup, other.setup) == (setup, twin)
    plain = storage.live.create(replace(setup, mirrored=False), waiting)
    found = storage.live.get(plain)
    assert found is not None and (found.setup.dice_id, found.setup.mirrored) == (None, False)
