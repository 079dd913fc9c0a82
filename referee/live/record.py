"""The finished live match as a record (LIVE.md §6), checked as any import is."""

from __future__ import annotations

from typing import Any

from notation.plays import parse_play
from notation.records.mat_writer import write_mat
from notation.records.model import ActionKind, ActionText, GameText, MatchText
from referee.archive.service import checked_match
from referee.live import dice
from referee.live.model import LiveMatch
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
    players = (match.players["w"], match.players["b"])
    games = []
    for index, game in enumerate(table.records, start=1):
        last = index == len(table.records) and table.length > 0
        actions = tuple(_action(entry, last) for entry in game["actions"])
        score = (game["score"][0], game["score"][1])
        games.append(GameText(index, index, 0, players, score, actions, game["start"]))
    return write_mat(MatchText(tags, (), table.length, tuple(games)))


def _rule_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _action(entry: dict[str, Any], match_over: bool) -> ActionText:
    side, kind, value = entry["side"], entry["kind"], entry.get("value")
    if kind == "roll":
        text = f"{entry['dice'][0]}{entry['dice'][1]}: {entry['play']}".rstrip()
        dice_pair = (entry["dice"][0], entry["dice"][1])
        return ActionText(ActionKind.ROLL, side, 0, 0, None, text, dice_pair, parse_play(text))
    if kind == "win":
        text = f"Wins {value} point{'s' if value != 1 else ''}"
        return ActionText(
            ActionKind.WIN, side, 0, 0, None, text, value=value, and_the_match=match_over
        )
    words = {"double": "Doubles", "beaver": "Beavers", "take": "Takes", "drop": "Drops"}
    text = f"{words[kind]} => {value}" if value is not None else words[kind]
    return ActionText(ActionKind(kind), side, 0, 0, None, text, value=value)


def checked_record(match: LiveMatch) -> NewMatch:
    """The record checked as any import is (allow_invalid: a finished match is kept)."""
    return checked_match(match_record(match), match.table.options, allow_invalid=True)
