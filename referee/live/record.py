"""The finished live match as a record (LIVE.md §6), checked as any import is."""

from __future__ import annotations

from notation.plays import parse_play
from notation.records.mat_writer import write_mat
from notation.records.model import ActionKind, ActionText, GameText, MatchText
from referee.archive.submit import checked_match
from referee.live import dice
from referee.live.model import LiveMatch
from referee.live.table import LiveAction, Table
from referee.rules.engine import Engine
from referee.storage.model import NewMatch


def match_record(match: LiveMatch) -> str:
    """The finished match as a .mat record with the dice tags of LIVE.md §6."""
    table = match.table
    tags = {
        "Site": "nardy-referee live",
        "Event": f"Live match {match.id}",
        "EventDate": match.created_at[:10].replace("-", "."),
        "Variation": table.variant_class.variation_tags[0].capitalize(),
        "Rules": ",".join(f"{name}={_rule_text(value)}" for name, value in table.options.items()),
        "DiceAlgorithm": dice.ALGORITHM,
        "DiceCommitment": match.commitment,
        "DiceSeed": match.server_seed,
        "ClientSeeds": f"w={match.seeds['w'] or ''},b={match.seeds['b'] or ''}",
    }
    if table.termination == "timeout":
        tags["Termination"] = "timeout"  # the last game's Wins line is the award, not a resignation
    games = game_texts(table, (match.players["w"], match.players["b"]))
    return write_mat(MatchText(tags, (), table.length, games))


def game_texts(table: Table, players: tuple[str, str]) -> tuple[GameText, ...]:
    """Every game the table played, as a record writes it (the last ``Wins`` of a match
    says "and the match")."""
    games = []
    for index, game in enumerate(table.records, start=1):
        last = index == len(table.records) and table.length > 0
        actions = tuple(_action(action, last) for action in game.actions)
        games.append(GameText(index, index, 0, players, game.score, actions, game.start))
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


def checked_record(match: LiveMatch, engine: Engine) -> NewMatch:
    """The record checked as any import is (allow_invalid: a finished match is kept)."""
    record = match_record(match)
    return checked_match(record, match.table.options, allow_invalid=True, engine=engine)
