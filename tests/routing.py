"""Apps made cheaply in the tests: werkzeug writes and compiles Python code to build the
URLs of every rule of every app it is given (two functions a rule), which was nine tenths
of ``create_app``'s 33 ms, and the suite makes an app for most of its tests. Here each
such function is compiled once per process and reused by every later rule with the same
text, converters and defaults (what the code is written from); the functions read the
rule they build for (its converters) only when called, so they are the same for any of
those rules. Only the tests use it (``tests/conftest.py``): a served process makes its
app once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from werkzeug.routing import Rule


class RuleWithSharedBuilders(Rule):
    """A werkzeug ``Rule`` that compiles its URL builders once per process."""

    builders: ClassVar[dict[tuple[object, ...], Callable[..., tuple[str, str]]]] = {}

    def _compile_builder(self, *args: Any, **kwargs: Any) -> Callable[..., tuple[str, str]]:
        converters = sorted(
            (name, type(found).__qualname__, repr(_settings(found)))
            for name, found in self._converters.items()
        )
        defaults = sorted((self.defaults or {}).items())
        key = (self.rule, repr(self._trace), repr(defaults), repr(converters), args, repr(kwargs))
        found = self.builders.get(key)
        if found is None:
            found = self.builders[key] = super()._compile_builder(*args, **kwargs)
        return found


def _settings(converter: object) -> dict[str, object]:
    """A converter's own settings (its regex, bounds...), not the map it belongs to."""
    return {name: value for name, value in vars(converter).items() if name != "map"}
