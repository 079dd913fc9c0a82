"""Query strings (issue 18): a refused query names its parameters, never "the request body";
a value outside a closed set (variant, mode, format, orientation) is a 422 naming the
parameter and the values allowed; variant aliases (NOTATION.md §1) are accepted."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from referee.app import create_app
from tests.api.support import archive_at, assert_problem
from tests.server import write_token

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
LN = "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w 66 - 0:0-0 -"
VARIANTS = {
    "backgammon": ("bg", "short-nardy"),
    "long-nardy": ("ln",),
    "khachapuri": ("kh",),
}
"""The ids and the aliases NOTATION.md §1 gives them."""
TEXT = {"content_type": "text/plain"}


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[FlaskClient, str]]:
    """A client on an archive holding the three example matches (ids 1, 2, 3 in the order
    backgammon, long nardy, khachapuri), and a write token."""
    database = archive_at(tmp_path_factory.mktemp("queries"))
    token = write_token(database)
    client = create_app({"DATABASE": str(database)}).test_client()
    for name in ("backgammon_match.mat", "long_nardy_match.mat", "khachapuri_match.mat"):
        record = (EXAMPLES / name).read_text()
        stored = client.post("/v1/matches", json={"record": record}, headers=bearer(token))
        assert stored.status_code == 201, stored.get_data(as_text=True)
    yield client, token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def record(name: str = "backgammon_match.mat") -> str:
    return (EXAMPLES / name).read_text()


def refused_query(response: Any, *names: str) -> dict[str, Any]:
    """A 422 naming each of ``names`` as a query parameter, and no request body."""
    problem: dict[str, Any] = assert_problem(response, 422, "validation_failed")
    for name in names:
        assert f"the query parameter {name} is not valid: " in problem["detail"], problem
        assert {"field": name, "in": "query"}.items() <= next(
            error for error in problem["errors"] if error["field"] == name
        ).items()
    assert "the request body" not in problem["detail"], problem
    return problem


QUERY_CASES = [
    ("get", f"/v1/positions/svg?position={LN}&orientation=x", {}, ["orientation"]),
    ("get", f"/v1/positions/svg?position={LN}&size=1", {}, ["size"]),
    ("get", "/v1/positions/svg?orientation=b", {}, ["position"]),
    ("get", f"/v1/positions/svg?position={LN}&colour=red", {}, ["colour"]),
    ("get", "/v1/matches?limit=0", {}, ["limit"]),
    ("get", "/v1/matches?from=yesterday&cursor=0", {}, ["from", "cursor"]),
    ("get", "/v1/matches?valid=perhaps&sort=name", {}, ["valid", "sort"]),
    ("get", "/v1/matches?variant=chess", {}, ["variant"]),
    ("get", "/v1/matches/1?format=sgfx", {}, ["format"]),
    ("post", "/v1/records/check?mode=lenient", {"data": record(), **TEXT}, ["mode"]),
    ("post", "/v1/records/check?variant=chess", {"data": record(), **TEXT}, ["variant"]),
    ("post", "/v1/records/check?options=" + "x" * 513, {"data": record(), **TEXT}, ["options"]),
    ("post", "/v1/records/check?options=crawford", {"data": record(), **TEXT}, ["options"]),
    ("post", "/v1/records/check?record=x", {"data": record(), **TEXT}, ["record"]),
    ("post", "/v1/records/check?game=1", {"data": record(), **TEXT}, ["game"]),
    ("post", "/v1/matches?allow_invalid=maybe", {"data": record(), **TEXT}, ["allow_invalid"]),
    ("post", "/v1/matches?variant=chess", {"data": record(), **TEXT}, ["variant"]),
]


@pytest.mark.parametrize(
    ("method", "url", "kwargs", "names"), QUERY_CASES, ids=[case[1][:60] for case in QUERY_CASES]
)
def test_a_refused_query_names_its_parameters(
    archive: tuple[FlaskClient, str],
    method: str,
    url: str,
    kwargs: dict[str, Any],
    names: list[str],
) -> None:
    client, token = archive
    response = client.open(url, method=method.upper(), headers=bearer(token), **kwargs)
    refused_query(response, *names)


def test_a_refused_body_still_names_its_fields(archive: tuple[FlaskClient, str]) -> None:
    client, _ = archive
    body = {"record": "", "mode": "lenient"}
    problem = assert_problem(client.post("/v1/records/check", json=body), 422, "validation_failed")
    assert problem["detail"] == "the request body is not valid: record, mode"
    assert {(error["field"], error["in"]) for error in problem["errors"]} == {
        ("record", "body"),
        ("mode", "body"),
    }


def test_an_empty_text_record_is_a_body_problem_beside_a_good_query(
    archive: tuple[FlaskClient, str],
) -> None:
    client, _ = archive
    response = client.post("/v1/records/check?mode=condone", data="", **TEXT)
    problem = assert_problem(response, 422, "validation_failed")
    assert problem["detail"] == "the request body is not valid: record"


@pytest.mark.parametrize(
    ("url", "kwargs", "name", "allowed"),
    [
        ("/v1/matches?variant=chess", {}, "variant", None),
        ("/v1/records/check?variant=chess", {"data": record(), **TEXT}, "variant", None),
        ("/v1/matches?variant=chess", {"data": record(), **TEXT}, "variant", None),
        (
            "/v1/records/check?mode=lenient",
            {"data": record(), **TEXT},
            "mode",
            {"strict", "condone"},
        ),
        ("/v1/matches/1?format=sgfx", {}, "format", {"canonical", "original"}),
        (f"/v1/positions/svg?position={LN}&orientation=x", {}, "orientation", {"w", "b"}),
    ],
)
def test_an_unknown_value_of_a_closed_set_names_the_values_allowed(
    archive: tuple[FlaskClient, str], url: str, kwargs: dict[str, Any], name: str, allowed: Any
) -> None:
    client, token = archive
    method = "POST" if "data" in kwargs else "GET"
    problem = refused_query(client.open(url, method=method, headers=bearer(token), **kwargs), name)
    [message] = [error["message"] for error in problem["errors"] if error["field"] == name]
    names = allowed or {name for id_, aliases in VARIANTS.items() for name in (id_, *aliases)}
    listed = {word.strip(" .") for word in message.partition(":")[2].split(",")}
    assert names <= listed


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("long-nardy", {2}),
        ("LN", {2}),
        ("kh", {3}),
        ("Khachapuri-Nardy", {3}),
        ("short-nardy", {1}),
        (" bg ", {1}),
    ],
)
def test_the_search_takes_variant_ids_and_aliases(
    archive: tuple[FlaskClient, str], name: str, expected: set[int]
) -> None:
    client, _ = archive
    response = client.get("/v1/matches", query_string={"variant": name})
    assert response.status_code == 200, response.get_data(as_text=True)
    assert {found["id"] for found in response.get_json()["matches"]} == expected


def test_a_text_record_query_takes_a_variant_alias(archive: tuple[FlaskClient, str]) -> None:
    client, _ = archive
    response = client.post(
        "/v1/records/check?variant=ln&mode=condone", data=record("long_nardy_match.mat"), **TEXT
    )
    assert response.status_code == 200, response.get_data(as_text=True)
    assert (response.get_json()["variant"], response.get_json()["mode"]) == (
        "long-nardy",
        "condone",
    )
