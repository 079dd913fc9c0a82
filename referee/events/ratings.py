"""FIBS ratings (EVENTS.md §8): one per name and variant, from 1500, changed by every
finished rated match in archive order. Pure: the formula, and the ratings a list of rated
matches (``RatedMatch``, as the ledger holds them) gives, with each player's history."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from referee.storage.model.ratings import RatedMatch

START = 1500.0
"""Everyone's rating before their first rated match."""


@dataclass(slots=True)
class Rating:
    """A player's rating now, their experience (the lengths of the rated matches they
    finished, added) and how many rated matches they played."""

    rating: float = START
    experience: int = 0
    matches: int = 0


@dataclass(frozen=True, slots=True)
class Step:
    """One player's rating before and after one match."""

    name: str
    match_id: int
    event_id: int
    before: float
    after: float


def underdog_chance(difference: float, length: int) -> float:
    """U = 1 / (10^(D·√n / 2000) + 1): the chance that the lower rated wins."""
    return 1.0 / (10 ** (difference * math.sqrt(length) / 2000) + 1)


def stake(winner: float, loser: float, length: int) -> float:
    """The points at stake before experience: 4·√n·U when the higher rated (or, at equal
    ratings, either) won, 4·√n·(1 − U) when the lower rated won."""
    chance = underdog_chance(abs(winner - loser), length)
    won_by_favourite = winner >= loser
    return 4 * math.sqrt(length) * (chance if won_by_favourite else 1 - chance)


def experience_factor(experience: int) -> float:
    """max(1, 5 − X/100): newcomers move fast, the experienced slowly."""
    return max(1.0, 5 - experience / 100)


def loser_of(match: RatedMatch) -> str:
    return match.black if match.winner == match.white else match.white


def rate(table: dict[str, Rating], match: RatedMatch) -> tuple[Step, Step]:
    """Apply one match to ``table`` (in place); the winner's step and the loser's."""
    winner = table.setdefault(match.winner, Rating())
    loser = table.setdefault(loser_of(match), Rating())
    change = stake(winner.rating, loser.rating, match.length)
    before = (winner.rating, loser.rating)
    winner.rating += change * experience_factor(winner.experience)
    loser.rating -= change * experience_factor(loser.experience)
    for player in (winner, loser):
        player.experience += match.length
        player.matches += 1
    return (
        Step(match.winner, match.match_id, match.event_id, before[0], winner.rating),
        Step(loser_of(match), match.match_id, match.event_id, before[1], loser.rating),
    )


def ratings(
    matches: Iterable[RatedMatch], table: dict[str, Rating] | None = None
) -> tuple[dict[str, Rating], list[Step]]:
    """The ratings after ``matches`` (applied in archive order, from ``table``: everyone
    at 1500 when None) and every step taken."""
    table = {} if table is None else table
    steps: list[Step] = []
    for match in sorted(matches, key=lambda found: found.match_id):
        steps.extend(rate(table, match))
    return table, steps


def ranked(table: dict[str, Rating]) -> list[tuple[str, Rating]]:
    """Best first; equal ratings by name."""
    return sorted(table.items(), key=lambda item: (-item[1].rating, item[0]))
