"""The ``key=value, key=value`` option lists of the ``[Rules "..."]`` tag and ``--rules``."""

from __future__ import annotations

import re

from notation.errors import NotationError, echoed

OptionValue = str | bool | int

_PAIR = re.compile(r"\s*([a-z_]+)\s*=\s*([A-Za-z0-9_]+)\s*")


def parse_rules_text(text: str) -> dict[str, OptionValue]:
    """Options as JSON-like values: ``true``/``false`` → bool, digits → int, else text."""
    options: dict[str, OptionValue] = {}
    for part in filter(str.strip, re.split(r"[,;]", text)):
        match = _PAIR.fullmatch(part)
        if match is None:
            raise NotationError("invalid_rules", f"{echoed(part.strip())} is not key=value")
        options[match[1]] = _value(match[2])
    return options


def _value(text: str) -> OptionValue:
    lowered = text.lower()
    if lowered in ("true", "on", "yes"):
        return True
    if lowered in ("false", "off", "no"):
        return False
    return int(text) if text.isdigit() and len(text) < 10 else text
