"""An event's tags on a record it takes (EVENTS.md §10): a records event's submitted .mat
text gets ``; [Event "NAME"]``, ``EventId``, ``Round`` and ``Table`` before it is checked
and stored, so the archive finds it by event and every export carries them.

Decision: the tags are written first, above the record's own header, and any tag of the
same names the record had (its ``Event`` line, say) is dropped: the event's say where the
match was played. The stored text is the tagged text (so its verdict's line numbers are
those of the stored record, a few lines below the submitted one's).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_TAG_NAME = re.compile(r'^\s*[;#]\s*\[\s*([^"\]]*?)\s*"')
_MATCH_LINE = re.compile(r"^\s*\d+\s+point\s+match", re.IGNORECASE)


def tagged(text: str, tags: Mapping[str, str]) -> str:
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
