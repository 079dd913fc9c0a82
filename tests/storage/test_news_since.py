"""Everyone's news at once, as the bot streams' hub reads a change (``announced_since``,
``news_since``): every undecided pairing's live matches and every bot's news of challenges
after a mark, in the order made, the same rows the reads by name answer; on every
backend."""

from __future__ import annotations

import time
from dataclasses import replace

from referee.storage.model.challenges import Answer
from referee.storage.model.events import EventChange, EventLive
from referee.storage.stores import Storage
from tests.storage.test_challenges import challenge
from tests.storage.test_events import SETUP, pairing, started

NAMES = ("alpha", "randy", "gnubot", "zed")


def by_names(storage: Storage, after_seq: int = 0) -> list[EventLive]:
    """What the reads by name answer for every name, each announcement once, by seq."""
    found = {live.seq: live for name in NAMES for live in storage.events.announced(name, after_seq)}
    return [found[seq] for seq in sorted(found)]


def two_events(storage: Storage) -> tuple[int, int]:
    """Two running events whose announcements interleave: live matches 7 and 8 (the first
    event's mirrored pair), 9 (the second's), 10 (the first's second table)."""
    first = started(storage)
    second = started(storage, replace(SETUP, name="second"))
    mirrored = pairing(1, "alpha", "randy", live_ids=(7, 8))
    storage.events.save(EventChange(first, 1, "running", 1, pairings=(mirrored,)))
    other = pairing(1, "gnubot", "zed", live_ids=(9,))
    storage.events.save(EventChange(second, 1, "running", 1, pairings=(other,)))
    later = pairing(2, "gnubot", "zed", status="pending", live_ids=(10,))
    storage.events.save(EventChange(first, 2, "running", 1, pairings=(later,)))
    return first, second


def test_every_undecided_pairings_live_matches_are_listed_in_order(storage: Storage) -> None:
    first, second = two_events(storage)
    listed = storage.events.announced_since(0)
    assert [(live.live_id, live.event_id, live.table) for live in listed] == [
        (7, first, 1),
        (8, first, 1),
        (9, second, 1),
        (10, first, 2),
    ]
    assert [(live.white, live.black) for live in listed[:2]] == [
        ("alpha", "randy"),
        ("randy", "alpha"),  # the pair's second match, sides swapped
    ]
    assert [live.seq for live in listed] == sorted({live.seq for live in listed})
    assert listed == by_names(storage)


def test_nothing_announced_at_or_before_the_mark_is_listed(storage: Storage) -> None:
    two_events(storage)
    listed = storage.events.announced_since(0)
    mark = listed[1].seq
    assert storage.events.announced_since(mark) == listed[2:] == by_names(storage, mark)
    assert storage.events.announced_since(storage.events.last_announcement()) == []


def test_a_decided_pairings_matches_are_not_listed(storage: Storage) -> None:
    first, _ = two_events(storage)
    decided = pairing(1, "alpha", "randy", status="finished", live_ids=(7, 8), winner="alpha")
    disputed = pairing(2, "gnubot", "zed", status="disputed", live_ids=(10,))
    storage.events.save(EventChange(first, 3, "running", 1, pairings=(decided, disputed)))
    listed = storage.events.announced_since(0)
    assert [live.live_id for live in listed] == [9, 10]  # disputed: undecided yet
    assert listed == by_names(storage)


def test_every_bots_news_is_listed_in_order_after_the_mark(storage: Storage) -> None:
    asked = challenge(storage)  # news for b
    other = challenge(storage, challenger="c", opponent="a")  # news for a
    accepted = Answer(challenge_id=asked, status="accepted", now=time.time(), live_id=42)
    assert storage.challenges.answer(accepted)  # news for a and b
    listed = storage.challenges.news_since(0)
    assert [(news.name, news.challenge_id, news.kind, news.live_id) for news in listed] == [
        ("b", asked, "challenge", None),
        ("a", other, "challenge", None),
        ("a", asked, "match", 42),
        ("b", asked, "match", 42),
    ]
    by_name = [news for name in ("a", "b", "c") for news in storage.challenges.news(name)]
    assert listed == sorted(by_name, key=lambda news: news.seq)
    assert storage.challenges.news_since(listed[1].seq) == listed[2:]
    assert storage.challenges.news_since(storage.challenges.last_news()) == []
