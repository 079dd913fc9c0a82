"""The plays service: legal plays of a position and the verdict on one written play.

Shared by the REST endpoints and the command line; the JSON shapes are NOTATION.md §4's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from notation.errors import echoed
from notation.plays import parse_play
from referee.bridge import play_text, read_position, write_position
from referee.errors import (
    MAX_MESSAGE,
    DiceRequiredError,
    GameOverError,
    InvalidNotationError,
    shortened,
)
from referee.notation_errors import notation_errors
from referee.rules.board import Play
from referee.rules.engine import CHOSEN, Engine
from referee.rules.judge import PlayJudge, RuleNote
from referee.rules.movegen import Reason
from referee.rules.options import DEFAULT_OPTIONS, Judge, Options
from referee.rules.position import Position
from referee.rules.variants import find_variant
from referee.shapes import Shape, dumper, fields
from vocabulary import Move, Phase


@dataclass(frozen=True, slots=True)
class PlayAnswer:
    """A legal play in canonical text and the position it leads to."""

    play: str
    position: str

    def to_json(self) -> dict[str, Any]:
        return _dump_play(self)


@dataclass(frozen=True, slots=True)
class CheckAnswer:
    """The verdict on one written play."""

    legal: bool
    play: str | None
    position: str | None
    reason: RuleNote | None
    alternatives: tuple[str, ...]
    warnings: tuple[RuleNote, ...]

    def to_json(self) -> dict[str, Any]:
        return _dump_check(self)


# -- the JSON shapes, written once (openapi.yaml documents these schemas) ------------------


class RuleNoteSchema(Shape):
    code = fields.String(required=True)
    message = fields.String(required=True)


class LegalPlay(Shape):
    play = fields.String(required=True, metadata={"description": "Canonical play text"})
    position = fields.String(required=True, metadata={"description": "Position after the play"})


class CheckResponse(Shape):
    legal = fields.Boolean(required=True)
    play = fields.String(required=True, allow_none=True)
    position = fields.String(required=True, allow_none=True)
    reason = fields.Nested(RuleNoteSchema, required=True, allow_none=True)
    alternatives = fields.List(fields.String(), required=True)
    warnings = fields.List(fields.Nested(RuleNoteSchema), required=True)


_dump_play = dumper(LegalPlay)
_dump_check = dumper(CheckResponse)


@dataclass(frozen=True, slots=True)
class Judged:
    """A written play judged: the legal play it is, or why it is not one."""

    play: Play | None
    reason: RuleNote | None
    alternatives: tuple[str, ...]
    warnings: tuple[RuleNote, ...]


class PlaysService:
    """One position (with dice) and its options, ready to list or judge plays."""

    def __init__(
        self,
        position_text: str,
        options: Mapping[str, object] | None = None,
        engine: Engine = CHOSEN,
    ) -> None:
        position = read_position(position_text)
        self._begin(position, position.variant.options_with(options or {}), engine)

    @classmethod
    def of(cls, position: Position, options: Options, engine: Engine = CHOSEN) -> PlaysService:
        """The service of a position already read (a live table's), never written out."""
        service = cls.__new__(cls)
        service._begin(position, options, engine)
        return service

    def _begin(self, position: Position, options: Options, engine: Engine) -> None:
        self.position = position
        self.options = options
        self.literal = options.judge is Judge.SEQUENCE
        _require_playable(position, options)
        assert position.turn is not None and position.dice is not None
        self.judge = PlayJudge(
            position.variant, position.board, position.turn, position.dice, options, engine
        )

    def text(self, play: Play) -> str:
        """A legal play's canonical text."""
        return play_text(play.steps, self.literal)

    def legal_texts(self) -> list[str]:
        """Every legal play's canonical text, in the order of ``judge.legal``: by the
        native core in one call when it is the engine and nothing was enumerated yet."""
        judge = self.judge
        native = judge.engine.native
        if native is None or judge.enumerated:
            return [self.text(play) for play in judge.legal]
        board, side = judge.board, judge.side
        texts: list[str] = native.legal_play_texts(
            judge.rules.plain,
            board.layout(side),
            board.layout(side.other),
            judge.dice,
            self.literal,
        )
        return texts

    def answer(self, play: Play) -> PlayAnswer:
        after = self.position.after_play(play.board, self.options.draw_rule)
        return PlayAnswer(self.text(play), write_position(after))

    def legal(self) -> list[PlayAnswer]:
        return [self.answer(play) for play in self.judge.legal]

    def check(self, text: str) -> CheckAnswer:
        judged = self.judged(text)
        if judged.play is None:
            return CheckAnswer(False, None, None, judged.reason, judged.alternatives, ())
        answer = self.answer(judged.play)
        return CheckAnswer(True, answer.play, answer.position, None, (), judged.warnings)

    def judged(self, text: str) -> Judged:
        """The play ``text`` writes, judged; InvalidNotationError when it cannot be read."""
        with notation_errors():
            written = parse_play(text)
        if written.unknown:
            raise InvalidNotationError(f"{echoed(text)} does not say which play was made")
        dice = self.position.dice
        assert dice is not None
        if written.dice is not None and written.dice != dice:
            message = (
                f"the play is written for {written.dice[0]}-{written.dice[1]}"
                f" but the dice are {dice[0]}-{dice[1]}"
            )
            alternatives = tuple(self.text(play) for play in self.judge.legal[:5])
            return Judged(None, RuleNote(str(Reason.DICE_MISMATCH), message), alternatives, ())
        moves = [Move(m.from_point, m.to_point, m.hit) for m in written.moves]
        judgement = self.judge.judge(moves, canonical=True)
        if not judgement.legal or judgement.play is None:
            alternatives = tuple(self.text(play) for play in judgement.alternatives)
            return Judged(None, _shown(judgement.reason), alternatives, ())
        return Judged(judgement.play, None, (), judgement.warnings)


def check_play(
    position: str, play: str, options: Mapping[str, object] | None = None, engine: Engine = CHOSEN
) -> CheckAnswer:
    """The verdict on ``play`` in ``position`` (``PlaysService(...).check(play)``, the same
    answer): the native core answers a legal play with nothing to warn about from the two
    texts in one call, no position, play or board built; the service answers the rest and
    raises every error."""
    native = engine.native
    if native is not None:
        chosen = _options_for(native, position, options)
        if chosen is not None:
            plain = (
                chosen.head_exception,
                chosen.first_turn_scope,
                chosen.block_rule,
                chosen.block_timing,
                chosen.judge is Judge.SEQUENCE,
            )
            answer = native.check_play(position, play, plain)
            if answer is not None:
                return CheckAnswer(True, answer[0], answer[1], None, (), ())
    return PlaysService(position, options, engine).check(play)


def _options_for(
    native: ModuleType, position: str, options: Mapping[str, object] | None
) -> Options | None:
    """The options of a check: the defaults when it sets none (whatever the variant), else
    those it sets for the variant of ``position`` as the native reader reads it (None when
    it cannot: the service reads it and says why)."""
    if not options:
        return DEFAULT_OPTIONS
    read = native.read_position(position)
    if read is None or read[0] != "position":
        return None
    return find_variant(read[1][0]).options_with(options)


def _shown(reason: RuleNote | None) -> RuleNote | None:
    """The judge's reason as this service answers it: a reason about the whole play repeats
    the play as written, which is cut to a few hundred characters (a repeat count makes
    ``8/5(15)`` fifteen moves long)."""
    if reason is None or len(reason.message) <= MAX_MESSAGE:
        return reason
    return RuleNote(reason.code, shortened(reason.message, MAX_MESSAGE))


def _require_playable(position: Position, options: Options) -> None:
    """Plays need a side on turn with dice, in a game that is not over (NOTATION.md §4)."""
    finished = position.finished_side
    if position.phase is Phase.END or (finished is not None and not options.draw_rule):
        raise GameOverError("the game in this position is over: nobody can play")
    if finished is not None and finished is position.turn:
        raise GameOverError("the side on turn has borne off every checker")
    if position.phase is not Phase.MOVE or position.dice is None or position.turn is None:
        raise DiceRequiredError(
            "the position must hold the dice in its state field (like 'w 52') to play"
        )
