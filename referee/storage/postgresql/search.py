"""Free-text search in PostgreSQL with SQLite's answers: the words FTS5 would index.

SQLite's archive searches the players' names, event and site with FTS5 (its ``unicode61``
tokenizer), every word of the query quoted as a phrase (``sqlite/dialect.py``). PostgreSQL's
own parser reads the same text differently (``8/5`` is one "file" token there, ``o'neil``
two words, a hyphenated word three lexemes), so its answers would differ. Here the tokens
are FTS5's: runs of letters, digits and private-use characters, lower-cased, diacritics
removed; the document is a ``tsvector`` of them with their positions (each column its
own range of positions, so that a phrase never spans two columns, as FTS5's never spans
two columns), and each query word becomes a phrase of ``tsquery`` (``'8' <-> '5'``), all
of them required. A word with no tokens (``"``) is left out, and a query of none finds
nothing, as in FTS5. The GIN index over the ``tsvector`` answers the query.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

COLUMN_GAP = 4096
"""Positions given to each column (a tsvector's positions run to 16,383)."""
MAX_LEXEME_BYTES = 2046
"""The longest lexeme PostgreSQL indexes; a longer token is not indexed."""


def tokens(text: str) -> list[str]:
    """The words of ``text`` as FTS5's unicode61 tokenizer indexes them."""
    found: list[str] = []
    word: list[str] = []
    for character in text:
        category = unicodedata.category(character)
        if category[0] in "LNM" or category == "Co":
            word.append(character)
        elif word:
            found.append(_folded("".join(word)))
            word = []
    if word:
        found.append(_folded("".join(word)))
    return [token for token in found if token]


def _folded(word: str) -> str:
    decomposed = unicodedata.normalize("NFD", word.lower())
    plain = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))
    return unicodedata.normalize("NFC", plain)


def _lexeme(token: str) -> str:
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"


def document(columns: Sequence[str | None]) -> str:
    """The ``tsvector`` (as text) of a match's searched columns."""
    positions: dict[str, list[int]] = {}
    for number, text in enumerate(columns):
        indexed = [t for t in tokens(text or "") if len(t.encode()) <= MAX_LEXEME_BYTES]
        for offset, token in enumerate(indexed[: COLUMN_GAP - 1]):
            positions.setdefault(token, []).append(number * COLUMN_GAP + offset + 1)
    return " ".join(
        f"{_lexeme(token)}:{','.join(map(str, places[:256]))}"
        for token, places in positions.items()
    )


def query(text: str) -> str | None:
    """The ``tsquery`` (as text) of free text: every word a phrase, all required; None
    when no word has a token (nothing matches)."""
    phrases = []
    for word in text.replace("\x00", " ").split():
        words = tokens(word)
        if any(len(token.encode()) > MAX_LEXEME_BYTES for token in words):
            return None  # never indexed, so never found
        if words:
            phrases.append("(" + " <-> ".join(_lexeme(token) for token in words) + ")")
    return " & ".join(phrases) or None
