"""An event's tags on a record it takes (EVENTS.md §10): a records event's submitted .mat
text gets ``; [Event "NAME"]``, ``EventId``, ``Round`` and ``Table`` before it is checked
and stored, so the archive finds it by event and every export carries them. An SGF record
gets them as its first game tree's root properties (``EV``, ``RO`` and the ``XE``, ``XT``,
``XL`` the SGF writer uses), which its reader gives back as the same tags.

Decision: the tags are written first, above the record's own header, and any tag of the
same names the record had (its ``Event`` line, say) is dropped: the event's say where the
match was played. The stored text is the tagged text (so its verdict's line numbers are
those of the stored record, a few lines below the submitted one's).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from notation.errors import NotationError
from notation.records.formats import SGF, text_format
from notation.records.sgf import DICE_PROPERTIES, MATCH_INFO
from notation.records.sgf_syntax import with_root_properties

_TAG_NAME = re.compile(r'^\s*[;#]\s*\[\s*([^"\]]*?)\s*"')
_MATCH_LINE = re.compile(r"^\s*\d+\s+point\s+match", re.IGNORECASE)


_SGF_PROPERTIES = {**MATCH_INFO, **DICE_PROPERTIES}


def tagged(text: str, tags: Mapping[str, str], record_format: str | None = None) -> str:
    """``text`` (in the format named, else the one it shows) with ``tags``: an SGF's as
    its first root's properties, a .mat's as its first header lines; its own tags of those
    names gone. A text in no format is given back as it is (checking it says so)."""
    try:
        found = text_format(text, record_format)
    except NotationError:
        return text
    if found is SGF:
        properties = {_SGF_PROPERTIES[name]: value for name, value in tags.items()}
        return with_root_properties(text, properties)
    return _tagged_mat(text, tags)


def _tagged_mat(text: str, tags: Mapping[str, str]) -> str:
    """``text`` with ``tags`` as its first header lines, its own tags of those names gone
    (only in the header: the lines before the match line)."""
    lines = text.splitlines(keepends=True)
    kept: list[str] = []
    header = True
    for line in lines:
        header = header and not _MATCH_LINE.match(line)
        found = _TAG_NAME.match(line) if header else None
        if found is None or found[1] not in tags:
            kept.append(line)
    written = [f'; [{name} "{value}"]\n' for name, value in tags.items()]
    return "".join(written + kept)
