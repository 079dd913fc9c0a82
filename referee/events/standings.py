"""The table of an event (EVENTS.md §5, §13): match points, wins, byes, points for and
against, each entrant's average PR over its analysed matches (ANALYSIS.md §5), and the
tie-breaks in the director's order (by default Buchholz, Sonneborn-Berger, points
difference; in a knockout the round reached). Pure: a function of the seed order, the
rounds so far, the entrants' PRs and the order of tie-breaks."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from referee.events.pairing import SwissHistory

WIN, DRAW = 1.0, 0.5
"""Match points of a pairing won (and of a bye) and of a pairing drawn."""


class Tiebreak(StrEnum):
    """A tie-break a director may name (docs/events.md): each ranks higher values first."""

    HEAD_TO_HEAD = "head_to_head"
    BUCHHOLZ = "buchholz"
    BUCHHOLZ_CUT1 = "buchholz_cut1"
    MEDIAN_BUCHHOLZ = "median_buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    PROGRESSIVE = "progressive"
    POINTS_DIFFERENCE = "points_difference"
    PR = "pr"


DEFAULT_TIEBREAKS = (Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER, Tiebreak.POINTS_DIFFERENCE)
"""EVENTS.md §5's order, for an event that names none."""


@dataclass(frozen=True, slots=True)
class AveragePr:
    """An entrant's PR over its analysed matches (gnubg's judgement on XG's scale): their
    mean, to two decimals, and how many there are."""

    pr: float
    matches: int


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
    tiebreaks: dict[str, float | None] = field(default_factory=dict)
    opponents: list[tuple[str, float]] = field(default_factory=list)
    """Each opponent met in a decided pairing, with what that pairing gave this entrant."""
    progressive: float = 0.0
    """The sum of the running match points after each round that has every result."""
    pr: float | None = None
    """The average PR over its analysed matches (None: none analysed); lower is better."""
    analysed: int = 0
    """How many of its matches the average PR is over."""


def standings(
    seeds: Sequence[str],
    rounds: Sequence[RoundSoFar],
    knockout: bool = False,
    total_rounds: int = 0,
    most: int | None = None,
    order: Sequence[Tiebreak] = DEFAULT_TIEBREAKS,
    prs: Mapping[str, AveragePr] | None = None,
) -> list[Standing]:
    """The table, best first: by match points, then the tie-breaks of ``order`` one after
    the other, then seed (a knockout: by the round reached, the champion first, then
    seed). ``total_rounds``: a knockout's number of rounds (its champion is who won a
    pairing of the last); ``most``: the most points a pairing counts for either side
    (EVENTS.md §13: a 3-point match won 26–2 counts 3–2), None for no cap; ``prs``: the
    entrants' average PRs (those without one rank last by ``pr``)."""
    table = {name: Standing(name, seed) for seed, name in enumerate(seeds, start=1)}
    for name, average in (prs or {}).items():
        if name in table:
            table[name].pr, table[name].analysed = average.pr, average.matches
    for number in rounds:
        for name in number.byes:
            table[name].byes += 1
            table[name].match_points += WIN
        for meeting in number.meetings:
            if meeting.result is not None:
                _count(table, meeting, meeting.result, most)
        if all(meeting.result is not None for meeting in number.meetings):
            for line in table.values():
                line.progressive += line.match_points
    if knockout:
        reached = _rounds_reached(seeds, rounds, total_rounds)
        for line in table.values():
            line.tiebreaks = {"round_reached": reached[line.name]}
        ordered = sorted(table.values(), key=lambda line: (-reached[line.name], line.seed))
    else:
        for line in table.values():
            line.tiebreaks = _tiebreaks(line, table, order)
        ordered = _ranked(list(table.values()), order)
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


def _tiebreaks(
    line: Standing, table: dict[str, Standing], order: Sequence[Tiebreak]
) -> dict[str, float | None]:
    """Those of ``order``, in its order. Buchholz: the opponents' final match
    points (a bye adds 0), ``buchholz_cut1`` without the lowest of them, ``median_buchholz``
    without the highest and the lowest; Sonneborn-Berger: those of the opponents beaten and
    half those of the opponents drawn with; the points difference over all matches; the
    progressive score; the average PR (None: no match analysed). Head-to-head depends on
    who is tied: ``_ranked`` sets it."""
    met = sorted(table[other].match_points for other, _ in line.opponents)
    values: dict[Tiebreak, float | None] = {
        Tiebreak.BUCHHOLZ: sum(met),
        Tiebreak.BUCHHOLZ_CUT1: sum(met[1:]),
        Tiebreak.MEDIAN_BUCHHOLZ: sum(met[1:-1]),
        Tiebreak.SONNEBORN_BERGER: sum(
            table[other].match_points * gained for other, gained in line.opponents
        ),
        Tiebreak.POINTS_DIFFERENCE: line.points_for - line.points_against,
        Tiebreak.PROGRESSIVE: line.progressive,
        Tiebreak.HEAD_TO_HEAD: 0.0,
        Tiebreak.PR: line.pr,
    }
    return {str(name): values[name] for name in order}


def _ranked(lines: list[Standing], order: Sequence[Tiebreak]) -> list[Standing]:
    """Best first: the groups of equal match points split by each tie-break in turn (head
    to head among the entrants still tied at that point), then by seed."""
    groups = _split([sorted(lines, key=lambda line: line.seed)], _valued("match_points"))
    for name in order:
        if name == Tiebreak.HEAD_TO_HEAD:
            groups = _split(groups, _head_to_head)
        elif name == Tiebreak.PR:
            groups = _split(groups, _lower_pr)
        else:
            groups = _split(groups, _valued(str(name)))
    return [line for group in groups for line in group]


Ranking = Callable[[list[Standing]], Callable[[Standing], float]]
"""How one tie-break values the entrants of a tied group (higher first)."""


def _valued(key: str) -> Ranking:
    """A value each entrant has alone: its match points or a tie-break of ``_tiebreaks``
    (a number: only ``pr`` may be None, and ``_lower_pr`` ranks that one)."""
    if key == "match_points":
        return lambda _group: lambda line: line.match_points
    return lambda _group: lambda line: line.tiebreaks[key] or 0.0


def _lower_pr(_group: list[Standing]) -> Callable[[Standing], float]:
    """The lower average PR first; an entrant with no analysed match after every other."""
    return lambda line: -math.inf if line.pr is None else -line.pr


def _split(groups: list[list[Standing]], ranking: Ranking) -> list[list[Standing]]:
    """Each group in the order of ``ranking``'s values, highest first, split where they
    differ (within a value, the group's order stays)."""
    split: list[list[Standing]] = []
    for group in groups:
        value = ranking(group)
        values = sorted({value(line) for line in group}, reverse=True)
        split.extend([line for line in group if value(line) == each] for each in values)
    return split


def _head_to_head(group: list[Standing]) -> Callable[[Standing], float]:
    """The match points each tied entrant took from the others of its group, when every two
    of them met (else it separates none): its value is kept in the entrant's tie-breaks."""
    names = {line.name for line in group}
    among = {
        line.name: [(other, gained) for other, gained in line.opponents if other in names]
        for line in group
    }
    everyone_met = all(
        {other for other, _ in among[line.name]} == names - {line.name} for line in group
    )
    for line in group:
        scored = sum(gained for _, gained in among[line.name]) if everyone_met else 0.0
        line.tiebreaks[str(Tiebreak.HEAD_TO_HEAD)] = scored if len(group) > 1 else 0.0
    return lambda line: line.tiebreaks[str(Tiebreak.HEAD_TO_HEAD)] or 0.0


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
