"""The record fast path: the native reader takes the records it reads exactly as the Python
reader does and declines the rest; the native game checker passes clean games and declines
every game with something to say; either way the verdict is Python's, byte for byte.

Text mutations reach the reader's corners (cell starts, cube and result words, score lines,
Unicode that Python's patterns read differently from ASCII); every mutated record must get
the same verdict, or the same refusal, with the native core on or off.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from notation.records import mat_reader
from notation.records.model import GameText
from referee.adjudication import GameVerdict, check_and_write, check_record, native_record
from referee.adjudication import match as match_module
from referee.adjudication.budget import WorkLimits
from referee.adjudication.match import _MatchChecker
from referee.adjudication.native_record import read_natively
from referee.errors import RefereeError
from referee.rules.engine import PYTHON, Engine
from tests.corpus import MAT, require
from tests.native.conftest import by_both, native_engine

CORPUS = sorted(MAT.glob("*.mat")) if MAT.exists() else []
CLEAN = "galaxy_match11696104_7pt.mat"
"""A corpus match without a single error or warning (checked below)."""

RECORD = """; [Variation "Backgammon"]

 3 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2)  Doubles => 2                Drops
      Wins 1 point

 Game 2
 Alice : 1                      Bob : 0
  1) 64: 24/18 13/9              31: 8/5 6/5
  2)  Doubles => 2                Takes
  3) 52: 13/8 13/11
                                  Wins 2 points
"""


@pytest.fixture
def checked_by_python(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The indexes of the games ``GameChecker`` checks (the rest were checked natively)."""
    games: list[int] = []
    python_check = _MatchChecker.python_check

    def counted(checker: _MatchChecker, game: GameText, *rest: Any) -> GameVerdict:
        games.append(game.index)
        return python_check(checker, game, *rest)

    monkeypatch.setattr(_MatchChecker, "python_check", counted)
    return games


def answer(text: str, engine: Engine) -> str:
    """The verdict JSON of ``check_record``, then that of ``check_and_write`` with its
    canonical record; or the refusal's code."""
    try:
        written = check_and_write(text, engine=engine)
        verdicts = [check_record(text, engine=engine).to_json(), written.verdict.to_json()]
        return json.dumps(verdicts) + written.canonical
    except RefereeError as error:
        return f"refused: {error.code}"


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_clean_records_are_checked_natively(
    native: ModuleType, checked_by_python: list[int]
) -> None:
    # Every variant: the worked examples of backgammon, long nardy (a mars, the head rule)
    # and khachapuri (difference scoring) pass whole through the native checker.
    examples = [
        EXAMPLES / f"{name}_match.mat" for name in ("backgammon", "long_nardy", "khachapuri")
    ]
    texts = [RECORD, (require(MAT) / CLEAN).read_text(), *(p.read_text() for p in examples)]
    variants = set()
    for text in texts:
        verdict = check_record(text, engine=native_engine())
        variants.add(verdict.variant)
        assert verdict.valid
        assert not any(game.warnings for game in verdict.games)
        assert checked_by_python == []
        assert check_record(text, engine=PYTHON) == verdict
        assert checked_by_python == [game.index for game in verdict.games]
        checked_by_python.clear()
    assert variants == {"backgammon", "long-nardy", "khachapuri"}


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        (lambda t: t.replace("Bob : 0", "Bob : \u0660"), "unicode"),  # an Arabic-Indic zero
        (lambda t: t.replace("Takes", "Ta\u212akes"), "unicode"),  # the Kelvin sign folds to k
        (lambda t: t.replace("Alice : 0", "Alice\u00a0: 0"), "unicode"),  # no-break space
        (lambda t: t.replace("Alice : 1", "Al\udc80ice : 1"), "unicode"),  # JSON's lone "\udc80"
        (lambda t: t.replace("8/4 6/4", "8/4 6/4 é"), "non_ascii_row"),
        (lambda t: t.replace(" Game 1", "; Set Pos=...\n Game 1\n; Set Pos=x"), "edit"),
        (lambda t: t.replace("Drops", "Drops  52: Illegal play (1,2)"), "edit"),
        (lambda t: t.replace(" 3 point match", " 3 point match\nhello"), "unexpected_line"),
        (lambda t: t.replace(" Alice : 0", " Alice 0"), "score_line"),
        (lambda t: t.replace("Takes", "Takes it"), "unreadable_cell"),
        (lambda t: t.replace("8/4 6/4", "8/4 6/4" + " " * 5000), "long_line"),
    ],
)
def test_the_reader_declines_what_it_might_read_differently(
    native: ModuleType, edit: object, why: str
) -> None:
    text = edit(RECORD)  # type: ignore[operator]
    assert native.read_record(text, 10, 100, 1000) == why
    reference, candidate = by_both(lambda engine: answer(text, engine))
    assert candidate == reference


@pytest.mark.parametrize(
    ("limits", "reason"),
    [
        (WorkLimits(games=1), "too_many_games"),
        (WorkLimits(actions_per_game=3), "too_many_actions_per_game"),
        (WorkLimits(actions=5), "too_many_actions"),
    ],
)
def test_a_record_past_a_reading_limit_is_refused_as_the_python_reader_refuses_it(
    native: ModuleType, monkeypatch: pytest.MonkeyPatch, limits: WorkLimits, reason: str
) -> None:
    assert native.read_record(RECORD, limits.games, limits.actions_per_game, limits.actions) == (
        reason
    )

    def refusal(engine: Engine) -> tuple[str, str, str, dict[str, Any]]:
        with pytest.raises(RefereeError) as refused:
            check_record(RECORD, limits=limits, engine=engine)
        error = refused.value
        return type(error).__name__, error.code, error.message, error.extensions

    reference, candidate = by_both(refusal)
    assert candidate == reference
    assert reference[1] in {"too_many_games", "work_limit"}
    # The native reader's refusal stands: the record is not read again in Python.
    read_again: list[str] = []
    monkeypatch.setattr(match_module, "read_as", lambda *args: read_again.append("read"))
    assert refusal(native_engine()) == reference
    assert read_again == []


def test_only_the_game_with_something_to_say_is_checked_by_python(
    native: ModuleType, checked_by_python: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    illegal = RECORD.replace("24/18 13/9", "24/18 13/8")  # 6-4 played as 6-5, in game 2
    read_by_python: list[str] = []

    def read_mat(text: str, first_line: int = 1) -> Any:
        read_by_python.append(text)
        return mat_reader.read_mat(text, first_line=first_line)

    monkeypatch.setattr(native_record, "read_mat", read_mat)
    assert read_natively(illegal, WorkLimits(), native_engine()) is not None
    verdict = check_record(illegal, engine=native_engine())
    assert checked_by_python == [2]
    assert [issue.code for issue in verdict.games[1].errors] == ["illegal_play"]
    # Python read that game alone, not the whole record again.
    assert len(read_by_python) == 1 and read_by_python[0].count("Game") == 1
    reference, candidate = by_both(lambda engine: answer(illegal, engine))
    assert candidate == reference


def test_plays_of_more_than_four_moves_are_left_to_python(native: ModuleType) -> None:
    # A repeat count could make one row hold thousands of moves: no play has more than
    # four, so the native reader declines the record and Python words the illegal play.
    chain = "/".join(str(point) for point in range(24, 0, -1))
    text = RECORD.replace("24/18 13/9", f"{chain}(15)")
    assert native.read_record(text, 10, 100, 1000) == "unreadable_cell"
    reference, candidate = by_both(lambda engine: answer(text, engine))
    assert candidate == reference
    assert '"illegal_play"' in reference


INSERTS = [" ", "  ", "*", "/", ":", "(", ")", "(2)", "-", "1", "6", "0", "b", "o", "s", "\t"]
INSERTS += ["\r", "\n", ",", "=>", "Wins 1 point", " and the match", "Takes", "\u00a0", "é"]


def text_mutation(text: str, rng: random.Random) -> str:
    """``text`` with one character-level edit: an insertion, a deletion, or a line doubled."""
    at = rng.randrange(len(text))
    kind = rng.randrange(4)
    if kind == 0:
        return text[:at] + text[at + 1 :]
    if kind == 1:
        lines = text.splitlines(keepends=True)
        line = rng.randrange(len(lines))
        return "".join(lines[: line + 1] + lines[line:])
    return text[:at] + rng.choice(INSERTS) + text[at:]


@pytest.mark.parametrize("path", CORPUS[1::3], ids=lambda p: p.name)
def test_text_mutations_get_the_same_answer(native: ModuleType, path: Path) -> None:
    rng = random.Random(f"text {path.name}")
    original = path.read_text(encoding="utf-8-sig")
    for _ in range(12):
        text = original
        for _ in range(rng.randint(1, 3)):
            text = text_mutation(text, rng)
        reference, candidate = by_both(lambda engine, text=text: answer(text, engine))  # type: ignore[misc]
        assert candidate == reference, text


def test_a_clean_record_is_checked_without_the_python_game_checker(native: ModuleType) -> None:
    # Most of a command-line check's time is its imports: a record the native core passes
    # whole (and without start positions) needs neither the Python game checker nor its
    # judge and move generator.
    record = str(require(MAT) / CLEAN)
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "referee.cli", "check", record],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "NARDY_REFEREE_ENGINE": "native"},
    )
    loaded = {line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines() if "|" in line}
    assert "referee.adjudication.match" in loaded
    assert "valid" in run.stdout
    python_checker = {"referee.adjudication.game", "referee.rules.judge", "referee.rules.movegen"}
    assert loaded & python_checker == set()


def test_a_timed_out_record_scores_its_award_alike(native: ModuleType) -> None:
    # [Termination "timeout"]: the last game's Wins line is the referee's award (LIVE.md §4).
    text = RECORD.replace("; [Variation", '; [Termination "timeout"]\n; [Variation')
    reference, candidate = by_both(lambda engine: answer(text, engine))
    assert candidate == reference
    verdict = check_record(text, engine=native_engine())
    assert [str(game.result.termination) for game in verdict.games] == ["drop", "timeout"]
