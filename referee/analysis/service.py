"""Analysing one record: the record as the referee reads it (checked, then exported as
its own SGF, players in their columns: the left White, gnubg's player 0: ``prepare``)
analysed by gnubg, a process of its own or one kept for several records (``gnubg.Gnubg``),
its figures read back onto the referee's replay (``read_back``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from notation.records.mat_reader import read_mat
from notation.records.model import ActionKind, ActionText, MatchText
from referee.adjudication import check_and_write
from referee.adjudication.budget import WorkLimits
from referee.adjudication.formats import read_as, record_texts
from referee.adjudication.match import read_record, record_variant
from referee.adjudication.verdict import Verdict
from referee.analysis.actions import game_actions
from referee.analysis.errors import EngineFailedError, NoEngineError
from referee.analysis.gnubg import Gnubg, GnubgOutput, find_gnubg, run_gnubg
from referee.analysis.nardy import admit_nardy, analyse_nardy, require_nardy_engine
from referee.analysis.result import Analysis, GameAnalysis, Names, Sides
from referee.analysis.settings import EngineName, Settings
from referee.analysis.statistics import read_statistics
from referee.analysis.validity import require_valid
from referee.archive.sgf import sgf_of
from referee.players.nardy import NARDY
from referee.rules.engine import CHOSEN, Engine
from vocabulary import VariantId

GNUBG_LONGEST_MATCH = 64
"""gnubg's match equity tables stop at 64 points (MAXSCORE): past them its figures are not
numbers."""
_LOSSES = re.compile("losses", re.IGNORECASE)
"""A word every ``Losses N point`` cell holds (the canonical record leaves them out)."""
SECONDS_BASE = 30.0
SECONDS_PER_ACTION = (0.05, 0.3, 1.5, 15.0)
"""Time allowed per action of the record at 0, 1, 2 and 3 plies (the most of the two
settings), over the base: three to ten times what gnubg took on a shared 2-core machine
under a load of 10 to 13 (2026-12-07: about 0.005 s an action at 0-ply, 0.04 at 1-ply,
0.4 at 2-ply, 4.4 at 3-ply)."""


@dataclass(frozen=True, slots=True)
class Prepared:
    """A record made ready for gnubg: its SGF, each game's canonical actions with their
    replay indexes, the players' names."""

    sgf: str
    games: tuple[tuple[tuple[int, ActionText], ...], ...]
    names: Names

    @property
    def actions(self) -> int:
        return sum(len(game) for game in self.games)


def analyse(
    record: str,
    settings: Settings | None = None,
    *,
    variant: str | None = None,
    options: Mapping[str, object] | None = None,
    program: str | None = None,
    timeout: float | None = None,
    limits: WorkLimits | None = None,
    engine: Engine = CHOSEN,
    gnubg: Gnubg | None = None,
) -> Analysis:
    """gnubg's analysis of the match ``record`` (any format the referee reads) at
    ``settings`` (default: 2 and 2 plies): ``prepare``, ``run_gnubg``, ``read_back``.
    ``program`` is gnubg's executable (default: ``find_gnubg``), ``timeout`` its time in
    seconds (default: ``time_allowed``); ``gnubg``, one kept running for several records,
    is used instead of a new one at ``program``. Refused as ``prepare`` and ``run_gnubg`` say.
    A nardy match is the project's own engine's to analyse (``nardy.analyse_nardy``)."""
    settings = settings or Settings()
    if is_nardy(record, variant, limits):
        return analyse_nardy(
            record, settings, variant=variant, options=options, limits=limits, engine=engine
        )
    prepared = prepare(record, variant=variant, options=options, limits=limits, engine=engine)
    allowed = timeout if timeout is not None else time_allowed(prepared.actions, settings)
    games = len(prepared.games)
    if gnubg is None:
        output = run_gnubg(prepared.sgf, settings, games, find_gnubg(program), allowed)
    else:
        output = gnubg.analyse(prepared.sgf, settings, games, allowed)
    return read_back(output, prepared, settings)


def prepare(
    record: str,
    *,
    variant: str | None = None,
    options: Mapping[str, object] | None = None,
    limits: WorkLimits | None = None,
    engine: Engine = CHOSEN,
) -> Prepared:
    """The record checked and written for gnubg; refused before gnubg is started: a
    nardy match (NoEngineError), a record with errors or without games
    (InvalidRecordError: gnubg would analyse other games than the written ones), a match
    past gnubg's tables (EngineFailedError)."""
    limits = limits or WorkLimits()
    written = check_and_write(record, variant, options, limits, engine)
    verdict = written.verdict
    _require_analysable(verdict)
    canonical = read_mat(written.canonical, limits.reading)
    indexed = replay_indexed(record, canonical, limits)
    sgf = sgf_of(canonical, verdict.to_json())
    return Prepared(sgf, indexed, Names(*verdict.match.players))


def read_back(output: GnubgOutput, prepared: Prepared, settings: Settings) -> Analysis:
    """gnubg's output read into the analysis of the prepared record."""
    games = tuple(
        GameAnalysis(number, Sides(*read_statistics(text)), game_actions(number, game, records))
        for number, (text, game, records) in enumerate(
            zip(output.game_statistics, prepared.games, output.games, strict=True), start=1
        )
    )
    players = Sides(*read_statistics(output.match_statistics))
    engine = EngineName("gnubg", output.version)
    return Analysis(engine, settings, players, games, prepared.names)


def admitted(
    record: str,
    *,
    variant: str | None = None,
    options: Mapping[str, object] | None = None,
    limits: WorkLimits | None = None,
    engine: Engine = CHOSEN,
) -> int:
    """The actions an engine will analyse in ``record``, refused as its analysis would
    refuse the record, before any engine runs (a job is queued only for what is admitted):
    a nardy match by the project's own engine's rules (``admit_nardy``), any other by
    gnubg's (``prepare``)."""
    if is_nardy(record, variant, limits):
        return admit_nardy(record, variant=variant, options=options, limits=limits, engine=engine)
    return prepare(record, variant=variant, options=options, limits=limits, engine=engine).actions


def analysable(variant: str) -> bool:
    """Whether a match of ``variant`` can be queued for analysis here: backgammon (gnubg
    is looked for by the workers), or a nardy game when the project's engine runs here."""
    if variant not in NARDY:
        return variant == VariantId.BACKGAMMON
    try:
        require_nardy_engine(variant)
    except NoEngineError:
        return False
    return True


def is_nardy(record: str, variant: str | None = None, limits: WorkLimits | None = None) -> bool:
    """Whether ``record`` is a match of a nardy game (read, not checked)."""
    found = record_variant(read_record(record, limits), variant)
    return found is not None and found.id in NARDY


def time_allowed(actions: int, settings: Settings) -> float:
    """Seconds gnubg is given for a record of this many actions at these settings."""
    return SECONDS_BASE + actions * SECONDS_PER_ACTION[settings.most_plies]


def replay_indexed(
    record: str, canonical: MatchText, limits: WorkLimits
) -> tuple[tuple[tuple[int, ActionText], ...], ...]:
    """Per game, each canonical action with its index in the game's replay (from 1): the
    replay steps through the record as written, whose ``Losses`` lines (Galaxy's note of
    a resignation) the canonical record leaves out; a record without one is not read
    again. A valid record only."""
    if not _LOSSES.search(record):
        return tuple(tuple(enumerate(game.actions, start=1)) for game in canonical.games)
    texts = record_texts(record, at_most=1)
    written = read_as(texts.format, texts.parts[0], limits)
    indexed = []
    for as_written, game in zip(written.games, canonical.games, strict=True):
        places = [
            index
            for index, action in enumerate(as_written.actions, start=1)
            if action.kind is not ActionKind.LOSS
        ]
        indexed.append(tuple(zip(places, game.actions, strict=True)))
    return tuple(indexed)


def _require_analysable(verdict: Verdict) -> None:
    if verdict.variant != VariantId.BACKGAMMON:
        raise NoEngineError(
            f"gnubg analyses backgammon only, not {verdict.variant} (the nardy games are"
            " analysed by the project's own engine)"
        )
    require_valid(verdict)
    length = verdict.match.length
    if length > GNUBG_LONGEST_MATCH:
        raise EngineFailedError(
            f"gnubg analyses matches of up to {GNUBG_LONGEST_MATCH} points, not {length}"
        )
