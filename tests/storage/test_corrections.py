"""Corrections in storage (EVENTS.md §11): a withdrawn match is found by no search but kept
for audit, an event's ledger and withdrawals are saved with its change, a voided match
leaves the ratings' ledger and its variant's kept ratings are forgotten, and a finished
pairing names the match its result rests on."""

from __future__ import annotations

import pytest

from referee.storage.model.events import Correction, EventChange
from referee.storage.model.matches import MatchQuery, Withdrawal
from referee.storage.model.ratings import PlayerRating, RatedMatch, RatingStep, RatingUpdate
from referee.storage.stores import MatchRestingError, Storage
from tests.storage.conftest import new_match
from tests.storage.test_events import pairing, started


def test_a_withdrawn_match_is_found_by_no_search_but_kept(storage: Storage) -> None:
    kept = storage.matches.store(new_match(1, event="Cup")).id
    gone = storage.matches.store(new_match(2, event="Cup")).id
    withdrawal = Withdrawal(gone, "2026-12-01T10:00:00Z", "admin", "wrong names")
    assert storage.matches.withdraw(withdrawal)
    assert not storage.matches.withdraw(withdrawal)  # once
    assert [m.id for m in storage.matches.search(MatchQuery(event="Cup"))] == [kept]
    assert [m.id for m in storage.matches.iterate(MatchQuery())] == [kept]
    assert storage.matches.withdrawal(gone) == withdrawal
    assert storage.matches.withdrawal(kept) is None
    assert storage.matches.get(gone) is not None  # for audit


def test_withdrawals_and_corrections_are_saved_with_the_change(storage: Storage) -> None:
    event_id = started(storage)
    first = Correction(at="t1", by="host", action="withdraw", round=1, name="randy", reason="ill")
    second = Correction(at="t2", by="server", action="forfeit", round=1, table=1, reason="ill")
    storage.events.save(
        EventChange(
            event_id, 1, "running", 1, withdrawn=(("randy", 1),), corrections=(first, second)
        )
    )
    event = storage.events.get(event_id)
    assert event is not None and event.withdrawn == (("randy", 1),)
    ledger = storage.events.ledger(event_id)
    assert [(c.action, c.by, c.table) for c in ledger] == [
        ("withdraw", "host", None),
        ("forfeit", "server", 1),
    ]
    assert ledger[0].seq < ledger[1].seq
    assert storage.events.ledger(event_id + 1) == []


def test_a_voided_match_leaves_the_ledger_and_the_kept_ratings(storage: Storage) -> None:
    event_id = started(storage)
    match_id = storage.matches.store(new_match(7)).id
    decided = pairing(1, "alpha", "randy", status="finished", match_ids=(match_id,), winner="alpha")
    rated = RatedMatch(match_id, event_id, "backgammon", "alpha", "randy", "alpha", 5)
    storage.events.save(EventChange(event_id, 1, "running", 1, pairings=(decided,), rated=(rated,)))
    steps = (("alpha", RatingStep(match_id, event_id, 1500.0, 1510.0)),)
    players = (PlayerRating("alpha", 1510.0, 5, 1),)
    assert storage.ratings.keep(RatingUpdate("backgammon", 0, 1, match_id, players, steps))
    withdrawal = Withdrawal(match_id, "2026-12-01T10:00:00Z", "admin", "wrong names")
    with pytest.raises(MatchRestingError) as resting:  # checked in the withdrawal's writing
        storage.matches.withdraw(withdrawal)
    assert resting.value.seat == (event_id, 1, 1)
    assert storage.matches.withdrawal(match_id) is None  # nothing written
    voided = pairing(1, "alpha", "randy", status="playing")
    storage.events.save(
        EventChange(event_id, 2, "running", 1, pairings=(voided,), unrated=(match_id,))
    )
    assert storage.ratings.ledger("backgammon") == []
    kept = storage.ratings.kept("backgammon")
    assert (kept.through_seq, kept.players) == (0, ())
    assert storage.ratings.history("backgammon", "alpha") == []
    assert storage.matches.withdraw(withdrawal)  # no result rests on it now
