"""The ratings of challenges (EVENTS.md §8, §14): a rated challenge's finished match goes
into the ratings' ledger, as a rated event's does, under the two bots' names.

Decision: its ledger entry's ``event_id`` is 0 (no event; the ratings' history shows
null); a money game (length 0) and a match without a winner are not rated; no daily limit
applies afterwards, since the per-pair limit refused the challenge before it was played
(``NARDY_REFEREE_RATED_PER_PAIR_DAY``)."""

from __future__ import annotations

from referee.events.results import played
from referee.storage.model.challenges import StoredChallenge
from referee.storage.model.ratings import RatedMatch
from referee.storage.stores import Storage

NO_EVENT = 0


def rated_match(storage: Storage, challenge: StoredChallenge, match_id: int) -> RatedMatch | None:
    """A finished challenge's ledger entry (None: not rated)."""
    stored = storage.matches.get(match_id)
    if stored is None or challenge.terms.length < 1:
        return None
    found = played(match_id, stored.verdict)
    if not found.valid or found.winner not in (challenge.challenger, challenge.opponent):
        return None
    return RatedMatch(
        match_id=match_id,
        event_id=NO_EVENT,
        variant=challenge.terms.variant,
        white=challenge.challenger,
        black=challenge.opponent,
        winner=str(found.winner),
        length=found.length,
    )


def challenge_ledger(storage: Storage, unrated_only: bool = False) -> list[RatedMatch]:
    """The ledger entries of the finished rated challenges (``unrated_only``: those not
    in the ledger yet)."""
    entries = []
    for challenge, match_id in storage.challenges.finished_rated(unrated_only):
        entry = rated_match(storage, challenge, match_id)
        if entry is not None:
            entries.append(entry)
    return entries


def rate_finished(storage: Storage) -> int:
    """Add the rated challenges finished since to the ledger; how many."""
    entries = challenge_ledger(storage, unrated_only=True)
    storage.challenges.rate(entries)
    return len(entries)
