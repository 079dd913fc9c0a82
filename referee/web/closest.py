"""The legal plays nearest a written illegal one, for the pages. The referee names a few
legal plays in the order its move generator finds them; a reader looking for what the
player meant wants the plays closest to the written one first. Ranking lists every legal
play and reads each again (some ms for a position with hundreds): a page ranks the errors of
at most ``RANKED_PER_PAGE`` distinct written plays (``Ranking``), the rest keep the
verdict's order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from notation.errors import NotationError
from notation.plays import parse_play
from referee.errors import MAX_ALTERNATIVES, RefereeError
from referee.plays import PlaysService
from vocabulary import Move


def closeness(written: Sequence[Move], legal: Sequence[Move]) -> int:
    """How close a legal play is to a written one: the start points and the end points the
    two share, each counted as often as both have it. For 41 written ``13/8 24/23``, the
    legal ``24/23 13/9`` shares 13, 24 and 23 (3), ``24/20`` only 24 (1)."""
    starts = Counter(move.from_point for move in written) & Counter(
        move.from_point for move in legal
    )
    ends = Counter(move.to_point for move in written) & Counter(move.to_point for move in legal)
    return starts.total() + ends.total()


def closest_plays(
    position: str, written: str, options: Mapping[str, object], shown: Sequence[str]
) -> tuple[str, ...]:
    """Up to MAX_ALTERNATIVES legal plays of ``position`` (its dice to play), the closest
    to ``written`` first and, among equally close ones, in the generator's order; ``shown``
    (the verdict's own alternatives) when the position or the written play cannot be read
    that way."""
    try:
        moves = parse_play(written).moves
        legal = PlaysService(position, options).legal_texts()
        ranked = sorted(legal, key=lambda text: -closeness(moves, parse_play(text).moves))
    except (NotationError, RefereeError):
        return tuple(shown)
    return tuple(ranked[:MAX_ALTERNATIVES])


RANKED_PER_PAGE = 10
"""At most this many of a page's illegal plays (the first met: the viewer's game comes
first, then the verdict's findings) have their legal plays ranked, closest first."""


@dataclass(slots=True)
class Ranking:
    """One page's ranking of legal plays: ``closest_plays`` for the first ``limit``
    distinct (position, written play) pairs asked, each computed once; past them the
    verdict's own alternatives as given."""

    limit: int = RANKED_PER_PAGE
    ranked: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)

    def closest(
        self, position: str, written: str, options: Mapping[str, object], shown: Sequence[str]
    ) -> tuple[str, ...]:
        """``closest_plays`` while the page has ranks left, else ``shown``."""
        key = (position, written)
        if key in self.ranked:
            return self.ranked[key]
        if len(self.ranked) >= self.limit:
            return tuple(shown)
        self.ranked[key] = closest_plays(position, written, options, shown)
        return self.ranked[key]
