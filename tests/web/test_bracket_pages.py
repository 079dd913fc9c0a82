"""A bracket event's page (EVENTS.md §13): each bracket drawn level by level (the winners',
the losers' and the grand final; the main, the consolation and the last chance), its
champion and standings, each pairing's bracket in the rounds, and the match length of
each bracket in the settings; all read from the server-rendered HTML, no JavaScript."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.events.support import Site, make_site
from tests.events.test_bracket_events import PEOPLE, award, run_out
from tests.web.test_events_pages import read


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    made = make_site(tmp_path)
    yield made
    made.storage.close()


def parts(site: Site, event_id: int) -> Any:
    return read(site, f"/events/{event_id}", ("bracket-part", "bracket-round", "bracket-match"))


def test_a_double_elimination_draws_its_three_brackets(site: Site) -> None:
    created = site.create(name="Double", format="double-elimination", kind="records",
                          entrants=PEOPLE[:6])  # fmt: skip
    page = parts(site, created["id"])
    # Open: the draw as it would start, P1 and P2 with byes in the winners' round 1.
    titles = [block.cell.text.split(" Matches")[0] for block in page.blocks["bracket-part"]]
    assert titles == ["Winners' bracket", "Losers' bracket", "Grand final"]
    first = page.blocks["bracket-match"][:4]
    assert [block.cell.text for block in first] == [
        "1 P1 bye", "4 P4 5 P5", "2 P2 bye", "3 P3 6 P6",
    ]  # fmt: skip
    event = run_out(site, created["id"], lambda pairing: "w")
    page = parts(site, created["id"])
    rounds = [block.cell.text.split(" ")[0] for block in page.blocks["bracket-round"]]
    # Winners: 3 levels; losers: 4 (its first has two byes, drawn as byes); the final (the
    # reset was not needed, so it is not drawn).
    assert len(rounds) == 3 + 4 + 1
    matches = page.blocks["bracket-match"]
    assert "P1 won" in matches[-1].cell.text and "P2" in matches[-1].cell.text
    assert "Winners' bracket: 7 points" not in page.text()  # every bracket plays 1 point
    assert "Winners' bracket: 1 point, Losers' bracket: 1 point, Grand final: 1 point" in (
        page.text()
    )
    assert "won by P1" in page.blocks["bracket-part"][0].cell.text
    assert "won by P2" in page.blocks["bracket-part"][1].cell.text
    assert page.column("standings", "Name")[0] == "P1"
    assert page.column("standings", "Round reached")[0] == "Champion"
    brackets = page.column("pairings", "Bracket")
    played = [p["bracket"] for r in event["rounds_played"] for p in r["pairings"]]
    titles_of = {"winners": "Winners' bracket", "losers": "Losers' bracket", "final": "Grand final"}
    assert brackets == [titles_of[name] for name in played]


def test_a_knockouts_consolation_and_last_chance_are_drawn_with_their_lengths(
    site: Site,
) -> None:
    created = site.create(
        name="Cup", format="knockout", kind="records", entrants=PEOPLE,
        length={"main": 3, "consolation": 1, "last_chance": 1}, consolation=True,
        last_chance=True,
    )  # fmt: skip
    site.start(created["id"])
    for table in range(1, 5):
        award(site, created["id"], 1, table, "w")
    page = parts(site, created["id"])
    texts = [block.cell.text for block in page.blocks["bracket-part"]]
    assert texts[0].startswith("Main bracket Matches to 3 points")
    assert texts[1].startswith("Consolation Matches to 1 point")
    assert texts[2].startswith("Last chance Matches to 1 point")
    # The consolation's first round: the round-1 losers in the order of the draw (P8 lost
    # at the first table, P5 at the second...), paired, awaiting their records.
    consolation = [b.cell.text for b in page.blocks["bracket-match"]][7:10]
    assert consolation[:2] == ["8 P8 5 P5 awaiting the record", "7 P7 6 P6 awaiting the record"]
    assert consolation[2] == "to be decided to be decided"
    bracket_standings = page.body("bracket-standings")
    assert bracket_standings  # each bracket's own table
