"""Every backgammon corpus record written in each format read here (tests/records/*_text.py,
xg_bytes.py) is detected as that format and checked to the verdict of its ``.mat``, as
far as the format can hold it: all of it (tmg, oldmoves, sgg, xg); the games alone where
a match resumes at a score (party: no score before the first game); the games' winners,
ends and cubes as a money session (gam, bgroom: no match length; bgroom: no
resignations, read as unfinished)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from notation.records.formats import (
    BGROOM,
    GAM,
    OLDMOVES,
    PARTY,
    SGG,
    TMG,
    XG,
    RecordFormat,
    detect,
)
from referee.adjudication import check_record
from referee.adjudication.budget import OFFLINE
from referee.adjudication.formats import binary_text
from tests.corpus import MAT, require
from tests.players.test_sgf_reading import outcome
from tests.records.bgroom_text import bgroom_of
from tests.records.gam_text import gam_of
from tests.records.oldmoves_text import oldmoves_of
from tests.records.party_text import party_of
from tests.records.sgg_text import sgg_of
from tests.records.tmg_text import tmg_of
from tests.records.xg_bytes import xg_of

Verdict = dict[str, Any]
KEPT = ("winner", "termination", "cube", "cube_owner")


def whole(ours: Verdict, theirs: Verdict) -> None:
    assert outcome(ours) == outcome(theirs)


def games_when_resumed(ours: Verdict, theirs: Verdict) -> None:
    mine, original = outcome(ours), outcome(theirs)
    if theirs["games"][0]["score_before"] != [0, 0]:
        mine, original = mine["games"], original["games"]
    assert mine == original


def money_games(ours: Verdict, theirs: Verdict, resign_unfinished: bool = False) -> None:
    assert ours["valid"] and ours["match"]["length"] == 0
    assert len(ours["games"]) == len(theirs["games"])
    for mine, original in zip(ours["games"], theirs["games"], strict=True):
        if resign_unfinished and original["termination"] == "resign":
            assert mine["termination"] == "unfinished"
        else:
            assert [mine[key] for key in KEPT] == [original[key] for key in KEPT]


def _encoded(write: Callable[[str], str]) -> Callable[[str], bytes]:
    return lambda text: write(text).encode()


FORMATS: dict[str, tuple[RecordFormat, Callable[[str], bytes], Callable[[Verdict, Verdict], None]]]
FORMATS = {
    "tmg": (TMG, _encoded(tmg_of), whole),
    "oldmoves": (OLDMOVES, _encoded(oldmoves_of), whole),
    "sgg": (SGG, _encoded(sgg_of), whole),
    "xg": (XG, xg_of, whole),
    "party": (PARTY, _encoded(party_of), games_when_resumed),
    "gam": (GAM, _encoded(gam_of), money_games),
    "bgroom": (BGROOM, _encoded(bgroom_of), lambda a, b: money_games(a, b, True)),
}


@cache
def backgammon_records() -> tuple[tuple[str, str, Verdict], ...]:
    """The corpus's backgammon records: name, text and verdict, computed once."""
    found = []
    for path in sorted(require(MAT).glob("*.mat")):
        text = path.read_text(encoding="utf-8-sig")
        verdict = check_record(text).to_json()
        if verdict["variant"] == "backgammon":
            found.append((path.name, text, verdict))
    return tuple(found)


@pytest.mark.parametrize("name", FORMATS)
def test_every_corpus_record_written_in_a_format_reads_to_its_verdict(name: str) -> None:
    expected_format, write, compare = FORMATS[name]
    records = backgammon_records()
    for file_name, text, original in records:
        written = write(text)
        assert detect(written) is expected_format, file_name
        binary = expected_format.binary
        read = binary_text(expected_format, written, OFFLINE) if binary else written.decode()
        try:
            compare(check_record(read).to_json(), original)
        except AssertionError as error:
            raise AssertionError(f"{file_name}: {error}") from None
    assert len(records) >= 40
