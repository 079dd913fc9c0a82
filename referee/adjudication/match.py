"""Adjudicating a whole record: variant and options, the score, Crawford, every game."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from notation.errors import NotationError
from notation.options import parse_rules_text
from notation.records.formats import MAT
from notation.records.mat_writer import game_lines, header_lines, join_mat, laid_out, write_mat
from notation.records.model import ActionKind, ActionText, GameText, MatchText
from referee.adjudication.budget import Budget, WorkLimits
from referee.adjudication.formats import RecordTexts, read_as, record_texts, with_more_matches
from referee.adjudication.native_record import (
    NativeGames,
    NativeRecord,
    game_as_read,
    read_natively,
)
from referee.adjudication.setting import Checking, GameSetting, Mode
from referee.adjudication.verdict import GameVerdict, Issue, MatchSummary, Verdict
from referee.errors import (
    RefereeError,
)
from referee.rules.board import Step
from referee.rules.cube import MESSAGES, starting_cube_problem
from referee.rules.engine import CHOSEN, Engine
from referee.rules.match import MatchState
from referee.rules.options import Judge, Options
from referee.rules.position import Position
from referee.rules.scoring import Stake, Termination, unfinished
from referee.rules.variants import VARIANTS, Backgammon, Variant, find_variant, find_variation
from vocabulary import IssueCode, Side

if TYPE_CHECKING:
    from referee.adjudication.game import ReplayStep

_FLAG_VALUES = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}
"""The spellings real writers use for a flag tag's value (any case)."""
_FLAG_TAGS = {"Crawford": "crawford", "Jacoby": "jacoby", "Beaver": "beavers"}


@dataclass(frozen=True, slots=True)
class Adjudication:
    """A verdict and, when asked for, the replay of every game."""

    verdict: Verdict
    record: MatchText
    played: tuple[tuple[tuple[ActionText, tuple[Step, ...] | None], ...], ...]
    """Per game, each action with the steps of its legal play."""
    replays: tuple[tuple[ReplayStep, ...], ...] = ()
    literal: bool = False
    """Plays were judged by sequence: the canonical record keeps the order played."""

    @property
    def canonical(self) -> MatchText:
        """The record with every legal play in canonical text (``write_mat`` renders it);
        built on demand: checking alone does not need it."""
        from referee.adjudication.game import canonical_actions  # imported late: see the end

        games = tuple(
            replace(game, actions=canonical_actions(played, self.literal), findings=())
            for game, played in zip(self.record.games, self.played, strict=True)
        )
        return replace(self.record, games=games, findings=())


def read_record(
    text: str, limits: WorkLimits | None = None, record_format: str | None = None
) -> MatchText:
    """The structure of the (first) record in ``text``, in the format named or detected:
    UnknownFormatError, InvalidNotationError when it holds no match at all or cannot be
    read; TooManyGamesError or WorkLimitError as soon as it goes past a limit."""
    texts = record_texts(text, record_format, at_most=1)
    return read_as(texts.format, texts.parts[0], limits or WorkLimits())


def record_variant(record: MatchText, requested: str | None) -> type[Variant] | None:
    """The request's variant, else the ``[Variation]`` tag, else backgammon; None for a
    variation this referee cannot check (NackGammon, HyperGammon...)."""
    if requested:
        return find_variant(requested)
    tag = record.tags.get("Variation")
    return Backgammon if tag is None else find_variation(tag)


def header_options(
    record: MatchText, variant: type[Variant], warnings: list[Issue]
) -> dict[str, object]:
    """The options the header tags set (NOTATION.md §4); bad tags become warnings."""
    found: dict[str, object] = {}
    tags = record.tags
    if variant.has_cube:
        for tag, option in _FLAG_TAGS.items():
            if tag not in tags:
                continue
            flag = _FLAG_VALUES.get(tags[tag].strip().lower())
            if flag is None:
                warnings.append(
                    Issue(
                        IssueCode.INVALID_HEADER,
                        f"[{tag} {tags[tag]!r}] ignored: the value is one of On/Off,"
                        " Yes/No, True/False",
                    )
                )
            else:
                found[option] = flag
        limit = tags.get("CubeLimit", "").strip()
        if limit == "1":
            found["cube"] = False
        elif re.fullmatch(r"[0-9]{1,6}", limit):
            found["cube_limit"] = int(limit)
        elif "CubeLimit" in tags:
            warnings.append(
                Issue(
                    IssueCode.INVALID_HEADER,
                    f"[CubeLimit {limit!r}] ignored: the value is a number",
                )
            )
    if "Rules" in tags:
        try:
            found.update(parse_rules_text(tags["Rules"]))
        except NotationError as error:
            warnings.append(Issue(IssueCode.INVALID_HEADER, f"[Rules]: {error.message}"))
    checked: dict[str, object] = {}
    for name, value in found.items():
        try:
            variant.option_value(name, value)
        except RefereeError as error:
            warnings.append(
                Issue(IssueCode.INVALID_HEADER, f"header option ignored: {error.message}")
            )
        else:
            checked[name] = value
    return checked


def adjudicate(
    text: str,
    variant: str | None = None,
    mode: str = "strict",
    options: Mapping[str, object] | None = None,
    replay: bool = False,
    limits: WorkLimits | None = None,
    engine: Engine = CHOSEN,
    record_format: str | None = None,
) -> Adjudication:
    """Check every action of a record (NOTATION.md §4) in the format named or detected; a
    bad record is a verdict, not an error. Raises only when the text holds no match in a
    format read here, more than ``limits.games`` games, when checking goes past a work
    limit, or when the variant or options are bad. Of several matches, the first."""
    budget = Budget(limits)
    texts = record_texts(text, record_format, at_most=1)
    record = read_as(texts.format, texts.parts[0], budget.limits)
    checked = adjudicate_record(record, variant, mode, options, replay, budget, engine)
    return replace(checked, verdict=with_more_matches(checked.verdict, texts.count))


def adjudicate_record(
    record: MatchText,
    variant_name: str | None = None,
    mode: str = "strict",
    options: Mapping[str, object] | None = None,
    replay: bool = False,
    budget: Budget | None = None,
    engine: Engine = CHOSEN,
) -> Adjudication:
    how = Checking(Mode(mode), engine, replay)
    verdict, checker = _judged(record, variant_name, options, how, budget or Budget())
    if checker is None:  # a variation the referee cannot check: nothing was played
        played = tuple(tuple((action, None) for action in game.actions) for game in record.games)
        return Adjudication(verdict, record, played)
    literal = checker.options.judge is Judge.SEQUENCE
    return Adjudication(verdict, record, tuple(checker.played), tuple(checker.replays), literal)


def check_record(
    text: str,
    variant: str | None = None,
    mode: str = "strict",
    options: Mapping[str, object] | None = None,
    limits: WorkLimits | None = None,
    engine: Engine = CHOSEN,
    record_format: str | None = None,
    first_line: int = 1,
) -> Verdict:
    """The verdict alone (``adjudicate(...).verdict``, the same to the byte): a ``.mat``
    read and checked by the native core where it can (``native_record``), by Python
    elsewhere; ``first_line`` numbers the text's first line (a later match of a file)."""
    budget = Budget(limits)
    texts = record_texts(text, record_format, at_most=1, first_line=first_line)
    native = _natively(texts, budget.limits, engine)
    if native is None:
        record = read_as(texts.format, texts.parts[0], budget.limits)
        verdict = adjudicate_record(record, variant, mode, options, False, budget, engine).verdict
    else:
        how = Checking(Mode(mode), engine)
        verdict = _judged(native.skeleton, variant, options, how, budget, native)[0]
    return with_more_matches(verdict, texts.count)


def _natively(texts: RecordTexts, limits: WorkLimits, engine: Engine) -> NativeRecord | None:
    """The first match read by the native core, where it can: a ``.mat`` match that starts
    the text (the core numbers lines from 1; a later match of a file is read in Python)."""
    first = texts.parts[0]
    if texts.format is not MAT or first.line != 1:
        return None
    return read_natively(first.text, limits, engine)


@dataclass(frozen=True, slots=True)
class Written:
    """A record checked in strict mode and written in canonical form, as the archive
    stores it."""

    verdict: Verdict
    tags: dict[str, str]
    canonical: str


def check_and_write(
    text: str,
    variant: str | None = None,
    options: Mapping[str, object] | None = None,
    limits: WorkLimits | None = None,
    engine: Engine = CHOSEN,
    record_format: str | None = None,
    first_line: int = 1,
) -> Written:
    """The verdict and the canonical ``.mat`` record (``adjudicate`` and ``write_mat`` of
    its ``canonical``, the same to the byte), each game written as soon as it is checked,
    and natively where the native core can take the record. Of several matches, the first;
    ``first_line`` numbers the text's first line (a later match of a file)."""
    budget = Budget(limits)
    texts = record_texts(text, record_format, at_most=1, first_line=first_line)
    first = texts.parts[0]
    native = _natively(texts, budget.limits, engine)
    record = read_as(texts.format, first, budget.limits) if native is None else native.skeleton
    how = Checking(Mode.STRICT, engine, writing=True)
    verdict, checker = _judged(record, variant, options, how, budget, native)
    verdict = with_more_matches(verdict, texts.count)
    if checker is None:  # a variation the referee cannot check: written as read
        as_read = read_as(texts.format, first, budget.limits) if native is not None else record
        return Written(verdict, record.tags, write_mat(as_read))
    canonical = join_mat(header_lines(record), checker.canonical_games)
    return Written(verdict, record.tags, canonical)


def _judged(
    record: MatchText,
    variant_name: str | None,
    options: Mapping[str, object] | None,
    how: Checking,
    budget: Budget,
    native: NativeRecord | None = None,
) -> tuple[Verdict, _MatchChecker | None]:
    """The verdict and the match checker that reached it (None for a variation the referee
    cannot check)."""
    variant = record_variant(record, variant_name)
    warnings = [
        Issue(finding.code, finding.message, line=finding.line, column=finding.column)
        for finding in record.findings
    ]
    if variant is None:
        return _unchecked(record, how.mode, warnings), None
    effective = variant.options_with(header_options(record, variant, warnings))
    effective = variant.options_with(options or {}, effective)
    checker = _MatchChecker(record, variant, effective, how, budget, native)
    games = checker.run()
    verdict = Verdict(
        variant=variant.id,
        mode=str(how.mode),
        options=variant.options_json(effective),
        match=checker.summary(),
        games=tuple(games),
        warnings=tuple(warnings),
    )
    return verdict, checker


def _unchecked(record: MatchText, mode: Mode, warnings: list[Issue]) -> Verdict:
    """The verdict on a record of a variation the referee cannot check: every game carries
    an ``unsupported_variant`` error (a verdict, not a 422: the record was read)."""
    tag = record.tags.get("Variation", "")
    message = f'[Variation "{tag}"] cannot be checked: this referee knows ' + ", ".join(
        variant.id for variant in VARIANTS
    )
    games = tuple(
        GameVerdict(
            index=game.index,
            number=game.number,
            score_before=game.score or (0, 0),
            result=unfinished(Stake()),
            errors=[Issue(IssueCode.UNSUPPORTED_VARIANT, message, line=game.line)],
        )
        for game in record.games
    )
    first = record.games[0].players if record.games else ("", "")
    summary = MatchSummary(record.match_length or 0, first, (), None, None, False)
    return Verdict(tag.strip().lower(), str(mode), {}, summary, games, tuple(warnings))


class _MatchChecker:
    """Carries the score from game to game and finds the Crawford game."""

    def __init__(
        self,
        record: MatchText,
        variant: type[Variant],
        options: Options,
        how: Checking,
        budget: Budget,
        native: NativeRecord | None = None,
    ) -> None:
        self.record = record
        self.how = how
        self.writing = how.writing
        self.canonical_games: list[list[str]] = []
        """With ``writing``, each game's lines in the canonical record (instead of keeping
        every game's plays for ``Adjudication.canonical``)."""
        self.budget = budget
        self.variant = variant
        self.options = options
        self.mode = how.mode
        self.replay = how.replay
        self.length = record.match_length or 0
        self.match = MatchState(variant, options, self.length)
        self.claimed = self.match
        self.valid = True
        self.scores_after: list[tuple[int, int]] = []
        self.replays: list[tuple[ReplayStep, ...]] = []
        self.played: list[tuple[tuple[ActionText, tuple[Step, ...] | None], ...]] = []
        self.timed_out = record.tags.get("Termination", "").strip().lower() == "timeout"
        self.native = native
        self.native_games = None
        self.lines: list[str] | None = None
        """The natively read record's lines (split once a native game is declined)."""
        if native is None:
            self.hits_marked = any(
                move.hit
                for game in record.games
                for action in game.actions
                if action.play is not None
                for move in action.play.moves
            )
        else:
            self.hits_marked = native.hits_marked
            self.native_games = NativeGames(native, variant, options, self.length == 0)

    def run(self) -> list[GameVerdict]:
        """Every game's verdict. The match is followed twice: by the rules (``match``: a game
        without a result by the rules moves no score) and as the record tells it
        (``claimed``: where checking stopped at an error, its ``Wins`` line), which the next
        score line is compared with and which says whether the record runs to the end."""
        verdicts = []
        previous: GameText | None = None
        for game in self.record.games:
            issues: list[Issue] = []
            before = self.score_before(game, previous, self.claimed.score, issues)
            self.match = self.match.next_game(before)
            self.claimed = self.claimed.next_game(before)
            verdict = self.check_game(game, before, issues)
            result = verdict.result
            self.match = self.match.scored(result.winner, result.points)
            claim = result.winner, result.points
            if result.termination is Termination.UNFINISHED and verdict.errors:
                claim = verdict.recorded_winner, verdict.recorded_points or 0
            won_before = self.claimed.winner is not None
            self.claimed = self.claimed.scored(*claim)
            self.scores_after.append(self.match.score)
            ends_match = not won_before and self.claimed.winner is not None
            self.check_match_claim(game, verdict, self.claimed.score, ends_match)
            verdicts.append(verdict)
            previous = game
        self.valid = not any(verdict.errors for verdict in verdicts)
        return verdicts

    def check_match_claim(
        self, game: GameText, verdict: GameVerdict, score: tuple[int, int], ends_match: bool
    ) -> None:
        """Warn when a ``Wins`` line says "and the match" of a game that does not end it
        (NOTATION.md §3-4: result text that disagrees with the replay)."""
        claims = [a for a in game.actions if a.kind is ActionKind.WIN and a.and_the_match]
        if not claims or ends_match:
            return
        if self.length:
            why = f"the score is {score[0]}-{score[1]} in a {self.length}-point match"
        else:
            why = "a money session has no match to win"
        verdict.warnings.append(
            Issue(
                IssueCode.RESULT_MISMATCH,
                f'"and the match", but {why}',
                line=claims[0].line,
                column=claims[0].column,
            )
        )

    def score_before(
        self,
        game: GameText,
        previous: GameText | None,
        computed: tuple[int, int],
        issues: list[Issue],
    ) -> tuple[int, int]:
        """The record's score line is the ground truth; disagreements are warnings."""
        score_line = game.line + 1
        if previous is not None and game.number != previous.number + 1:
            issues.append(
                Issue(
                    IssueCode.GAME_NUMBER,
                    f"Game {game.number} follows Game {previous.number}",
                    line=game.line,
                )
            )
        if game.score is None:
            return computed
        if previous is not None and game.score != computed:
            issues.append(
                Issue(
                    IssueCode.SCORE_MISMATCH,
                    f"the score line says {game.score[0]}-{game.score[1]}, but the previous"
                    f" game leaves {computed[0]}-{computed[1]}",
                    line=score_line,
                )
            )
        if self.length and max(game.score) >= self.length:
            issues.append(
                Issue(IssueCode.GAME_AFTER_MATCH, "the match was already over", line=score_line)
            )
        return game.score

    def check_game(
        self, game: GameText, before: tuple[int, int], issues: list[Issue]
    ) -> GameVerdict:
        crawford = self.match.crawford[0]
        setting = GameSetting(
            options=self.options,
            mode=self.mode,
            crawford_game=crawford,
            hits_marked=self.hits_marked,
            timed_out=game.index == len(self.record.games) and self.timed_out,
            engine=self.how.engine,
        )
        start = self.start_position(game, issues)
        self.budget.start_game(game.index)
        verdict = None
        if self.native_games is not None:
            checked = self.native_games.check(
                game, start, before, setting, self.budget, self.writing
            )
            if checked is not None:
                verdict, cells = checked
                if self.writing:
                    self.canonical_games.append(laid_out(game, cells))
        if verdict is None:
            verdict = self.python_check(game, start, before, setting)
        rule = starting_cube_problem(start.cube, self.length == 0, self.options)
        if rule is not None:
            verdict.errors.insert(
                0,
                Issue(
                    IssueCode.ILLEGAL_CUBE_ACTION, MESSAGES[rule], rule=str(rule), line=game.line
                ),
            )
        verdict.warnings[:0] = issues
        verdict.warnings.extend(
            Issue(f.code, f.message, line=f.line, column=f.column) for f in game.findings
        )
        if not (verdict.errors and verdict.result.termination is Termination.UNFINISHED):
            verdict.result_mismatch = self.mismatch(verdict, before)
        if verdict.result_mismatch is not None:
            verdict.warnings.append(
                Issue(
                    IssueCode.RESULT_MISMATCH, verdict.result_mismatch, line=verdict.recorded_line
                )
            )
        return verdict

    def python_check(
        self, game: GameText, start: Position, before: tuple[int, int], setting: GameSetting
    ) -> GameVerdict:
        """``game`` checked by ``GameChecker`` (a natively read game is read again, alone,
        by the Python reader, as the Python engine reads it)."""
        if self.native is not None:
            if self.lines is None:
                self.lines = self.native.text.lstrip("\ufeff").splitlines()
            games = self.record.games
            end = games[game.index].line - 1 if game.index < len(games) else len(self.lines)
            game = game_as_read(self.lines, game, end)
        from referee.adjudication.game import GameChecker, canonical_actions  # late: see the end

        checker = GameChecker(game, start, before, setting, self.replay, self.budget)
        verdict = checker.run()
        if checker.replay is not None:
            self.replays.append(tuple(checker.replay))
        if self.writing:
            actions = canonical_actions(checker.played, self.options.judge is Judge.SEQUENCE)
            self.canonical_games.append(game_lines(replace(game, actions=actions)))
        else:
            self.played.append(tuple(checker.played))
        return verdict

    def start_position(self, game: GameText, issues: list[Issue]) -> Position:
        """The game's start: the match's, or the record's ``[StartPosition]`` (its board,
        turn and, where the game has a cube, its cube)."""
        position = self.match.start_position()
        if game.start is None:
            return position
        try:
            given = _read_position(game.start)
        except RefereeError as error:
            issues.append(Issue(IssueCode.INVALID_START_POSITION, error.message, line=game.line))
            return position
        if given.variant is not self.variant:
            issues.append(Issue(IssueCode.INVALID_START_POSITION, "wrong variant", line=game.line))
            return position
        # The game's first roll brings its own dice: the start is always "to roll".
        # Without the cube (option off, [CubeLimit "1"]) the cube field never counts.
        start_cube = given.cube if position.cube is not None else None
        return replace(position, board=given.board, turn=given.turn, cube=start_cube)

    def mismatch(self, verdict: GameVerdict, before: tuple[int, int]) -> str | None:
        """Why the record's result differs from the rules' (None when they agree)."""
        result = verdict.result
        recorded = verdict.recorded_points
        if verdict.recorded_winner is None or recorded is None:
            return None
        if result.winner is None:
            return f"the record says Wins {recorded}, but by the rules nobody has won"
        if verdict.recorded_winner is not result.winner:
            return "the record names the other player as the winner"
        if recorded == result.points:
            return None
        needed = self.length - before[0 if result.winner is Side.WHITE else 1]
        if self.length and recorded == needed < result.points:
            return (
                f"Wins {recorded} is capped at the points needed to win the match"
                f" (the rules give {result.points})"
            )
        if self.variant.has_cube and recorded not in {result.cube * n for n in (1, 2, 3)}:
            return f"Wins {recorded} is not a game value at cube {result.cube}"
        noun = "point" if recorded == 1 else "points"
        return f"the record says {recorded} {noun}, the rules give {result.points}"

    def summary(self) -> MatchSummary:
        first = self.record.games[0] if self.record.games else None
        players = first.players if first is not None else ("", "")
        all_done = all(
            any(a.kind is ActionKind.WIN for a in game.actions) for game in self.record.games
        )
        return MatchSummary(
            length=self.length,
            players=players,
            scores_after=tuple(self.scores_after),
            crawford_game=self.match.crawford_game,
            winner=self.match.winner if self.valid else None,
            complete=self.claimed.winner is not None or (self.length == 0 and all_done),
            recorded_winner=self.claimed.winner,
        )


# The Python game checker (with the judge, the move generator and the position notation)
# is imported where a game needs it: ``check`` of a record the native core passes whole
# never does, and a command-line check's time is mostly its imports.


def _read_position(text: str) -> Position:
    """A game's start position (``bridge.read_position``, imported when a record has one)."""
    from referee.bridge import read_position

    return read_position(text)
