"""The event as EVENTS.md §4 writes it, the events list, ratings and their history, as
plain JSON values, dumped through the shapes of ``referee.events.shapes`` (which
openapi.yaml documents)."""

from __future__ import annotations

from typing import Any

from referee.events import shapes
from referee.events.analysed import average_prs
from referee.events.rounds import bracket_tables, table, tiebreak_order
from referee.events.service import provisional_seeds
from referee.events.standings import Standing
from referee.events.state import EventStatus, Format, Working
from referee.storage.model.events import Correction, EventSummary, StoredEvent, StoredPairing
from referee.storage.model.ratings import PlayerRating, RatingStep
from referee.storage.stores import Storage


def event_json(storage: Storage, stored: StoredEvent) -> dict[str, Any]:
    """The event (EVENTS.md §4): an open event shows the seeds it would start with."""
    working = Working(stored)
    if stored.status == EventStatus.OPEN:
        working.seeds = provisional_seeds(storage, stored.setup)
    prs = average_prs(storage, stored)
    setup = stored.setup
    brackets = setup.brackets
    clock = None
    if setup.reserve_per_point is not None:
        clock = shapes.ClockView(setup.reserve_per_point, setup.delay or 0)
    rounds = [
        shapes.RoundView(
            number,
            [shapes.PairingView(p) for p in working.in_round(number)],
            working.byes_of(number),
        )
        for number in range(1, stored.round + 1)
    ]
    return shapes.dump_event(
        shapes.EventView(
            id=stored.id,
            name=setup.name,
            variant=setup.variant,
            length=setup.length,
            options=setup.options,
            format=setup.format,
            rounds=setup.rounds,
            double=setup.double,
            kind=setup.kind,
            mirrored=setup.mirrored,
            rated=setup.rated,
            analyse=setup.analyse,
            move_seconds=setup.move_seconds,
            join_seconds=setup.join_seconds,
            tiebreaks=list(tiebreak_order(working)),
            clock=clock,
            withdrawn=[name for name, _ in stored.withdrawn],
            status=stored.status,
            round=stored.round,
            created_at=stored.created_at,
            updated_at=stored.updated_at,
            entrants=list(working.seeds),
            rounds_played=rounds,
            standings=table(working, prs),
            grand_final_reset=None
            if setup.format != Format.DOUBLE_ELIMINATION
            else brackets is None or brackets.grand_final_reset,
            consolation=brackets is not None and brackets.consolation,
            last_chance=brackets is not None and brackets.last_chance,
            brackets=[
                shapes.BracketView(
                    found.bracket, setup.match_length(found.bracket), found.champion, found.lines
                )
                for found in bracket_tables(working, prs)
            ],
        )
    )


def result_json(event_id: int, number: int, pairing: StoredPairing) -> dict[str, Any]:
    """A pairing decided, voided or given its record, in round ``number`` of its event."""
    return shapes.dump_result(shapes.ResultView(event_id, number, shapes.PairingView(pairing)))


def correction_json(correction: Correction) -> dict[str, Any]:
    """An entry of the event's ledger (EVENTS.md §11)."""
    return shapes.dump_correction(correction)


def standing_json(line: Standing) -> dict[str, Any]:
    return shapes.dump_standing(line)


def summary_json(summary: EventSummary) -> dict[str, Any]:
    return shapes.dump_summary(summary)


def rating_json(variant: str, player: PlayerRating) -> dict[str, Any]:
    return shapes.dump_rating(_rating_view(variant, player, []))


def history_json(variant: str, player: PlayerRating, steps: list[RatingStep]) -> dict[str, Any]:
    """A name's rating with every rated match's change (a challenge's has no event)."""
    changes = [
        shapes.ChangeView(step.match_id, step.event_id or None, step.before, step.after)
        for step in steps
    ]
    return shapes.dump_history(_rating_view(variant, player, changes))


def _rating_view(
    variant: str, player: PlayerRating, changes: list[shapes.ChangeView]
) -> shapes.RatingView:
    return shapes.RatingView(
        player.name, variant, player.rating, player.experience, player.matches, changes
    )
