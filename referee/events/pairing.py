"""Who meets whom (EVENTS.md §5): the Berger tables of a round robin, the score groups of a
Swiss with floats and no rematches, a seeded knockout bracket with byes. Pure functions
of names, seeds and what has happened so far.

Names are ranked lists: ``seeds`` in seed order (1 first), ``ranked`` in the order of the
current standings (the Swiss pairs in that order).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from referee.events.matching import CanMeet, matchable

FLOAT_CHOICES = 64
"""The sets of floaters tried for one number of pairs in a bracket before pairing fewer
inside it (the lowest ranked float first; past this many the bracket pairs fewer)."""
HALVES_STEPS = 20_000
"""The steps of the search for a top-half-against-bottom-half pairing of a bracket before
it pairs the bracket in rank order instead."""


@dataclass(frozen=True, slots=True)
class Plan:
    """A round: its pairings (White, Black) in table order, and its byes."""

    pairings: tuple[tuple[str, str], ...]
    byes: tuple[str, ...] = ()


# -- round robin -------------------------------------------------------------------------


def round_robin_rounds(count: int, double: bool = False) -> int:
    """n − 1 rounds for n even, n for n odd; twice as many for a double round robin."""
    single = count - 1 if count % 2 == 0 else count
    return single * (2 if double else 1)


def berger_round(count: int, number: int) -> list[tuple[int, int]]:
    """Round ``number`` (1, 2, ...) of the Berger table for an even ``count`` of players:
    (White, Black) by seed number, in table order. The last player stands still and meets
    the round's centre (White in even rounds); the others face across the circle."""
    rotating, half = count - 1, count // 2
    centre = (number - 1) * half % rotating
    fixed = (centre + 1, count) if number % 2 == 1 else (count, centre + 1)
    tables = [fixed]
    for step in range(1, half):
        tables.append(((centre + step) % rotating + 1, (centre - step) % rotating + 1))
    return tables


def round_robin(seeds: Sequence[str], number: int, double: bool = False) -> Plan:
    """Round ``number`` of a round robin over ``seeds``: the Berger table over the seed
    order; with an odd number, the entrant who would meet the dummy (seed n + 1) has a
    bye. A double round robin plays the table again with the sides swapped."""
    count = len(seeds) + len(seeds) % 2
    single = count - 1
    cycle, within = divmod(number - 1, single)
    pairings, byes = [], []
    for white, black in berger_round(count, within + 1):
        if cycle % 2:
            white, black = black, white
        if max(white, black) > len(seeds):
            byes.append(seeds[min(white, black) - 1])
        else:
            pairings.append((seeds[white - 1], seeds[black - 1]))
    return Plan(tuple(pairings), tuple(byes))


# -- Swiss -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SwissHistory:
    """What the Swiss pairing needs of the rounds so far: who met whom, who had byes, who
    was White how often."""

    met: frozenset[frozenset[str]] = frozenset()
    byes: Mapping[str, int] = field(default_factory=dict)
    whites: Mapping[str, int] = field(default_factory=dict)

    def can_meet(self, one: str, other: str) -> bool:
        return frozenset((one, other)) not in self.met


def swiss(ranked: Sequence[str], points: Mapping[str, float], history: SwissHistory) -> Plan | None:
    """The next Swiss round, or None when no pairing without a rematch exists (the event
    then ends, as lichess's Swiss does).

    The bye goes to the lowest ranked entrant with the fewest byes whose absence leaves
    the rest pairable. The rest is paired score group by score group (``points``, in the
    order of ``ranked``): each bracket (the group, below anyone floated down to it) pairs
    as many as it can, its top half against its bottom half (the first arrangement in
    rank order with no rematch), else in rank order; whoever is left floats down, the
    lowest ranked first. Every choice is taken only if what it leaves below can still be
    paired. Round 1 (all on 0) is thereby seed k against seed k + n/2."""
    can_meet = history.can_meet
    rank = {name: at for at, name in enumerate(ranked)}
    players, byes = list(ranked), []
    if len(players) % 2:
        by_bye = sorted(players, key=lambda name: (history.byes.get(name, 0), -rank[name]))
        bye = next(
            (name for name in by_bye if matchable([p for p in players if p != name], can_meet)),
            None,
        )
        if bye is None:
            return None
        players.remove(bye)
        byes.append(bye)
    elif not matchable(players, can_meet):
        return None
    pairs = _pair_groups(players, points, can_meet)
    pairs.sort(key=lambda pair: min(rank[pair[0]], rank[pair[1]]))
    return Plan(tuple(_sides(pair, history.whites, rank) for pair in pairs), tuple(byes))


def _sides(
    pair: tuple[str, str], whites: Mapping[str, int], rank: Mapping[str, int]
) -> tuple[str, str]:
    """White: who has been White less often, else the higher ranked."""
    higher, lower = sorted(pair, key=rank.__getitem__)
    if whites.get(lower, 0) < whites.get(higher, 0):
        return lower, higher
    return higher, lower


def _pair_groups(
    players: list[str], points: Mapping[str, float], can_meet: CanMeet
) -> list[tuple[str, str]]:
    groups = [list(group) for _, group in itertools.groupby(players, key=points.__getitem__)]
    pairs: list[tuple[str, str]] = []
    floaters: list[str] = []
    for index, group in enumerate(groups):
        rest = [name for lower in groups[index + 1 :] for name in lower]
        made, floaters = _pair_bracket([*floaters, *group], rest, can_meet)
        pairs.extend(made)
    return pairs


def _pair_bracket(
    bracket: list[str], rest: list[str], can_meet: CanMeet
) -> tuple[list[tuple[str, str]], list[str]]:
    """The pairs made in ``bracket`` and who floats down from it into ``rest``."""
    for made in range(len(bracket) // 2, -1, -1):
        floating = len(bracket) - 2 * made
        if floating and not rest:
            break  # the last bracket floats nobody
        choices = itertools.combinations(reversed(bracket), floating)
        for floats in itertools.islice(choices, FLOAT_CHOICES):
            if not matchable([*floats, *rest], can_meet):
                continue
            paired = [name for name in bracket if name not in floats]
            found = _halves(paired, can_meet)
            if found is None:
                found = _in_rank_order(paired, can_meet)
            if found is not None:
                return found, list(reversed(floats))
    raise AssertionError("a bracket that can be paired with what is below it was not paired")


def _halves(paired: list[str], can_meet: CanMeet) -> list[tuple[str, str]] | None:
    """The top half against the bottom half: the first arrangement of the bottom half (in
    rank order, depth first) with no rematch; None when there is none within the steps."""
    half = len(paired) // 2
    top, bottom = paired[:half], paired[half:]
    steps = 0

    def arrange(at: int, left: list[str]) -> list[str] | None:
        nonlocal steps
        if at == half:
            return []
        for index, other in enumerate(left):
            steps += 1
            if steps > HALVES_STEPS:
                return None
            if can_meet(top[at], other):
                found = arrange(at + 1, left[:index] + left[index + 1 :])
                if found is not None:
                    return [other, *found]
        return None

    arranged = arrange(0, bottom)
    return None if arranged is None else list(zip(top, arranged, strict=True))


def _in_rank_order(paired: list[str], can_meet: CanMeet) -> list[tuple[str, str]] | None:
    """Each highest ranked unpaired entrant with the highest ranked partner that leaves the
    others pairable; None when they cannot all be paired."""
    if not matchable(paired, can_meet):
        return None
    left, pairs = list(paired), []
    while left:
        first = left.pop(0)
        for index, other in enumerate(left):
            rest = left[:index] + left[index + 1 :]
            if can_meet(first, other) and matchable(rest, can_meet):
                pairs.append((first, other))
                left = rest
                break
    return pairs


# -- knockout ----------------------------------------------------------------------------


def bracket_size(count: int) -> int:
    """The next power of two that holds ``count`` entrants."""
    size = 1
    while size < count:
        size *= 2
    return size


def knockout_rounds(count: int) -> int:
    return bracket_size(count).bit_length() - 1


def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket order, as in tennis draws: 1 v size, then the seeds that
    meet its winner, ..., so that seeds 1 and 2 can meet only in the final
    (8: 1 8 4 5 2 7 3 6)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


Field = list[str | None]
"""A knockout round's slots in bracket order: an entrant, or None for an empty slot."""


def knockout_field(seeds: Sequence[str]) -> Field:
    """Round 1's slots: the seeds in bracket order, the missing seeds (above n) empty, so
    the top seeds take the byes."""
    order = bracket_order(bracket_size(len(seeds)))
    return [seeds[seed - 1] if seed <= len(seeds) else None for seed in order]


def knockout_plan(field: Field, seed_of: Mapping[str, int]) -> Plan:
    """A knockout round from its slots: neighbours meet, the higher seed White; an entrant
    facing an empty slot has a bye."""
    pairings: list[tuple[str, str]] = []
    byes: list[str] = []
    for one, other in _neighbours(field):
        if one is not None and other is not None:
            white, black = sorted((one, other), key=seed_of.__getitem__)
            pairings.append((white, black))
        elif one is not None:
            byes.append(one)
        elif other is not None:
            byes.append(other)
    return Plan(tuple(pairings), tuple(byes))


def knockout_next(field: Field, winner: Callable[[str, str], str]) -> Field:
    """The next round's slots: the winner of each pair of slots (of a bye, its entrant),
    in the order of the bracket."""
    return [
        winner(one, other) if one is not None and other is not None else one or other
        for one, other in _neighbours(field)
    ]


def _neighbours(field: Field) -> Iterator[tuple[str | None, str | None]]:
    return zip(field[::2], field[1::2], strict=True)
