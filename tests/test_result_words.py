"""Every text that names how a game was won says it in the game's own words: a gammon and
a backgammon in backgammon, an oin, a mars and a koks in long nardy, a mars in khachapuri;
the JSON keeps the machine names of NOTATION.md §4 (``single``, ``mars``, ``koks``).

The words are written here by hand (RULES.md §9.2, §11, §14); the check page already says
gammon and backgammon, and the command line says the same."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.adjudication import check_record
from referee.adjudication.budget import OFFLINE
from referee.board_svg import board_svg
from referee.cli import main
from referee.cli.check import describe_verdict
from referee.rules import engine
from referee.rules.words import result_words
from referee.storage import open_storage
from tests.api.test_matches_api import Env, bearer, make_env
from tests.played import sessions
from tests.positions import BG_START, KH_START, LN_START, bg, nardy

SVG = "{http://www.w3.org/2000/svg}"
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


@pytest.mark.parametrize("variant", KINDS)
def test_each_kind_of_win_in_the_variants_words(variant: str) -> None:
    for kind, words in KINDS[variant].items():
        assert result_words(variant, "bore_off", kind, 1) == words
        resigned = result_words(variant, "resign", kind, 4)
        assert resigned == f"{words}, by resignation, cube 4"


def test_the_endings_without_a_kind() -> None:
    for termination, words in ENDINGS.items():
        for variant in KINDS:
            assert result_words(variant, termination, None, 1) == words
    assert result_words("backgammon", "drop", None, 2) == "a dropped double, cube 2"


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


EXAMPLE_TABLES = {
    "backgammon_match.mat": [
        "Alice, a dropped double",
        "Bob, a single game, cube 2",
        "Alice, a gammon, cube 2",
    ],
    "long_nardy_match.mat": [
        "Alice, an oin",
        "Bob, a mars",
        "Draw",
        "Bob, an oin",
        "Alice, an oin",
        "Alice, a mars",
        "Bob, a mars",
    ],
    "khachapuri_match.mat": [
        "Alice, by the borne-off difference",
        "Bob, a mars",
        "Alice, by the borne-off difference",
        "Bob, by the borne-off difference",
        "Alice, a mars",
        "Alice, by the borne-off difference",
    ],
}
"""The Result column of each example's games table, read off the records by hand."""
GAME_ROW = re.compile(
    r'<tr class="[^"]*">\s*<th scope="row">.*?</th>\s*<td>.*?</td>\s*<td>(.*?)</td>', re.S
)


def result_cells(html: str) -> list[str]:
    """The Result cell of each row of a page's games table, as text."""
    table = html[html.index('<table class="games">') : html.index("</table>")]
    return [" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in GAME_ROW.findall(table)]


def check_page(env: Env, record: str) -> str:
    return env.client.post("/check", data={"record": record}).get_data(as_text=True)


@pytest.mark.parametrize("example", EXAMPLE_TABLES)
def test_the_games_table_says_what_the_command_line_says(
    env: Env, capsys: pytest.CaptureFixture[str], example: str
) -> None:
    cells = result_cells(check_page(env, (EXAMPLES / example).read_text()))
    assert cells == EXAMPLE_TABLES[example]
    main(["check", str(EXAMPLES / example)])
    printed = re.findall(r"  game \d+: (\S+) wins \d+ \((.*)\), score", capsys.readouterr().out)
    decided = [cell for cell in cells if cell != "Draw"]
    assert decided == [f"{name}, {words}" for name, words in printed if name != "nobody"]


def test_the_games_tables_of_played_sessions_use_only_the_variants_words(env: Env) -> None:
    """Resignations and cubes of every variant: each cell is a winner and the variant's
    words, never a machine name (backgammon never says mars or koks)."""
    seen: dict[str, set[str]] = {variant: set() for variant in KINDS}
    for _, record in sessions():
        variant = check_record(record, None, "strict", {}, OFFLINE, engine.CHOSEN).variant
        for cell in result_cells(check_page(env, record)):
            if cell == "Draw" or cell.startswith("No result"):
                continue
            words = cell.split(", ", 1)[1]
            seen[variant].add(words)
            assert words.split(", ")[0] in set(KINDS[variant].values()) | set(ENDINGS.values())
            assert not MACHINE & set(words.replace("a single game", "").replace(",", " ").split())
            if variant == "backgammon":
                assert "mars" not in words and "koks" not in words
    assert any(", by resignation" in words for words in seen["backgammon"]), seen
    assert {words.split(", ")[0] for words in seen["long-nardy"]} >= {"an oin", "a mars"}


RESIGNING = {
    "backgammon": lambda level: bg(BG_START, "w", f"r{level}"),
    "long-nardy": lambda level: nardy("long-nardy", LN_START, "w", f"r{level}"),
    "khachapuri": lambda level: nardy("khachapuri", KH_START, "w", f"r{level}"),
}
"""The start of each variant with White to answer Black's resignation offer of ``level``."""
OFFERS = {
    "backgammon": ("a single game", "a gammon", "a backgammon"),
    "long-nardy": ("an oin", "a mars", "a koks"),
    "khachapuri": ("by the borne-off difference", "a mars", "a mars"),  # no koks: at most a mars
}


@pytest.mark.parametrize("variant", RESIGNING)
def test_the_boards_resignation_notice_names_the_kind_in_the_variants_words(
    variant: str,
) -> None:
    for level, words in enumerate(OFFERS[variant], start=1):
        svg = board_svg(RESIGNING[variant](level))
        texts = [text.text for text in ET.fromstring(svg).iter(f"{SVG}text")]
        assert f"Black offers to resign {words}" in texts, (level, texts)


RESIGNED = {
    "backgammon": (3, "a backgammon, by resignation"),
    "long-nardy": (2, "a mars, by resignation"),
    "khachapuri": (30, "a mars, by resignation"),
}
"""A live money game resigned at once: the value offered, and the words of the result."""


@pytest.mark.parametrize("variant", RESIGNED)
def test_the_live_pages_finished_games_are_in_the_variants_words(env: Env, variant: str) -> None:
    value, words = RESIGNED[variant]
    storage = open_storage(env.database)
    try:
        bots = {name: storage.tokens.create(("play",), name).secret for name in ("al", "bo")}
    finally:
        storage.close()
    host = bearer(env.token("live:host")[1])
    body = {"variant": variant, "length": 0, "players": {"w": "al", "b": "bo"}}
    live_id = env.client.post("/v1/live", json=body, headers=host).get_json()["id"]
    for secret in bots.values():
        state = env.client.post(f"/v1/live/{live_id}/join", json={}, headers=bearer(secret))
    state = state.get_json()
    resigner = state["players"][state["to_act"]]
    action = {"ply": state["ply"], "action": "resign", "value": value}
    answer = env.client.post(
        f"/v1/live/{live_id}/actions", json=action, headers=bearer(bots[resigner])
    )
    assert answer.status_code == 200, answer.get_data(as_text=True)
    (game,) = answer.get_json()["games"]
    winner = state["players"][game["winner"]]
    assert winner != resigner
    html = env.client.get(f"/live/{live_id}").get_data(as_text=True)
    assert f"Game 1: {winner} wins {game['points']} ({words})" in html
