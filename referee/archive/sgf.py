"""A stored backgammon match in GNU Backgammon's SGF: the canonical record's games and
actions (notation.records.sgf writes them) with the stored verdict's results."""

from __future__ import annotations

from typing import Any

from notation.errors import NotationError
from notation.records.mat_reader import read_mat
from notation.records.model import MatchText
from notation.records.sgf import SgfGame, SgfMatch, write_sgf
from referee import __version__
from referee.archive.stored import stored_match
from referee.errors import RefereeError
from referee.storage.stores import Storage
from vocabulary import VariantId

UNPLAYED = frozenset({"bare_roll", "unknown_play"})
"""The warnings of a game whose last roll was left unplayed before a resignation (an empty
cell, XG's ``????``): gnubg writes and reads such a roll as its dice alone."""
SGF_MEDIA_TYPE = "application/x-go-sgf"
"""SGF's registered-by-use media type (the format's own name for it; gnubg has none)."""


class NotExportableError(RefereeError):
    """The match cannot be written in gnubg's SGF: not backgammon, or a game whose board
    edit cannot be read (checking it stopped there)."""

    code = "not_exportable"


def match_sgf(storage: Storage, match_id: int) -> str:
    """The stored match ``match_id`` as gnubg's SGF; NotFoundError, or NotExportableError
    for a nardy match (gnubg plays backgammon only)."""
    stored = stored_match(storage, match_id)
    if stored.variant != VariantId.BACKGAMMON:
        raise NotExportableError(
            f"match {match_id} is {stored.variant}: SGF export is for backgammon matches"
            " only (gnubg's SGF has no nardy)"
        )
    return sgf_of(read_mat(stored.canonical), stored.verdict)


def sgf_of(record: MatchText, verdict: dict[str, Any]) -> str:
    """A canonical backgammon record and its verdict as gnubg's SGF."""
    options = verdict.get("options") or {}
    summary = verdict.get("match") or {}
    results = {game["index"]: game for game in verdict.get("games") or []}
    players = tuple(summary.get("players") or ("", ""))
    games = []
    for game in record.games:
        result = results.get(game.index, {})
        winner = result.get("winner")
        points = result.get("points")
        games.append(
            SgfGame(
                score=game.score or _pair(result.get("score_before")),
                actions=game.actions,
                winner=winner,
                points=points,
                resigned=result.get("termination") == "resign",
                crawford_game=summary.get("crawford_game") == game.index,
                start=game.start,
                unplayed=any(
                    issue.get("code") in UNPLAYED for issue in result.get("warnings") or ()
                ),
            )
        )
    match = SgfMatch(
        players=(str(players[0]), str(players[1])) if len(players) == 2 else game_players(record),
        length=record.match_length or 0,
        games=games,
        tags=record.tags,
        comments=record.comments,
        crawford=bool(options.get("crawford", True)),
        jacoby=bool(options.get("jacoby", False)),
        cube=bool(options.get("cube", True)),
    )
    try:
        return write_sgf(match, f"nardy-referee:{__version__}")
    except NotationError as error:
        raise NotExportableError(
            f"a board edit cannot be written to SGF: {error.message}"
        ) from None


def game_players(record: MatchText) -> tuple[str, str]:
    return record.games[0].players if record.games else ("", "")


def _pair(values: Any) -> tuple[int, int]:
    first, second = values or (0, 0)
    return int(first), int(second)
