"""The check page's costs and its storing, through Flask's test client: a record with many
errors ranks the legal plays of only a page's worth of them, and a record stored from the
page is the one adjudication shown, in the page's mode."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import referee.web.closest
from referee.plays import PlaysService
from referee.web.closest import RANKED_PER_PAGE
from tests.api.test_matches_api import Env, make_env
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
