"""The project's own engine's analysis of a nardy match (long nardy, khachapuri): each play
set against the engine's best for the same roll, each roll's luck, and each player's
figures, in the shape of gnubg's (ANALYSIS.md §3) with ``engine.name`` "nardy-referee".

It is this engine's judgement, as strong as docs/engine.md measures it, not gnubg's nor a
master's. Equities are in a single game's points (EMG's unit): the points the engine
expects, over half of the most a game scores (a long nardy oin is 1 and a mars 2;
khachapuri's points are divided by 15, its mars paying 30), so that gnubg's thresholds
mark the plays and PR reads on the same scale. The engine searches 0 or 1 ply (settings of
2 or 3 plies search 1; its version says which), luck at 0-ply. The nardy games have no
cube: the cube figures are None, the overall ones the chequer play's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from notation.records.mat_reader import read_mat
from referee import __version__
from referee.adjudication import adjudicate, check_and_write
from referee.adjudication.budget import WorkLimits
from referee.adjudication.game import ReplayStep
from referee.adjudication.verdict import Verdict
from referee.analysis.actions import DECIMALS, ActionAnalysis, Kind, LuckMark, Mark
from referee.analysis.errors import NoEngineError
from referee.analysis.result import Analysis, GameAnalysis, Names, Sides
from referee.analysis.settings import EngineName, Settings
from referee.analysis.statistics import ChequerStats, LuckStats, OverallStats, PlayerStats
from referee.analysis.validity import require_valid
from referee.bridge import read_position
from referee.players.builtin import PLIES, BuiltinEngine, RankedPlay, network, play_options
from referee.players.gnubg import EngineError
from referee.players.nardy import NARDY, Question
from referee.plays import PlaysService
from referee.rules.board import Board
from referee.rules.engine import CHOSEN, Engine
from referee.rules.options import Options
from referee.rules.position import Position
from referee.rules.variants import find_variant
from vocabulary import CHECKERS, Phase, Side

ENGINE_NAME = "nardy-referee"
MARKS = ((-0.120, Mark.VERY_BAD), (-0.060, Mark.BAD), (-0.030, Mark.DOUBTFUL))
"""gnubg's default thresholds (ANALYSIS.md §1), worst first: a loss at or below marks."""
LUCK_MARKS = (
    (0.600, LuckMark.VERY_LUCKY),
    (0.300, LuckMark.LUCKY),
    (-0.300, LuckMark.UNLUCKY),
    (-0.600, LuckMark.VERY_UNLUCKY),
)
ROLLS = tuple((high, low) for high in range(1, 7) for low in range(1, high + 1))
"""The 21 distinct rolls; a double comes once in 36, any other twice."""


def analyse_nardy(
    record: str,
    settings: Settings | None = None,
    *,
    variant: str | None = None,
    options: Mapping[str, object] | None = None,
    limits: WorkLimits | None = None,
    engine: Engine = CHOSEN,
) -> Analysis:
    """The builtin engine's analysis of the nardy match ``record``: NoEngineError for a
    backgammon match (gnubg's) or where the native core is not built, InvalidRecordError
    for a record with errors or without games."""
    settings = settings or Settings()
    checked = adjudicate(
        record, variant, options=options, replay=True, limits=limits, engine=engine
    )
    verdict = checked.verdict
    _require_nardy(verdict)
    judge = Judge.of(verdict.variant, verdict.options, settings)
    games = tuple(
        judge.game(number, steps) for number, steps in enumerate(checked.replays, start=1)
    )
    players = Sides(*(figures([a for game in games for a in game.actions], side) for side in "wb"))
    return Analysis(judge.name, settings, players, games, Names(*verdict.match.players))


def admit_nardy(
    record: str,
    *,
    variant: str | None = None,
    options: Mapping[str, object] | None = None,
    limits: WorkLimits | None = None,
    engine: Engine = CHOSEN,
) -> int:
    """The rolls ``analyse_nardy`` would judge in ``record``, refused as it would refuse
    the record (before a job is queued for it)."""
    written = check_and_write(record, variant, options, limits, engine)
    _require_nardy(written.verdict)
    games = read_mat(written.canonical, (limits or WorkLimits()).reading).games
    return sum(1 for game in games for action in game.actions if action.dice is not None)


def require_nardy_engine(variant: str) -> None:
    """NoEngineError unless the builtin engine can analyse ``variant`` here (a nardy
    game, and the native core built)."""
    if variant not in NARDY:
        raise NoEngineError(f"the nardy engine analyses long nardy and khachapuri, not {variant}")
    try:
        network(variant)
    except EngineError as missing:
        raise NoEngineError(f"no engine analyses {variant} here: {missing}") from None


def _require_nardy(verdict: Verdict) -> None:
    require_nardy_engine(verdict.variant)
    require_valid(verdict)


@dataclass(frozen=True, slots=True)
class Judge:
    """The engine set to judge one variant's plays under the match's options."""

    engine: BuiltinEngine
    luck_engine: BuiltinEngine
    options: Options
    unit: float
    """Points of a single game: half the most a game scores (oin 1, khachapuri 15)."""
    name: EngineName

    @classmethod
    def of(cls, variant: str, options: Mapping[str, object], settings: Settings) -> Judge:
        """The judge of ``variant``'s plays at ``settings`` (EngineError: no native core)."""
        net = network(variant)
        rules = find_variant(variant)
        played_under = rules.options_with(dict(options))
        most = max(rules.resignation_values(played_under))
        plies = min(settings.chequer_plies, max(PLIES))
        version = f"{__version__} ({variant}.net, {net.games:,} games, {plies}-ply)"
        name = EngineName(ENGINE_NAME, version)
        return cls(BuiltinEngine(plies), BuiltinEngine(0), played_under, most / 2, name)

    def game(self, number: int, steps: tuple[ReplayStep, ...]) -> GameAnalysis:
        """One game's rolls judged, each player's figures over them."""
        actions = tuple(
            self.roll(index, step)
            for index, step in enumerate(steps, start=1)
            if step.action.dice is not None and step.play is not None
        )
        return GameAnalysis(number, Sides(figures(actions, "w"), figures(actions, "b")), actions)

    def roll(self, index: int, step: ReplayStep) -> ActionAnalysis:
        """A roll and its play: its loss against the best play for the roll (None when
        the play was forced) and its luck against the average roll."""
        rolled = self.rolled(step)
        played_board = read_position(step.position_after).board
        ranked = self.engine.ranked(Question(rolled, self.options))
        boards = self.boards(rolled, ranked)
        best = ranked[0]
        loss, mark = None, None
        if len(set(boards)) > 1:
            played = next(
                (r for r, b in zip(ranked, boards, strict=True) if b == played_board), None
            )
            if played is not None:
                loss = (self.searched(rolled, played, played_board) - best.equity) / self.unit
                mark = next((m for limit, m in MARKS if loss <= limit), None)
        luck = self.luck(rolled)
        luck_mark = next(
            (m for limit, m in LUCK_MARKS if (luck >= limit if limit > 0 else luck <= limit)),
            None,
        )
        return ActionAnalysis(
            index, str(step.action.side), Kind.PLAY, step.play, best.play,
            _rounded(loss), mark, _rounded(luck), luck_mark,
        )  # fmt: skip

    @staticmethod
    def rolled(step: ReplayStep) -> Position:
        """The position a roll's play is made from: the replay's, with the roll's side
        (the opening roll's position has none yet) and dice."""
        assert step.action.dice is not None
        before = read_position(step.position_before)
        side = Side(step.action.side)
        return replace(before, turn=side, dice=step.action.dice, phase=Phase.MOVE)

    def boards(self, rolled: Position, ranked: list[RankedPlay]) -> list[Board]:
        """The board each ranked play leaves (plays written otherwise may leave the same)."""
        service = PlaysService.of(rolled, self.options)
        boards = []
        for each in ranked:
            judged = service.judged(each.play).play
            assert judged is not None, f"the engine's play {each.play!r} is not legal"
            boards.append(judged.board)
        return boards

    def searched(self, rolled: Position, play: RankedPlay, board: Board) -> float:
        """``play``'s equity searched as deep as the best's: at 1-ply the engine searches
        only its best few plays again, so a play it left at 0-ply is searched here as it
        searches its candidates (each of the opponent's 21 rolls answered by his best
        reply at 0-ply). A play that bears off the last checker is its score."""
        side = rolled.turn
        assert side is not None
        if play.plies >= self.engine.plies or board.borne_off(side) == CHECKERS:
            return play.equity
        net, options = network(rolled.variant.id), play_options(self.options)
        mine, theirs = list(board.layout(side.other)), list(board.layout(side))
        replies = [
            (dice, RankedPlay.of(net.choose(mine, theirs, dice, 0, options))) for dice in ROLLS
        ]
        return -sum(_weight(dice) * reply.equity for dice, reply in replies) / 36

    def luck(self, rolled: Position) -> float:
        """The best equity of the roll made less the average roll's best, at 0-ply, in
        a single game's points."""
        best = {dice: self._best(rolled, dice) for dice in ROLLS}
        average = sum(_weight(dice) * value for dice, value in best.items()) / 36
        assert rolled.dice is not None
        return (best[max(rolled.dice), min(rolled.dice)] - average) / self.unit

    def _best(self, rolled: Position, dice: tuple[int, int]) -> float:
        question = Question(replace(rolled, dice=dice), self.options)
        return self.luck_engine.best(question).equity


def figures(actions: tuple[ActionAnalysis, ...] | list[ActionAnalysis], side: str) -> PlayerStats:
    """One side's figures over analysed rolls: its moves, losses, marks and luck."""
    mine = [action for action in actions if action.side == side]
    unforced = [action for action in mine if action.equity_loss is not None]
    error = sum(action.equity_loss or 0.0 for action in unforced)
    luck = sum(action.luck or 0.0 for action in mine)
    marks = [action.mark for action in unforced]
    lucks = [action.luck_mark for action in mine]
    rate = _rounded(1000 * error / len(unforced)) if unforced else None
    chequer = ChequerStats(
        total_moves=len(mine),
        unforced_moves=len(unforced),
        unmarked=marks.count(None),
        doubtful=marks.count(Mark.DOUBTFUL),
        bad=marks.count(Mark.BAD),
        very_bad=marks.count(Mark.VERY_BAD),
        error_total_emg=_rounded(error),
        error_rate_memg=rate,
    )
    luck_stats = LuckStats(
        very_lucky=lucks.count(LuckMark.VERY_LUCKY),
        lucky=lucks.count(LuckMark.LUCKY),
        unmarked=lucks.count(None),
        unlucky=lucks.count(LuckMark.UNLUCKY),
        very_unlucky=lucks.count(LuckMark.VERY_UNLUCKY),
        luck_total_emg=_rounded(luck),
        luck_rate_memg=_rounded(1000 * luck / len(mine)) if mine else None,
    )
    overall = OverallStats(error_total_emg=_rounded(error), error_rate_memg=rate)
    return PlayerStats(chequer, luck_stats, None, overall)


def _weight(dice: tuple[int, int]) -> int:
    """How many of the 36 throws give ``dice``: a double one, any other roll two."""
    return 1 if dice[0] == dice[1] else 2


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, DECIMALS) + 0.0
