"""Request bodies load as their marshmallow schemas say: the fast plan answers exactly what
``Schema().load`` answers (the same dict, or the same errors through marshmallow), for
random bodies of every request schema, and it does answer the usual bodies itself."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError, validate

from referee.api import schemas
from referee.http import queries
from referee.http.loading import _fast_load, loaded

REQUEST_SCHEMAS = [
    schemas.PositionRequest,
    schemas.CheckRequest,
    schemas.RecordCheckRequest,
    schemas.MatchSubmitRequest,
    queries.MatchListQuery,
    schemas.MatchDetailQuery,
    schemas.BoardQuery,
    schemas.RecheckRequest,
    schemas.LiveCreateRequest,
    schemas.LiveJoinRequest,
    schemas.LiveActionRequest,
    schemas.ConvertRequest,
]
POSITION = "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 w 31 1c 0:0-0 -"
# Strings at and just past the limits the schemas set (MAX_TEXT, 4,096, 100, 40), and the
# words their choices allow.
EDGES = ["x" * size for limit in (schemas.MAX_TEXT, 4096, 100, 40) for size in (limit, limit + 1)]
WORDS = ["", "strict", "condone", "w", "b", "gnubg", "xgid", "position", "roll", POSITION]
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(EDGES + WORDS)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)


def outcome(load: Any, data: dict[str, Any]) -> tuple[str, Any]:
    try:
        return "loaded", load(data)
    except ValidationError as error:
        return "refused", error.messages


def bodies(schema: type[Schema]) -> st.SearchStrategy[dict[str, Any]]:
    names = [field.data_key or name for name, field in schema().fields.items()]
    return st.dictionaries(st.sampled_from([*names, "extra"]), VALUES, max_size=len(names) + 1)


@pytest.mark.parametrize("schema", REQUEST_SCHEMAS, ids=lambda schema: schema.__name__)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_body_loads_as_marshmallow_loads_it(schema: type[Schema], data: st.DataObject) -> None:
    body = data.draw(bodies(schema))
    assert outcome(lambda body: loaded(schema, body), body) == outcome(schema().load, body)


USUAL: dict[type[Schema], dict[str, Any]] = {
    schemas.CheckRequest: {"position": POSITION, "play": "8/5 6/5"},
    schemas.PositionRequest: {"position": POSITION, "options": {"jacoby": False}},
    schemas.RecordCheckRequest: {"record": "1 point match", "mode": "condone"},
    schemas.ConvertRequest: {"position": POSITION, "to": "xgid"},
    schemas.RecheckRequest: {},
    schemas.LiveActionRequest: {"ply": 12, "action": "play", "play": "8/5 6/5"},
}


@pytest.mark.parametrize("schema", USUAL, ids=lambda schema: schema.__name__)
def test_the_usual_bodies_take_the_fast_plan(schema: type[Schema]) -> None:
    plan = _fast_load(schema)
    assert plan is not None
    assert plan(USUAL[schema]) == schema().load(USUAL[schema])


def edge_values(field: Any) -> list[Any]:
    """Strings at and around a field's length limits, its choices and one more, numbers at
    and around its range's ends (and the booleans, which are not numbers here)."""
    values: list[Any] = []
    for validator in field.validators:
        if isinstance(validator, validate.Length):
            for limit in (validator.min, validator.max, validator.equal):
                if limit is not None:
                    values += ["x" * size for size in (limit - 1, limit, limit + 1) if size >= 0]
        if isinstance(validator, validate.OneOf):
            values += [*validator.choices, "none of these"]
        if isinstance(validator, validate.Range):
            for end in (validator.min, validator.max):
                if end is not None:
                    values += [end - 1, end, end + 1, float(end), True, False]
    return values


@pytest.mark.parametrize("schema", USUAL, ids=lambda schema: schema.__name__)
def test_values_at_the_limits_load_as_marshmallow_loads_them(schema: type[Schema]) -> None:
    for name, field in schema().fields.items():
        for value in edge_values(field):
            body = {**USUAL[schema], name: value}
            assert outcome(lambda body: loaded(schema, body), body) == outcome(
                schema().load, body
            ), (name, len(value))


@pytest.mark.parametrize(
    "body",
    [
        {"position": POSITION},  # the play is missing
        {"position": POSITION, "play": "8/5 6/5", "dice": "31"},  # an unknown field
        {"position": "", "play": "8/5 6/5"},  # shorter than its minimum
        {"position": POSITION, "play": None},
        {"position": POSITION, "play": "8/5", "options": ["jacoby"]},
    ],
)
def test_the_plan_leaves_every_refusal_to_marshmallow(body: dict[str, Any]) -> None:
    plan = _fast_load(schemas.CheckRequest)
    assert plan is not None and plan(body) is None
    assert outcome(schemas.CheckRequest().load, body)[0] == "refused"
