"""JSON shapes written once. A ``Shape`` declares a response in marshmallow's own words
(``fields.String(required=True)``, ``validate.OneOf([...])``) without importing marshmallow:
``dumper`` turns the declaration into a fast function for answers built on every request
(and for the command line, which loads no web framework), and ``schema_of`` makes the
marshmallow schema of the same declaration, from which openapi.yaml is generated (a test
holds the two to the same output)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from keyword import iskeyword
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from marshmallow import Schema

Dump = Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class Declared:
    """A marshmallow object written down, made only when marshmallow is wanted: the class
    ``marshmallow.<module>.<name>`` and the arguments it is called with."""

    module: str
    name: str
    args: tuple[Any, ...]
    kwargs: Mapping[str, Any]

    def made(self) -> Any:
        made_class = getattr(importlib.import_module(f"marshmallow.{self.module}"), self.name)
        args = [_made(value) for value in self.args]
        return made_class(*args, **{key: _made(value) for key, value in self.kwargs.items()})


class Vocabulary:
    """``fields.X(...)`` or ``validate.X(...)`` as marshmallow spells them, declared."""

    def __init__(self, module: str) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Callable[..., Declared]:
        if name.startswith("_"):
            raise AttributeError(name)

        def declare(*args: Any, **kwargs: Any) -> Declared:
            return Declared(self._module, name, args, kwargs)

        return declare


fields = Vocabulary("fields")
validate = Vocabulary("validate")


class Shape:
    """A response's fields, declared as class attributes; ``omitted_when_none`` fields are
    left out when they are None (they appear only where they apply)."""

    omitted_when_none: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def declared_fields(cls) -> dict[str, Declared]:
        """The fields in declaration order, inherited ones first (marshmallow's order)."""
        found: dict[str, Declared] = {}
        for klass in reversed(cls.__mro__):
            for name, value in vars(klass).items():
                if isinstance(value, Declared) and value.module == "fields":
                    found[name] = value
        return found


_SCHEMAS: dict[type[Shape], type[Schema]] = {}


def schema_of(shape: type[Shape]) -> type[Schema]:
    """The marshmallow schema of ``shape``, made once and named as the shape (openapi.yaml
    names its components after the schemas)."""
    made = _SCHEMAS.get(shape)
    if made is None:
        from marshmallow import Schema, post_dump

        omitted = shape.omitted_when_none

        def omit_absent(self: Schema, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
            for name in omitted:
                if name in data and data[name] is None:
                    del data[name]
            return data

        body: dict[str, Any] = {
            name: declared.made() for name, declared in shape.declared_fields().items()
        }
        body.update(__module__=shape.__module__, __qualname__=shape.__qualname__)
        body.update(__doc__=shape.__doc__, _omit_absent=post_dump(omit_absent))
        made = _SCHEMAS[shape] = type(shape.__name__, (Schema,), body)
    return made


def _made(value: Any) -> Any:
    if isinstance(value, Declared):
        return value.made()
    if isinstance(value, type) and issubclass(value, Shape):
        return schema_of(value)
    return value


def dumper(shape: type[Shape]) -> Callable[[Any], dict[str, Any]]:
    """A function that dumps an object as ``schema_of(shape)().dump`` does, without
    marshmallow (a test holds the two to the same output). It is written for the shape,
    as ``dataclasses`` writes an ``__init__``, at its first call (a command that never
    dumps the shape, such as ``check`` printing for people, does not pay for writing it):
    one call makes the whole answer (a live action's state has some thirty fields and a
    list of plays)."""
    written: Dump | None = None

    def dump(obj: Any) -> dict[str, Any]:
        nonlocal written
        if written is None:
            written = _written(shape)
        found: dict[str, Any] = written(obj)
        return found

    dump.__qualname__ = f"dumper({shape.__name__})"
    return dump


_WRITTEN: dict[type[Shape], Dump] = {}


def _written(shape: type[Shape]) -> Dump:
    """The dump function of ``shape``, written once (a nested shape's too, whoever nests it)."""
    found = _WRITTEN.get(shape)
    if found is None:
        found = _WRITTEN[shape] = _write(shape)
    return found


def _write(shape: type[Shape]) -> Dump:
    names: dict[str, Any] = {}
    reads, items = [], []
    for number, (name, declared) in enumerate(shape.declared_fields().items()):
        reads.append(f"    v{number} = {_read(declared.kwargs.get('attribute') or name, names)}")
        items.append(f"{name!r}: {_expression(declared, f'v{number}', names)}")
    omitted = [
        f"    if data[{name!r}] is None: del data[{name!r}]" for name in shape.omitted_when_none
    ]
    body = "\n".join(["def dump(obj):", *reads, f"    data = {{{', '.join(items)}}}", *omitted])
    exec(f"{body}\n    return data\n", names)  # the shape's own declaration, never input
    dump: Dump = names["dump"]
    dump.__qualname__ = f"written({shape.__name__})"
    return dump


def _read(path: str, names: dict[str, Any]) -> str:
    """The code that reads the attribute at ``path`` (dotted: an attribute's attribute)."""
    if all(part.isidentifier() and not iskeyword(part) for part in path.split(".")):
        return f"obj.{path}"
    return f"{_bound(attrgetter(path), names)}(obj)"


_SCALARS: dict[str, Dump] = {
    "String": str,
    "Boolean": bool,
    "Integer": int,
    "Float": float,
    "Dict": dict,
}


def _expression(declared: Declared, value: str, names: dict[str, Any], depth: int = 0) -> str:
    """The code that dumps ``value`` (a variable) as ``declared`` says; None stays None."""
    if declared.module == "fields" and declared.name == "Nested":
        nested = declared.args[0]
        assert isinstance(nested, type) and issubclass(nested, Shape), nested
        converted = f"{_bound(_written(nested), names)}({value})"
    elif declared.module == "fields" and declared.name == "List":
        item = f"i{depth}"
        inner = _expression(declared.args[0], item, names, depth + 1)
        converted = f"[{inner} for {item} in {value}]"
    elif declared.module == "fields" and declared.name in _SCALARS:
        converted = f"{_bound(_SCALARS[declared.name], names)}({value})"
    else:
        raise TypeError(f"no fast dump for {declared.module}.{declared.name}")
    return f"(None if {value} is None else {converted})"


def _bound(value: Any, names: dict[str, Any]) -> str:
    """A name for ``value`` in the written function's globals."""
    name = f"_{len(names)}"
    names[name] = value
    return name
