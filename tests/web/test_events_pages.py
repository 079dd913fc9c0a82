"""The pages of events and ratings through Flask's test client (no JavaScript): events
built through the API as a host would (tests/events/support.py), then read as a user reads
them: the lists, the pairings with their results and links, the standings in their order
with the tie-breaks worked out here, a knockout's byes and bracket, the ratings and a
rating's chart."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import referee.web.events
from referee.web.charts import rating_chart, ticks
from referee.web.events import half
from tests.events.records import played_record, spoiled, winner_of
from tests.events.support import Site, make_site

CLUB = ("Ann", "Bea", "Cy", "Dan")
AWARD_REASON = "Bea's clock fell"


# -- reading a page ----------------------------------------------------------------------


@dataclass
class Cell:
    words: list[str] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)
    """(href, the link's words)"""

    @property
    def text(self) -> str:
        return " ".join("".join(self.words).split())


@dataclass
class Block:
    """An element picked by tag and class: its words and links."""

    classes: set[str]
    cell: Cell = field(default_factory=Cell)


class Page(HTMLParser):
    """A page as read: its tables by class (each its rows of cells), the elements with
    a class among ``picked`` (their words and links), every link, and its words."""

    def __init__(self, html: str, picked: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.tables: dict[str, list[list[list[Cell]]]] = {}
        self.links: list[tuple[str, str]] = []
        self.picked = picked
        self.blocks: dict[str, list[Block]] = {name: [] for name in picked}
        self.words: list[str] = []
        self._rows: list[list[Cell]] | None = None
        self._cell: Cell | None = None
        self._open: list[tuple[str, int, Block]] = []
        self._depth: dict[str, int] = {}
        self._link: tuple[str, list[str]] | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        classes = set(found.get("class", "").split())
        self._depth[tag] = self._depth.get(tag, 0) + 1
        if tag == "table":
            self._rows = []
            self.tables.setdefault(next(iter(sorted(classes)), ""), []).append(self._rows)
        elif tag == "tr" and self._rows is not None:
            self._rows.append([])
        elif tag in ("td", "th") and self._rows:
            self._cell = Cell()
            self._rows[-1].append(self._cell)
        elif tag == "a" and "href" in found:
            self._link = (found["href"], [])
        for name in self.picked:
            if name in classes:
                block = Block(classes)
                self.blocks[name].append(block)
                self._open.append((tag, self._depth[tag], block))

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._link is not None:
            link = (self._link[0], " ".join("".join(self._link[1]).split()))
            self.links.append(link)
            for cell in self._cells():
                cell.links.append(link)
            self._link = None
        elif tag in ("td", "th"):
            self._cell = None
        elif tag == "table":
            self._rows = None
        self._open = [
            held for held in self._open if not (held[0] == tag and held[1] == self._depth[tag])
        ]
        self._depth[tag] = self._depth.get(tag, 1) - 1

    def _cells(self) -> Iterator[Cell]:
        if self._cell is not None:
            yield self._cell
        for _, _, block in self._open:
            yield block.cell

    def handle_data(self, data: str) -> None:
        self.words.append(data)
        if self._link is not None:
            self._link[1].append(data)
        for cell in self._cells():
            cell.words.append(data)

    def text(self) -> str:
        return " ".join("".join(self.words).split())

    def header(self, name: str) -> list[str]:
        return [cell.text for cell in self.tables[name][0][0]]

    def body(self, name: str) -> list[list[Cell]]:
        """The rows below the header row of every table of class ``name``."""
        return [row for table in self.tables[name] for row in table[1:]]

    def column(self, name: str, heading: str) -> list[str]:
        header = self.header(name)
        at = header.index(heading)
        return [row[at].text for row in self.body(name)]


def read(site: Site, path: str, picked: tuple[str, ...] = ()) -> Page:
    answer = site.client.get(path)
    assert answer.status_code == 200, path
    return Page(answer.get_data(as_text=True), picked)


def resolves(site: Site, href: str) -> bool:
    return site.client.get(href).status_code == 200


# -- building events as a host does ------------------------------------------------------


def submit(site: Site, event_id: int, number: int, table: int, record: str) -> dict[str, Any]:
    path = f"/v1/events/{event_id}/rounds/{number}/pairings/{table}/record"
    answer = site.client.post(path, json={"record": record}, headers=site.auth())
    assert answer.status_code == 200, answer.get_json()
    found: dict[str, Any] = answer.get_json()
    return found


def award(site: Site, event_id: int, number: int, table: int, side: str, reason: str) -> None:
    path = f"/v1/events/{event_id}/rounds/{number}/pairings/{table}/result"
    body = {"winner": side, "reason": reason}
    assert site.client.post(path, json=body, headers=site.auth()).status_code == 200


@dataclass
class Club:
    """A finished records round robin: who won each pairing (by its record, or the award)
    and the round and table of the pairing that was disputed, then awarded."""

    event_id: int
    winners: dict[tuple[int, int], str]
    awarded: tuple[int, int]
    disputed_match: int


def club_round_robin(site: Site, names: tuple[str, ...] = CLUB) -> Club:
    """Every pairing gets a played record; round 2's first is first sent spoiled
    (disputed), then awarded to Black."""
    event = site.start(
        site.create(name="Club night", format="round-robin", kind="records", entrants=list(names))[
            "id"
        ]
    )
    winners: dict[tuple[int, int], str] = {}
    disputed_match = 0
    seed = 0
    while event["status"] == "running":
        number = event["round"]
        for pairing in event["rounds_played"][-1]["pairings"]:
            seed += 1
            white, black, table = pairing["w"], pairing["b"], pairing["table"]
            record = played_record(white, black, 1, seed)
            if (number, table) == (2, 1):
                disputed_match = submit(site, event["id"], number, table, spoiled(record))[
                    "match_id"
                ]
                award(site, event["id"], number, table, "b", AWARD_REASON)
                winners[number, table] = black
            else:
                submit(site, event["id"], number, table, record)
                winners[number, table] = winner_of(record)
        event = site.event(event["id"])
    return Club(event["id"], winners, (2, 1), disputed_match)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, Club]]:
    site = make_site(tmp_path_factory.mktemp("club"))
    made = club_round_robin(site)
    yield site, made
    site.storage.close()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    made = make_site(tmp_path)
    yield made
    made.storage.close()


# -- the events list ---------------------------------------------------------------------


def test_the_events_list_has_open_running_and_finished_events_each_linked(
    club: tuple[Site, Club],
) -> None:
    site, made = club
    opened = site.create(name="Next week", format="swiss", rounds=2, kind="records",
                         entrants=["Eve", "Fay", "Gus"])["id"]  # fmt: skip
    running = site.start(
        site.create(name="Bots tonight", format="knockout", kind="bots", entrants=["b1", "b2"])[
            "id"
        ]
    )["id"]
    page = read(site, "/events")
    headings = page.column("events", "Event")
    assert {"Next week", "Bots tonight", "Club night"} <= set(headings)
    words = page.text()
    assert words.index("Open") < words.index("Next week") < words.index("Running")
    assert words.index("Running") < words.index("Bots tonight") < words.index("Finished")
    assert words.index("Finished") < words.index("Club night")
    links = dict((text, href) for href, text in page.links)
    for name, event_id in (("Next week", opened), ("Bots tonight", running),
                           ("Club night", made.event_id)):  # fmt: skip
        assert links[name] == f"/events/{event_id}"
        assert resolves(site, links[name])
    club_row = next(row for row in page.body("events") if row[0].text == "Club night")
    # Round robin of four: three rounds, every one played; one point a match.
    assert [cell.text for cell in club_row[1:]] == [
        "Round robin, records",
        "Short nardy (backgammon)",
        "1 point",
        "4",
        "3 of 3",
        "finished",
    ]


def test_the_events_list_pages_each_status(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(referee.web.events, "PAGE_SIZE", 2)
    names = [f"Open {number}" for number in range(1, 4)]
    for name in names:
        site.create(name=name, format="swiss", rounds=1, kind="records", entrants=["A", "B"])
    first = read(site, "/events")
    assert first.column("events", "Event") == ["Open 3", "Open 2"]  # newest first
    older = next(href for href, text in first.links if text == "Older open events →")
    second = read(site, older)
    assert second.column("events", "Event") == ["Open 1"]
    assert "Running" not in second.text()  # one status only
    assert any(text == "All events" for _, text in second.links)


# -- an event ----------------------------------------------------------------------------


def test_a_round_robin_shows_every_pairing_with_its_result_and_links(
    club: tuple[Site, Club],
) -> None:
    site, made = club
    event = site.event(made.event_id)
    page = read(site, f"/events/{made.event_id}")
    rows = page.body("pairings")
    expected = [
        (number["number"], pairing)
        for number in event["rounds_played"]
        for pairing in number["pairings"]
    ]
    assert len(rows) == len(expected) == 6  # 4 players: 3 rounds of 2 tables
    for row, (number, pairing) in zip(rows, expected, strict=True):
        table, white, black, status, result, links = (cell for cell in row)
        assert (table.text, white.text, black.text) == (
            str(pairing["table"]), pairing["w"], pairing["b"],
        )  # fmt: skip
        winner = made.winners[number, pairing["table"]]
        if (number, pairing["table"]) == made.awarded:
            assert status.text == "awarded"
            assert result.text.startswith(f"Awarded to {winner} (1–0)")
            assert AWARD_REASON in result.text
            assert links.links == [(f"/matches/{made.disputed_match}", "The disputed record")]
        else:
            assert status.text == "finished"
            assert result.text.startswith(f"{winner} wins")
            assert links.links == [(f"/matches/{pairing['match_ids'][0]}", "Replay")]
        for href, _ in links.links:
            assert resolves(site, href)


def test_a_disputed_pairing_says_so_and_links_the_verdict(site: Site) -> None:
    event = site.start(
        site.create(format="round-robin", kind="records", entrants=["Ann", "Bea"])["id"]
    )
    sent = submit(site, event["id"], 1, 1, spoiled(played_record("Ann", "Bea", 1, 3)))
    page = read(site, f"/events/{event['id']}")
    [row] = page.body("pairings")
    assert row[3].text == "disputed"
    assert row[4].text == "Disputed: the record is invalid (see its verdict)."
    assert row[5].links == [(f"/matches/{sent['match_id']}", "The disputed record")]
    verdict = site.client.get(row[5].links[0][0]).get_data(as_text=True)
    assert "Invalid" in verdict


def test_the_standings_are_in_order_with_the_tie_breaks_worked_out_here(
    club: tuple[Site, Club],
) -> None:
    site, made = club
    page = read(site, f"/events/{made.event_id}")
    header = page.header("standings")
    assert header[-3:] == ["Buchholz", "Sonneborn-Berger", "Points difference"]
    points = dict.fromkeys(CLUB, 0)
    beaten: dict[str, list[str]] = {name: [] for name in CLUB}
    event = site.event(made.event_id)
    for number in event["rounds_played"]:
        for pairing in number["pairings"]:
            winner = made.winners[number["number"], pairing["table"]]
            loser = pairing["b"] if winner == pairing["w"] else pairing["w"]
            points[winner] += 1
            beaten[winner].append(loser)
    # Everyone met everyone: Buchholz is the others' points, Sonneborn-Berger the beaten's.
    buchholz = {name: sum(points.values()) - points[name] for name in CLUB}
    berger = {name: sum(points[other] for other in beaten[name]) for name in CLUB}
    names = page.column("standings", "Name")
    assert sorted(names) == sorted(CLUB)
    assert page.column("standings", "Rank") == ["1", "2", "3", "4"]
    assert page.column("standings", "Match points") == [str(points[n]) for n in names]
    assert page.column("standings", "Buchholz") == [str(buchholz[n]) for n in names]
    assert page.column("standings", "Sonneborn-Berger") == [str(berger[n]) for n in names]
    difference = [
        int(won) - int(lost)
        for won, lost in zip(
            page.column("standings", "Points for"),
            page.column("standings", "Points against"),
            strict=True,
        )
    ]
    shown = [int(text.replace("−", "-")) for text in page.column("standings", "Points difference")]
    assert shown == difference
    seeds = [int(seed) for seed in page.column("standings", "Seed")]
    keys = [
        (-points[name], -buchholz[name], -berger[name], -gap, seed)
        for name, gap, seed in zip(names, difference, seeds, strict=True)
    ]
    assert keys == sorted(keys)


def test_the_standings_show_the_directors_tie_breaks_in_their_order(site: Site) -> None:
    order = ["progressive", "head_to_head", "buchholz_cut1"]
    event = site.start(
        site.create(format="round-robin", kind="records", entrants=list(CLUB), tiebreaks=order)[
            "id"
        ]
    )
    page = read(site, f"/events/{event['id']}")
    titles = ["Progressive", "Head to head", "Buchholz cut 1"]
    assert page.header("standings")[-3:] == titles
    assert "Buchholz" not in page.header("standings")[:-3]
    assert "then Progressive, Head to head, Buchholz cut 1, then seed" in page.text()


def test_the_exports_are_linked_and_answer(club: tuple[Site, Club]) -> None:
    site, made = club
    page = read(site, f"/events/{made.event_id}")
    links = {text: href for href, text in page.links}
    kinds = {
        "standings (CSV)": "text/csv",
        "standings (JSON)": "application/json",
        "every record (zip of .mat files)": "application/zip",
        "the event (JSON)": "application/json",
    }
    for text, kind in kinds.items():
        answer = site.client.get(links[text])
        assert (answer.status_code, answer.mimetype) == (200, kind), text


def test_a_knockout_of_five_bots_shows_its_byes_bracket_and_live_matches(site: Site) -> None:
    created = site.create(name="Cup", format="knockout", kind="bots", entrants=list(site.bots))
    event = site.start(created["id"])
    seeds = [entrant["name"] for entrant in sorted(event["entrants"], key=lambda e: e["seed"])]
    page = read(site, f"/events/{event['id']}", ("bracket-round", "bracket-match", "byes"))
    # A bracket of eight: the top three seeds have byes, seeds 4 and 5 play (EVENTS.md §5).
    [byes] = page.blocks["byes"]
    assert byes.cell.text.endswith(", ".join(sorted(seeds[:3])))
    [row] = page.body("pairings")
    assert (row[1].text, row[2].text, row[3].text) == (seeds[3], seeds[4], "playing")
    [(watch, label)] = row[5].links
    [live_id] = event["rounds_played"][0]["pairings"][0]["live_ids"]
    assert (watch, label) == (f"/live/{live_id}", "Watch")
    assert resolves(site, watch)
    rounds = page.blocks["bracket-round"]
    titles = [block.cell.text.split(" ")[0] for block in rounds]
    assert titles == ["Quarter-finals", "Semi-finals", "Final"]
    matches = page.blocks["bracket-match"]
    assert len(matches) == 4 + 2 + 1
    assert sum("bye" in block.classes for block in matches) == 3
    assert matches[-1].cell.text == "to be decided to be decided"

    finished = site.play_out(event["id"], seed=7)
    final = finished["rounds_played"][-1]["pairings"][0]
    page = read(site, f"/events/{event['id']}", ("bracket-match", "won"))
    champion = page.blocks["bracket-match"][-1]
    assert "won" in champion.cell.text
    assert [block.cell.text for block in page.blocks["won"]][-1].endswith(f"{final['winner']} won")
    assert page.column("standings", "Name")[0] == final["winner"]
    assert page.column("standings", "Round reached")[:2] == ["Champion", "Final"]
    for block in page.blocks["bracket-match"]:
        for href, _ in block.cell.links:
            assert resolves(site, href)


def test_a_mirrored_pair_links_both_matches_and_counts_draws(site: Site) -> None:
    event = site.start(
        site.create(format="round-robin", kind="bots", entrants=["b1", "b2"], mirrored=True)["id"]
    )
    site.play_out(event["id"], seed=3)
    page = read(site, f"/events/{event['id']}")
    [row] = page.body("pairings")
    labels = [text for _, text in row[5].links]
    assert labels == ["Watch match 1", "Watch match 2", "Replay match 1", "Replay match 2"]
    assert all(resolves(site, href) for href, _ in row[5].links)
    assert "Drawn" in page.header("standings")


def test_an_unknown_event_is_a_404_page(site: Site) -> None:
    answer = site.client.get("/events/999")
    assert answer.status_code == 404
    assert "no event with id 999" in Page(answer.get_data(as_text=True)).text()


# -- ratings -----------------------------------------------------------------------------


def test_the_ratings_table_agrees_with_the_api_and_links_each_name(
    club: tuple[Site, Club],
) -> None:
    site, _ = club
    api = site.client.get("/v1/ratings?variant=backgammon").get_json()
    page = read(site, "/ratings")
    assert page.column("ratings", "Name") == [line["name"] for line in api]
    assert page.column("ratings", "Rating") == [f"{line['rating']:.2f}" for line in api]
    assert page.column("ratings", "Experience") == [str(line["experience"]) for line in api]
    changes = page.column("ratings", "Last change")
    for line, shown in zip(api, changes, strict=True):
        history = site.client.get(f"/v1/ratings/{line['name']}?variant=backgammon").get_json()
        last = history["history"][-1]
        change = last["after"] - last["before"]
        assert shown == (f"+{change:.2f}" if change >= 0 else f"−{-change:.2f}")
    for href, text in page.links:
        if text in {line["name"] for line in api}:
            assert href == f"/ratings/backgammon/{text}"
            assert resolves(site, href)


def test_a_rating_page_has_its_history_and_an_accessible_chart(club: tuple[Site, Club]) -> None:
    site, _ = club
    answer = site.client.get("/ratings/backgammon/Ann")
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    api = site.client.get("/v1/ratings/Ann?variant=backgammon").get_json()
    page = Page(html)
    assert page.column("history", "Match") == [f"match {s['match_id']}" for s in api["history"]]
    assert page.column("history", "After") == [f"{s['after']:.2f}" for s in api["history"]]
    for href, text in page.links:
        if text.startswith("match ") or text == "Club night":
            assert resolves(site, href)
    start = html.index("<svg")
    chart = ET.fromstring(html[start : html.index("</svg>", start) + len("</svg>")])
    svg = "{http://www.w3.org/2000/svg}"
    assert chart.get("role") == "img"
    labelled = (chart.get("aria-labelledby") or "").split()
    ids = {element.get("id"): element for element in chart.iter()}
    assert [ids[name].tag for name in labelled] == [f"{svg}title", f"{svg}desc"]
    assert "Ann" in (ids[labelled[0]].text or "")
    points = chart.findall(f".//{svg}circle")
    assert len(points) == len(api["history"]) + 1  # the start, then after each match
    labels = {text.text for text in chart.iter(f"{svg}text")}
    assert {"Rating", "Rated matches"} <= labels


def test_an_unknown_rating_is_a_404_page(club: tuple[Site, Club]) -> None:
    site, _ = club
    assert site.client.get("/ratings/backgammon/Nobody").status_code == 404
    assert site.client.get("/ratings/long-nardy/Ann").status_code == 404


def test_private_pages_need_a_token(tmp_path: Path) -> None:
    private = make_site(tmp_path, PRIVATE=True)
    try:
        for path in ("/events", "/events/1", "/ratings", "/ratings/backgammon/Ann"):
            assert private.client.get(path).status_code == 401, path
    finally:
        private.storage.close()


# -- the pieces --------------------------------------------------------------------------


def test_match_points_are_written_with_halves() -> None:
    assert [half(value) for value in (0.0, 0.5, 1.0, 2.5, -3.0)] == ["0", "½", "1", "2½", "−3"]


def test_chart_ticks_are_round_and_cover_the_values() -> None:
    found = ticks(1487.3, 1523.9)
    assert found[0] <= 1487.3 and found[-1] >= 1523.9
    steps = {round(b - a, 6) for a, b in itertools.pairwise(found)}
    assert steps == {10.0}  # a span of 36.6 in at most five steps: 10 each
    assert len(found) <= 6


def test_a_higher_rating_is_drawn_higher() -> None:
    values = [1500.0, 1510.0, 1495.0]
    svg = rating_chart(values, ["a", "b", "c"], title="t", description="d")
    chart = ET.fromstring(svg)
    heights = [float(c.get("cy") or 0) for c in chart.iter("{http://www.w3.org/2000/svg}circle")]
    assert heights[1] < heights[0] < heights[2]  # SVG's y grows downwards
    with pytest.raises(ValueError):
        rating_chart([1500.0], [], title="t", description="d")
