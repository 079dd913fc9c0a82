"""Verdicts are the same, byte for byte, with the native core on or off: every corpus record,
every hand-made fixture, the OpenSpiel games as a money session, and mutated records (plays
and dice edited at random, so that illegal plays, wrong marks and ambiguity all occur).

Each comparison covers every way to a verdict: ``adjudicate`` (the Python reader and
``GameChecker``, judging through the engine), ``check_record`` and ``check_and_write`` (with
the native core, its record fast path: the native reader and game checker, Python
re-checking declined games), and both ways to the canonical record."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from types import ModuleType

import pytest

from notation.records.mat_writer import write_mat
from referee.adjudication import adjudicate, check_and_write, check_record
from referee.rules.engine import Engine
from tests.corpus import MAT, openspiel_money_session, read_jsonl, require
from tests.native.conftest import by_both

FIXTURES = Path(__file__).resolve().parents[1] / "records" / "fixtures"
CORPUS = sorted(MAT.glob("*.mat")) if MAT.exists() else []
SESSION_GAMES = 300
MUTATIONS_PER_RECORD = 3


def outcome(text: str, engine: Engine) -> tuple[str, str]:
    """The verdict JSON and the canonical record, as the API and the archive write them,
    after checking that every way to them gives the same."""
    adjudication = adjudicate(text, engine=engine)
    verdict = json.dumps(adjudication.verdict.to_json())
    canonical = write_mat(adjudication.canonical)
    written = check_and_write(text, engine=engine)
    assert json.dumps(check_record(text, engine=engine).to_json()) == verdict
    assert (json.dumps(written.verdict.to_json()), written.canonical) == (verdict, canonical)
    return verdict, canonical


def assert_same(native: ModuleType, text: str) -> None:
    reference, candidate = by_both(lambda engine: outcome(text, engine))
    assert candidate == reference


def test_the_corpus_is_there() -> None:
    require(MAT)
    assert CORPUS


@pytest.mark.parametrize("path", CORPUS + sorted(FIXTURES.glob("*.mat")), ids=lambda p: p.name)
def test_a_record_has_the_same_verdict_in_both_engines(native: ModuleType, path: Path) -> None:
    assert_same(native, path.read_text(encoding="utf-8-sig"))


def test_the_openspiel_money_session_has_the_same_verdict(native: ModuleType) -> None:
    games = list(read_jsonl("bg_games_seed1.jsonl.gz"))[:SESSION_GAMES]
    assert_same(native, openspiel_money_session(games))


PLAY_CELL = re.compile(r"[1-6][1-6]: [^\n]*?(?=\s{2,}|$)", re.MULTILINE)


def mutate(text: str, rng: random.Random) -> str:
    """The record with one play cell edited: a digit changed, a mark added or a move cut."""
    cells = list(PLAY_CELL.finditer(text))
    cell = rng.choice(cells)
    body = cell.group()
    edit = rng.randrange(3)
    if edit == 0:
        digits = [i for i, char in enumerate(body) if char.isdigit() and i > 3]
        if digits:
            at = rng.choice(digits)
            body = body[:at] + str(rng.randint(0, 9)) + body[at + 1 :]
    elif edit == 1:
        body += "*"
    else:
        body = body.rsplit(" ", 1)[0] if " " in body[4:] else body[:3]
    return text[: cell.start()] + body + text[cell.end() :]


@pytest.mark.parametrize("path", CORPUS[::4], ids=lambda p: p.name)
def test_mutated_records_have_the_same_verdict(native: ModuleType, path: Path) -> None:
    rng = random.Random(path.name)
    text = path.read_text(encoding="utf-8-sig")
    for _ in range(MUTATIONS_PER_RECORD):
        text = mutate(text, rng)
        assert_same(native, text)
