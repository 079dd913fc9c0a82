"""The names entrants are entered under: one Unicode spelling each (NFC), so that names
that read the same are the same entrant, and no character that cannot be shown or stored
(a control character, a lone surrogate), refused with a 422 that names the field."""

from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import ValidationError, fields

from referee.storage.shared import normal_name

__all__ = ["PersonName", "normal_name", "refused_character"]

REFUSED_CATEGORIES = {"Cc": "a control character", "Cs": "a lone surrogate"}


def refused_character(text: str) -> str | None:
    """Why ``text`` cannot be a name (the first character refused, in words), or None."""
    for character in text:
        kind = REFUSED_CATEGORIES.get(unicodedata.category(character))
        if kind is not None:
            return f"U+{ord(character):04X} is {kind}, not allowed in a name"
    return None


class PersonName(fields.String):
    """A name, loaded in NFC; a control character or a lone surrogate is refused."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        why = refused_character(text)
        if why is not None:
            raise ValidationError(why)
        return normal_name(text)
