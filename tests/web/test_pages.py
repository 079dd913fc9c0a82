"""The web pages through Flask's test client: the check form and its verdict, the archive
and a stored match's viewer, each usable as plain links (no JavaScript here)."""

from __future__ import annotations

import re
import sqlite3
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from io import BytesIO
from pathlib import Path

import pytest

import referee.storage.sqlite.database
import referee.web.archive
from referee.http.serving import stop_clocks
from referee.storage import open_storage
from referee.storage.sqlite import close_kept
from tests.api.test_matches_api import (
    BG_EXAMPLE,
    KH_EXAMPLE,
    LN_EXAMPLE,
    Env,
    example,
    invalid_galaxy,
    make_env,
)
from tests.played import money_session


class Elements(HTMLParser):
    """Every start tag of a page with its attributes, and its text."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {name: value or "" for name, value in attrs}))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def with_id(self, element_id: str) -> dict[str, str]:
        return next(attrs for _, attrs in self.tags if attrs.get("id") == element_id)

    def words(self) -> str:
        return " ".join("".join(self.text).split())


def board(html: str) -> ET.Element:
    """The inline board of a page."""
    found = re.search(r"<svg .*?</svg>", html, re.S)
    assert found is not None
    return ET.fromstring(found.group(0))


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return make_env(tmp_path / "pages.sqlite3")


def test_the_home_page_says_what_this_is_and_has_the_form(env: Env) -> None:
    page = env.client.get("/")
    assert page.status_code == 200
    parsed = Elements(page.get_data(as_text=True))
    assert "A referee for backgammon, long nardy and khachapuri" in parsed.words()
    names = {
        attrs.get("name") for tag, attrs in parsed.tags if tag in ("textarea", "input", "select")
    }
    assert {"record", "file", "variant", "mode", "options"} <= names


def test_a_pasted_record_gets_its_verdict_in_words(env: Env) -> None:
    page = env.client.post("/check", data={"record": example(BG_EXAMPLE), "mode": "strict"})
    assert page.status_code == 200
    words = Elements(page.get_data(as_text=True)).words()
    # examples/backgammon_match.mat: Alice 1 (1-0), Bob 2 (1-2), Alice a gammon x 2 (5-2).
    assert "Verdict: Alice – Bob" in words
    assert "Valid every action legal" in words and "Complete to the end of the match" in words
    assert "5-point match" in words
    assert "Alice wins the match, 5–2." in words
    for after in ("1–0", "1–2", "5–2"):
        assert after in words


def test_an_uploaded_long_nardy_record_is_checked_with_the_chosen_options(env: Env) -> None:
    data = {"file": (BytesIO(example(LN_EXAMPLE).encode()), LN_EXAMPLE), "mode": "condone"}
    page = env.client.post("/check", data=data, content_type="multipart/form-data")
    assert page.status_code == 200
    words = Elements(page.get_data(as_text=True)).words()
    assert "long-nardy" in words and "checked condone" in words
    assert "Bob wins the match" in words


def test_an_invalid_record_shows_the_error_with_rule_line_move_and_alternatives(
    env: Env,
) -> None:
    html = env.client.post("/check", data={"record": invalid_galaxy()}).get_data(as_text=True)
    parsed = Elements(html)
    words = parsed.words()
    assert "Verdict: lasse – robacc" in words and "Invalid errors in 1 game" in words
    assert (
        "(rule wrong_die), line 20, move 3 (lasse): 13/8 24/23 cannot be played with 4-1" in words
    )
    # Game 1's actions: robacc 61, lasse 55, robacc 64, lasse 41: the fourth is marked.
    assert "illegal" in parsed.with_id("g1-a4")["class"]
    assert "current" in parsed.with_id("g1-a4")["class"]  # the page opens at the first error
    # The legal play closest to the written 13/8 24/23 first: 24/23 13/9 shares its 13, 24
    # and 23 (the referee's own first alternative, 24/23 24/20, shares 24 and 23).
    assert "Legal: 24/23 13/9, " in words and "24/23 24/20" in words
    assert 'href="#g1-a4"' in html  # the finding links to the board
    # The board: the position the illegal play was written in (lasse 55: 8/3(2) 13/8(2);
    # robacc 61: 13/7 8/7 and 64: 24/18/14 in his numbering, 25 - p in White's).
    assert board(html).get("data-position") == (
        "backgammon 1b,,2w,,,5w,,3w,,,1b,4b,3w,,,,2b,2b,5b,,,,,2w w0b0 w0b0 w - 1c 7:0-0 -"
    )


def field(html: str, name: str) -> str:
    """The text of the live page's element ``data-field=name``."""
    found = re.search(rf'data-field="{name}">(.*?)</', html, re.S)
    assert found is not None, name
    return " ".join(Elements(found.group(1)).words().split())


def verdict_words(html: str) -> str:
    """The words of the verdict in brief (badges, outcome, facts, first error)."""
    found = re.search(r'<section class="verdict".*?</section>', html, re.S)
    assert found is not None
    return Elements(found.group(0)).words()


def games_rows(html: str) -> list[str]:
    """The words of each game's row of the games table (not its findings)."""
    table = re.search(r'<table class="games">.*?</table>', html, re.S)
    assert table is not None
    rows = re.findall(r'<tr class="(?:has-errors)?">(.*?)</tr>', table.group(0), re.S)
    return [Elements(row).words() for row in rows]


def test_an_invalid_record_states_no_winner_only_what_the_record_claims(env: Env) -> None:
    # The galaxy record: lasse's illegal play in game 1 stops its checking; the record goes
    # on to robacc's 8 points in a 7-point match (its own results), so it claims robacc won.
    html = env.client.post("/check", data={"record": invalid_galaxy()}).get_data(as_text=True)
    words = verdict_words(html)
    assert "Invalid" in words and "Complete" in words and "Valid" not in words.split()
    assert "the record claims robacc won the match" in words
    assert "wins the match" not in words
    assert "First error: game 1, line 20: 13/8 24/23 cannot be played with 4-1" in words
    # Game 1 has no result by the rules: no points, the score stays 0-0, and the record's
    # own claim (robacc "Wins 2 point" after bearing off with the cube at 2) is named as
    # the record's.
    first = games_rows(html)[0]
    assert "No result (checking stopped at an error)" in first
    assert first.split("No result (checking stopped at an error)")[1].split() == [
        "—", "(the", "record", "says", "2)", "0–0",
    ]  # fmt: skip
    assert "unfinished" not in first


def test_a_record_cut_before_the_end_is_valid_but_incomplete(env: Env) -> None:
    # examples/backgammon_match.mat without its third game: 1-2 in a 5-point match.
    whole = example(BG_EXAMPLE)
    cut = whole[: whole.index('; [StartPosition "backgammon ,1w,1w')]
    html = env.client.post("/check", data={"record": cut}).get_data(as_text=True)
    words = verdict_words(html)
    assert "Valid every action legal" in words
    assert "Incomplete stops before the match ends" in words
    assert "No winner: the record stops before anyone reaches 5, at 1–2." in words
    assert "wins the match" not in words and "claims" not in words


def test_a_long_session_page_keeps_the_games_small_and_folded(env: Env) -> None:
    # 40 games of a money session: a <select> of 40 options picks the game (a GET form),
    # and the table of 40 rows is folded away in a closed <details>.
    match_id = env.stored(money_session("long-nardy", 40, {}, 8))
    html = env.client.get(f"/matches/{match_id}?g=7").get_data(as_text=True)
    parsed = Elements(html)
    start = next(n for n, (tag, attrs) in enumerate(parsed.tags) if attrs.get("id") == "game-pick")
    later = (n for n, (tag, _) in enumerate(parsed.tags) if tag == "select" and n > start)
    end = next(later, len(parsed.tags))
    picker = [attrs for tag, attrs in parsed.tags[start:end] if tag == "option"]
    assert [o["value"] for o in picker] == [str(n) for n in range(1, 41)]
    assert [o["value"] for o in picker if "selected" in o] == ["7"]
    details = next(attrs for tag, attrs in parsed.tags if tag == "details")
    assert "open" not in details
    assert html.index("data-viewer") < html.index('<table class="games">')
    hrefs = {attrs.get("rel"): attrs.get("href") for tag, attrs in parsed.tags if tag == "a"}
    assert (
        hrefs["prev"] == f"/matches/{match_id}?g=6" and hrefs["next"] == f"/matches/{match_id}?g=8"
    )
    # A few games: the table is open.
    few = env.stored(example(BG_EXAMPLE))
    few_page = Elements(env.client.get(f"/matches/{few}").get_data(as_text=True))
    assert "open" in next(attrs for tag, attrs in few_page.tags if tag == "details")


def test_the_archive_names_a_winner_only_for_a_valid_complete_record(env: Env) -> None:
    valid = env.stored(example(BG_EXAMPLE))
    invalid = env.stored(invalid_galaxy(), allow_invalid=True)
    whole = example(BG_EXAMPLE)
    cut = env.stored(whole[: whole.index('; [StartPosition "backgammon ,1w,1w')])
    html = env.client.get("/matches").get_data(as_text=True)
    rows = {
        int(found.group(1)): Elements(found.group(0)).words()
        for found in re.finditer(
            r'<tr>\s*<th scope="row"><a href="/matches/(\d+)">.*?</tr>', html, re.S
        )
    }
    assert rows[valid].endswith("valid Alice")
    assert rows[invalid].endswith("invalid none: the record is invalid")
    assert "robacc" not in rows[invalid].split("invalid", 1)[1]
    assert rows[cut].endswith("valid none: the record is incomplete")


def test_without_javascript_each_action_of_a_pasted_record_links_to_its_board(env: Env) -> None:
    html = env.client.post("/check", data={"record": example(KH_EXAMPLE)}).get_data(as_text=True)
    parsed = Elements(html)
    links = [
        attrs["href"]
        for tag, attrs in parsed.tags
        if tag == "a" and "/v1/positions/svg?" in attrs.get("href", "")
    ]
    assert links
    image = env.client.get(links[1].replace("&amp;", "&"))
    assert image.status_code == 200 and image.mimetype == "image/svg+xml"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"record": ""}, "paste a record or choose a file"),
        ({"record": "hello"}, ""),
        ({"record": example(BG_EXAMPLE), "options": "crawford=maybe"}, "crawford"),
        ({"record": example(BG_EXAMPLE), "options": "draw_rule=true"}, "draw_rule"),
    ],
)
def test_a_bad_submission_comes_back_to_the_form_with_the_reason(
    env: Env, data: dict[str, str], message: str
) -> None:
    page = env.client.post("/check", data=data)
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    assert 'role="alert"' in html and message in html
    assert 'name="record"' in html


def test_the_archive_lists_searches_and_pages(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = [env.stored(example(name)) for name in (BG_EXAMPLE, LN_EXAMPLE, KH_EXAMPLE)]
    invalid = env.stored(invalid_galaxy(), allow_invalid=True)
    listed = env.client.get("/matches").get_data(as_text=True)
    for match_id in [*ids, invalid]:
        assert f'href="/matches/{match_id}"' in listed
    only_invalid = env.client.get("/matches?valid=false&player=&q=").get_data(as_text=True)
    assert f'href="/matches/{invalid}"' in only_invalid
    assert f'href="/matches/{ids[0]}"' not in only_invalid
    by_variant = env.client.get("/matches?variant=khachapuri").get_data(as_text=True)
    assert (
        f'href="/matches/{ids[2]}"' in by_variant and f'href="/matches/{ids[1]}"' not in by_variant
    )
    assert 'href="/matches/' not in env.client.get("/matches?player=nobody").get_data(as_text=True)
    monkeypatch.setattr(referee.web.archive, "PAGE_SIZE", 3)
    first = Elements(env.client.get("/matches").get_data(as_text=True))
    following = next(attrs["href"] for tag, attrs in first.tags if attrs.get("rel") == "next")
    second = env.client.get(following).get_data(as_text=True)
    assert f'href="/matches/{ids[0]}"' in second  # the oldest, on the second page


def test_a_bad_search_is_an_error_page(env: Env) -> None:
    page = env.client.get("/matches?valid=perhaps")
    assert page.status_code == 422
    assert "valid" in page.get_data(as_text=True)


def test_a_stored_match_links_its_records_and_shows_any_action(env: Env) -> None:
    match_id = env.stored(example(LN_EXAMPLE))
    html = env.client.get(f"/matches/{match_id}?g=2&a=1").get_data(as_text=True)
    assert f'href="/v1/matches/{match_id}?format=original"' in html
    assert f'href="/v1/matches/{match_id}?format=canonical"' in html
    actions = env.client.get(f"/v1/matches/{match_id}/games/2/replay").get_json()["actions"]
    assert board(html).get("data-position") == actions[0]["position_after"]
    parsed = Elements(html)
    assert "current" in parsed.with_id("g2-a1")["class"]
    # Plain links: stepping and flipping without JavaScript.
    hrefs = {attrs.get("data-key"): attrs.get("href") for tag, attrs in parsed.tags if tag == "a"}
    assert hrefs["ArrowRight"] == f"/matches/{match_id}?g=2&amp;a=2#g2-a2".replace("&amp;", "&")
    flipped = env.client.get(hrefs["f"] or "").get_data(as_text=True)
    assert board(flipped).get("data-orientation") == "b"


def test_an_unknown_match_is_a_404_page(env: Env) -> None:
    page = env.client.get("/matches/999")
    assert page.status_code == 404
    assert page.mimetype == "text/html"


def test_a_page_that_meets_an_archive_locked_for_everyone_is_a_503_page(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another process holds the file exclusively: the pages answer as they answer any
    # refusal (an error page, with Retry-After), never a 500.
    monkeypatch.setattr(referee.storage.sqlite.database, "BUSY_TIMEOUT_SECONDS", 0.1)
    match_id = env.stored(example(BG_EXAMPLE))
    stop_clocks()  # its clock's beat may be reading the archive (it starts again at a request)
    close_kept()  # an exclusive lock needs every connection closed, kept ones too
    holder = sqlite3.connect(env.database, isolation_level=None)
    try:
        holder.execute("PRAGMA locking_mode=EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("UPDATE matches SET event = event")
        for path in ("/matches", f"/matches/{match_id}"):
            page = env.client.get(path)
            assert (page.status_code, page.mimetype) == (503, "text/html"), path
            assert int(page.headers["Retry-After"]) > 0
            assert "Archive busy" in page.get_data(as_text=True)
    finally:
        holder.close()


def test_a_private_archive_needs_a_token_for_its_pages(tmp_path: Path) -> None:
    private = make_env(tmp_path / "private.sqlite3", PRIVATE=True)
    assert private.client.get("/matches").status_code == 401
    assert private.client.get("/").status_code == 200


def test_names_from_a_record_are_escaped_on_the_page(env: Env) -> None:
    record = example(BG_EXAMPLE).replace(" Alice : ", " <img src=x onerror=alert(1)> : ")
    html = env.client.post("/check", data={"record": record}).get_data(as_text=True)
    assert "<img src=x" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_a_stored_record_of_a_variation_that_cannot_be_checked_shows_its_verdict(
    env: Env,
) -> None:
    record = example(BG_EXAMPLE).replace('[Variation "Backgammon"]', '[Variation "Nackgammon"]')
    match_id = env.stored(record, allow_invalid=True)
    page = env.client.get(f"/matches/{match_id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "cannot be checked" in html
    assert "data-viewer" not in html


def test_the_live_page_shows_the_match_as_it_stands(env: Env) -> None:
    # A host creates a long nardy money game; before anyone joins it is waiting, and the
    # page draws the start with nobody to act, and links the state, stream and dice proof.
    host = env.token("live:host")[1]
    for bot in ("alice", "bob"):
        storage = open_storage(env.database)
        try:
            storage.tokens.create(("play",), bot)
        finally:
            storage.close()
    body = {"variant": "long-nardy", "length": 0, "players": {"w": "alice", "b": "bob"}}
    created = env.client.post("/v1/live", json=body, headers={"Authorization": f"Bearer {host}"})
    assert created.status_code == 201, created.get_data(as_text=True)
    state = created.get_json()
    page = env.client.get(f"/live/{state['id']}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert board(html).get("data-position") == state["position"]
    words = Elements(html).words()
    assert "alice – bob" in words and "one money game" in words
    assert field(html, "status") == "waiting for both bots to join"
    assert field(html, "to_act") == "nobody" and field(html, "last_roll") == "—"
    assert field(html, "score") == "alice 0 – 0 bob"
    assert "No action yet in this game." in words
    links = {attrs.get("href") for tag, attrs in Elements(html).tags if tag == "a"}
    live_id = state["id"]
    assert {
        f"/v1/live/{live_id}",
        f"/v1/live/{live_id}/stream",
        f"/v1/live/{live_id}/dice",
    } <= links
    assert f"/live/{live_id}?o=b" in links  # the flip is a plain link
    # Without JavaScript the page reloads itself while the match is on.
    assert '<noscript><meta http-equiv="refresh"' in html
    assert env.client.get("/live/999").status_code == 404


def test_the_live_page_shows_the_clock_and_the_join_deadline(env: Env) -> None:
    # EVENTS.md §12: a match on a clock waiting for its bots shows both reserves, the
    # delay, and when a bot not joined loses.
    host = env.token("live:host")[1]
    storage = open_storage(env.database)
    try:
        for bot in ("carl", "dora"):
            storage.tokens.create(("play",), bot)
    finally:
        storage.close()
    body = {"variant": "backgammon", "length": 3, "players": {"w": "carl", "b": "dora"},
            "clock": {"reserve": 360, "delay": 12}, "join_seconds": 120}  # fmt: skip
    created = env.client.post("/v1/live", json=body, headers={"Authorization": f"Bearer {host}"})
    assert created.status_code == 201, created.get_data(as_text=True)
    state = created.get_json()
    assert state["clock"] == {"reserve": 360, "delay": 12, "reserves": {"w": 360, "b": 360}}
    html = env.client.get(f"/live/{state['id']}").get_data(as_text=True)
    assert field(html, "clock").startswith("carl 360.0 s, dora 360.0 s")
    assert "12 s of delay" in field(html, "clock")
    assert state["join_deadline"] in Elements(html).words()


def test_the_live_page_of_a_private_archive_needs_a_token(tmp_path: Path) -> None:
    env = make_env(tmp_path / "private.sqlite3", PRIVATE=True)
    assert env.client.get("/live/1").status_code == 401
