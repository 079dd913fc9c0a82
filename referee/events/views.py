"""The event as EVENTS.md §4 writes it, the events list, ratings and their history, as
plain JSON values (the API's schemas in ``referee.api.events`` document them, and a test
holds the two together)."""

from __future__ import annotations

from typing import Any

from referee.events.rounds import bracket_tables, table, tiebreak_order
from referee.events.service import provisional_seeds
from referee.events.standings import Standing
from referee.events.state import EventStatus, Format, Working
from referee.storage.model import (
    Correction,
    EventSummary,
    PlayerRating,
    RatingStep,
    StoredEvent,
    StoredPairing,
)
from referee.storage.stores import Storage


def event_json(storage: Storage, stored: StoredEvent) -> dict[str, Any]:
    """The event (EVENTS.md §4): an open event shows the seeds it would start with."""
    working = Working(stored)
    if stored.status == EventStatus.OPEN:
        working.seeds = provisional_seeds(storage, stored.setup)
    setup = stored.setup
    return {
        "id": stored.id,
        "name": setup.name,
        "variant": setup.variant,
        "length": setup.length,
        "options": setup.options,
        "format": setup.format,
        "rounds": setup.rounds,
        "double": setup.double,
        "kind": setup.kind,
        "mirrored": setup.mirrored,
        "rated": setup.rated,
        "move_seconds": setup.move_seconds,
        "join_seconds": setup.join_seconds,
        "tiebreaks": list(tiebreak_order(working)),
        "clock": None
        if setup.reserve_per_point is None
        else {"reserve_per_point": setup.reserve_per_point, "delay": setup.delay or 0},
        "withdrawn": [name for name, _ in stored.withdrawn],
        "status": stored.status,
        "round": stored.round,
        "created_at": stored.created_at,
        "updated_at": stored.updated_at,
        "entrants": [
            {"name": seeded.name, "seed": seeded.seed, "rating": seeded.rating}
            for seeded in working.seeds
        ],
        "rounds_played": [
            {
                "number": number,
                "pairings": [pairing_json(p) for p in working.in_round(number)],
                "byes": working.byes_of(number),
            }
            for number in range(1, stored.round + 1)
        ],
        "standings": [standing_json(line) for line in table(working)],
        "grand_final_reset": None
        if setup.format != Format.DOUBLE_ELIMINATION
        else setup.brackets is None or setup.brackets.grand_final_reset,
        "consolation": setup.brackets is not None and setup.brackets.consolation,
        "last_chance": setup.brackets is not None and setup.brackets.last_chance,
        "brackets": [
            {
                "bracket": found.bracket,
                "length": setup.match_length(found.bracket),
                "champion": found.champion,
                "standings": [standing_json(line) for line in found.lines],
            }
            for found in bracket_tables(working)
        ],
    }


def pairing_json(pairing: StoredPairing) -> dict[str, Any]:
    award = None
    if pairing.award is not None:
        award = {"winner": "w" if pairing.winner == pairing.white else "b", "reason": pairing.award}
    return {
        "table": pairing.table,
        "w": pairing.white,
        "b": pairing.black,
        "live_ids": list(pairing.live_ids),
        "match_ids": list(pairing.match_ids),
        "status": pairing.status,
        "winner": pairing.winner,
        "points": None if pairing.points is None else list(pairing.points),
        "termination": pairing.termination,
        "terminations": list(pairing.terminations),
        "draw": pairing.draw,
        "award": award,
        "verdict_id": pairing.verdict_id,
        "dispute": pairing.dispute,
        "bracket": pairing.bracket,
    }


def correction_json(correction: Correction) -> dict[str, Any]:
    """An entry of the event's ledger (EVENTS.md §11)."""
    return {
        "seq": correction.seq,
        "at": correction.at,
        "by": correction.by,
        "action": correction.action,
        "round": correction.round,
        "table": correction.table,
        "name": correction.name,
        "reason": correction.reason,
    }


def standing_json(line: Standing) -> dict[str, Any]:
    return {
        "rank": line.rank,
        "name": line.name,
        "seed": line.seed,
        "match_points": line.match_points,
        "wins": line.wins,
        "draws": line.draws,
        "losses": line.losses,
        "byes": line.byes,
        "points_for": line.points_for,
        "points_against": line.points_against,
        "tiebreaks": dict(line.tiebreaks),
    }


def summary_json(summary: EventSummary) -> dict[str, Any]:
    return {
        "id": summary.id,
        "name": summary.name,
        "variant": summary.variant,
        "length": summary.length,
        "format": summary.format,
        "kind": summary.kind,
        "status": summary.status,
        "round": summary.round,
        "rounds": summary.rounds,
        "entrants": summary.entrants,
        "created_at": summary.created_at,
    }


def rating_json(variant: str, player: PlayerRating) -> dict[str, Any]:
    return {
        "name": player.name,
        "variant": variant,
        "rating": player.rating,
        "experience": player.experience,
        "matches": player.matches,
    }


def step_json(step: RatingStep) -> dict[str, Any]:
    return {
        "match_id": step.match_id,
        "event_id": step.event_id or None,  # 0: a challenge's (referee/challenges/rated.py)
        "before": step.before,
        "after": step.after,
    }
