"""Loading request bodies and queries with their marshmallow schemas, fast when it can be.

``loaded(schema, data)`` answers exactly what ``schema().load(data)`` answers. For the
common body (every field a string, a strict integer or an object of the kinds below,
within its limits, no unknown key) a plan made once from the schema's own fields gives
the same dict without marshmallow's per-call machinery; anything else (a missing field, a
wrong type, a schema with hooks) goes to marshmallow, which words every error. A test
holds the two equal.

A refusal is marshmallow's ``ValidationError`` with its texts cut to a few hundred
characters (a field name is client input too) and ``kwargs["query"]``, the fields that
are query parameters, so that the answer names each one as a query parameter or a field
of the body.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from functools import cache
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, missing, validate

from referee.errors import shortened

Check = Callable[[Any], bool]
FastLoad = Callable[[Mapping[str, Any]], dict[str, Any] | None]


class QuerySchema(Schema):
    """The schema of a query string: what it refuses is named as query parameters."""

    class Meta:
        unknown = RAISE


def loaded(
    schema: type[Schema], data: Mapping[str, Any], query: Collection[str] = ()
) -> dict[str, Any]:
    """``data`` loaded (validated) by ``schema``: ValidationError (422) when it does not fit.
    ``query``: the fields of ``data`` that came from the query string (every field of a
    ``QuerySchema``)."""
    fast = _fast_load(schema)
    result = None if fast is None else fast(data)
    if result is None:
        try:
            result = _instance(schema).load(data)
        except ValidationError as error:
            everything = issubclass(schema, QuerySchema)
            raise refusal(error.messages, query, everything) from None
    return result


def refusal(
    messages: Any, query: Collection[str] = (), everything: bool = False
) -> ValidationError:
    """The ValidationError of marshmallow's ``messages``, cut to a few hundred characters a
    text; ``query`` (or ``everything``) says which of its fields are query parameters."""
    names = messages if isinstance(messages, dict) else {}
    in_query = [name for name in names if everything or name in query]
    return ValidationError(shortened(messages), query=frozenset(shortened(in_query)))


@cache
def _instance(schema: type[Schema]) -> Schema:
    """One instance per schema, made once: making one copies every field, which costs more
    than loading a body with it, and loading keeps no state in the instance."""
    return schema()


@cache
def _fast_load(schema: type[Schema]) -> FastLoad | None:
    """The fast plan of ``schema``, or None when one of its parts has none (then
    marshmallow loads every body)."""
    instance = _instance(schema)
    if instance.unknown != RAISE or any(instance._hooks.values()):
        return None
    plan = []
    for name, field in instance.load_fields.items():
        check = _check(field)
        if check is None or field.data_key not in (None, name) or field.attribute:
            return None
        default = field.load_default
        plan.append((name, field.required, default, check, isinstance(field, fields.Dict)))
    names = frozenset(name for name, *_ in plan)

    def load(data: Mapping[str, Any]) -> dict[str, Any] | None:
        if not names.issuperset(data):
            return None
        result: dict[str, Any] = {}
        for name, required, default, check, is_dict in plan:
            if name in data:
                value = data[name]
                if not check(value):
                    return None
                result[name] = dict(value) if is_dict else value
            elif required:
                return None
            elif default is not missing:
                result[name] = default() if callable(default) else default
        return result

    return load


def _check(field: fields.Field[Any]) -> Check | None:
    """Whether a value loads as itself through ``field`` (a string, an object with string
    keys and any values), within its validators; None for a field this plan does not know."""
    if type(field) is fields.String:
        limits = [_limit(validator) for validator in field.validators]
        if any(limit is None for limit in limits):
            return None
        checks = [limit for limit in limits if limit is not None]
        return lambda value: type(value) is str and all(check(value) for check in checks)
    if type(field) is fields.Integer and field.strict:
        ranges = [_range(validator) for validator in field.validators]
        if any(check is None for check in ranges):
            return None
        bounds = [check for check in ranges if check is not None]
        return lambda value: type(value) is int and all(check(value) for check in bounds)
    if type(field) is fields.Dict and not field.validators and field.value_field is None:
        keys = field.key_field
        if keys is not None and (type(keys) is not fields.String or keys.validators):
            return None
        return lambda value: type(value) is dict and all(type(key) is str for key in value)
    return None


def _limit(validator: object) -> Check | None:
    """A string validator as a check, for the kinds the plan knows (lengths, choices)."""
    if type(validator) is validate.Length:
        low, high, equal = validator.min, validator.max, validator.equal
        return lambda value: (
            (low is None or len(value) >= low)
            and (high is None or len(value) <= high)
            and (equal is None or len(value) == equal)
        )
    if type(validator) is validate.OneOf:
        choices = validator.choices
        return lambda value: value in choices
    return None


def _range(validator: object) -> Check | None:
    """A number's ``Range`` validator as a check (None for any other validator)."""
    if type(validator) is not validate.Range:
        return None
    low, high = validator.min, validator.max
    low_in, high_in = validator.min_inclusive, validator.max_inclusive
    return lambda value: (
        (low is None or value > low or (low_in and value == low))
        and (high is None or value < high or (high_in and value == high))
    )
