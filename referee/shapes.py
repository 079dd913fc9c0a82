"""JSON shapes written once: a marshmallow schema declares a response (and openapi.yaml is
generated from it); ``dumper`` turns the same declaration into a fast function that dumps
objects exactly as ``Schema.dump`` would, for answers built on every request."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from marshmallow import Schema, fields, post_dump

Dump = Callable[[Any], Any]


class Shape(Schema):
    """A response schema whose ``omitted_when_none`` fields are left out when they are None
    (they appear only where they apply)."""

    omitted_when_none: ClassVar[tuple[str, ...]] = ()

    @post_dump
    def _omit_absent(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        for name in self.omitted_when_none:
            if name in data and data[name] is None:
                del data[name]
        return data


def dumper(schema: type[Shape]) -> Callable[[Any], dict[str, Any]]:
    """A function that dumps an object as ``schema().dump`` does, without marshmallow's
    per-call machinery (a test holds the two to the same output)."""
    parts = [
        (name, _getter(field.attribute or name), _converter(field))
        for name, field in schema().dump_fields.items()
    ]
    omitted = schema.omitted_when_none

    def dump(obj: Any) -> dict[str, Any]:
        data = {name: convert(get(obj)) for name, get, convert in parts}
        for name in omitted:
            if data[name] is None:
                del data[name]
        return data

    return dump


def _getter(path: str) -> Dump:
    names = path.split(".")
    if len(names) == 1:
        name = names[0]
        return lambda obj: getattr(obj, name)

    def get(obj: Any) -> Any:
        for name in names:
            obj = getattr(obj, name)
        return obj

    return get


def _converter(field: fields.Field) -> Dump:  # type: ignore[type-arg]
    if isinstance(field, fields.Nested):
        nested = field.nested
        assert isinstance(nested, type) and issubclass(nested, Shape), nested
        return _optional(dumper(nested))
    if isinstance(field, fields.List):
        inner = _converter(field.inner)
        return _optional(lambda values: [inner(value) for value in values])
    if isinstance(field, fields.String):
        return _optional(str)
    if isinstance(field, fields.Boolean):
        return _optional(bool)
    if isinstance(field, fields.Integer):
        return _optional(int)
    if isinstance(field, fields.Dict):
        return _optional(dict)
    raise TypeError(f"no fast dump for {type(field).__name__}")


def _optional(convert: Dump) -> Dump:
    return lambda value: None if value is None else convert(value)
