"""The table of an event (EVENTS.md §5): match points, wins, byes, points for and against,
and the tie-breaks (Buchholz, Sonneborn-Berger, points difference; in a knockout the round
reached). Pure: a function of the seed order and the rounds so far."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.events.pairing import SwissHistory

WIN, DRAW = 1.0, 0.5
"""Match points of a pairing won (and of a bye) and of a pairing drawn."""


@dataclass(frozen=True, slots=True)
class Result:
    """How a pairing ended: the winner's name (None: drawn, or lost by both when
    ``both_lost``: neither came, EVENTS.md §12) and the points, White's and Black's (for a
    mirrored pair each entrant's own over the two matches)."""

    winner: str | None
    points: tuple[int, int]
    both_lost: bool = False


@dataclass(frozen=True, slots=True)
class Meeting:
    """A pairing of a round: White, Black and its result (None while it has none)."""

    white: str
    black: str
    result: Result | None = None


@dataclass(frozen=True, slots=True)
class RoundSoFar:
    """A round as standings see it: its meetings and its byes."""

    number: int
    meetings: tuple[Meeting, ...]
    byes: tuple[str, ...] = ()


@dataclass(slots=True)
class Standing:
    """One entrant's line of the table."""

    name: str
    seed: int
    rank: int = 0
    match_points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    points_for: int = 0
    points_against: int = 0
    tiebreaks: dict[str, float] = field(default_factory=dict)
    opponents: list[tuple[str, float]] = field(default_factory=list)
    """Each opponent met in a decided pairing, with what that pairing gave this entrant."""


def standings(
    seeds: Sequence[str],
    rounds: Sequence[RoundSoFar],
    knockout: bool = False,
    total_rounds: int = 0,
    most: int | None = None,
) -> list[Standing]:
    """The table, best first: by match points, then the tie-breaks, then seed (a knockout:
    by the round reached, the champion first, then seed). ``total_rounds``: a knockout's
    number of rounds (its champion is who won a pairing of the last); ``most``: the most
    points a pairing counts for either side (EVENTS.md §13: a 3-point match won 26–2
    counts 3–2), None for no cap."""
    table = {name: Standing(name, seed) for seed, name in enumerate(seeds, start=1)}
    for number in rounds:
        for name in number.byes:
            table[name].byes += 1
            table[name].match_points += WIN
        for meeting in number.meetings:
            if meeting.result is not None:
                _count(table, meeting, meeting.result, most)
    if knockout:
        reached = _rounds_reached(seeds, rounds, total_rounds)
        for line in table.values():
            line.tiebreaks = {"round_reached": reached[line.name]}
        ordered = sorted(table.values(), key=lambda line: (-reached[line.name], line.seed))
    else:
        for line in table.values():
            line.tiebreaks = _tiebreaks(line, table)
        ordered = sorted(table.values(), key=_order)
    for rank, line in enumerate(ordered, start=1):
        line.rank = rank
    return ordered


def _count(table: dict[str, Standing], meeting: Meeting, result: Result, most: int | None) -> None:
    counted = [points if most is None else min(points, most) for points in result.points]
    for side, name, other in ((0, meeting.white, meeting.black), (1, meeting.black, meeting.white)):
        line = table[name]
        line.points_for += counted[side]
        line.points_against += counted[1 - side]
        if result.both_lost:
            line.losses += 1
            gained = 0.0
        elif result.winner is None:
            line.draws += 1
            gained = DRAW
        elif result.winner == name:
            line.wins += 1
            gained = WIN
        else:
            line.losses += 1
            gained = 0.0
        line.match_points += gained
        line.opponents.append((other, gained))


def _tiebreaks(line: Standing, table: dict[str, Standing]) -> dict[str, float]:
    """Buchholz: the opponents' final match points (a bye adds 0); Sonneborn-Berger: those
    of the opponents beaten and half those of the opponents drawn with; the points
    difference over all matches."""
    buchholz = sum(table[other].match_points for other, _ in line.opponents)
    berger = sum(table[other].match_points * gained for other, gained in line.opponents)
    return {
        "buchholz": buchholz,
        "sonneborn_berger": berger,
        "points_difference": line.points_for - line.points_against,
    }


def _order(line: Standing) -> tuple[float, ...]:
    breaks = line.tiebreaks
    return (
        -line.match_points,
        -breaks["buchholz"],
        -breaks["sonneborn_berger"],
        -breaks["points_difference"],
        line.seed,
    )


def _rounds_reached(
    seeds: Sequence[str], rounds: Sequence[RoundSoFar], total_rounds: int
) -> dict[str, int]:
    """The round each entrant reached: the round it lost in, the last round it stands in
    while still in, and one past the last for the champion."""
    reached = dict.fromkeys(seeds, 0)
    for number in rounds:
        for name in number.byes:
            reached[name] = number.number
        for meeting in number.meetings:
            for name in (meeting.white, meeting.black):
                reached[name] = number.number
            result = meeting.result
            if result is not None and result.winner is not None and number.number == total_rounds:
                reached[result.winner] = total_rounds + 1
    return reached


def swiss_history(rounds: Sequence[RoundSoFar]) -> SwissHistory:
    """Who met whom, byes and Whites so far, for the next Swiss round."""
    met: set[frozenset[str]] = set()
    byes: dict[str, int] = {}
    whites: dict[str, int] = {}
    for number in rounds:
        for name in number.byes:
            byes[name] = byes.get(name, 0) + 1
        for meeting in number.meetings:
            met.add(frozenset((meeting.white, meeting.black)))
            whites[meeting.white] = whites.get(meeting.white, 0) + 1
    return SwissHistory(frozenset(met), byes, whites)
