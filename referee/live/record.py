"""The finished live match as a record (LIVE.md §6), checked as any import is."""

from __future__ import annotations

from collections.abc import Sequence

from notation.plays import parse_play
from notation.records.mat_writer import write_mat
from notation.records.model import ActionKind, ActionText, GameText, MatchText
from referee.archive.submit import checked_match
from referee.live import dice
from referee.live.model import LiveMatch
from referee.live.table import GameStart, LiveAction, LogEntry
from referee.rules.engine import Engine
from referee.storage.model.events import EventSeat
from referee.storage.model.matches import NewMatch


def match_record(
    match: LiveMatch, entries: Sequence[LogEntry], seat: EventSeat | None = None
) -> str:
    """The finished match (its log's ``entries``) as a .mat record with the dice tags of
    LIVE.md §6, and an event's tags (EVENTS.md §10) when the match is an event's
    (``seat``; its ``Event`` then names the event, not the live match)."""
    table = match.table
    leg = (1 if match.dice_id == match.id else 2) if match.mirrored else None
    tags = {
        "Site": "nardy-referee live",
        "Event": f"Live match {match.id}",
        **(seat.tags(leg) if seat is not None else {}),
        "EventDate": match.created_at[:10].replace("-", "."),
        "Variation": table.variant_class.variation_tags[0].capitalize(),
        "Rules": ",".join(f"{name}={_rule_text(value)}" for name, value in table.options.items()),
        "DiceAlgorithm": dice.ALGORITHM,
        "DiceCommitment": match.commitment,
        "DiceSeed": match.server_seed,
        "ClientSeeds": f"w={match.client_seeds['w']},b={match.client_seeds['b']}",
    }
    if match.dice_id != match.id or match.mirrored:
        tags["DiceId"] = str(match.dice_id)  # a mirrored pair's dice (EVENTS.md §7)
    if table.termination in ("timeout", "time"):  # "time": the clock ran out (EVENTS.md §12)
        tags["Termination"] = "timeout"  # the last game's Wins line is the award, not a resignation
    games = game_texts(entries, table.length, (match.players["w"], match.players["b"]))
    return write_mat(MatchText(tags, (), table.length, games))


def game_texts(
    entries: Sequence[LogEntry], length: int, players: tuple[str, str]
) -> tuple[GameText, ...]:
    """Every game a live match's log holds, as a record writes it (the last ``Wins`` of a
    match says "and the match")."""
    starts = [at for at, entry in enumerate(entries) if isinstance(entry, GameStart)]
    games = []
    for index, at in enumerate(starts, start=1):
        start = entries[at]
        assert isinstance(start, GameStart)
        end = starts[index] if index < len(starts) else len(entries)
        last = index == len(starts) and length > 0
        actions = tuple(
            _action(entry, last) for entry in entries[at + 1 : end] if isinstance(entry, LiveAction)
        )
        games.append(GameText(index, index, 0, players, start.score, actions, start.start))
    return tuple(games)


def _rule_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _action(action: LiveAction, match_over: bool) -> ActionText:
    """A record's cell for one live action (``match_over``: a Wins line says so)."""
    side, kind, value = str(action.side), action.kind, action.value
    if kind is ActionKind.ROLL:
        assert action.dice is not None
        text = f"{action.dice[0]}{action.dice[1]}: {action.play}".rstrip()
        return ActionText(kind, side, 0, 0, None, text, action.dice, parse_play(text))
    if kind is ActionKind.WIN:
        text = f"Wins {value} point{'s' if value != 1 else ''}"
        return ActionText(kind, side, 0, 0, None, text, value=value, and_the_match=match_over)
    text = f"{_WORDS[kind]} => {value}" if value is not None else _WORDS[kind]
    return ActionText(kind, side, 0, 0, None, text, value=value)


_WORDS = {
    ActionKind.DOUBLE: "Doubles",
    ActionKind.BEAVER: "Beavers",
    ActionKind.TAKE: "Takes",
    ActionKind.DROP: "Drops",
}


def checked_record(
    match: LiveMatch, entries: Sequence[LogEntry], engine: Engine, seat: EventSeat | None = None
) -> NewMatch:
    """The record checked as any import is (allow_invalid: a finished match is kept)."""
    record = match_record(match, entries, seat)
    return checked_match(record, match.table.options, allow_invalid=True, engine=engine)
