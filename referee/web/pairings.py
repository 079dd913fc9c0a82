"""An event's pairings as its page shows them (EVENTS.md §4): the result in words, a
badge for where it stands, the links to its live matches, stored records and disputed
verdict; and a knockout's bracket, round by round in the order of the draw, built from
the event's JSON and the pure bracket functions of ``referee.events.pairing``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.events.pairing import knockout_field

ENDINGS = {
    "bore_off": "bore off",
    "drop": "drop",
    "resign": "resignation",
    "timeout": "timeout",
    "draw": "draw",
    "award": "award",
    "time": "out of time",
    "forfeit": "forfeit",
    "no_show": "no show",
}
BADGES = {
    "pending": ("awaiting the record", "wait"),
    "playing": ("playing", "live"),
    "finished": ("finished", "ok"),
    "disputed": ("disputed", "bad"),
}

Href = Callable[[str, int], str]
"""The page of a live match (``"live"``) or of a stored match (``"match"``) by its id."""


@dataclass(frozen=True, slots=True)
class Link:
    label: str
    href: str


@dataclass(frozen=True, slots=True)
class PairingView:
    """One pairing of a round: its entrants, result in words, badge and links."""

    table: int
    white: str
    black: str
    winner: str | None
    result: str
    badge: str
    badge_class: str
    links: tuple[Link, ...]
    bracket: str | None = None


def points_text(points: Sequence[int] | None) -> str:
    return "" if points is None else f"{points[0]}–{points[1]}"


def winner_first(points: Sequence[int], pairing: Mapping[str, Any]) -> str:
    """A decided pairing's ``points`` (White's, Black's), the winner's first (as a result
    is said)."""
    white, black = points
    return f"{black}–{white}" if pairing["winner"] == pairing["b"] else f"{white}–{black}"


def most_points(event: Mapping[str, Any]) -> int:
    """The most points a pairing of ``event`` counts for a side: its length (a mirrored
    pair's two matches: twice it), as its standings count them."""
    return int(event["length"]) * (2 if event["mirrored"] else 1)


def counted(pairing: Mapping[str, Any], most: int) -> tuple[int, int]:
    """The points a decided pairing counts for in the standings: each side's at most
    ``most`` (EVENTS.md §13: a 3-point match won 26–2 counts 3–2)."""
    white, black = pairing["points"]
    return min(white, most), min(black, most)


def score_words(pairing: Mapping[str, Any], most: int) -> str:
    """The score as it counts, the winner's first, and the real points beside it when
    they differ ("3–2, scored 26–2")."""
    capped = winner_first(counted(pairing, most), pairing)
    real = winner_first(pairing["points"], pairing)
    return capped if capped == real else f"{capped}, scored {real}"


def result_words(pairing: Mapping[str, Any], most: int) -> str:
    """What became of a pairing, in words; ``most``: the points a side's score counts
    for at most (the match length, twice it for a mirrored pair)."""
    status, points = pairing["status"], points_text(pairing["points"])
    if status == "pending":
        return "No result yet: the record has not been submitted."
    if status == "playing":
        return "Being played."
    if status == "disputed":
        return f"Disputed: {pairing['dispute'] or 'the record does not decide the match'}."
    if pairing["award"] is not None:
        reason = pairing["award"]["reason"]
        return f"Awarded to {pairing['winner']} ({score_words(pairing, most)}): {reason}."
    if pairing["termination"] in ("forfeit", "no_show") and not pairing["terminations"]:
        how = ENDINGS[pairing["termination"]]
        if pairing["winner"] is None:
            return f"Lost by both ({how}): neither came."
        return f"{pairing['winner']} wins ({how})."
    if pairing["draw"]:
        return f"Drawn, {points} on points over the two matches."
    endings = [ENDINGS.get(ending, ending) for ending in pairing["terminations"]]
    how = f" ({', '.join(endings)})" if endings else ""
    return f"{pairing['winner']} wins {score_words(pairing, most)}{how}."


def pairing_links(pairing: Mapping[str, Any], href: Href) -> tuple[Link, ...]:
    """Watch each live match, replay each stored record, read a disputed verdict."""
    pair = len(pairing["live_ids"]) > 1 or len(pairing["match_ids"]) > 1
    links = []
    for index, live_id in enumerate(pairing["live_ids"], start=1):
        label = f"Watch match {index}" if pair else "Watch"
        links.append(Link(label, href("live", live_id)))
    for index, match_id in enumerate(pairing["match_ids"], start=1):
        label = f"Replay match {index}" if pair else "Replay"
        links.append(Link(label, href("match", match_id)))
    verdict = pairing["verdict_id"]
    if verdict is not None and verdict not in pairing["match_ids"]:
        links.append(Link("The disputed record", href("match", verdict)))
    return tuple(links)


def pairing_view(pairing: Mapping[str, Any], href: Href, most: int) -> PairingView:
    badge, badge_class = BADGES.get(pairing["status"], (pairing["status"], "wait"))
    if pairing["award"] is not None:
        badge, badge_class = "awarded", "award"
    return PairingView(
        table=pairing["table"],
        white=pairing["w"],
        black=pairing["b"],
        winner=pairing["winner"],
        result=result_words(pairing, most),
        badge=badge,
        badge_class=badge_class,
        links=pairing_links(pairing, href),
        bracket=pairing.get("bracket"),
    )


# -- a knockout's bracket ----------------------------------------------------------------


def round_title(number: int, rounds: int) -> str:
    """Final, semi-finals, quarter-finals, else the round's number."""
    return {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}.get(
        rounds - number, f"Round {number}"
    )


@dataclass(frozen=True, slots=True)
class Slot:
    """One line of a bracket's match: an entrant (None: not known yet) and its seed."""

    name: str | None
    seed: int | None = None
    won: bool = False


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """Two slots of the draw (``bottom`` None: ``top`` has a bye) and the pairing
    between them once it is paired."""

    top: Slot
    bottom: Slot | None
    pairing: PairingView | None = None

    @property
    def advancing(self) -> Slot:
        """Who goes on to the next round (a slot with no name while undecided)."""
        if self.bottom is None:
            return Slot(self.top.name, self.top.seed)
        for slot in (self.top, self.bottom):
            if slot.won:
                return Slot(slot.name, slot.seed)
        return Slot(None)


@dataclass(frozen=True, slots=True)
class BracketRound:
    number: int
    title: str
    matches: tuple[BracketMatch, ...]


def bracket(event: Mapping[str, Any], href: Href) -> list[BracketRound]:
    """A knockout's every round, paired or not yet, each in the order of the draw."""
    seeds = {entrant["name"]: entrant["seed"] for entrant in event["entrants"]}
    names = sorted(seeds, key=seeds.__getitem__)
    paired = {
        (number["number"], frozenset((p["w"], p["b"]))): p
        for number in event["rounds_played"]
        for p in number["pairings"]
    }
    field: list[Slot | None] = [
        None if name is None else Slot(name, seeds[name]) for name in knockout_field(names)
    ]
    rounds = []
    for number in range(1, event["rounds"] + 1):
        matches = tuple(
            _bracket_match(number, top, bottom, paired, href, most_points(event))
            for top, bottom in zip(field[::2], field[1::2], strict=True)
        )
        rounds.append(BracketRound(number, round_title(number, event["rounds"]), matches))
        field = [match.advancing for match in matches]
    return rounds


def _bracket_match(
    number: int,
    top: Slot | None,
    bottom: Slot | None,
    paired: Mapping[tuple[int, frozenset[str]], Mapping[str, Any]],
    href: Href,
    most: int,
) -> BracketMatch:
    if top is None or bottom is None:
        entrant = top or bottom
        assert entrant is not None, "a draw never puts two empty slots together"
        return BracketMatch(entrant, None)
    found = None
    if top.name is not None and bottom.name is not None:
        found = paired.get((number, frozenset((top.name, bottom.name))))
    if found is None:
        return BracketMatch(top, bottom)
    winner = found["winner"] if found["status"] == "finished" else None
    return BracketMatch(
        Slot(top.name, top.seed, winner == top.name),
        Slot(bottom.name, bottom.seed, winner == bottom.name),
        pairing_view(found, href, most),
    )
