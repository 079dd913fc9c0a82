"""What the rating store takes and gives (EVENTS.md §8): a rated match and its entry in
the ledger, a name's rating and its steps, the ratings kept of a variant and an update
of them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A finished match of a rated event, as ratings count it: its archive id, event,
    variant, players (the record's White and Black), winner's name and length."""

    match_id: int
    event_id: int
    variant: str
    white: str
    black: str
    winner: str
    length: int


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """A rated match in the ledger, numbered in the order it was added (``seq``)."""

    seq: int
    match: RatedMatch


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """One name's rating in one variant."""

    name: str
    rating: float
    experience: int
    matches: int


@dataclass(frozen=True, slots=True)
class RatingStep:
    """One name's rating before and after one rated match."""

    match_id: int
    event_id: int
    before: float
    after: float


@dataclass(frozen=True, slots=True)
class KeptRatings:
    """The ratings of a variant as kept: computed from the ledger up to ``through_seq``,
    whose highest match id is ``last_match_id``."""

    variant: str
    through_seq: int
    last_match_id: int
    players: tuple[PlayerRating, ...]


@dataclass(frozen=True, slots=True)
class RatingUpdate:
    """Ratings computed from the ledger: the kept ratings they start from
    (``from_seq``; ``replace``: from nothing), up to ``through_seq``; the players whose
    rating changed and the steps of their history (by name)."""

    variant: str
    from_seq: int
    through_seq: int
    last_match_id: int
    players: tuple[PlayerRating, ...]
    steps: tuple[tuple[str, RatingStep], ...]
    replace: bool = False
