"""Response shapes are written once, as schemas: the fast dumpers built from them give
exactly what marshmallow's own ``dump`` gives (key order included), for every verdict of the
corpus, the examples and the fixtures, and for plays answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.adjudication import adjudicate
from referee.adjudication.verdict import VerdictSchema
from referee.plays import CheckResponse, LegalPlay, PlaysService
from referee.shapes import Shape, dumper, fields, schema_of
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
        assert json.dumps(verdict.to_json()) == json.dumps(schema_of(VerdictSchema)().dump(verdict))


def test_plays_answers_dump_as_their_schemas_say() -> None:
    # The start with one Black checker moved from White's 19 to a blot on White's 5.
    service = PlaysService(bg({**BG_START, 5: "1b", 19: "4b"}))
    for answer in service.legal():
        assert answer.to_json() == schema_of(LegalPlay)().dump(answer)
    for text in ("8/5 6/5", "6/5 24/21", "13/9"):  # legal, legal with a warning, illegal
        answer = service.check(text)
        assert json.dumps(answer.to_json()) == json.dumps(schema_of(CheckResponse)().dump(answer))


def test_fields_without_a_fast_dump_are_refused_when_the_dumper_is_built() -> None:
    class Dated(Shape):
        when = fields.DateTime()

    with pytest.raises(TypeError):
        dumper(Dated)


def test_live_states_and_dice_proofs_dump_as_their_schemas_say() -> None:
    from referee.live.shapes import (
        DiceProof,
        LiveState,
        ProofView,
        StateView,
        dump_proof,
        dump_state,
    )
    from referee.live.table import FinishedGame
    from referee.storage.model import Throw

    state = StateView(
        id=7,
        variant="backgammon",
        length=5,
        options={"jacoby": False},
        players={"w": "gnubot", "b": "randy"},
        status="playing",
        game=2,
        score=[1, 0],
        position="backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 b - 1c 5:1-0 -",
        ply=31,
        to_act="b",
        expect=["double", "roll"],
        dice=None,
        legal_plays=None,
        deadline="2026-12-01T10:00:30Z",
        commitment="ab" * 32,
        algorithm="hmac-sha256-v1",
        client_seeds={"w": "alpha", "b": ""},
        server_seed=None,
        games=[FinishedGame(1, "w", 1, "drop", None, 1)],
        winner=None,
        termination=None,
        match_id=None,
        move_seconds=60,
        joined={"w": True, "b": True},
        created_at="2026-12-01",
    )
    assert json.dumps(dump_state(state)) == json.dumps(schema_of(LiveState)().dump(state))
    assert "you" not in dump_state(state)  # only the answer to join names the caller's sides
    proof = ProofView(
        7, "hmac-sha256-v1", "ab" * 32, None, {"w": "", "b": ""}, [Throw(1, (5, 2), 1, "opening")]
    )
    assert json.dumps(dump_proof(proof)) == json.dumps(schema_of(DiceProof)().dump(proof))
