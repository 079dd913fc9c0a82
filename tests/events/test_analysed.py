"""An event's matches analysed by gnubg (EVENTS.md §13, ANALYSIS.md §5): ``analyse: true``
queues every finished match (the event's, at 2 and 2 plies), the standings show each
entrant's average PR over its analysed matches, and ``pr`` breaks ties lower first (an
entrant without an analysed match last). The averages here are worked out by hand from
PRs stored by hand; the last tests have the project's nardy engine and Debian's gnubg
make them."""

from __future__ import annotations

import csv
import io
import threading
from typing import Any

import pytest

from referee.archive.analysis_worker import Worker
from referee.events.standings import AveragePr, Meeting, Result, RoundSoFar, Tiebreak, standings
from referee.storage.model.analyses import Failed, Finished
from tests.events.records import played_record
from tests.events.support import Site
from tests.players.gnubg import require_gnubg

RECORDS = {"format": "round-robin", "kind": "records", "entrants": ["Ann", "Bob", "Cy"]}
ONE_ROUND = [
    RoundSoFar(1, (Meeting("A", "B", Result("A", (1, 0))), Meeting("C", "D", Result("C", (1, 0)))))
]
"""A and C won (1 match point each), B and D lost."""


def test_pr_breaks_ties_lower_first_and_an_entrant_never_analysed_last() -> None:
    prs = {"A": AveragePr(8.5, 2), "C": AveragePr(4.25, 1), "D": AveragePr(20.0, 1)}
    lines = standings(["A", "B", "C", "D"], ONE_ROUND, order=(Tiebreak.PR,), prs=prs)
    assert [line.name for line in lines] == ["C", "A", "D", "B"]
    assert [(line.pr, line.analysed) for line in lines] == [
        (4.25, 1),
        (8.5, 2),
        (20.0, 1),
        (None, 0),
    ]
    assert [line.tiebreaks for line in lines] == [
        {"pr": 4.25},
        {"pr": 8.5},
        {"pr": 20.0},
        {"pr": None},
    ]


def test_the_average_pr_is_shown_without_breaking_ties_unless_named() -> None:
    prs = {"A": AveragePr(8.5, 2), "C": AveragePr(4.25, 1)}
    lines = standings(["A", "B", "C", "D"], ONE_ROUND, order=(Tiebreak.POINTS_DIFFERENCE,), prs=prs)
    assert [line.name for line in lines] == ["A", "C", "B", "D"]  # by seed
    assert [line.pr for line in lines] == [8.5, 4.25, None, None]


@pytest.mark.parametrize("variant", ["long-nardy", "khachapuri"])
def test_a_nardy_events_matches_are_analysed_by_the_projects_own_engine(
    site: Site, variant: str
) -> None:
    """No gnubg: the worker judges the nardy match with the builtin engine, and the
    standings and the page say whose judgement the PR is."""
    body = {**RECORDS, "entrants": ["Ann", "Bob"], "variant": variant}
    event = site.start(site.create(**body, analyse=True)["id"])
    (pairing,) = event["rounds_played"][0]["pairings"]
    record = played_record(pairing["w"], pairing["b"], 1, 7, variant)
    path = f"/v1/events/{event['id']}/rounds/1/pairings/1/record"
    assert site.client.post(path, json={"record": record}, headers=site.auth()).status_code == 200
    location = site.app.config["DATABASE"]
    assert Worker(location, "/nonexistent/gnubg").run(threading.Event(), until_idle=True) == 1
    (match_id,) = site.event(event["id"])["rounds_played"][0]["pairings"][0]["match_ids"]
    (made,) = site.storage.analyses.of_match(match_id)
    assert made.status == "done" and made.result is not None
    assert made.result["engine"]["name"] == "nardy-referee"
    by_name = {line["name"]: line for line in site.event(event["id"])["standings"]}
    for side in "wb":
        assert by_name[pairing[side]]["pr"] == made.result["players"][side]["pr"]
    page = site.client.get(f"/events/{event['id']}").get_data(as_text=True)
    assert "the referee's nardy engine's judgement" in page


def test_pr_as_a_tiebreak_needs_the_analysis(site: Site) -> None:
    event = {"name": "n", "variant": "backgammon", "length": 1, **RECORDS, "tiebreaks": ["pr"]}
    answer = site.client.post("/v1/events", json=event, headers=site.auth())
    assert answer.get_json()["code"] == "invalid_tiebreaks"
    made = site.create(**RECORDS, analyse=True, tiebreaks=["pr", "buchholz"])
    assert (made["analyse"], made["tiebreaks"]) == (True, ["pr", "buchholz"])
    assert site.create(**RECORDS)["analyse"] is False


def finished(site: Site, **body: Any) -> dict[str, Any]:
    """A records event of Ann, Bob and Cy played out, each record one random 1-point match
    between the pairing's White (left column) and Black."""
    event = site.start(site.create(**RECORDS, **body)["id"])
    seed = 40
    while event["status"] == "running":
        for pairing in event["rounds_played"][-1]["pairings"]:
            seed += 1
            record = played_record(pairing["w"], pairing["b"], 1, seed)
            number, table = event["round"], pairing["table"]
            path = f"/v1/events/{event['id']}/rounds/{number}/pairings/{table}/record"
            answer = site.client.post(path, json={"record": record}, headers=site.auth())
            assert answer.status_code == 200, answer.get_json()
        event = site.event(event["id"])
    return event


def matches_of(event: dict[str, Any]) -> list[tuple[int, str, str]]:
    return [
        (match_id, pairing["w"], pairing["b"])
        for played in event["rounds_played"]
        for pairing in played["pairings"]
        for match_id in pairing["match_ids"]
    ]


def test_every_finished_match_is_queued_as_the_events(site: Site) -> None:
    plain = finished(site)
    for match_id, _, _ in matches_of(plain):
        assert site.storage.analyses.of_match(match_id) == []
    event = finished(site, analyse=True)
    for match_id, _, _ in matches_of(event):
        (queued,) = site.storage.analyses.of_match(match_id)
        assert (queued.status, queued.token_id, queued.event_id) == ("queued", None, event["id"])
        assert (queued.chequer_plies, queued.cube_plies) == (2, 2)
    assert all(line["pr"] is None and line["analysed"] == 0 for line in event["standings"])


def test_the_standings_average_each_entrants_pr(site: Site) -> None:
    event = finished(site, analyse=True, tiebreaks=["pr"])
    # Each match's PR, White's and Black's, stored by hand; in the second, White decided
    # nothing (no PR): her average is over her other match alone.
    given = [(10.0, 2.5), (None, 6.0), (7.0, 1.0)]
    analysed: dict[str, list[float]] = {"Ann": [], "Bob": [], "Cy": []}
    for (match_id, white, black), pr in zip(matches_of(event), given, strict=True):
        (queued,) = site.storage.analyses.of_match(match_id)
        claimed = site.storage.analyses.claim("w", 1e12, 60, Failed({}), 3)
        assert claimed is not None and claimed.id == queued.id
        site.storage.analyses.finish(claimed.id, "w", Finished({"games": []}, "1", pr))
        for name, value in zip((white, black), pr, strict=True):
            if value is not None:
                analysed[name].append(value)
    again = site.event(event["id"])
    by_name = {line["name"]: line for line in again["standings"]}
    for name, values in analysed.items():
        expected = round(sum(values) / len(values), 2) if values else None
        assert (by_name[name]["pr"], by_name[name]["analysed"]) == (expected, len(values))
        assert by_name[name]["tiebreaks"] == {"pr": expected}
    exported = site.client.get(f"/v1/events/{event['id']}/standings.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(exported)))
    assert list(rows[0])[-3:] == ["points_against", "pr", "analysed"]  # pr once, no tie-break
    for row in rows:
        values = analysed[row["name"]]
        found = float(row["pr"]) if row["pr"] else None
        assert (found, int(row["analysed"])) == (by_name[row["name"]]["pr"], len(values))
    page = site.client.get(f"/events/{event['id']}").get_data(as_text=True)
    for values in analysed.values():
        if values:
            average = round(sum(values) / len(values), 2)
            assert f'{average:.2f} <span class="hint">({len(values)})</span>' in page
    assert "gnubg's judgement on eXtreme Gammon's scale" in page


def test_gnubg_makes_an_events_analyses_and_the_standings_show_them(site: Site) -> None:
    program = require_gnubg()
    body = {**RECORDS, "entrants": ["Ann", "Bob"]}
    event = site.start(site.create(**body, analyse=True)["id"])
    (pairing,) = event["rounds_played"][0]["pairings"]
    record = played_record(pairing["w"], pairing["b"], 1, 22)  # 3 s at 2-ply (seed 7: 15 s)
    path = f"/v1/events/{event['id']}/rounds/1/pairings/1/record"
    assert site.client.post(path, json={"record": record}, headers=site.auth()).status_code == 200
    location = site.app.config["DATABASE"]
    assert Worker(location, program).run(threading.Event(), until_idle=True) == 1
    (match_id,) = site.event(event["id"])["rounds_played"][0]["pairings"][0]["match_ids"]
    (made,) = site.storage.analyses.of_match(match_id)
    assert made.status == "done" and made.result is not None
    players = made.result["players"]
    by_name = {line["name"]: line for line in site.event(event["id"])["standings"]}
    assert by_name[pairing["w"]]["pr"] == players["w"]["pr"]
    assert by_name[pairing["b"]]["pr"] == players["b"]["pr"]
