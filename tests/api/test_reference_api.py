"""The reference endpoints: the variants with their options (RULES.md §12.1) and position
conversion between position strings, gnubg ids and XGIDs (FORMATS.md part 2)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from referee.app import create_app
from tests.api.support import archive_at, assert_names_field, assert_problem, get_json

BG_START_POINTS = "2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w"
BG_START = f"backgammon {BG_START_POINTS} w0b0 w0b0 - - 1c 0:0-0 -"
LN_START = "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 - - - 0:0-0 -"


# -- variants --------------------------------------------------------------------------------

# RULES.md §12.1: option -> (type, default, enum values), and the variants each applies to.
OPTIONS: dict[str, tuple[str, object, list[str] | None]] = {
    "head_exception": (
        "enum",
        "unconditional",
        ["unconditional", "only_if_needed", "opponent_head_only", "none"],
    ),
    "first_turn_scope": ("enum", "each_player", ["each_player", "game_first_turn"]),
    "block_rule": ("enum", "ahead", ["ahead", "home"]),
    "block_timing": ("enum", "per_move", ["per_move", "end_of_turn"]),
    "judge": ("enum", "position", ["position", "sequence"]),
    "draw_rule": ("boolean", False, None),
    "draw_scoring": ("enum", "after_extra_turn", ["after_extra_turn", "at_finish"]),
    "koks": ("boolean", False, None),
    "cube": ("boolean", True, None),
    "cube_limit": ("integer", 64, None),
    "beavers": ("boolean", False, None),
    "auto_doubles": ("integer", 0, None),
    "jacoby": ("boolean", True, None),
    "crawford": ("boolean", True, None),
}
VARIANT_OPTIONS = {
    "backgammon": {"judge", "cube", "cube_limit", "beavers", "auto_doubles", "jacoby", "crawford"},
    "long-nardy": {
        "head_exception",
        "first_turn_scope",
        "block_rule",
        "block_timing",
        "judge",
        "draw_rule",
        "draw_scoring",
        "koks",
    },
    "khachapuri": {"block_rule", "block_timing", "judge", "draw_rule", "draw_scoring"},
}
ALIASES = {"backgammon": {"bg", "short-nardy"}, "long-nardy": {"ln"}, "khachapuri": {"kh"}}


@pytest.fixture(scope="module")
def variants(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    database = archive_at(tmp_path_factory.mktemp("variants"))
    body = get_json(create_app({"DATABASE": str(database)}).test_client(), "/v1/variants")
    return {variant["id"]: variant for variant in body["variants"]}


def test_the_three_variants_are_listed(variants: dict[str, Any]) -> None:
    assert set(variants) == {"backgammon", "long-nardy", "khachapuri"}
    for variant_id, aliases in ALIASES.items():
        assert set(variants[variant_id]["aliases"]) >= aliases


@pytest.mark.parametrize("variant_id", sorted(VARIANT_OPTIONS))
def test_each_variants_options_follow_rules_12_1(variants: dict[str, Any], variant_id: str) -> None:
    options = {option["name"]: option for option in variants[variant_id]["options"]}
    assert set(options) == VARIANT_OPTIONS[variant_id]
    for name, option in options.items():
        kind, default, values = OPTIONS[name]
        assert option["type"] == kind, name
        assert option["default"] == default and type(option["default"]) is type(default), name
        if values is not None:
            assert option["values"] == values, name


def test_a_few_options_by_hand(variants: dict[str, Any]) -> None:
    def option(variant_id: str, name: str) -> dict[str, Any]:
        (found,) = [o for o in variants[variant_id]["options"] if o["name"] == name]
        return found

    limit = option("backgammon", "cube_limit")
    assert (limit["type"], limit["default"]) == ("integer", 64)
    head = option("long-nardy", "head_exception")
    assert (head["type"], head["default"]) == ("enum", "unconditional")
    for variant_id in ("long-nardy", "khachapuri"):
        draw = option(variant_id, "draw_rule")
        assert (draw["type"], draw["default"]) == ("boolean", False)
    assert "draw_rule" not in {o["name"] for o in variants["backgammon"]["options"]}


# -- position conversion ---------------------------------------------------------------------


def convert(client: FlaskClient, position: str, to: str) -> dict[str, str]:
    response = client.post("/v1/positions/convert", json={"position": position, "to": to})
    assert response.status_code == 200, response.get_data(as_text=True)
    body: dict[str, str] = response.get_json()
    return body


@pytest.fixture
def client(tmp_path: Path) -> FlaskClient:
    return create_app({"DATABASE": archive_at(tmp_path)}).test_client()


def test_the_start_position_as_a_gnubg_id(client: FlaskClient) -> None:
    result = convert(client, BG_START, "gnubg")["result"]
    position_id, match_id = result.split(":")
    assert position_id == "4HPwATDgc/ABMA"  # FORMATS.md part 2, P1
    assert re.fullmatch(r"[A-Za-z0-9+/]{12}", match_id)


@pytest.mark.parametrize(
    ("gnubg_id", "position"),
    [
        # M2: money game, player 0 (White) has rolled 31, centred cube.
        ("4HPwATDgc/ABMA:MIEFAAAAAAAA", f"backgammon {BG_START_POINTS} w0b0 w0b0 w 31 1c 0:0-0 -"),
        # M8 (from X5): 7-point match, White 6 - Black 2, Crawford game, Black has rolled 42.
        ("4HPwATDgc/ABMA:8AnqAGAAEAAE", f"backgammon {BG_START_POINTS} w0b0 w0b0 b 42 1c 7:6-2 c"),
    ],
)
def test_a_gnubg_id_as_a_position_string(client: FlaskClient, gnubg_id: str, position: str) -> None:
    body = convert(client, gnubg_id, "position")
    assert body["result"] == position
    assert body["position"] == position


def test_an_xgid_as_a_gnubg_id(client: FlaskClient) -> None:
    """FORMATS.md part 2, X3: a one-sided position (bottom player on the bar, rolled 52)."""
    xgid = "XGID=-aa--CCBCa--ca---a-c-bb-CA:0:0:1:52:0:1:0:5:10"
    position_id, match_id = convert(client, xgid, "gnubg")["result"].split(":")
    assert position_id == "bE7oCChwtwMAXA"
    assert match_id[:11] == "cImqABAAAAAE"[:11]  # bit 66 (Jacoby) may differ: §2


def test_position_to_xgid_and_back(client: FlaskClient) -> None:
    position = f"backgammon {BG_START_POINTS} w0b0 w0b0 w 31 1c 0:0-0 -"
    xgid = convert(client, position, "xgid")["result"]
    # The symmetric start board is X1's; White (gnubg's player 0) is the top player: turn -1.
    assert xgid.split(":")[:7] == [
        "XGID=-b----E-C---eE---c-e----B-",
        "0",
        "0",
        "-1",
        "31",
        "0",
        "0",
    ]
    assert convert(client, xgid, "position")["result"] == position


def test_xgid_to_position_and_back(client: FlaskClient) -> None:
    xgid = "XGID=-aa--CCBCa--ca---a-c-bb-CA:0:0:1:52:0:1:0:5:10"
    position = convert(client, xgid, "position")["result"]
    # Bottom = Black (on the bar, to play 52), top = White; XGID point i is Black's own i,
    # White's 25 - i. Scores: bottom 0, top 1, so White 1 - Black 0 in a 5-point match.
    points = "3b,,2w,2w,,3w,,1w,,,,1w,3w,,,1w,3b,2b,3b,3b,,,1w,1w"
    assert position == f"backgammon {points} w0b1 w0b0 b 52 1c 5:1-0 -"
    back = convert(client, position, "xgid")["result"].split(":")
    assert back[:9] == xgid.split(":")[:9]  # the max cube field is free


@pytest.mark.parametrize(
    ("position", "to"),
    [
        (LN_START, "gnubg"),
        (LN_START, "xgid"),
        ("khachapuri ,,,,,11w,,,,,,4b,,,,,,11b,,,,,,4w w0b0 w0b0 - - - 0:0-0 -", "gnubg"),
        ("garbage", "position"),
        ("garbage", "gnubg"),
        ("XGID=nonsense:0:0:1:52:0:1:0:5:10", "position"),
        ("4HPwATDgc/ABMA:!!!!!!!!!!!!", "position"),
        (f"backgammon {BG_START_POINTS} w0b0 w0b0", "gnubg"),
    ],
)
def test_unconvertible_positions_are_422(client: FlaskClient, position: str, to: str) -> None:
    response = client.post("/v1/positions/convert", json={"position": position, "to": to})
    assert_problem(response, 422)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"position": BG_START, "to": "fen"}, "to"),
        ({"position": BG_START}, "to"),
        ({"to": "gnubg"}, "position"),
        ({"position": "", "to": "gnubg"}, "position"),
    ],
)
def test_convert_request_errors_name_the_field(
    client: FlaskClient, body: dict[str, str], field: str
) -> None:
    response = client.post("/v1/positions/convert", json=body)
    assert_names_field(response, field)
