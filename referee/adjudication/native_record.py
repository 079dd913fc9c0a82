"""The record fast path (issue 12): the native core reads a record and checks each game it
can pass without a word (every action legal, nothing to warn about), answering how the game
ended. Python keeps everything else: the match loop, the scoring of each ending (the game
flow's one ``Ending``), and every game the native core declines, which ``GameChecker``
checks and words as always.

The native reader declines whole records it might read differently from
``notation.records.mat_reader`` (any reading finding, edits, start positions, Unicode
traps); the differential tests hold verdicts byte-identical with the fast path on or off.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, NamedTuple

from notation.records.mat_reader import past_limit, read_comments, read_mat
from notation.records.mat_writer import Cell
from notation.records.model import ActionKind, ActionText, GameText, MatchText
from referee.adjudication.budget import Budget, Work, WorkLimits, reading_refusal
from referee.adjudication.setting import GameSetting
from referee.adjudication.verdict import GameVerdict
from referee.rules.board import Board
from referee.rules.cube import CubeState
from referee.rules.engine import Engine
from referee.rules.flow import Ending, GameFlow
from referee.rules.options import DrawScoring, Options
from referee.rules.position import Cube, Position
from referee.rules.scoring import GameResult
from referee.rules.variants import Variant
from vocabulary import Side

_LARGEST_CUBE_LIMIT = 2**63
"""Cube limits above this are the same as this one to the native core (a record's cube
values stay below two million: a double writes at most six digits)."""


class _GameFacts(NamedTuple):
    """One game as the native reader answers it (``Record.games``)."""

    number: int
    line: int
    players: tuple[str, str]
    score: tuple[int, int] | None
    actions: int
    wins: list[tuple[str, int, int, int, bool]]
    """Its ``Wins`` cells: side, line, column, points, "and the match"."""


class _Outcome(NamedTuple):
    """A game the native checker passed (``Record.check_game``)."""

    ending: Ending
    winner: str | None
    points: int | None
    """The points a ``Wins`` line gave (``resigned``)."""
    white: tuple[int, ...] | None
    black: tuple[int, ...] | None
    """The board a bear-off is scored on."""
    standing: tuple[int, str | None] | None
    """The cube the game was played for: value and owner."""
    doubled: bool
    cells: list[Cell]
    """The canonical cells, when asked for."""


@dataclass(frozen=True, slots=True)
class NativeRecord:
    """A record the native core read: its skeleton for the match loop (tags, scores, the
    ``Wins`` cells of each game, no plays) and the handle that checks its games."""

    text: str
    skeleton: MatchText
    action_counts: tuple[int, ...]
    """How many actions each game has (what checking it natively charges the budget)."""
    handle: Any
    hits_marked: bool
    module: ModuleType


def read_natively(text: str, limits: WorkLimits, engine: Engine) -> NativeRecord | None:
    """The record read by ``engine``'s native core, or None: the Python engine, or a record
    the core leaves to the Python reader. A record past a reading limit is refused here, as
    the Python reader refuses it, without reading it again."""
    native = engine.native
    if native is None:
        return None
    handle = native.read_record(text, limits.games, limits.actions_per_game, limits.actions)
    if isinstance(handle, str):  # declined, and why
        if handle.startswith("too_many_"):  # the Python reader would stop there too
            name = handle.removeprefix("too_many_")
            raise reading_refusal(past_limit(name, getattr(limits, name)), limits)
        return None
    header, starts = read_comments(handle.comments)
    facts = [_GameFacts(*game) for game in handle.games()]
    games = tuple(
        GameText(
            index=index,
            number=game.number,
            line=game.line,
            players=game.players,
            score=game.score,
            actions=tuple(
                ActionText(
                    ActionKind.WIN, side, at, column, None, "", value=points, and_the_match=claim
                )
                for side, at, column, points, claim in game.wins
            ),
            start=starts.get(index),
        )
        for index, game in enumerate(facts, start=1)
    )
    skeleton = MatchText(header.tags, header.comments, handle.match_length, games)
    counts = tuple(game.actions for game in facts)
    return NativeRecord(text, skeleton, counts, handle, handle.hits_marked, native)


class NativeGames:
    """Checks a natively read record's games for one match loop (one variant, one set of
    options); a game it declines is left to ``GameChecker``."""

    def __init__(
        self, record: NativeRecord, variant: type[Variant], options: Options, money: bool
    ) -> None:
        self.record = record
        self.rules = record.module.MatchRules(
            variant.id,
            str(options.head_exception),
            str(options.first_turn_scope),
            str(options.block_rule),
            str(options.block_timing),
            str(options.judge),
            options.cube,
            options.crawford,
            options.beavers,
            min(options.cube_limit, _LARGEST_CUBE_LIMIT),
            money,
            options.draw_rule,
            options.draw_scoring is DrawScoring.AFTER_EXTRA_TURN,
            variant.opening_doublets,
            record.hits_marked,
        )

    def check(
        self,
        game: GameText,
        start: Position,
        score_before: tuple[int, int],
        setting: GameSetting,
        budget: Budget,
        canonical: bool = False,
    ) -> tuple[GameVerdict, list[Cell]] | None:
        """The verdict on ``game`` when the native core passes it (and, with ``canonical``,
        the game's cells as the canonical record writes them), else None."""
        cube = start.cube
        answer = self.record.handle.check_game(
            game.index - 1,
            self.rules,
            start.board.white,
            start.board.black,
            None if cube is None else (cube.value, _letter(cube.owner)),
            _letter(start.turn),
            start.board == start.variant.start_board(),
            setting.crawford_game,
            canonical,
        )
        if answer is None:
            return None
        outcome = _Outcome(Ending(answer[0]), *answer[1:])
        budget.charge(Work.ACTIONS, self.record.action_counts[game.index - 1])
        recorded = game.actions[-1] if game.actions else None
        verdict = GameVerdict(
            index=game.index,
            number=game.number,
            score_before=score_before,
            result=_result(start, setting, outcome),
            recorded_winner=None if recorded is None else Side(recorded.side),
            recorded_points=None if recorded is None else recorded.value,
            recorded_line=None if recorded is None else recorded.line,
            crawford=setting.crawford_game,
        )
        return verdict, outcome.cells


def game_as_read(lines: Sequence[str], game: GameText, end: int) -> GameText:
    """``game`` of a natively read record, as the Python reader reads it from its own lines
    (from its ``Game`` line up to line ``end``, numbered as in the whole record): for a game
    the native checker declined, without reading the whole record again."""
    text = "\n".join(lines[game.line - 1 : end])
    read = read_mat(text, first_line=game.line).games[0]
    return replace(read, index=game.index, start=game.start)


def _letter(side: Side | None) -> str | None:
    return None if side is None else str(side)


def _result(start: Position, setting: GameSetting, outcome: _Outcome) -> GameResult:
    """The result of a natively checked game: its ending, as the game flow scores it for
    the cube the game was played for (a ``Wins`` line as ``GameChecker`` reads it)."""
    standing = outcome.standing
    cube = None if standing is None else Cube(standing[0], _side(standing[1]))
    flow = GameFlow(start, setting.options, CubeState(cube, None, outcome.doubled))
    ending = setting.wins_line if outcome.ending is Ending.RESIGNED else outcome.ending
    board = None
    if outcome.white is not None and outcome.black is not None:
        board = Board(tuple(outcome.white), tuple(outcome.black))
    return flow.ending_result(ending, _side(outcome.winner), outcome.points or 0, board)


def _side(letter: str | None) -> Side | None:
    return None if letter is None else Side(letter)
