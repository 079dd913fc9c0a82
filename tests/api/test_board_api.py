"""``GET /v1/positions/svg`` and ``nardy-referee draw``: the board as an image."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from referee.app import create_app
from referee.cli import main
from tests.api.support import archive_at

LN_START = "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 - - - 0:0-0 -"
# One checker 24/18/13 (a 6-5 from the head), Black to roll.
LN_AFTER_65 = "long-nardy ,,,,,,,,,,,15b,1w,,,,,,,,,,,14w w0b0 w0b0 b - - 0:0-0 -"


@pytest.fixture
def client(tmp_path: Path) -> FlaskClient:
    return create_app({"DATABASE": archive_at(tmp_path)}).test_client()


def test_the_board_is_svg_with_a_strong_etag_that_answers_304(client: FlaskClient) -> None:
    response = client.get("/v1/positions/svg", query_string={"position": "ln" + LN_START[10:]})
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    etag = response.headers["ETag"]
    assert etag.startswith('"')  # strong: no W/ prefix
    assert ET.fromstring(response.data).get("data-position") == LN_START
    again = client.get(
        "/v1/positions/svg", query_string={"position": LN_START}, headers={"If-None-Match": etag}
    )
    assert again.status_code == 304  # the alias and the canonical string are one image


def test_orientation_and_size_make_other_images(client: FlaskClient) -> None:
    tags = {
        client.get("/v1/positions/svg", query_string={"position": LN_START, **extra}).headers[
            "ETag"
        ]
        for extra in ({}, {"orientation": "b"}, {"size": "300"})
    }
    assert len(tags) == 3


def test_before_marks_the_points_the_play_changed(client: FlaskClient) -> None:
    response = client.get(
        "/v1/positions/svg", query_string={"position": LN_AFTER_65, "before": LN_START}
    )
    root = ET.fromstring(response.data)
    marked = {
        element.get("data-point") for element in root.iter() if element.get("class") == "mark"
    }
    assert marked == {"24", "13"}


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ({"position": "long-nardy 15w"}, "invalid_notation"),
        ({"position": LN_START.replace("15w", "14w")}, "invalid_position"),
        ({"position": LN_START, "orientation": "x"}, "validation_failed"),
        ({}, "validation_failed"),
    ],
)
def test_a_bad_position_is_a_422_problem(
    client: FlaskClient, query: dict[str, str], code: str
) -> None:
    response = client.get("/v1/positions/svg", query_string=query)
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert response.json is not None and response.json["code"] == code


def test_draw_prints_the_same_board(
    capsys: pytest.CaptureFixture[str], client: FlaskClient
) -> None:
    assert main(["draw", LN_START, "--orientation", "b"]) == 0
    printed = capsys.readouterr().out
    served = client.get(
        "/v1/positions/svg", query_string={"position": LN_START, "orientation": "b"}
    )
    assert printed.strip() == served.get_data(as_text=True)


def test_draw_refuses_a_bad_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draw", "long-nardy 15w"]) == 2
    assert "invalid_notation" in capsys.readouterr().err


def test_before_with_dice_draws_them_as_the_roll_just_played(client: FlaskClient) -> None:
    # LN_START with White's 6-5 to play: the image after the play shows White's 6-5.
    rolled = LN_START.replace(" - - - ", " w 65 - ")
    query = {"position": LN_AFTER_65, "before": rolled, "white": "Ann"}
    root = ET.fromstring(client.get("/v1/positions/svg", query_string=query).data)
    dice = [g for g in root.iter() if g.get("class") == "dice"]
    assert [g.get("data-dice") for g in dice] == ["65"]
    # 15 checkers on the head, 360 pips, less the 11 of the 6-5
    assert any(text.text == "Ann · 349 pips · rolled 6-5" for text in root.iter())
    plain = ET.fromstring(
        client.get("/v1/positions/svg", query_string={**query, "before": LN_START}).data
    )
    assert not [g for g in plain.iter() if g.get("class") == "dice"]
