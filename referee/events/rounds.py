"""The next round of an event from what has happened (EVENTS.md §5): the format's pairing
over the seed order or the current standings, written as the round's pairings and byes;
the event finishes when its last round has every result (a Swiss also when no round can
be paired without a rematch). A withdrawn entrant (EVENTS.md §11) is paired no more: a
Swiss leaves it out, a round robin's or a knockout's pairing of it is forfeited to the
opponent at once (the Berger table and the bracket stay as they are)."""

from __future__ import annotations

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
    Standing,
    Tiebreak,
    standings,
    swiss_history,
)
from referee.events.state import EventStatus, Format, Kind, PairingStatus, Working
from referee.storage.model import StoredPairing


def table(working: Working) -> list[Standing]:
    """The event's standings now, each match counting at most its length for either side
    (a mirrored pair's two matches at most twice the length)."""
    setup = working.setup
    return standings(
        working.seed_names(),
        working.rounds_so_far(),
        knockout=setup.format == Format.KNOCKOUT,
        total_rounds=setup.rounds,
        most=setup.length * (2 if setup.mirrored else 1),
        order=tiebreak_order(working),
    )


def tiebreak_order(working: Working) -> tuple[Tiebreak, ...]:
    """The tie-breaks the standings use after match points: the director's, else §5's (a
    knockout: none, it ranks by the round reached)."""
    setup = working.setup
    if setup.format == Format.KNOCKOUT:
        return ()
    return DEFAULT_TIEBREAKS if setup.tiebreaks is None else tuple(map(Tiebreak, setup.tiebreaks))


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
        planned = plan(working, number)
        if planned is None:
            working.status = EventStatus.FINISHED  # no pairing without a rematch is left
            break
        bots = working.setup.kind == Kind.BOTS
        status = PairingStatus.PLAYING if bots else PairingStatus.PENDING
        working.round = number
        for at, (white, black) in enumerate(planned.pairings, start=1):
            pairing = StoredPairing(round=number, table=at, white=white, black=black, status=status)
            working.put(pairing)
            paired_live = paired_live or bots
            gone = [name for name in (white, black) if name in working.withdrawn]
            if gone:
                forfeit_withdrawn(working, pairing, gone)
        for name in planned.byes:
            if name not in working.withdrawn:
                working.add_bye(number, name)
    return paired_live


def forfeit_withdrawn(working: Working, pairing: StoredPairing, gone: list[str]) -> None:
    """A pairing of a withdrawn entrant (or two) is forfeited: the other wins."""
    stays = [name for name in (pairing.white, pairing.black) if name not in gone]
    winner = stays[0] if stays else None
    working.put(forfeited(pairing, winner, "forfeit", working.setup))
    working.note("forfeit", "server", f"{' and '.join(gone)} withdrew", pairing, gone[0])
