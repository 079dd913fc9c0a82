"""The next round of an event from what has happened (EVENTS.md §5): the format's pairing
over the seed order or the current standings, written as the round's pairings and byes;
the event finishes when its last round has every result (a Swiss also when no round can
be paired without a rematch). A withdrawn entrant (EVENTS.md §11) is paired no more: a
Swiss leaves it out, a round robin's or a knockout's pairing of it is forfeited to the
opponent at once (the Berger table and the bracket stay as they are).

A double elimination, and a knockout with a consolation, follow their graph of brackets
(``brackets``): each round pairs the matches the rounds before it made known, each
pairing in its bracket, and the event finishes when every bracket has its winner."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from referee.events import brackets
from referee.events.brackets import Bracket, Node
from referee.events.pairing import (
    Plan,
    knockout_field,
    knockout_next,
    knockout_plan,
    round_robin,
    swiss,
)
from referee.events.results import forfeited
from referee.events.standings import (
    DEFAULT_TIEBREAKS,
    AveragePr,
    Meeting,
    Standing,
    Tiebreak,
    standings,
    swiss_history,
)
from referee.events.state import EventStatus, Format, Kind, PairingStatus, Working
from referee.storage.model.events import EventSetup, StoredPairing


def bracket_graph(setup: EventSetup) -> list[Node] | None:
    """The event's brackets (None: a round robin, a Swiss, a knockout of one bracket)."""
    count = len(setup.entrants)
    options = setup.brackets
    if setup.format == Format.DOUBLE_ELIMINATION:
        return brackets.double_elimination(count, options is None or options.grand_final_reset)
    if setup.format == Format.KNOCKOUT and options is not None and options.consolation:
        return brackets.knockout_brackets(count, True, options.last_chance)
    return None


def table(working: Working, prs: Mapping[str, AveragePr] | None = None) -> list[Standing]:
    """The event's standings now, each match counting at most its length for either side
    (a mirrored pair's two matches at most twice the length); ``prs``: the entrants'
    average PRs (none: the pairing of a Swiss round, which a PR does not order, since an
    analysis may still be under way when the round is paired)."""
    setup = working.setup
    graph = bracket_graph(setup)
    if graph is not None:
        slots = brackets.replay(graph, working.seed_names(), working.rounds_so_far())
        return _by_reach(working, slots, None, working.seed_names(), prs)
    return standings(
        working.seed_names(),
        working.rounds_so_far(),
        knockout=setup.format == Format.KNOCKOUT,
        total_rounds=setup.rounds,
        most=setup.length * (2 if setup.mirrored else 1),
        order=tiebreak_order(working),
        prs=prs,
    )


def tiebreak_order(working: Working) -> tuple[Tiebreak, ...]:
    """The tie-breaks the standings use after match points: the director's, else §5's (a
    knockout: none, it ranks by the round reached)."""
    setup = working.setup
    if setup.format in (Format.KNOCKOUT, Format.DOUBLE_ELIMINATION):
        return ()
    return DEFAULT_TIEBREAKS if setup.tiebreaks is None else tuple(map(Tiebreak, setup.tiebreaks))


@dataclass(frozen=True, slots=True)
class BracketTable:
    """One bracket's standings: its winner (None: not yet) and its entrants, best first."""

    bracket: Bracket
    champion: str | None
    lines: list[Standing]


def bracket_tables(
    working: Working, prs: Mapping[str, AveragePr] | None = None
) -> list[BracketTable]:
    """Each bracket's standings (EVENTS.md §13; none for an event without brackets): its
    entrants by the level reached in it, then seed, counting its own matches and byes
    (``prs``: the entrants' average PRs over the whole event)."""
    graph = bracket_graph(working.setup)
    if graph is None:
        return []
    slots = brackets.replay(graph, working.seed_names(), working.rounds_so_far())
    won = brackets.champions(slots)
    tables = []
    for bracket in dict.fromkeys(node.bracket for node in graph):
        far = brackets.reached(slots, bracket)
        entrants = [name for name in working.seed_names() if name in far]
        lines = _by_reach(working, slots, bracket, entrants, prs)
        tables.append(BracketTable(bracket, won.get(bracket), lines))
    return tables


def _by_reach(
    working: Working,
    slots: Sequence[brackets.Slot],
    bracket: Bracket | None,
    entrants: list[str],
    prs: Mapping[str, AveragePr] | None = None,
) -> list[Standing]:
    """The standings of ``entrants`` over the pairings of ``bracket`` (None: all), each
    capped at its bracket's length, ranked by how far each went in it (``reached``), then
    seed."""
    setup = working.setup
    far = brackets.reached(slots, bracket)
    slots_byes = brackets.bye_brackets(slots)
    rounds = []
    for number in working.rounds_so_far():
        kept = [
            capped(meeting, setup, pairing)
            for meeting, pairing in zip(
                number.meetings, working.in_round(number.number), strict=True
            )
            if bracket is None or pairing.bracket == bracket
        ]
        byes = [
            name
            for name in number.byes
            if name in entrants
            and (bracket is None or slots_byes.get((number.number, name)) == bracket)
        ]
        rounds.append(replace(number, meetings=tuple(kept), byes=tuple(byes)))
    lines = standings(entrants, rounds, most=None, order=(), prs=prs)
    for line in lines:
        line.tiebreaks = {"round_reached": far.get(line.name, 0)}
    seed = {name: at for at, name in enumerate(working.seed_names())}
    ordered = sorted(lines, key=lambda line: (-far.get(line.name, 0), seed[line.name]))
    for rank, line in enumerate(ordered, start=1):
        line.rank = rank
        line.seed = seed[line.name] + 1
    return ordered


def capped(meeting: Meeting, setup: EventSetup, pairing: StoredPairing) -> Meeting:
    """A meeting's points counted at most its bracket's length (twice, mirrored)."""
    if meeting.result is None:
        return meeting
    most = setup.match_length(pairing.bracket) * (2 if setup.mirrored else 1)
    points = (min(meeting.result.points[0], most), min(meeting.result.points[1], most))
    return replace(meeting, result=replace(meeting.result, points=points))


def plan(working: Working, number: int) -> Plan | None:
    """Round ``number``'s pairings and byes (None: a Swiss that cannot pair it)."""
    setup, seeds = working.setup, working.seed_names()
    if setup.format == Format.ROUND_ROBIN:
        return round_robin(seeds, number, setup.double)
    if setup.format == Format.SWISS:
        lines = table(working)
        points = {line.name: line.match_points for line in lines}
        ranked = [line.name for line in lines if line.name not in working.withdrawn]
        return swiss(ranked, points, swiss_history(working.rounds_so_far()))
    field = knockout_field(seeds)
    winners = {
        frozenset((p.white, p.black)): p.winner or ""
        for earlier in range(1, number)
        for p in working.in_round(earlier)
    }
    for _ in range(1, number):
        field = knockout_next(field, lambda one, other: winners[frozenset((one, other))])
    return knockout_plan(field, {name: at for at, name in enumerate(seeds)})


def advance(working: Working) -> bool:
    """Pair the next round while every round so far has every result (a voided one is
    played again first), or finish the event; whether a round was paired that has live
    matches to create."""
    paired_live = False
    while working.status == EventStatus.RUNNING and all(
        working.decided(number) for number in range(1, working.round + 1)
    ):
        if working.round >= working.setup.rounds:
            working.status = EventStatus.FINISHED
            break
        number = working.round + 1
        found = _next_round(working, number)
        if found is None:
            working.status = EventStatus.FINISHED  # no pairing left (a Swiss), every bracket won
            break
        pairings, byes = found
        bots = working.setup.kind == Kind.BOTS
        status = PairingStatus.PLAYING if bots else PairingStatus.PENDING
        working.round = number
        for at, (white, black, bracket) in enumerate(pairings, start=1):
            pairing = StoredPairing(
                round=number,
                table=at,
                white=white,
                black=black,
                status=status,
                bracket=bracket,
            )
            working.put(pairing)
            paired_live = paired_live or bots
            gone = [name for name in (white, black) if name in working.withdrawn]
            if gone:
                forfeit_withdrawn(working, pairing, gone)
        for name in byes:
            if name not in working.withdrawn:
                working.add_bye(number, name)
    return paired_live


Paired = tuple[list[tuple[str, str, str | None]], list[str]]
"""A round's pairings (White, Black, bracket) in table order and its byes."""


def _next_round(working: Working, number: int) -> Paired | None:
    """Round ``number``'s pairings and byes; None when the event is over (a Swiss with no
    pairing left, a bracket event whose every bracket has its winner)."""
    graph = bracket_graph(working.setup)
    if graph is None:
        planned = plan(working, number)
        if planned is None:
            return None
        bracket = Bracket.MAIN if working.setup.format == Format.KNOCKOUT else None
        return [(w, b, bracket) for w, b in planned.pairings], list(planned.byes)
    slots = brackets.replay(graph, working.seed_names(), working.rounds_so_far())
    if brackets.finished(slots):
        return None
    seed_of = {name: at for at, name in enumerate(working.seed_names())}
    found = brackets.plan_round(slots, number, seed_of)
    return [(w, b, str(k)) for w, b, k in found.pairings], [name for name, _ in found.byes]


def forfeit_withdrawn(working: Working, pairing: StoredPairing, gone: list[str]) -> None:
    """A pairing of a withdrawn entrant (or two) is forfeited: the other wins."""
    stays = [name for name in (pairing.white, pairing.black) if name not in gone]
    winner = stays[0] if stays else None
    working.put(forfeited(pairing, winner, "forfeit", working.setup))
    working.note("forfeit", "server", f"{' and '.join(gone)} withdrew", pairing, gone[0])
