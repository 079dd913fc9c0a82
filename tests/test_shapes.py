"""Response shapes are written once, as schemas: the fast dumpers built from them give
exactly what marshmallow's own ``dump`` gives (key order included), for every verdict of the
corpus, the examples and the fixtures, and for plays answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from marshmallow import fields

from referee.adjudication import adjudicate
from referee.adjudication.verdict import VerdictSchema
from referee.plays_service import CheckResponse, LegalPlay, PlaysService
from referee.shapes import Shape, dumper
from tests.corpus import MAT
from tests.positions import BG_START, bg

ROOT = Path(__file__).resolve().parents[1]
RECORDS = sorted(
    [
        *MAT.glob("*.mat"),
        *(ROOT / "examples").glob("*.mat"),
        *(ROOT / "tests/records/fixtures").glob("*.mat"),
    ]
)


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: path.name)
def test_a_verdict_dumps_as_its_schema_says(path: Path) -> None:
    for mode in ("strict", "condone"):
        verdict = adjudicate(path.read_text(encoding="utf-8-sig"), mode=mode).verdict
        assert json.dumps(verdict.to_json()) == json.dumps(VerdictSchema().dump(verdict))


def test_plays_answers_dump_as_their_schemas_say() -> None:
    # The start with one Black checker moved from White's 19 to a blot on White's 5.
    service = PlaysService(bg({**BG_START, 5: "1b", 19: "4b"}))
    for answer in service.legal():
        assert answer.to_json() == LegalPlay().dump(answer)
    for text in ("8/5 6/5", "6/5 24/21", "13/9"):  # legal, legal with a warning, illegal
        answer = service.check(text)
        assert json.dumps(answer.to_json()) == json.dumps(CheckResponse().dump(answer))


def test_fields_without_a_fast_dump_are_refused_when_the_dumper_is_built() -> None:
    class Dated(Shape):
        when = fields.DateTime()

    with pytest.raises(TypeError):
        dumper(Dated)
