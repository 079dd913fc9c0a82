"""Bracket events through the API (EVENTS.md §13): double eliminations and knockouts with
a consolation and a last chance played to their end (awards, records, live matches of
bots), each checked by the independent checker (tests/events/bracket_checker.py); the
reset of the grand final; per-bracket lengths for awards, records and live matches; a
voided losers' bracket result keeping its bracket; the refusals, each with its code."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from referee.api.events import Event
from referee.live import service as live
from tests.events import bracket_checker
from tests.events.records import played_record
from tests.events.support import Site

PEOPLE = [f"P{n}" for n in range(1, 9)]
Choose = Callable[[dict[str, Any]], str]


def seed_of(event: dict[str, Any]) -> dict[str, int]:
    return {entrant["name"]: entrant["seed"] for entrant in event["entrants"]}


def higher_seed(event: dict[str, Any]) -> Choose:
    """The higher seed (White in a bracket) wins every pairing."""
    return lambda pairing: "w"


def award(site: Site, event_id: int, number: int, table: int, side: str) -> Any:
    path = f"/v1/events/{event_id}/rounds/{number}/pairings/{table}/result"
    return site.client.post(path, json={"winner": side, "reason": "test"}, headers=site.auth())


def run_out(site: Site, event_id: int, choose: Choose) -> dict[str, Any]:
    """Start the event and award every pairing as ``choose`` says ("w" or "b"), round
    after round, checking the event on the way; the finished event."""
    event = site.start(event_id)
    while event["status"] == "running":
        bracket_checker.check(event)
        waiting = [
            (r["number"], p) for r in event["rounds_played"] for p in r["pairings"]
            if p["status"] != "finished"
        ]  # fmt: skip
        assert waiting, "a running event with nothing to play"
        for number, pairing in waiting:
            assert (
                award(site, event_id, number, pairing["table"], choose(pairing)).status_code == 200
            )
        event = site.event(event_id)
    assert Event().validate(event) == {}
    bracket_checker.check(event)
    return event


def double(site: Site, count: int, **body: Any) -> dict[str, Any]:
    return site.create(format="double-elimination", kind="records", entrants=PEOPLE[:count], **body)


def test_a_double_elimination_of_eight_ends_with_everyone_out_after_two_losses(site: Site) -> None:
    event = run_out(site, double(site, 8)["id"], lambda pairing: "w")
    played = [p for r in event["rounds_played"] for p in r["pairings"]]
    # 7 entrants out after two losses each: 14 pairings; P1 (seed 1) never lost.
    assert len(played) == 14
    assert [p["bracket"] for p in played].count("final") == 1
    assert event["standings"][0]["name"] == "P1" and event["standings"][0]["losses"] == 0
    assert event["standings"][1]["name"] == "P2"  # the losers' champion, beaten in the final
    assert [b["bracket"] for b in event["brackets"]] == ["winners", "losers", "final"]
    assert {b["bracket"]: b["champion"] for b in event["brackets"]} == {
        "winners": "P1",
        "losers": "P2",
        "final": "P1",
    }
    assert event["rounds"] == 7 and event["grand_final_reset"] is True
    # Round 2: the winners' semi-finals and the round-1 losers (P8, P5, P7, P6) two by two.
    assert [(p["w"], p["b"], p["bracket"]) for p in event["rounds_played"][1]["pairings"]] == [
        ("P1", "P4", "winners"),
        ("P2", "P3", "winners"),
        ("P5", "P8", "losers"),
        ("P6", "P7", "losers"),
    ]


@pytest.mark.parametrize("reset", [True, False])
def test_the_grand_final_is_reset_when_the_losers_champion_wins_it(site: Site, reset: bool) -> None:
    def upset(pairing: dict[str, Any]) -> str:
        return "b" if pairing["bracket"] == "final" else "w"

    event = run_out(site, double(site, 4, grand_final_reset=reset)["id"], upset)
    finals = [p for r in event["rounds_played"] for p in r["pairings"] if p["bracket"] == "final"]
    # P2 lost to P1 in the winners' final, won the losers' bracket, then beat P1 (Black in
    # every final, the lower seed): twice with the reset, once without.
    assert [(p["w"], p["b"], p["winner"]) for p in finals] == [("P1", "P2", "P2")] * (
        2 if reset else 1
    )
    assert event["standings"][0]["name"] == "P2"
    assert event["standings"][0]["losses"] == 1
    assert event["standings"][1]["losses"] == (2 if reset else 1)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_double_eliminations_of_six_and_five_with_random_winners(site: Site, seed: int) -> None:
    rng = random.Random(seed)
    for count in (6, 5):
        run_out(site, double(site, count)["id"], lambda _: rng.choice("wb"))


def test_a_knockout_with_consolation_and_last_chance_at_three_one_and_one(site: Site) -> None:
    lengths = {"main": 3, "consolation": 1, "last_chance": 1}
    created = site.create(
        format="knockout", kind="records", entrants=PEOPLE, length=lengths,
        consolation=True, last_chance=True,
    )  # fmt: skip
    assert created["length"] == 3 and created["rounds"] == 4
    assert (created["consolation"], created["last_chance"]) == (True, True)
    event_id = created["id"]
    event = site.start(event_id)
    first = event["rounds_played"][0]["pairings"]
    assert [(p["w"], p["b"], p["bracket"]) for p in first] == [
        ("P1", "P8", "main"), ("P4", "P5", "main"), ("P2", "P7", "main"), ("P3", "P6", "main"),
    ]  # fmt: skip
    for pairing in first:
        assert award(site, event_id, 1, pairing["table"], "w").status_code == 200
    event = site.event(event_id)
    second = event["rounds_played"][1]["pairings"]
    assert [(p["w"], p["b"], p["bracket"]) for p in second] == [
        ("P1", "P4", "main"), ("P2", "P3", "main"),
        ("P5", "P8", "consolation"), ("P6", "P7", "consolation"),
    ]  # fmt: skip
    # A consolation record must be of 1 point: a 3-point one is disputed, a 1-point one
    # decides it; a main pairing's record must be of 3.
    path = f"/v1/events/{event_id}/rounds/2/pairings/3/record"
    wrong = site.client.post(
        path, json={"record": played_record("P5", "P8", 3)}, headers=site.auth()
    )
    assert wrong.status_code == 200 and wrong.get_json()["pairing"]["status"] == "disputed"
    right = site.client.post(
        path, json={"record": played_record("P5", "P8", 1, seed=4)}, headers=site.auth()
    )
    assert right.get_json()["pairing"]["status"] == "finished"
    assert right.get_json()["pairing"]["bracket"] == "consolation"
    path = f"/v1/events/{event_id}/rounds/2/pairings/1/record"
    short = site.client.post(
        path, json={"record": played_record("P1", "P4", 1)}, headers=site.auth()
    )
    assert short.get_json()["pairing"]["dispute"].endswith("the event plays 3")
    event = run_out_started(site, event_id, lambda pairing: "w")
    played = [(r["number"], p["w"], p["b"], p["bracket"]) for r in event["rounds_played"]
              for p in r["pairings"]]  # fmt: skip
    # Round 3: the main final; the consolation's final, the winner of the record against
    # P6; the last chance: the record's loser against P3 (beaten by P2, the other half),
    # P7 (beaten by P6) against P4. Round 4: the last chance's final.
    won = right.get_json()["pairing"]["winner"]
    lost = "P8" if won == "P5" else "P5"
    assert [p for p in played if p[0] >= 3] == [
        (3, "P1", "P2", "main"),
        (3, *sorted((won, "P6"), key=lambda name: int(name[1:])), "consolation"),
        (3, "P3", lost, "last_chance"),
        (3, "P4", "P7", "last_chance"),
        (4, "P3", "P4", "last_chance"),
    ]
    tables = {b["bracket"]: b for b in event["brackets"]}
    assert {name: b["length"] for name, b in tables.items()} == lengths
    assert tables["main"]["champion"] == "P1" and tables["last_chance"]["champion"] == "P3"
    assert [line["name"] for line in tables["main"]["standings"]][:2] == ["P1", "P2"]
    assert event["standings"][0]["name"] == "P1"
    awarded = [p for r in event["rounds_played"] for p in r["pairings"] if p["award"]]
    assert {p["bracket"]: max(p["points"]) for p in awarded} == lengths


def run_out_started(
    site: Site, event_id: int, choose: Choose, checked: bool = True
) -> dict[str, Any]:
    """Award what is left of a started event (``checked``: by the checker on the way)."""
    event = site.event(event_id)
    while event["status"] == "running":
        if checked:
            bracket_checker.check(event)
        for r in event["rounds_played"]:
            for pairing in r["pairings"]:
                if pairing["status"] != "finished":
                    answer = award(site, event_id, r["number"], pairing["table"], choose(pairing))
                    assert answer.status_code == 200, answer.get_json()
        event = site.event(event_id)
    if checked:
        bracket_checker.check(event)
    return event


@pytest.mark.parametrize("count", [3, 5, 7])
def test_knockouts_with_byes_and_every_bracket(site: Site, count: int) -> None:
    rng = random.Random(count)
    created = site.create(
        format="knockout", kind="records", entrants=PEOPLE[:count],
        consolation=True, last_chance=True,
    )  # fmt: skip
    event = run_out(site, created["id"], lambda _: rng.choice("wb"))
    assert all(b["champion"] is not None for b in event["brackets"])


def test_a_voided_losers_bracket_result_keeps_its_bracket(site: Site) -> None:
    event_id = double(site, 4)["id"]
    site.start(event_id)
    for table in (1, 2):
        award(site, event_id, 1, table, "w")
    event = site.event(event_id)
    losers = next(p for p in event["rounds_played"][1]["pairings"] if p["bracket"] == "losers")
    assert (losers["w"], losers["b"]) == ("P3", "P4")
    award(site, event_id, 2, losers["table"], "w")
    path = f"/v1/events/{event_id}/rounds/2/pairings/{losers['table']}/void"
    voided = site.client.post(path, json={"reason": "wrong winner"}, headers=site.auth())
    assert voided.status_code == 200, voided.get_json()
    event = site.event(event_id)
    again = next(p for p in event["rounds_played"][1]["pairings"] if p["table"] == losers["table"])
    assert (again["status"], again["bracket"], again["winner"]) == ("pending", "losers", None)
    assert award(site, event_id, 2, losers["table"], "b").status_code == 200  # P4 now
    event = run_out_started(site, event_id, lambda pairing: "w")
    third = [p for p in event["rounds_played"][2]["pairings"] if p["bracket"] == "losers"]
    assert [(p["w"], p["b"]) for p in third] == [("P2", "P4")]


def test_a_bots_knockout_plays_each_brackets_length_live(site: Site) -> None:
    created = site.create(
        format="knockout", kind="bots", entrants=["b1", "b2", "b3", "b4"],
        length={"main": 1, "consolation": 3}, consolation=True,
    )  # fmt: skip
    site.start(created["id"])
    event = site.play_out(created["id"])
    assert event["status"] == "finished"
    bracket_checker.check(event)
    for played in event["rounds_played"]:
        for pairing in played["pairings"]:
            (live_id,) = pairing["live_ids"]
            state = live.state(site.storage, live_id)
            assert state["length"] == (3 if pairing["bracket"] == "consolation" else 1)
    assert {b["bracket"] for b in event["brackets"]} == {"main", "consolation"}


KO = {"format": "knockout", "kind": "records", "entrants": PEOPLE[:4]}
DE = {"format": "double-elimination", "kind": "records", "entrants": PEOPLE[:4]}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({**KO, "format": "swiss", "rounds": 2, "consolation": True}, "invalid_brackets"),
        ({**DE, "consolation": True}, "invalid_brackets"),
        ({**KO, "last_chance": True}, "invalid_brackets"),
        ({**KO, "grand_final_reset": False}, "invalid_brackets"),
        ({**KO, "length": {"main": 3}}, "invalid_brackets"),
        ({**KO, "consolation": True, "length": {"main": 3, "last_chance": 1}}, "invalid_brackets"),
        ({**KO, "consolation": True, "length": {"consolation": 1}}, "invalid_brackets"),
        ({**DE, "length": {"main": 3}}, "invalid_brackets"),
        ({**KO, "entrants": PEOPLE[:2], "consolation": True}, "invalid_brackets"),
        ({**KO, "consolation": True, "length": {"main": 3, "side": 1}}, "validation_failed"),
        ({**KO, "consolation": True, "length": {"main": 0}}, "validation_failed"),
        ({**KO, "consolation": True, "length": {"main": True}}, "validation_failed"),
        ({**KO, "length": "3"}, "validation_failed"),
        (
            {**DE, "kind": "bots", "entrants": ["b1", "b2"], "mirrored": True},
            "mirrored_not_allowed",
        ),
        ({**DE, "tiebreaks": ["buchholz"]}, "invalid_tiebreaks"),
        ({**DE, "rounds": 3}, "invalid_rounds"),
    ],
)
def test_bad_brackets_are_refused_with_a_stable_code(
    site: Site, body: dict[str, Any], code: str
) -> None:
    event = {"name": "bad", "variant": "backgammon", "length": 1, **body}
    answer = site.client.post("/v1/events", json=event, headers=site.auth())
    assert answer.status_code == 422, answer.get_json()
    assert answer.mimetype == "application/problem+json"
    assert answer.get_json()["code"] == code


def test_a_double_elimination_of_two_plays_the_final_after_one_loss(site: Site) -> None:
    event = run_out(site, double(site, 2)["id"], lambda pairing: "b")
    played = [(p["w"], p["b"], p["bracket"], p["winner"]) for r in event["rounds_played"]
              for p in r["pairings"]]  # fmt: skip
    # P2 beats P1 in the winners' final and again in the final (P1's second loss): the
    # winners' champion won it, so there is no reset.
    assert played == [
        ("P1", "P2", "winners", "P2"),
        ("P1", "P2", "final", "P2"),
    ]


def test_a_round_1_result_voided_after_round_2_was_paired_leaves_round_2_as_it_is(
    site: Site,
) -> None:
    event_id = double(site, 4)["id"]
    site.start(event_id)
    for table in (1, 2):
        award(site, event_id, 1, table, "w")  # P1 beats P4, P2 beats P3
    path = f"/v1/events/{event_id}/rounds/1/pairings/1/void"
    assert site.client.post(path, json={"reason": "P4 won"}, headers=site.auth()).status_code == 200
    assert award(site, event_id, 1, 1, "b").status_code == 200  # P4 now
    event = site.event(event_id)
    # Round 2 stays as it was paired (P1-P2 in the winners', P3-P4 in the losers').
    assert [(p["w"], p["b"], p["bracket"]) for p in event["rounds_played"][1]["pairings"]] == [
        ("P1", "P2", "winners"),
        ("P3", "P4", "losers"),
    ]
    # The checker's rules no longer hold (P1 plays on in the winners' bracket after a loss,
    # as paired before the void), but the event goes on to its end.
    event = run_out_started(site, event_id, lambda pairing: "w", checked=False)
    assert event["status"] == "finished"
    assert all(b["champion"] is not None for b in event["brackets"])


def test_an_entrant_withdrawn_from_a_double_elimination_forfeits_and_the_event_ends(
    site: Site,
) -> None:
    event_id = double(site, 4)["id"]
    site.start(event_id)
    path = f"/v1/events/{event_id}/entrants/P1/withdraw"
    answer = site.client.post(path, json={"reason": "ill"}, headers=site.auth())
    assert answer.status_code == 200, answer.get_json()
    event = run_out_started(site, event_id, lambda pairing: "w")
    forfeits = [
        p for r in event["rounds_played"] for p in r["pairings"] if p["termination"] == "forfeit"
    ]
    # P1 forfeits its winners' round 1 and its losers' match: out after two losses.
    assert [p["bracket"] for p in forfeits] == ["winners", "losers"]
    assert all(p["winner"] != "P1" for p in forfeits)
    assert event["standings"][-1]["name"] in ("P1", "P4")
    assert next(s for s in event["standings"] if s["name"] == "P1")["losses"] == 2
