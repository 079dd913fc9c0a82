"""Brackets (EVENTS.md §13): a double elimination (winners', losers' bracket and the grand
final, with its reset) and a knockout with a consolation and a last chance. Pure
functions of the number of entrants, the seed order and the rounds so far.

A bracket event is a fixed graph of ``Node``s, each fed by two ``Source``s (a seed, or the
winner or the loser of an earlier node). A node is played in the event round after the
later of its sources (``Node.round``), so every round pairs what the rounds before it
decided. ``replay`` follows the rounds so far through the graph: each node is waiting, a
bye (one side empty), empty (both), ready to pair, paired, decided, or not needed (a
reset when the winners' bracket champion won the first final).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from referee.events.pairing import bracket_order, bracket_size
from referee.events.standings import Meeting, RoundSoFar


class Bracket(StrEnum):
    """The bracket a pairing belongs to (a pairing's ``bracket`` in the event JSON)."""

    MAIN = "main"
    CONSOLATION = "consolation"
    LAST_CHANCE = "last_chance"
    WINNERS = "winners"
    LOSERS = "losers"
    FINAL = "final"


KNOCKOUT_BRACKETS = (Bracket.MAIN, Bracket.CONSOLATION, Bracket.LAST_CHANCE)
DOUBLE_BRACKETS = (Bracket.WINNERS, Bracket.LOSERS, Bracket.FINAL)


class From(StrEnum):
    SEED = "seed"
    EMPTY = "empty"
    WINNER = "winner"
    LOSER = "loser"


@dataclass(frozen=True, slots=True)
class Source:
    """Where one side of a node comes from: seed ``ref`` (from 1), nobody, or the winner
    or loser of node ``ref``; a loser with ``via`` only when it is the entrant who came
    from node ``via`` (a consolation takes a bye's entrant at its first loss)."""

    kind: From
    ref: int = 0
    via: int | None = None


EMPTY = Source(From.EMPTY)


@dataclass(frozen=True, slots=True)
class Node:
    """A match of a bracket: its index in the graph, bracket, level (the bracket's own
    round, from 1), event round and sources; a reset (``reset_of``) is played only when
    the second side won node ``reset_of``."""

    index: int
    bracket: Bracket
    level: int
    round: int
    sources: tuple[Source, Source]
    reset_of: int | None = None


class State(StrEnum):
    WAITING = "waiting"
    EMPTY = "empty"
    BYE = "bye"
    READY = "ready"
    PAIRED = "paired"
    DECIDED = "decided"
    SKIPPED = "skipped"


RESOLVED = frozenset({State.EMPTY, State.BYE, State.DECIDED, State.SKIPPED})


@dataclass(frozen=True, slots=True)
class Slot:
    """A node as the rounds so far leave it: its entrants (None: empty or not known yet),
    its state, and once resolved its winner and loser (None: nobody)."""

    node: Node
    state: State
    entrants: tuple[str | None, str | None] = (None, None)
    winner: str | None = None
    loser: str | None = None


class _Graph:
    def __init__(self) -> None:
        self.nodes: list[Node] = []

    def add(
        self,
        bracket: Bracket,
        level: int,
        sources: tuple[Source, Source],
        reset_of: int | None = None,
    ) -> int:
        if reset_of is not None:
            number = self.nodes[reset_of].round + 1
        else:
            number = 1 + max(self._round_of(source) for source in sources)
        self.nodes.append(Node(len(self.nodes), bracket, level, number, sources, reset_of))
        return len(self.nodes) - 1

    def _round_of(self, source: Source) -> int:
        if source.kind in (From.WINNER, From.LOSER):
            return self.nodes[source.ref].round
        return 0

    def knockout(self, bracket: Bracket, field: Sequence[Source]) -> list[list[int]]:
        """A single-elimination bracket over ``field`` (in bracket order): its nodes by
        level."""
        levels: list[list[int]] = []
        sources = list(field)
        level = 1
        while len(sources) > 1:
            made = [
                self.add(bracket, level, (sources[at], sources[at + 1]))
                for at in range(0, len(sources), 2)
            ]
            levels.append(made)
            sources = [Source(From.WINNER, index) for index in made]
            level += 1
        return levels


def _seeded_field(count: int) -> list[Source]:
    """Round 1's slots of a bracket of ``count`` seeds, as the knockout's: the missing
    seeds empty, so the top seeds take the byes."""
    order = bracket_order(bracket_size(count))
    return [Source(From.SEED, seed) if seed <= count else EMPTY for seed in order]


def double_elimination(count: int, reset: bool = True) -> list[Node]:
    """The graph of a double elimination of ``count`` entrants. Losers' level 1 pairs the
    winners' round 1 losers; each even level meets the survivors with the next winners'
    round's losers dropping in (reversed every other time, so that a drop-in does not
    meet at once whom it met before); each odd level after the first pairs the survivors.
    The grand final is the winners' champion (first named) against the losers'; its reset
    is played when the losers' champion won it and ``reset``."""
    graph = _Graph()
    field = _seeded_field(count)
    winners = graph.knockout(Bracket.WINNERS, field)
    rounds = len(winners)
    if rounds == 1:
        lower = Source(From.LOSER, winners[0][0])
    else:
        first = winners[0]
        survivors = [
            graph.add(
                Bracket.LOSERS,
                1,
                (Source(From.LOSER, first[at]), Source(From.LOSER, first[at + 1])),
            )
            for at in range(0, len(first), 2)
        ]
        level = 2
        for stage in range(1, rounds):
            dropping = [Source(From.LOSER, index) for index in winners[stage]]
            if stage % 2 == 1:
                dropping.reverse()
            survivors = [
                graph.add(Bracket.LOSERS, level, (Source(From.WINNER, alive), drop))
                for alive, drop in zip(survivors, dropping, strict=True)
            ]
            level += 1
            if len(survivors) > 1:
                survivors = [
                    graph.add(
                        Bracket.LOSERS,
                        level,
                        (
                            Source(From.WINNER, survivors[at]),
                            Source(From.WINNER, survivors[at + 1]),
                        ),
                    )
                    for at in range(0, len(survivors), 2)
                ]
                level += 1
        lower = Source(From.WINNER, survivors[0])
    upper = Source(From.WINNER, winners[-1][0])
    final = graph.add(Bracket.FINAL, 1, (upper, lower))
    if reset:
        graph.add(Bracket.FINAL, 2, (upper, lower), reset_of=final)
    return graph.nodes


def knockout_brackets(count: int, consolation: bool, last_chance: bool) -> list[Node]:
    """The graph of a knockout of ``count`` entrants (the main bracket, as ``pairing``'s
    knockout draws it), with its consolation: one slot per main round-1 match, its loser
    (or, for a bye, the bye's entrant if it loses its first match, in round 2); and its
    last chance: the consolation's round-1 losers, each against a main round-2 loser whose
    first match was in round 1 (from the other half, reversed)."""
    graph = _Graph()
    field = _seeded_field(count)
    main = graph.knockout(Bracket.MAIN, field)
    if not consolation or len(main) < 2:
        return graph.nodes
    first, second = main[0], main[1]

    def played(at: int) -> bool:
        """Whether main round-1 match ``at`` is a match (both seeds there)."""
        return all(source.kind == From.SEED for source in field[2 * at : 2 * at + 2])

    def first_loss(at: int) -> Source:
        if played(at):
            return Source(From.LOSER, first[at])
        return Source(From.LOSER, second[at // 2], via=first[at])

    comfort = graph.knockout(Bracket.CONSOLATION, [first_loss(at) for at in range(len(first))])
    if not last_chance:
        return graph.nodes

    def second_loss(at: int) -> Source:
        """The loser of main round-2 match ``at`` if its first match was in round 1."""
        fed = [index for index in (2 * at, 2 * at + 1) if played(index)]
        if len(fed) == 2:
            return Source(From.LOSER, second[at])
        if len(fed) == 1:
            return Source(From.LOSER, second[at], via=first[fed[0]])
        return EMPTY

    opening = comfort[0] if comfort else []
    last: list[Source] = []
    for at, index in enumerate(opening):
        last.extend((Source(From.LOSER, index), second_loss(len(second) - 1 - at)))
    if len(last) > 1:
        graph.knockout(Bracket.LAST_CHANCE, last)
    return graph.nodes


def total_rounds(nodes: Sequence[Node]) -> int:
    return max(node.round for node in nodes)


# -- following the rounds so far ---------------------------------------------------------


def replay(nodes: Sequence[Node], seeds: Sequence[str], rounds: Sequence[RoundSoFar]) -> list[Slot]:
    """Every node as the rounds so far leave it. A node of a round already paired is the
    pairing of that round with its two entrants, else (a result voided and decided
    otherwise meanwhile: the rounds paired stay as they are) the one of its round sharing
    an entrant with it (an entrant plays one match a round); a node of a later round is
    ready once both sides are known."""
    slots: list[Slot] = []
    claimed: set[tuple[int, int]] = set()
    for node in nodes:
        slots.append(_resolve(node, slots, seeds, rounds, claimed))
    return slots


def _resolve(
    node: Node,
    slots: Sequence[Slot],
    seeds: Sequence[str],
    rounds: Sequence[RoundSoFar],
    claimed: set[tuple[int, int]],
) -> Slot:
    if node.reset_of is not None:
        first = slots[node.reset_of]
        if first.state != State.DECIDED:
            return Slot(node, State.SKIPPED if first.state in RESOLVED else State.WAITING)
        paired = node.round <= len(rounds) and any(
            {meeting.white, meeting.black} == set(first.entrants)
            for meeting in rounds[node.round - 1].meetings
        )  # a reset played before its first final was voided and decided otherwise stays
        if not paired and (first.winner is None or first.winner == first.entrants[0]):
            return Slot(node, State.SKIPPED, first.entrants, first.winner, first.loser)
    sides = [_side(source, slots, seeds) for source in node.sources]
    if any(side is _UNKNOWN for side in sides):
        return Slot(node, State.WAITING)
    one, other = (side if isinstance(side, str) else None for side in sides)
    if one is None and other is None:
        return Slot(node, State.EMPTY)
    if one is None or other is None:
        alone = one or other
        return Slot(node, State.BYE, (one, other), alone, None)
    played = rounds[node.round - 1].meetings if node.round <= len(rounds) else None
    if played is None:
        return Slot(node, State.READY, (one, other))
    found = _find(played, node.round, (one, other), claimed)
    if found is None:
        return Slot(node, State.READY, (one, other))
    meeting = played[found]
    claimed.add((node.round, found))
    entrants = (
        (one, other)
        if {one, other} == {meeting.white, meeting.black}
        else (
            meeting.white,
            meeting.black,
        )
    )
    if meeting.result is None:
        return Slot(node, State.PAIRED, entrants)
    winner = meeting.result.winner
    if winner is None:  # lost by both (neither came): nobody goes on
        return Slot(node, State.DECIDED, entrants, None, None)
    loser = entrants[1] if winner == entrants[0] else entrants[0]
    return Slot(node, State.DECIDED, entrants, winner, loser)


def _find(
    played: Sequence[Meeting],
    number: int,
    entrants: tuple[str, str],
    claimed: set[tuple[int, int]],
) -> int | None:
    wanted = set(entrants)
    free = [at for at in range(len(played)) if (number, at) not in claimed]
    for at in free:
        if {played[at].white, played[at].black} == wanted:
            return at
    for at in free:
        if wanted & {played[at].white, played[at].black}:
            return at
    return None


class _Unknown:
    pass


_UNKNOWN = _Unknown()


def _side(source: Source, slots: Sequence[Slot], seeds: Sequence[str]) -> str | _Unknown | None:
    if source.kind == From.SEED:
        return seeds[source.ref - 1] if source.ref <= len(seeds) else None
    if source.kind == From.EMPTY:
        return None
    slot = slots[source.ref]
    if slot.state not in RESOLVED:
        return _UNKNOWN
    if source.kind == From.WINNER:
        return slot.winner
    if source.via is not None:
        came = slots[source.via]
        if came.state not in RESOLVED:
            return _UNKNOWN
        return slot.loser if slot.loser is not None and slot.loser == came.winner else None
    return slot.loser


@dataclass(frozen=True, slots=True)
class BracketPlan:
    """A round of a bracket event: its pairings (White, Black, bracket) in table order and
    its byes (name, bracket)."""

    pairings: tuple[tuple[str, str, Bracket], ...]
    byes: tuple[tuple[str, Bracket], ...] = ()


def plan_round(slots: Sequence[Slot], number: int, seed_of: Mapping[str, int]) -> BracketPlan:
    """Round ``number``'s pairings, the brackets in the graph's order (winners, losers,
    final; main, consolation, last chance), the higher seed White; and its byes."""
    pairings: list[tuple[str, str, Bracket]] = []
    byes: list[tuple[str, Bracket]] = []
    for slot in slots:
        if slot.node.round != number:
            continue
        if slot.state == State.READY:
            one, other = slot.entrants
            assert one is not None and other is not None
            white, black = sorted((one, other), key=seed_of.__getitem__)
            pairings.append((white, black, slot.node.bracket))
        elif slot.state == State.BYE and slot.winner is not None:
            byes.append((slot.winner, slot.node.bracket))
    ordered = sorted(pairings, key=lambda pairing: _bracket_rank(pairing[2]))
    return BracketPlan(tuple(ordered), tuple(byes))


def _bracket_rank(bracket: Bracket) -> int:
    return list(Bracket).index(bracket)


def finished(slots: Sequence[Slot]) -> bool:
    """Whether every node is resolved: every bracket has its winner."""
    return all(slot.state in RESOLVED for slot in slots)


def champions(slots: Sequence[Slot]) -> dict[Bracket, str | None]:
    """Each bracket's winner (None: not yet, or nobody): the winner of its last node (the
    final's: the reset's, or the first final's when no reset was needed)."""
    found: dict[Bracket, str | None] = {}
    for slot in slots:
        found[slot.node.bracket] = slot.winner if slot.state in RESOLVED else None
    return found


def bye_brackets(slots: Sequence[Slot]) -> dict[tuple[int, str], Bracket]:
    """The bracket of each bye (round, name)."""
    return {
        (slot.node.round, slot.winner): slot.node.bracket
        for slot in slots
        if slot.state == State.BYE and slot.winner is not None
    }


def reached(slots: Sequence[Slot], bracket: Bracket | None = None) -> dict[str, int]:
    """How far each entrant went: in ``bracket``, the last level it stands in (a bye
    too), its champion one past it; over the whole event (None), a knockout's main
    bracket so, a double elimination's last round it stands in, its champion one past."""
    if bracket is None:
        brackets = {slot.node.bracket for slot in slots}
        if Bracket.MAIN in brackets:
            return reached(slots, Bracket.MAIN)
    far: dict[str, int] = {}
    for slot in slots:
        if bracket is not None and slot.node.bracket != bracket:
            continue
        if slot.state == State.SKIPPED:
            continue
        mark = slot.node.level if bracket is not None else slot.node.round
        for name in slot.entrants:
            if name is not None:
                far[name] = max(far.get(name, 0), mark)
    wanted = [slot for slot in slots if bracket is None or slot.node.bracket == bracket]
    if wanted:
        champion = champions(wanted)[wanted[-1].node.bracket]
        if champion is not None and champion in far:
            far[champion] = max(far.values()) + 1
    return far
