"""The check page's costs and its storing, through Flask's test client: a record with many
errors ranks the legal plays of only a page's worth of them, and a record stored from the
page is the one adjudication shown, in the page's mode."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import referee.adjudication.match
import referee.web.closest
from referee.plays import PlaysService
from referee.web.closest import RANKED_PER_PAGE
from tests.api.support import get_json
from tests.api.test_matches_api import Env, invalid_galaxy, make_env
from tests.played import money_session


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return make_env(tmp_path / "check.sqlite3")


def many_errors(games: int) -> str:
    """A money session whose every game Alice opens has 13/1 as her first play: illegal
    (the opening roll is never a doublet, and no two dice make 12)."""
    session = money_session("backgammon", games, {}, 8)
    return re.sub(r"(?m)^(  1\) \d\d: )\S+ \S+", r"\g<1>13/1", session)


class CountedPlays(PlaysService):
    """The plays service, counting how often a page lists every legal play."""

    listed = 0

    def legal_texts(self, *args: Any, **kwargs: Any) -> Any:
        CountedPlays.listed += 1
        return super().legal_texts(*args, **kwargs)


def test_a_record_with_many_errors_ranks_the_legal_plays_of_a_page_s_worth(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(referee.web.closest, "PlaysService", CountedPlays)
    CountedPlays.listed = 0
    record = many_errors(30)
    answer = env.client.post("/check", data={"record": record})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200
    errors = html.count("13/1 cannot be played")
    assert errors > 2 * RANKED_PER_PAGE  # every game's error is on the page ...
    assert 0 < CountedPlays.listed <= RANKED_PER_PAGE  # ... a page's worth of them ranked


def test_storing_from_the_page_stores_its_one_adjudication(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    judged = referee.adjudication.match._judged
    calls: list[str] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append("judged")
        return judged(*args, **kwargs)

    monkeypatch.setattr(referee.adjudication.match, "_judged", counted)
    form = {"record": invalid_galaxy(), "store": "1", "allow_invalid": "1", "token": env.secret}
    page = env.client.post("/check", data=form)
    assert page.status_code == 200 and "Stored in the archive" in page.get_data(as_text=True)
    assert len(calls) == 1  # the verdict shown is the one stored: one check, one budget


def test_a_record_checked_in_condone_mode_is_stored_in_condone_mode(env: Env) -> None:
    form = {"record": invalid_galaxy(), "mode": "condone", "store": "1", "allow_invalid": "1"}
    page = env.client.post("/check", data={**form, "token": env.secret})
    assert page.status_code == 200 and "Stored in the archive" in page.get_data(as_text=True)
    [listed] = get_json(env.client, "/v1/matches")["matches"]
    stored = get_json(env.client, f"/v1/matches/{listed['id']}")
    assert stored["verdict"]["mode"] == "condone"
    # the condoned 13/8 stands: lasse's game 1 goes on past it, as on the page
    strict = env.client.post("/check", data={"record": invalid_galaxy()})
    shown = env.client.post("/check", data={"record": invalid_galaxy(), "mode": "condone"})
    assert strict.get_data(as_text=True) != shown.get_data(as_text=True)


def test_a_refused_store_says_so_in_the_form_s_words_beside_the_verdict(env: Env) -> None:
    form = {"record": invalid_galaxy(), "store": "1", "token": env.secret}
    page = env.client.post("/check", data=form)
    html = page.get_data(as_text=True)
    assert page.status_code == 422
    assert "Not stored: the record has errors" in html
    assert "tick “even with errors”" in html and "allow_invalid: true" not in html
    assert "Verdict: lasse" in html  # the verdict is still shown
    assert get_json(env.client, "/v1/matches")["matches"] == []
