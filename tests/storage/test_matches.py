"""The match store: storing with dedupe, reading back, searching, paging, re-checking."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any, TypeVar

import pytest

from referee.errors import ArchiveBusyError
from referee.storage import open_storage
from referee.storage.model import MAX_PAGE
from referee.storage.model.matches import MatchQuery, NewMatch, Rechecked
from referee.storage.stores import Storage
from tests.storage.conftest import Backend, new_match

T = TypeVar("T")


def ids(storage: Storage, **filters: Any) -> list[int]:
    return [found.id for found in storage.matches.search(MatchQuery(**filters))]


def test_a_match_is_stored_once_by_its_sha256(storage: Storage) -> None:
    first = storage.matches.store(new_match(1))
    again = storage.matches.store(new_match(1, original="sent again\n", players=("X", "Y")))
    other = storage.matches.store(new_match(2))
    assert not first.duplicate and again.duplicate and not other.duplicate
    assert again.id == first.id != other.id
    kept = storage.matches.get(first.id)
    assert kept is not None
    assert (kept.original, kept.players) == ("record 1\n", ("Alice", "Bob"))  # the first one's


def test_everything_stored_is_read_back(storage: Storage) -> None:
    sent = new_match(
        7,
        variant="long-nardy",
        valid=False,
        players=("Ann", "Ben"),
        event="Open",
        site="Tbilisi",
        event_date="2025-11-08",
        match_length=0,
        games=2,
        winner=None,
        options={"jacoby": True, "cube_limit": 8},
        verdict={"valid": False, "games": [{"points": [1, 0]}]},
        original="the original\n",
        canonical="the canonical\n",
        rules_revision=3,
        referee_version="9.9",
    )
    stored = storage.matches.store(sent)
    kept = storage.matches.get(stored.id)
    assert kept is not None
    assert kept.id == stored.id and kept.created_at
    for name in NEW_MATCH_FIELDS:
        assert getattr(kept, name) == getattr(sent, name), name
    assert isinstance(kept.valid, bool) and kept.players == ("Ann", "Ben")


NEW_MATCH_FIELDS = [field.name for field in fields(NewMatch)]


def test_a_missing_match_is_none(storage: Storage) -> None:
    assert storage.matches.get(1) is None
    assert storage.matches.games_of(1) is None


def test_games_of_a_match(storage: Storage) -> None:
    stored = storage.matches.store(new_match(1, games=4))
    assert storage.matches.games_of(stored.id) == 4


def test_a_summary_is_what_the_search_lists(storage: Storage) -> None:
    stored = storage.matches.store(new_match(3, event="Cup", winner="b", valid=False))
    (summary,) = storage.matches.search(MatchQuery())
    kept = storage.matches.get(stored.id)
    assert kept is not None
    assert (summary.id, summary.sha256, summary.event, summary.winner) == (
        stored.id,
        f"{3:064x}",
        "Cup",
        "b",
    )
    assert summary.valid is False and summary.created_at == kept.created_at


@pytest.fixture
def several(storage: Storage) -> list[int]:
    """Five matches: ids in the order stored."""
    matches = [
        new_match(
            1, players=("Alice", "Bob"), event="Open", site="Tbilisi", event_date="2024-05-01"
        ),
        new_match(2, players=("Carol", "alice"), event="open", variant="long-nardy", valid=False),
        new_match(
            3, players=("Dave", "Eve"), event="Cup 8/5", site="Kutaisi", event_date="2025-01-10"
        ),
        new_match(4, players=("Bob", "Eve"), site="AND", event_date="2025-03-01"),
        new_match(5, players=("Fay", "Gus"), variant="khachapuri-nardy", event_date="2026-01-01"),
    ]
    return [storage.matches.store(match).id for match in matches]


def test_the_search_lists_newest_first(storage: Storage, several: list[int]) -> None:
    assert ids(storage) == several[::-1]


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"player": "ALICE"}, [1, 2]),  # either side, any case
        ({"player": "ali"}, []),  # the whole name
        ({"event": "OPEN"}, [1, 2]),
        ({"variant": "long-nardy"}, [2]),
        ({"valid": False}, [2]),
        ({"valid": True}, [1, 3, 4, 5]),
        ({"date_from": "2025-01-10"}, [3, 4, 5]),
        ({"date_to": "2025-01-10"}, [1, 3]),
        ({"date_from": "2025-01-01", "date_to": "2025-12-31"}, [3, 4]),
        ({"player": "eve", "date_from": "2025-02-01"}, [4]),
        ({"player": "", "event": "", "variant": "", "text": ""}, [1, 2, 3, 4, 5]),  # any
    ],
)
def test_the_search_filters(
    storage: Storage, several: list[int], filters: dict[str, object], expected: list[int]
) -> None:
    assert ids(storage, **filters) == [several[n - 1] for n in reversed(expected)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("eve", [3, 4]),  # a player's name
        ("Tbilisi", [1]),  # the site
        ("cup", [3]),  # a word of the event
        ("eve kutaisi", [3]),  # every word
        ("8/5", [3]),  # FTS5 syntax is only words
        ("AND", [4]),
        ("eve OR alice", []),
        ('"', []),
        ("NEAR(alice bob)", []),
        ("alice*", [1, 2]),  # no prefix search: punctuation is no part of a word
        ("a\x00b", []),
        ("-bob", [1, 4]),
    ],
)
def test_free_text_is_words_whatever_they_hold(
    storage: Storage, several: list[int], text: str, expected: list[int]
) -> None:
    assert ids(storage, text=text) == [several[n - 1] for n in reversed(expected)]


def test_the_cursor_pages_through_everything_once(storage: Storage, several: list[int]) -> None:
    seen: list[int] = []
    query = MatchQuery(limit=2)
    while True:
        page = [found.id for found in storage.matches.search(query)]
        seen += page
        if len(page) < 2:
            break
        query = replace(query, after_id=page[-1])
    assert seen == several[::-1]
    assert ids(storage, after_id=several[2]) == several[1::-1]
    assert ids(storage, after_id=several[0]) == []


def test_a_page_holds_one_to_max_page_summaries(storage: Storage) -> None:
    for number in range(MAX_PAGE + 2):
        storage.matches.store(new_match(number))
    assert len(ids(storage, limit=0)) == 1
    assert len(ids(storage, limit=10**6)) == MAX_PAGE
    assert len(ids(storage)) == 50  # MatchQuery's default limit


def test_iterate_gives_every_match_the_query_selects(storage: Storage, several: list[int]) -> None:
    for limit in (1, 2, 5, 50):
        every = [found.id for found in storage.matches.iterate(MatchQuery(limit=limit))]
        assert every == several[::-1]
    eve = storage.matches.iterate(MatchQuery(player="eve", limit=1))
    assert [found.id for found in eve] == [several[3], several[2]]


def test_older_than_finds_verdicts_of_older_revisions_by_ascending_id(storage: Storage) -> None:
    revisions = [0, 2, 1, 0, 3, 1]
    stored = [
        storage.matches.store(new_match(n, rules_revision=r)).id for n, r in enumerate(revisions)
    ]
    older = [match.id for match in storage.matches.older_than(2, page=2)]
    assert older == [stored[n] for n, r in enumerate(revisions) if r < 2]
    every = list(storage.matches.older_than(None, page=4))
    assert [match.id for match in every] == stored
    assert every[2].original == "record 2\n" and every[2].rules_revision == 1


def test_update_verdict_keeps_the_texts(storage: Storage) -> None:
    stored = storage.matches.store(new_match(1, valid=True, winner="w", rules_revision=0))
    verdict = {"valid": False, "games": []}
    storage.matches.update_verdict(Rechecked(stored.id, False, None, verdict, 5, "2.0"))
    kept = storage.matches.get(stored.id)
    assert kept is not None
    assert (kept.valid, kept.winner, kept.verdict) == (False, None, verdict)
    assert (kept.rules_revision, kept.referee_version) == (5, "2.0")
    assert (kept.original, kept.canonical, kept.sha256) == (
        "record 1\n",
        "canonical 1\n",
        f"{1:064x}",
    )
    assert [match.id for match in storage.matches.older_than(5)] == []
    assert ids(storage, valid=False) == [stored.id]


def at_once(backend: Backend, count: int, work: Callable[[Storage], T]) -> list[T]:
    """``work`` on ``count`` storages of their own, started together (a client retries a
    503)."""
    barrier = threading.Barrier(count)
    results: list[T] = []

    def run() -> None:
        opened = open_storage(backend.location)
        try:
            barrier.wait()
            for _ in range(50):
                try:
                    results.append(work(opened))
                    return
                except ArchiveBusyError:
                    continue
        finally:
            opened.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(results) == count
    return results


def test_one_record_stored_by_many_at_once_is_stored_once(
    backend: Backend, storage: Storage
) -> None:
    results = at_once(backend, 4, lambda opened: opened.matches.store(new_match(1)))
    assert len({result.id for result in results}) == 1
    assert sorted(result.duplicate for result in results) == [False, True, True, True]
    assert len(storage.matches.search(MatchQuery())) == 1


ODD = "a\x00b\ue000c\ue0000 d"
"""Text PostgreSQL cannot hold as it is (a NUL), and its backend's escape character."""


def test_any_text_is_read_back_as_stored(storage: Storage) -> None:
    sent = new_match(1, players=(ODD, "Bob"), event=ODD, original=f"; {ODD}\n", canonical=ODD)
    stored = storage.matches.store(sent)
    kept = storage.matches.get(stored.id)
    assert kept is not None
    assert (kept.players, kept.event, kept.original, kept.canonical) == (
        (ODD, "Bob"),
        ODD,
        f"; {ODD}\n",
        ODD,
    )
    assert ids(storage, player=ODD.upper()) == ids(storage, event=ODD) == [stored.id]
    assert ids(storage, player="a") == []
    token = storage.tokens.create(("play",), ODD).token
    assert token.name == ODD and storage.tokens.all() == [token]
