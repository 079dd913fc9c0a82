"""The builtin nardy engine as a player: the question it reads (the position string, with
the play options that differ from the defaults), its answers (always a legal play, checked
against the Python rules engine under each option), its shipped weights, and UBGI on
stdin/stdout (in process and as the bridge's UBGI client starts it)."""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Iterator

import pytest

from referee.cli.ubgi import serve
from referee.errors import RefereeError
from referee.players import open_engine
from referee.players.builtin import BuiltinEngine, builtin_engine, network
from referee.players.fibs import NotBackgammonError
from referee.players.nardy import NotNardyError, nardy_question, read_question
from referee.players.seat import EngineStrategy, refuse_variant
from referee.players.ubgi import UbgiEngine
from referee.plays import PlaysService
from referee.rules import engine as rules_engine
from tests.native.conftest import native  # noqa: F401 (the fixture: built, or skipped)

pytestmark = pytest.mark.usefixtures("native")

LONG_START = "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0"
KHACHAPURI_START = "khachapuri ,,,,,11w,,,,,,4b,,,,,,11b,,,,,,4w w0b0 w0b0"
OPTIONS = [
    ("long-nardy", {}),
    ("long-nardy", {"head_exception": "none", "block_timing": "end_of_turn"}),
    ("long-nardy", {"block_rule": "home", "first_turn_scope": "game_first_turn"}),
    ("long-nardy", {"head_exception": "only_if_needed"}),
    ("khachapuri", {}),
    ("khachapuri", {"block_timing": "end_of_turn", "block_rule": "home"}),
]


def with_dice(position: str, dice: tuple[int, int]) -> str:
    fields = position.split()
    fields[5] = f"{max(dice)}{min(dice)}"
    return " ".join(fields)


def walk(start: str, options: dict[str, str], seed: int, turns: int) -> Iterator[str]:
    """Positions (with dice) of a game in which both sides play at random."""
    rng = random.Random(seed)
    position = start + " w - - 0:0-0 -"
    for _ in range(turns):
        position = with_dice(position, (rng.randint(1, 6), rng.randint(1, 6)))
        yield position
        plays = PlaysService(position, options, rules_engine.PYTHON).legal()
        position = rng.choice(plays).position
        if " end " in position:
            return


def question(position: str, options: dict[str, str]) -> str:
    state = {"variant": position.split()[0], "position": position, "options": options}
    return nardy_question(state)


@pytest.mark.parametrize(("variant", "options"), OPTIONS)
def test_the_engine_ranks_exactly_the_legal_plays(variant: str, options: dict[str, str]) -> None:
    """At every turn of a random game, the plays the engine ranks are those the Python
    rules engine lists, under the match's options; its answer is the best of them."""
    start = LONG_START if variant == "long-nardy" else KHACHAPURI_START
    engine = BuiltinEngine(0)
    seen = 0
    for position in walk(start, options, seed=len(options), turns=60):
        asked = read_question(question(position, options))
        ranked = engine.ranked(asked)
        legal = PlaysService(position, options, rules_engine.PYTHON).legal_texts()
        assert sorted(play.play for play in ranked) == sorted(legal), position
        assert engine.ask(question(position, options)) == ranked[0].play
        assert all(0.0 <= play.win <= 1.0 for play in ranked)
        seen += 1
    assert seen > 20


def test_one_ply_searches_the_best_few_again() -> None:
    asked = read_question(KHACHAPURI_START + " w 53 - 0:0-0 -")
    ranked = BuiltinEngine(1).ranked(asked)
    deep = [play for play in ranked if play.plies == 1]
    assert 1 <= len(deep) <= 8 and ranked[: len(deep)] == deep
    assert [p.equity for p in deep] == sorted((p.equity for p in deep), reverse=True)


def test_the_question_carries_only_the_options_that_change_the_plays() -> None:
    position = LONG_START + " w 66 - 0:0-0 -"
    defaults = {"head_exception": "unconditional", "draw_rule": True, "koks": True}
    assert question(position, defaults) == position
    changed = question(position, {"head_exception": "none", "block_timing": "end_of_turn"})
    assert changed == position + " ; head_exception=none, block_timing=end_of_turn"
    asked = read_question(changed)
    assert (asked.options.head_exception, asked.options.block_timing) == ("none", "end_of_turn")
    # The head exception lets two checkers go on a first 6-6, and "none" takes it away.
    engine = BuiltinEngine(0)
    assert engine.ask(position) == "24/18 24/18"
    assert engine.ask(changed) == "24/18"


def test_what_the_engine_answers_besides_plays() -> None:
    engine = BuiltinEngine(0)
    assert engine.ask(LONG_START + " b - - 0:0-0 -") == "roll"
    with pytest.raises(RefereeError):
        engine.ask("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5")
    with pytest.raises(RefereeError, match="nardy"):
        read_question("backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 w 31")
    with pytest.raises(RefereeError):
        read_question(LONG_START + " w 31 - 0:0-0 - ; block_rule=sideways")
    with pytest.raises(NotNardyError):
        nardy_question({"variant": "backgammon", "position": "..."})


def test_engine_specs() -> None:
    assert builtin_engine("builtin").plies == 1
    assert builtin_engine("builtin:0").plies == 0
    assert isinstance(open_engine("builtin:1"), BuiltinEngine)
    for wrong in ("builtin:2", "builtin:x"):
        with pytest.raises(ValueError):
            builtin_engine(wrong)


def test_the_engine_is_seated_for_nardy_matches_only() -> None:
    nardy = {"id": 4, "variant": "khachapuri"}
    backgammon = {"id": 5, "variant": "backgammon"}
    refuse_variant(nardy, BuiltinEngine())
    with pytest.raises(NotNardyError, match="long nardy and khachapuri only"):
        refuse_variant(backgammon, BuiltinEngine())
    with pytest.raises(NotBackgammonError, match="backgammon only"):
        refuse_variant(nardy)


def test_the_bridge_asks_it_the_position_and_plays_its_answer() -> None:
    position = KHACHAPURI_START + " b 42 - 0:0-0 -"
    state = {
        "variant": "khachapuri",
        "position": position,
        "options": {"block_rule": "ahead"},
        "to_act": "b",
        "players": {"w": "alice", "b": "bob"},
        "ply": 3,
        "expect": ["play", "resign"],
        "length": 1,
    }
    strategy = EngineStrategy(BuiltinEngine(0), session_options=True)
    action = strategy.choose(state)
    assert action["action"] == "play"
    assert action["play"] in PlaysService(position).legal_texts()
    assert strategy.last is not None and strategy.last.question == position


@pytest.mark.parametrize("variant", ["long-nardy", "khachapuri"])
def test_the_shipped_weights(variant: str) -> None:
    net = network(variant)
    assert net.variant == variant
    assert net.games > 0
    assert len(net.to_bytes()) < 1_000_000


def ubgi_session(lines: list[str]) -> list[str]:
    out = io.StringIO()
    serve(BuiltinEngine(0), lines, out)
    return out.getvalue().splitlines()


def test_ubgi_in_process() -> None:
    position = LONG_START + " w 63 - 0:0-0 -"
    answers = ubgi_session(["ubgi", "isready", "", "stop", position, "board:1:2:3", "quit", "x"])
    assert answers[0].startswith("id name ") and "id variants long-nardy khachapuri" in answers
    assert answers[answers.index("readyok") :] == ["readyok", "readyok", "24/18 18/15", "sorry"]


def test_ubgi_says_a_blank_line_when_there_is_no_move() -> None:
    # White's last checker on his 20 with 6-6: his 14 holds Black's last checker (Black's
    # own 2), so nothing moves.
    cells = [""] * 24
    cells[20 - 1], cells[14 - 1] = "1w", "1b"
    text = f"long-nardy {','.join(cells)} w0b0 w14b14 w 66 - 0:0-0 -"
    legal = PlaysService(text).legal_texts()
    assert legal == [""]
    assert ubgi_session([text]) == [""]


def test_ubgi_as_the_bridge_starts_it() -> None:
    engine = UbgiEngine(f"{sys.executable} -m referee.cli engine --ubgi --plies 0")
    try:
        assert engine.variants == {"long-nardy", "khachapuri"}
        assert engine.identity["name"] == "nardy-referee builtin"
        assert (
            engine.ask(KHACHAPURI_START + " w 21 - 0:0-0 -")
            in PlaysService(KHACHAPURI_START + " w 21 - 0:0-0 -").legal_texts()
        )
    finally:
        engine.close()
