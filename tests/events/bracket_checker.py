"""An independent checker of a bracket event's JSON (EVENTS.md §4, §13): it knows the
contract, nothing of the referee's code, and recomputes from the event's rounds alone
who is out after how many losses, each bracket's winner and the standings' counts.

- Double elimination: nobody plays after a second loss; a pairing of the losers' bracket
  is between entrants with one loss; at the end every entrant is out after two losses but
  the champion (at most one) and, with no reset, a winners' champion who lost the final
  (one); the reset is played exactly when the losers' champion won the first final.
- Knockout with consolation: each bracket is a knockout (one loss and out); who plays in
  the consolation lost its first main match, and every such entrant plays it; who plays in
  the last chance lost in the consolation's first round or the main's second round (and is no
  consolation entrant), and every such entrant plays it; each bracket's champion won its
  last pairing.
- An awarded pairing scores its bracket's length, and every line of the standings counts
  what the rounds say, each pairing at most its bracket's length.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

Event = dict[str, Any]


def pairings(event: Event) -> list[tuple[int, dict[str, Any]]]:
    return [(r["number"], p) for r in event["rounds_played"] for p in r["pairings"]]


def loser(pairing: dict[str, Any]) -> str:
    return str(pairing["b"] if pairing["winner"] == pairing["w"] else pairing["w"])


def lengths(event: Event) -> dict[str, int]:
    return {found["bracket"]: found["length"] for found in event["brackets"]}


def check(event: Event) -> None:
    """Everything above, for a finished or a running event."""
    played = pairings(event)
    assert all(p["bracket"] is not None for _, p in played)
    length = lengths(event)
    for _, pairing in played:  # a match's real points may pass its length (a gammon)
        if pairing["termination"] == "award":
            assert max(pairing["points"]) == length[pairing["bracket"]]
    for number, *_ in played:  # nobody twice in a round, byes included
        names = [n for r, p in played if r == number for n in (p["w"], p["b"])]
        byes = next(r["byes"] for r in event["rounds_played"] if r["number"] == number)
        assert len(names + byes) == len(set(names + byes))
    if event["format"] == "double-elimination":
        check_double(event, played)
    else:
        check_consolation(event, played)
    check_standings(event, played)


def check_double(event: Event, played: list[tuple[int, dict[str, Any]]]) -> None:
    lost: Counter[str] = Counter()
    for _, pairing in sorted(played, key=lambda item: item[0]):
        for name in (pairing["w"], pairing["b"]):
            assert lost[name] < 2, f"{name} plays after a second loss"
            if pairing["bracket"] == "winners":
                assert lost[name] == 0
            if pairing["bracket"] == "losers":
                assert lost[name] == 1
        if pairing["status"] == "finished":
            lost[loser(pairing)] += 1
    if event["status"] != "finished":
        return
    finals = [p for _, p in played if p["bracket"] == "final"]
    winners_champion = champion_of(event, "winners")
    losers_champion = next(n for n in (finals[0]["w"], finals[0]["b"]) if n != winners_champion)
    reset = event["grand_final_reset"]
    first_to_below = finals[0]["winner"] == losers_champion
    assert len(finals) == (2 if reset and first_to_below else 1)
    champion = finals[-1]["winner"]
    assert champion_of(event, "final") == champion
    assert event["standings"][0]["name"] == champion
    assert lost[champion] == (0 if champion == winners_champion and len(finals) == 1 else 1)
    runner = loser(finals[-1])
    assert event["standings"][1]["name"] == runner
    for entrant in event["entrants"]:
        name = entrant["name"]
        if name == champion:
            continue
        out_after_one = name == runner == winners_champion and not reset
        assert lost[name] == (1 if out_after_one else 2), (name, lost[name])


def check_consolation(event: Event, played: list[tuple[int, dict[str, Any]]]) -> None:
    main = [(r, p) for r, p in played if p["bracket"] == "main"]
    first_main: dict[str, tuple[int, bool]] = {}
    lost_main: set[str] = set()
    for number, pairing in main:
        for name in (pairing["w"], pairing["b"]):
            assert name not in lost_main, f"{name} plays on in the main bracket after a loss"
            if pairing["status"] == "finished":
                first_main.setdefault(name, (number, pairing["winner"] != name))
        if pairing["status"] == "finished":
            lost_main.add(loser(pairing))
    in_consolation = {
        n for _, p in played if p["bracket"] == "consolation" for n in (p["w"], p["b"])
    }
    assert all(first_main[name][1] for name in in_consolation), "a consolation entrant won"
    consolation = [(r, p) for r, p in played if p["bracket"] == "consolation"]
    consolation_first = {  # the losers of the consolation's first round (not first match)
        loser(p) for r, p in consolation if r == consolation[0][0] and p["winner"]
    }
    main_rounds = sorted({number for number, _ in main})
    second_round_losers = {
        loser(p) for r, p in main if len(main_rounds) > 1 and r == main_rounds[1] and p["winner"]
    }
    for _, pairing in played:
        if pairing["bracket"] != "last_chance":
            continue
        for name in (pairing["w"], pairing["b"]):
            came = name in consolation_first or (
                name in second_round_losers and name not in in_consolation
            )
            assert came, f"{name} has no place in the last chance"
    for bracket in {p["bracket"] for _, p in played}:  # each bracket: one loss and out
        out: set[str] = set()
        for _, pairing in played:
            if pairing["bracket"] == bracket:
                assert not out & {pairing["w"], pairing["b"]}, (
                    f"a loser plays on in the {bracket} bracket"
                )
                if pairing["status"] == "finished":
                    out.add(loser(pairing))
    if event["status"] != "finished":
        return
    final = [p for _, p in main][-1]
    assert event["standings"][0]["name"] == final["winner"] == champion_of(event, "main")
    listed = {
        found["bracket"]: {s["name"] for s in found["standings"]} for found in event["brackets"]
    }
    assert in_consolation <= listed["consolation"]
    lost_first = {name for name, (_, lost) in first_main.items() if lost}
    assert listed["consolation"] == lost_first, "every first-match loser is in the consolation"
    if event["last_chance"]:
        came = consolation_first | (second_round_losers - listed["consolation"])
        in_last_chance = {
            n for _, p in played if p["bracket"] == "last_chance" for n in (p["w"], p["b"])
        }
        assert in_last_chance <= listed["last_chance"] == came, "the last chance's entrants"
    for found in event["brackets"]:  # each champion won its bracket's last pairing
        last = [p["winner"] for _, p in played if p["bracket"] == found["bracket"]]
        if last:
            assert found["champion"] == last[-1]


def champion_of(event: Event, bracket: str) -> str | None:
    found = next(b for b in event["brackets"] if b["bracket"] == bracket)
    return found["champion"]  # type: ignore[no-any-return]


def check_standings(event: Event, played: list[tuple[int, dict[str, Any]]]) -> None:
    """Each line's wins, losses, byes, match points and capped points, overall and per
    bracket; a bracket's champion first in its table."""
    length = lengths(event)

    def counted(bracket: str | None) -> dict[str, dict[str, float]]:
        lines: dict[str, dict[str, float]] = {}

        def line(name: str) -> dict[str, float]:
            return lines.setdefault(name, Counter())

        for played_round in event["rounds_played"]:
            for pairing in played_round["pairings"]:
                if bracket is not None and pairing["bracket"] != bracket:
                    continue
                for name in (pairing["w"], pairing["b"]):
                    line(name)
                if pairing["status"] != "finished":
                    continue
                most = length[pairing["bracket"]]
                for name, mine, theirs in (
                    (pairing["w"], *pairing["points"]),
                    (pairing["b"], *reversed(pairing["points"])),
                ):
                    won = pairing["winner"] == name
                    line(name)["wins"] += won
                    line(name)["losses"] += not won
                    line(name)["match_points"] += won
                    line(name)["points_for"] += min(mine, most)
                    line(name)["points_against"] += min(theirs, most)
        return lines

    overall = counted(None)
    keys = ("wins", "losses", "points_for", "points_against")
    for standing in event["standings"]:
        mine = overall.get(standing["name"], Counter())
        assert {key: standing[key] for key in keys} == {key: mine[key] for key in keys}
        assert standing["match_points"] == mine["match_points"] + standing["byes"]
    total_byes = sum(len(r["byes"]) for r in event["rounds_played"])
    assert sum(s["byes"] for s in event["standings"]) == total_byes
    assert [s["rank"] for s in event["standings"]] == list(range(1, len(event["standings"]) + 1))
    for found in event["brackets"]:
        own = counted(found["bracket"])
        for standing in found["standings"]:
            mine = own.get(standing["name"], Counter())
            assert {key: standing[key] for key in keys} == {key: mine[key] for key in keys}
        assert sum(s["byes"] for s in found["standings"]) <= total_byes
        if found["champion"] is not None:
            assert found["standings"][0]["name"] == found["champion"]
