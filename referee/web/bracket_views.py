"""A bracket event's brackets as its page draws them (EVENTS.md §13): each bracket (the
winners', the losers', the grand final; the main, the consolation, the last chance) level
by level, each match with its two entrants once known, built from the event's JSON and
the pure bracket functions of ``referee.events.brackets``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.events import brackets
from referee.events.brackets import Bracket, Node, State
from referee.events.standings import Meeting, Result, RoundSoFar
from referee.web.pairings import (
    BracketMatch,
    BracketRound,
    Href,
    Slot,
    pairing_view,
    round_title,
)

TITLES = {
    Bracket.MAIN: "Main bracket",
    Bracket.CONSOLATION: "Consolation",
    Bracket.LAST_CHANCE: "Last chance",
    Bracket.WINNERS: "Winners' bracket",
    Bracket.LOSERS: "Losers' bracket",
    Bracket.FINAL: "Grand final",
}


@dataclass(frozen=True, slots=True)
class DrawnBracket:
    """One bracket: its id, title, length, winner (None: not yet) and levels."""

    bracket: str
    title: str
    length: int
    champion: str | None
    rounds: list[BracketRound]
    standings: list[dict[str, Any]]


def graph_of(event: Mapping[str, Any]) -> list[Node] | None:
    """The event's graph of brackets (None: no brackets), as the server draws it."""
    count = len(event["entrants"])
    if event["format"] == "double-elimination":
        return brackets.double_elimination(count, event["grand_final_reset"] is not False)
    if event["format"] == "knockout" and event["consolation"]:
        return brackets.knockout_brackets(count, True, event["last_chance"])
    return None


def drawn_brackets(event: Mapping[str, Any], href: Href) -> list[DrawnBracket]:
    """Each bracket's levels, every match paired or not yet, in the order of the graph."""
    graph = graph_of(event)
    if graph is None:
        return []
    seeds = {entrant["name"]: entrant["seed"] for entrant in event["entrants"]}
    names = sorted(seeds, key=seeds.__getitem__)
    rounds = [
        RoundSoFar(
            played["number"],
            tuple(_meeting(pairing) for pairing in played["pairings"]),
            tuple(played["byes"]),
        )
        for played in event["rounds_played"]
    ]
    slots = brackets.replay(graph, names, rounds)  # open: the draw as it would start now
    paired = {
        (played["number"], frozenset((p["w"], p["b"]))): p
        for played in event["rounds_played"]
        for p in played["pairings"]
    }
    tables = {found["bracket"]: found for found in event["brackets"]}
    lengths = {name: found["length"] for name, found in tables.items()}
    drawn = []
    for bracket in dict.fromkeys(node.bracket for node in graph):
        nodes = [node for node in graph if node.bracket == bracket]
        levels = max(node.level for node in nodes)
        shown = []
        for level in range(1, levels + 1):
            matches = tuple(
                _match(node, slots[node.index], seeds, paired, href, lengths)
                for node in nodes
                if node.level == level
            )
            kept = tuple(match for match in matches if match is not None)
            if kept:
                shown.append(BracketRound(level, _title(bracket, level, levels), kept))
        found = tables.get(str(bracket), {})
        drawn.append(
            DrawnBracket(
                str(bracket),
                TITLES[bracket],
                lengths.get(str(bracket), event["length"]),
                found.get("champion"),
                shown,
                found.get("standings", []),
            )
        )
    return drawn


def _title(bracket: Bracket, level: int, levels: int) -> str:
    if bracket == Bracket.FINAL:
        return "Grand final" if level == 1 else "Reset (if the losers' champion wins)"
    if bracket == Bracket.LOSERS:
        return "Losers' final" if level == levels else f"Losers' round {level}"
    if bracket == Bracket.WINNERS and level == levels:
        return "Winners' final"
    return round_title(level, levels)


def _meeting(pairing: Mapping[str, Any]) -> Meeting:
    result = None
    if pairing["status"] == "finished" and pairing["points"] is not None:
        points = (int(pairing["points"][0]), int(pairing["points"][1]))
        result = Result(pairing["winner"], points, pairing["winner"] is None)
    return Meeting(pairing["w"], pairing["b"], result)


def _match(
    node: Node,
    slot: brackets.Slot,
    seeds: Mapping[str, int],
    paired: Mapping[tuple[int, frozenset[str]], Mapping[str, Any]],
    href: Href,
    lengths: Mapping[str, int],
) -> BracketMatch | None:
    """A node as a match of the drawing; None for one nobody plays (both sides empty, or
    a reset that was not needed)."""
    if slot.state in (State.EMPTY, State.SKIPPED):
        return None

    def shown(name: str | None) -> Slot:
        won = name is not None and slot.state == State.DECIDED and slot.winner == name
        return Slot(name, seeds.get(name) if name else None, won)

    one, other = slot.entrants
    if slot.state == State.BYE:
        return BracketMatch(shown(one or other), None)
    found = None
    if one is not None and other is not None:
        found = paired.get((node.round, frozenset((one, other))))
    view = None
    if found is not None:
        length = lengths.get(str(node.bracket), 1)
        view = pairing_view(found, href, length)
    return BracketMatch(shown(one), shown(other), view)
