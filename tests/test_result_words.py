"""Every text that names how a game was won says it in the game's own words: a gammon and
a backgammon in backgammon, an oin, a mars and a koks in long nardy, a mars in khachapuri;
the JSON keeps the machine names of NOTATION.md §4 (``single``, ``mars``, ``koks``).

The words are written here by hand (RULES.md §9.2, §11, §14); the check page already says
gammon and backgammon, and the command line says the same."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee.adjudication import check_record
from referee.adjudication.budget import OFFLINE
from referee.cli import main
from referee.cli.check import describe_verdict, result_words
from referee.rules import engine
from referee.rules.scoring import GameResult, Termination
from referee.rules.variants import WinKind
from tests.api.test_matches_api import Env, make_env
from tests.played import sessions
from vocabulary import Side

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
KINDS = {
    "backgammon": {"single": "a single game", "mars": "a gammon", "koks": "a backgammon"},
    "long-nardy": {"single": "an oin", "mars": "a mars", "koks": "a koks"},
    "khachapuri": {"single": "by the borne-off difference", "mars": "a mars"},
}
ENDINGS = {"drop": "a dropped double", "draw": "a draw", "unfinished": "unfinished"}
MACHINE = {"bore_off", "resign", "drop", "timeout", "single"}
"""Machine names that no text for people shows as a word of its own (``mars`` and ``koks``
are also the nardy words, ``unfinished`` the English one; ``single`` only in ``a single
game``)."""


def result(termination: Termination, kind: WinKind | None, cube: int = 1) -> GameResult:
    winner = None if termination in (Termination.DRAW, Termination.UNFINISHED) else Side.WHITE
    return GameResult(winner, termination, kind, cube, None, False, 1)


@pytest.mark.parametrize("variant", KINDS)
def test_each_kind_of_win_in_the_variants_words(variant: str) -> None:
    for kind, words in KINDS[variant].items():
        assert result_words(variant, result(Termination.BORE_OFF, WinKind(kind))) == words
        resigned = result(Termination.RESIGN, WinKind(kind), cube=4)
        assert result_words(variant, resigned) == f"{words}, by resignation, cube 4"


def test_the_endings_without_a_kind() -> None:
    for termination, words in ENDINGS.items():
        for variant in KINDS:
            assert result_words(variant, result(Termination(termination), None)) == words
    assert result_words("backgammon", result(Termination.DROP, None, cube=2)) == (
        "a dropped double, cube 2"
    )


def described(record: str) -> list[tuple[str, str]]:
    """(variant, the words in parentheses) of each game line ``check`` prints."""
    path = Path("record.mat")
    verdict = check_record(record, None, "strict", {}, OFFLINE, engine.CHOSEN)
    lines = describe_verdict(path, verdict).splitlines()[1:]
    games = [
        re.fullmatch(r"  game \d+: .+ wins \d+ \((.*)\), score \d+-\d+", line) for line in lines
    ]
    return [(verdict.variant, found[1]) for found in games if found is not None]


def test_every_game_line_of_check_names_its_result_in_words() -> None:
    records = [text for _, text in sessions()]
    records += [path.read_text() for path in sorted(EXAMPLES.glob("*.mat"))]
    seen: dict[str, set[str]] = {variant: set() for variant in KINDS}
    for record in records:
        for variant, words in described(record):
            seen[variant].add(words)
            main_words = words.split(", ")[0]
            allowed = set(KINDS[variant].values()) | set(ENDINGS.values())
            assert main_words in allowed, (variant, words)
            plain = words.replace("a single game", "").replace(",", " ").split()
            assert not MACHINE & set(plain), words
            if variant == "backgammon":
                assert "mars" not in words and "koks" not in words
    # The sessions hold every kind the variants have (resignations are rarer).
    assert {w.split(", ")[0] for w in seen["backgammon"]} >= {"a single game", "a gammon"}
    assert {w.split(", ")[0] for w in seen["long-nardy"]} >= {"an oin", "a mars"}
    assert {w.split(", ")[0] for w in seen["khachapuri"]} >= {
        "by the borne-off difference",
        "a mars",
    }


def test_the_json_keeps_the_machine_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--json", str(EXAMPLES)]) == 0
    kinds = {
        game["kind"]
        for line in capsys.readouterr().out.splitlines()
        for game in json.loads(line)["games"]
    }
    assert kinds == {None, "single", "mars"}


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return make_env(tmp_path / "words.sqlite3")


@pytest.mark.parametrize(
    ("example", "page", "line"),
    [
        ("backgammon_match.mat", "Alice, gammon", "game 3: Alice wins 4 (a gammon, cube 2)"),
        ("long_nardy_match.mat", "Bob, mars", "game 2: Bob wins 2 (a mars)"),
        ("khachapuri_match.mat", "Bob, mars", "game 2: Bob wins 30 (a mars)"),
    ],
)
def test_the_page_and_the_command_line_say_the_same(
    env: Env, capsys: pytest.CaptureFixture[str], example: str, page: str, line: str
) -> None:
    record = (EXAMPLES / example).read_text()
    html = env.client.post("/check", data={"record": record}).get_data(as_text=True)
    assert page in " ".join(re.sub(r"<[^>]+>", " ", html).split())
    main(["check", str(EXAMPLES / example)])
    assert line in capsys.readouterr().out
