"""Build the OpenAPI document from the marshmallow schemas and the views' docstrings.

A development tool (apispec is a dev dependency): ``python -m referee.openapi`` (``make
openapi``) writes ``openapi.yaml``, which is checked in and served as it is; tests fail
when it drifts. It stands above ``referee.app``: it documents the application it makes.
"""

from __future__ import annotations

import sys
import tempfile
from typing import Any

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec_webframeworks.flask import FlaskPlugin
from flask import Flask

from referee import __version__, web
from referee.adjudication.verdict import VerdictSchema
from referee.api import schemas
from referee.api.reference import SPEC_PATH
from referee.app import create_app
from referee.live.shapes import DiceProof, LiveState
from referee.plays import CheckResponse
from referee.shapes import schema_of

SCHEMAS = {
    "PositionRequest": schemas.PositionRequest,
    "CheckRequest": schemas.CheckRequest,
    "LegalResponse": schemas.LegalResponse,
    "CheckResponse": schema_of(CheckResponse),
    "RecordCheckRequest": schemas.RecordCheckRequest,
    "Verdict": schema_of(VerdictSchema),
    "MatchSubmitRequest": schemas.MatchSubmitRequest,
    "MatchSubmitResponse": schemas.MatchSubmitResponse,
    "ImportResponse": schemas.ImportResponse,
    "MatchPage": schemas.MatchPage,
    "StoredMatchDetail": schemas.StoredMatchDetail,
    "RecheckRequest": schemas.RecheckRequest,
    "ReplayResponse": schemas.ReplayResponse,
    "VariantsResponse": schemas.VariantsResponse,
    "ConvertRequest": schemas.ConvertRequest,
    "ConvertResponse": schemas.ConvertResponse,
    "LiveCreateRequest": schemas.LiveCreateRequest,
    "LiveJoinRequest": schemas.LiveJoinRequest,
    "LiveActionRequest": schemas.LiveActionRequest,
    "LiveState": schema_of(LiveState),
    "DiceProof": schema_of(DiceProof),
    "Problem": schemas.ProblemSchema,
}


PAGES = frozenset(blueprint.name for blueprint in web.BLUEPRINTS)
"""The pages' blueprints: their routes are not the API's."""


def documented(endpoint: str) -> bool:
    """Whether a route belongs in the document: the API's, not the pages' nor ``static``."""
    return endpoint != "static" and endpoint.split(".")[0] not in PAGES


def build_spec(app: Flask) -> APISpec:
    """The OpenAPI 3.1 document of ``app``: every route but ``static``."""
    spec = APISpec(
        title="nardy-referee",
        version=__version__,
        openapi_version="3.1.0",
        plugins=[FlaskPlugin(), MarshmallowPlugin()],
        info={
            "description": (
                "Referee and game-record archive for backgammon (short nardy), long nardy"
                " and khachapuri. Errors are RFC 9457 application/problem+json. Position"
                " strings and plays: docs/notation.md; the rules and their options:"
                " docs/rules.md; live matches: docs/live.md; events: docs/events.md (in the"
                " repository, and as /docs pages on a server)."
            )
        },
    )
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for name, schema in SCHEMAS.items():
        spec.components.schema(name, schema=schema)
    spec.components.response(
        "Problem",
        {
            "description": "An RFC 9457 problem",
            "content": {"application/problem+json": {"schema": "Problem"}},
        },
    )
    with app.test_request_context():
        for name, view in sorted(app.view_functions.items()):
            if documented(name):
                spec.path(view=view, app=app)
    return spec


def spec_dict(app: Flask | None = None) -> dict[str, Any]:
    """The document as data; without an app, one on a throwaway database."""
    if app is None:
        with tempfile.TemporaryDirectory() as folder:
            return spec_dict(create_app({"DATABASE": f"{folder}/spec.sqlite3"}))
    built: dict[str, Any] = build_spec(app).to_dict()
    return built


def spec_yaml(app: Flask | None = None) -> str:
    return yaml.safe_dump(spec_dict(app), sort_keys=False, allow_unicode=True)


if __name__ == "__main__":
    SPEC_PATH.write_text(spec_yaml())
    print(f"wrote {SPEC_PATH}", file=sys.stderr)
