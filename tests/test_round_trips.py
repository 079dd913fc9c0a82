"""What the project writes, it reads back (issue 18): every position a verdict, a replay or
a live state writes is accepted by every reader of positions (the position string reader
behind every endpoint, the board drawing, the plays endpoints when it holds dice), and
every canonical record checks again to the same verdict; over every corpus record, the
fixtures, the examples, and generated money sessions and matches of the three variants."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from notation.records.mat_writer import write_mat
from notation.records.model import MatchText
from referee.adjudication import adjudicate, check_and_write
from referee.archive.derived import replay_actions
from referee.board_svg import board_svg
from referee.bridge import read_position, write_position
from referee.live.record import game_texts
from referee.plays import PlaysService
from tests.corpus import MAT
from tests.played import PLAYERS, play, sessions

ROOT = Path(__file__).resolve().parents[1]
TEXTS = sorted(MAT.glob("*.mat")) if MAT.exists() else []
TEXTS += sorted((ROOT / "examples").glob("*.mat"))
TEXTS += sorted((ROOT / "tests" / "records" / "fixtures").glob("*.mat"))
GENERATED = list(sessions())


def records() -> Iterator[Any]:
    for path in TEXTS:
        yield pytest.param(path.read_text(encoding="utf-8-sig"), id=path.name)
    for name, text in GENERATED:
        yield pytest.param(text, id=name)


def written_positions(text: str) -> Iterator[str]:
    """Every position string the verdict and the replay of ``text`` hold."""
    for mode in ("strict", "condone"):
        adjudication = adjudicate(text, mode=mode, replay=True)
        for game in adjudication.verdict.to_json()["games"]:
            for issue in game["errors"] + game["warnings"]:
                if issue.get("position"):
                    yield issue["position"]
        for steps in adjudication.replays:
            for action in replay_actions(steps):
                yield action["position_before"]
                yield action["position_after"]


def assert_read_back(position: str) -> None:
    """Every reader accepts ``position``, and it is canonical (read and written again, the
    same string; the drawn board says so too)."""
    read = read_position(position)
    assert write_position(read) == position
    assert f'data-position="{position}"' in board_svg(position)
    if read.dice is not None and read.finished_side is None:
        assert PlaysService(position).legal()  # the plays endpoints take it


def verdict_facts(text: str) -> tuple[Any, ...]:
    """What a verdict says by the rules (how the record was written aside: a canonical
    record is laid out anew, with computed hit marks and every play written), and the
    warnings of each game."""
    verdict = adjudicate(text).verdict.to_json()
    games = [
        {key: value for key, value in game.items() if key not in ("errors", "warnings")}
        | {"errors": [issue["code"] for issue in game["errors"]]}
        for game in verdict["games"]
    ]
    warnings = [{issue["code"] for issue in game["warnings"]} for game in verdict["games"]]
    return verdict["valid"], verdict["match"], games, warnings


@pytest.mark.parametrize("text", list(records()))
def test_every_position_written_is_read_back(text: str) -> None:
    positions = set(written_positions(text))
    assert positions
    for position in positions:
        assert_read_back(position)


@pytest.mark.parametrize("text", list(records()))
def test_a_canonical_record_checks_to_the_same_verdict(text: str) -> None:
    canonical = check_and_write(text).canonical
    if adjudicate(text).verdict.valid:
        *facts, warnings = verdict_facts(text)
        *again, fewer = verdict_facts(canonical)
        assert again == facts
        assert all(left <= right for left, right in zip(fewer, warnings, strict=True))
    assert check_and_write(canonical).canonical == canonical  # a fixed point


@pytest.mark.parametrize(
    ("variant", "length", "options"),
    [
        ("backgammon", 0, {"beavers": True}),
        ("backgammon", 5, {}),
        ("long-nardy", 0, {"draw_rule": True}),
        ("long-nardy", 3, {}),
        ("khachapuri", 0, {}),
        ("khachapuri", 15, {"draw_rule": True}),
    ],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_live_match_ends_on_its_records_last_position(
    variant: str, length: int, options: dict[str, Any], seed: int
) -> None:
    states: list[str] = []
    table = play(variant, length, options, seed, 0.004, lambda t: states.append(t.position))
    for position in set(states):
        assert_read_back(position)
    record = write_mat(MatchText({}, (), length, game_texts(table.noted, table.length, PLAYERS)))
    adjudication = adjudicate(record, variant=variant, options=options, replay=True)
    assert adjudication.verdict.valid and adjudication.verdict.match.complete
    assert adjudication.replays[-1][-1].position_after == table.position
