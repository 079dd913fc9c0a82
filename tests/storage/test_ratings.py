"""Ratings: the ledger of rated matches by variant in the order added, ratings kept only
from the state they were computed from, each name's history, a ledger made anew."""

from __future__ import annotations

from datetime import datetime, timedelta

from referee.storage.model.events import EventChange, EventSetup
from referee.storage.model.ratings import PlayerRating, RatedMatch, RatingStep, RatingUpdate
from referee.storage.stores import Storage
from tests.storage.conftest import new_match

SETUP = EventSetup(
    name="club",
    variant="backgammon",
    length=3,
    options={},
    format="round-robin",
    rounds=1,
    double=False,
    kind="records",
    entrants=("ann", "bob"),
    move_seconds=60,
    mirrored=False,
    rated=True,
    host_token_id=None,
)


def ledger_of(storage: Storage, *matches: RatedMatch) -> None:
    event_id = storage.events.create(SETUP)
    storage.events.save(EventChange(event_id, 0, "running", 1, rated=matches))


def rated(match_id: int, variant: str = "backgammon", winner: str = "ann") -> RatedMatch:
    return RatedMatch(match_id, 1, variant, "ann", "bob", winner, 3)


def test_the_ledger_is_read_by_variant_in_the_order_added(storage: Storage) -> None:
    assert storage.ratings.ledger("backgammon") == []
    assert storage.ratings.variants() == []
    ledger_of(storage, rated(9), rated(4, "long-nardy"), rated(2))
    entries = storage.ratings.ledger("backgammon")
    assert [entry.match for entry in entries] == [rated(9), rated(2)]
    assert entries[0].seq < entries[1].seq
    assert storage.ratings.ledger("backgammon", entries[0].seq) == entries[1:]
    assert storage.ratings.variants() == ["backgammon", "long-nardy"]


def update(
    from_seq: int,
    through_seq: int,
    players: tuple[PlayerRating, ...] = (),
    steps: tuple[tuple[str, RatingStep], ...] = (),
    last_match_id: int = 9,
    replace: bool = False,
) -> RatingUpdate:
    return RatingUpdate("backgammon", from_seq, through_seq, last_match_id, players, steps, replace)


def test_ratings_are_kept_only_from_what_they_were_computed_from(storage: Storage) -> None:
    kept = storage.ratings.kept("backgammon")
    assert (kept.through_seq, kept.last_match_id, kept.players) == (0, 0, ())
    ann, bob = PlayerRating("ann", 1510.0, 3, 1), PlayerRating("bob", 1490.0, 3, 1)
    steps = (("ann", RatingStep(9, 1, 1500.0, 1510.0)), ("bob", RatingStep(9, 1, 1500.0, 1490.0)))
    assert storage.ratings.keep(update(0, 1, players=(bob, ann), steps=steps))
    kept = storage.ratings.kept("backgammon")
    assert (kept.through_seq, kept.last_match_id, kept.players) == (1, 9, (ann, bob))
    assert not storage.ratings.keep(update(0, 2, players=(PlayerRating("ann", 1, 0, 0),)))
    assert storage.ratings.kept("backgammon").players == (ann, bob)
    later = PlayerRating("ann", 1520.0, 6, 2)
    step = ("ann", RatingStep(12, 1, 1510.0, 1520.0))
    assert storage.ratings.keep(update(1, 2, players=(later,), steps=(step,), last_match_id=12))
    assert storage.ratings.kept("backgammon").players == (later, bob)
    assert storage.ratings.history("backgammon", "ann") == [steps[0][1], step[1]]
    assert storage.ratings.history("long-nardy", "ann") == []


def test_a_replacing_update_forgets_what_was_kept(storage: Storage) -> None:
    ann = PlayerRating("ann", 1510.0, 3, 1)
    storage.ratings.keep(update(0, 1, players=(ann,), steps=(("ann", RatingStep(9, 1, 1, 2)),)))
    fresh = PlayerRating("bob", 1505.0, 3, 1)
    steps = (("bob", RatingStep(4, 1, 1500.0, 1505.0)),)
    assert storage.ratings.keep(update(1, 3, players=(fresh,), steps=steps, replace=True))
    assert storage.ratings.kept("backgammon").players == (fresh,)
    assert storage.ratings.history("backgammon", "ann") == []


def test_the_ledger_made_anew_forgets_every_kept_rating(storage: Storage) -> None:
    ledger_of(storage, rated(9), rated(2))
    storage.ratings.keep(update(0, 2, players=(PlayerRating("ann", 1510.0, 3, 1),)))
    storage.ratings.replace_ledger([rated(7, winner="bob"), rated(3)])
    assert [entry.match.match_id for entry in storage.ratings.ledger("backgammon")] == [3, 7]
    kept = storage.ratings.kept("backgammon")
    assert (kept.through_seq, kept.players) == (0, ())


def test_the_ledger_stored_since_a_time_comes_with_each_records_time(storage: Storage) -> None:
    """The daily limit's window: the rated matches whose records were stored from a time
    on, with that time, in the order added (the others are not read)."""
    ids = [storage.matches.store(new_match(number)).id for number in (1, 2, 3)]
    ledger_of(storage, rated(ids[2]), rated(ids[0], "long-nardy"), rated(ids[1]))
    stored = {found: storage.matches.get(found) for found in ids}
    times = {found: match.created_at for found, match in stored.items() if match is not None}
    first = min(times.values())
    window = storage.ratings.ledger_stored_since("backgammon", first)
    assert [(entry.match, at) for entry, at in window] == [
        (rated(ids[2]), times[ids[2]]),
        (rated(ids[1]), times[ids[1]]),
    ]
    assert window[0][0].seq < window[1][0].seq
    later = (datetime.fromisoformat(max(times.values())) + timedelta(seconds=1)).isoformat()
    assert storage.ratings.ledger_stored_since("backgammon", later) == []
    assert storage.ratings.ledger_stored_since("khachapuri", first) == []
