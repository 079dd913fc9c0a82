"""A pairing's result from its stored records (EVENTS.md §4, §6): the winner, each
entrant's points, how it ended; for a mirrored pair the two matches together. And the
checks a submitted record must pass to be a pairing's result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.events.state import PairingStatus
from referee.storage.model.events import EventSetup, StoredPairing
from referee.storage.model.ratings import RatedMatch
from referee.storage.shared import normal_name


@dataclass(frozen=True, slots=True)
class Played:
    """A stored match as a pairing counts it: its id, its players (the record's White and
    Black), the winner's name by the rules (None: none), the final score, how its last
    game ended, and the verdict's facts."""

    match_id: int
    players: tuple[str, str]
    winner: str | None
    score: tuple[int, int]
    termination: str
    valid: bool
    complete: bool
    length: int
    variant: str


def played(match_id: int, verdict: dict[str, Any]) -> Played:
    """What a stored verdict says of its match."""
    match = verdict["match"]
    players = (str(match["players"][0]), str(match["players"][1]))
    scores = match["scores_after"]
    score = (int(scores[-1][0]), int(scores[-1][1])) if scores else (0, 0)
    side = match["winner"]
    games = verdict["games"]
    return Played(
        match_id=match_id,
        players=players,
        winner=None if side is None else players[0 if side == "w" else 1],
        score=score,
        termination=games[-1]["termination"] if games else "unfinished",
        valid=bool(verdict["valid"]),
        complete=bool(match["complete"]),
        length=int(match["length"]),
        variant=str(verdict["variant"]),
    )


def name_key(name: str) -> str:
    """A name as a director reads it: its Unicode composed form (NFC), case and runs of
    blanks aside."""
    return " ".join(normal_name(name).split()).casefold()


def same_name(one: str, other: str) -> bool:
    """Names compared as a director reads them (``name_key``)."""
    return name_key(one) == name_key(other)


def entrant_of(name: str, pairing: StoredPairing) -> str | None:
    """The pairing's entrant a record's player name stands for (None: neither)."""
    return next((e for e in (pairing.white, pairing.black) if same_name(e, name)), None)


def problem(found: Played, pairing: StoredPairing, setup: EventSetup) -> tuple[str, str] | None:
    """Why a record cannot be the pairing's result: (code, words), or None when it is."""
    entrants = [entrant_of(name, pairing) for name in found.players]
    if None in entrants or entrants[0] == entrants[1]:
        names = " and ".join(found.players)
        return "record_players", (
            f"the record is of {names}, not of {pairing.white} and {pairing.black}"
        )
    length = setup.match_length(pairing.bracket)
    if found.length != length:
        return "record_length", (
            f"the record is of a {found.length}-point match, the event plays {length}"
        )
    if not found.valid:
        return "invalid", "the record is invalid (see its verdict)"
    if not found.complete or found.winner is None:
        return "incomplete", "the record does not reach the end of the match"
    return None


def decide(pairing: StoredPairing, matches: Sequence[Played]) -> StoredPairing:
    """The pairing finished by its matches: one, or a mirrored pair's two, whose winner
    wins both, or one and more points over the two; one each and equal points: drawn."""
    points = {pairing.white: 0, pairing.black: 0}
    wins = {pairing.white: 0, pairing.black: 0}
    for match in matches:
        for name, score in zip(match.players, match.score, strict=True):
            points[_entrant(name, pairing)] += score
        if match.winner is not None:
            wins[_entrant(match.winner, pairing)] += 1
    white, black = pairing.white, pairing.black
    if wins[white] != wins[black]:
        winner: str | None = white if wins[white] > wins[black] else black
    elif points[white] != points[black]:
        winner = white if points[white] > points[black] else black
    else:
        winner = None
    return replace(
        pairing,
        status=PairingStatus.FINISHED,
        match_ids=tuple(match.match_id for match in matches),
        winner=winner,
        points=(points[white], points[black]),
        termination=matches[-1].termination,
        terminations=tuple(match.termination for match in matches),
        draw=winner is None,
        dispute=None,
    )


def _entrant(name: str, pairing: StoredPairing) -> str:
    entrant = entrant_of(name, pairing)
    assert entrant is not None, name
    return entrant


def _rated_name(name: str, pairing: StoredPairing) -> str:
    """The entrant's name a rating is kept under: NFC, as ``GET /v1/ratings/{name}`` reads
    it (an event stored before entrants were normalised has them as they were sent)."""
    return normal_name(_entrant(name, pairing))


def awarded(pairing: StoredPairing, side: str, reason: str, setup: EventSetup) -> StoredPairing:
    """The host's award: the winner scores the match length in each of the pairing's
    matches, the loser nothing (as a forfeit), termination ``award``."""
    winner = pairing.white if side == "w" else pairing.black
    return replace(forfeited(pairing, winner, "award", setup), award=reason)


def forfeited(
    pairing: StoredPairing, winner: str | None, termination: str, setup: EventSetup
) -> StoredPairing:
    """The pairing decided without its matches (``forfeit``: an entrant withdrew;
    ``no_show``: one did not join; ``award``): the winner scores the match length in each
    of its matches, the loser nothing. Without a winner (neither joined) both lose, with
    no points; a knockout's bracket still needs a name to go on, the higher seed's (White).
    """
    full = setup.match_length(pairing.bracket) * (2 if setup.mirrored else 1)
    if winner is None and setup.format in ("knockout", "double-elimination"):
        winner = pairing.white
    points = (0, 0) if winner is None else (full, 0) if winner == pairing.white else (0, full)
    return replace(
        pairing,
        status=PairingStatus.FINISHED,
        match_ids=(),
        winner=winner,
        points=points,
        termination=termination,
        terminations=(),
        draw=False,
        award=None,
        dispute=None,
    )


def rated_matches(
    event_id: int, setup: EventSetup, pairing: StoredPairing, matches: Sequence[Played]
) -> list[RatedMatch]:
    """The ledger entries of a pairing's finished matches, under the entrants' names (none
    in an unrated event)."""
    if not setup.rated:
        return []
    return [
        RatedMatch(
            match_id=match.match_id,
            event_id=event_id,
            variant=setup.variant,
            white=_rated_name(match.players[0], pairing),
            black=_rated_name(match.players[1], pairing),
            winner=_rated_name(match.winner, pairing),
            length=match.length,
        )
        for match in matches
        if match.winner is not None
    ]
