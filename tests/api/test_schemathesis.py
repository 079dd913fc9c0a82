"""A bounded schemathesis run over the served openapi.yaml: every answer conforms to it
(status codes documented, bodies matching their schemas, problem+json for errors, no 5xx).

Two checks are left out on purpose: schema-valid text is often not a position or a record
(``"0"``), which the contract answers with a 422 problem, and an oversized body gets 413,
which schemathesis does not count as a rejection."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from referee.app import create_app
from tests.api.aborted_live import aborted_live_match
from tests.api.support import archive_at

DATABASE = archive_at(Path(tempfile.mkdtemp(prefix="schemathesis-")))
APP = create_app({"DATABASE": str(DATABASE)})


aborted_live_match(DATABASE)  # live match 1: its state, dice and stream have bodies
SCHEMA = schemathesis.openapi.from_wsgi("/openapi.yaml", APP)


@schemathesis.serializer("application/x-go-sgf")
def sgf_body(context: object, value: object) -> bytes:
    """A record sent as SGF is text, like text/plain."""
    return str(value).encode()


@SCHEMA.parametrize()
@settings(
    max_examples=int(os.environ.get("SCHEMATHESIS_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_its_contract(case: schemathesis.Case) -> None:
    case.call_and_validate(excluded_checks=[positive_data_acceptance, negative_data_rejection])
