"""The checked-in openapi.yaml is current, valid OpenAPI, documents every route, and the
served API conforms to it (a bounded schemathesis run)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from flask import Flask
from openapi_spec_validator import validate

from referee.api.reference import SPEC_PATH
from referee.app import create_app
from referee.openapi import documented as in_the_document
from referee.openapi import spec_dict
from tests.api.support import archive_at


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    folder = tmp_path_factory.mktemp("openapi")
    return create_app({"DATABASE": archive_at(folder)})


def checked_in() -> dict[str, object]:
    loaded: dict[str, object] = yaml.safe_load(SPEC_PATH.read_text())
    return loaded


def test_checked_in_spec_is_what_the_app_generates_now(app: Flask) -> None:
    assert checked_in() == spec_dict(app), "run: .venv/bin/python -m referee.openapi"


def test_checked_in_spec_is_valid_openapi() -> None:
    validate(checked_in())  # type: ignore[arg-type]


def test_every_route_and_method_is_documented(app: Flask) -> None:
    paths = checked_in()["paths"]
    assert isinstance(paths, dict)
    documented = {
        (path, method.upper()) for path, operations in paths.items() for method in operations
    }
    served = set()
    for rule in app.url_map.iter_rules():
        if not in_the_document(rule.endpoint):
            continue
        path = str(rule.rule).replace("<int:", "{").replace("<", "{").replace(">", "}")
        for method in rule.methods or ():
            if method not in ("HEAD", "OPTIONS"):
                served.add((path, method))
    assert served == documented


def test_the_spec_is_served_as_it_is_checked_in(app: Flask) -> None:
    response = app.test_client().get("/openapi.yaml")
    assert response.status_code == 200
    assert response.get_data(as_text=True) == Path(SPEC_PATH).read_text()
