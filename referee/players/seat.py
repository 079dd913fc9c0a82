"""The seat (the engine bridge): an engine as a strategy of the reference bot's loop.

``EngineStrategy.choose`` turns each state in which the bot is to act into the engine's
board (fibs.fibs_board, plus gnubg's session options; for long nardy and khachapuri the
position string, nardy.nardy_question), asks the engine, and turns its answer into the
action (fibs.action_of). It keeps the last exchange so that, when the
server refuses the action, ``play_engine_match`` can log the engine's line next to the
server's reason and stop: the bridge never plays anything the engine did not say.

It holds nothing of one match but that last exchange, so one strategy (and one engine
connection) can serve match after match. In events (``bot --events``) the bot plays its
matches at once, each in a thread: ``engine_player`` gives each match a strategy of its
own (so the exchange logged with a refusal is that match's) over the one engine, whose
lock serialises the questions of every match on its one connection.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.live.bot import ActionRefused, LiveClient, Player, play_match
from referee.players import Engine
from referee.players.fibs import (
    EngineAnswerError,
    NotBackgammonError,
    Seat,
    action_of,
    fibs_board,
)
from referee.players.nardy import NARDY, NotNardyError, nardy_question
from vocabulary import Side, VariantId

log = logging.getLogger("nardy_referee.players")


@dataclass(frozen=True, slots=True)
class Exchange:
    """One question to the engine and its answer."""

    state_ply: int
    question: str
    answer: str


class BridgeStopped(RuntimeError):
    """The bridge stopped: the engine said something that is not an action here, or the
    server refused the action it said (both are logged)."""


def session_options(options: Mapping[str, Any], length: int) -> str:
    """gnubg's session options for the match's rules (external_y.y's sessionoption)."""
    words = [f"crawfordrule {'on' if options.get('crawford', True) else 'off'}"]
    if length == 0:
        words.append(f"jacobyrule {'on' if options.get('jacoby', False) else 'off'}")
        words.append(f"beavers {'on' if options.get('beavers', False) else 'off'}")
    else:
        words.append("jacobyrule off")
        words.append("beavers off")
    return " ".join(words)


@dataclass
class EngineStrategy:
    """Ask ``engine`` for every decision (the bot's ``Strategy``)."""

    engine: Engine
    session_options: bool = True
    """Append gnubg's session options to the board (gnubg's external player reads them;
    UBGI defines none)."""
    last: Exchange | None = None

    def choose(self, state: dict[str, Any]) -> dict[str, Any]:
        side = Side(state["to_act"])
        players = state["players"]
        seat = Seat(side, players[side], players[side.other])
        if state.get("variant") in NARDY:
            question = nardy_question(state)
        else:
            question = fibs_board(state, seat)
            if self.session_options:
                question += " " + session_options(state.get("options") or {}, state["length"])
        answer = self.engine.ask(question)
        self.last = Exchange(state["ply"], question, answer)
        log.debug("ply %s: %s -> %r", state["ply"], question, answer)
        try:
            return action_of(answer, state)
        except EngineAnswerError as error:
            message = (
                f"{self.engine.name} answered {answer!r} to {question!r}: {error};"
                f" the bridge stops (expected: {', '.join(state['expect'])})"
            )
            log.error(message)
            raise BridgeStopped(message) from None


def refuse_variant(state: Mapping[str, Any], engine: Engine | None = None) -> None:
    """NotBackgammonError for a nardy match the engine cannot play, NotNardyError for a
    backgammon match a nardy engine cannot play (before joining it). An engine plays the
    variants it names (``variants``), else backgammon only."""
    variant = state.get("variant")
    plays = getattr(engine, "variants", frozenset({VariantId.BACKGAMMON}))
    if variant in plays:
        return
    if variant == VariantId.BACKGAMMON:
        raise NotNardyError(
            f"live match {state.get('id')} is backgammon: {getattr(engine, 'name', 'the engine')}"
            " plays long nardy and khachapuri only"
        )
    raise NotBackgammonError(
        f"live match {state.get('id')} is {variant}: the engine bridge plays backgammon only"
        " with this engine (gnubg and UBGI engines know no nardy; the builtin engine does)"
    )


def play_engine_match(
    client: LiveClient, strategy: EngineStrategy, seed: str = ""
) -> dict[str, Any]:
    """Play one live match with the engine; the final state. Refuses a match of a variant
    the engine does not play before joining it (NotBackgammonError, NotNardyError);
    BridgeStopped when the engine's answer is no action here or the server refuses it, with
    the engine's line and the server's reason."""
    refuse_variant(client.call("GET"), strategy.engine)
    try:
        return play_match(client, strategy, seed)
    except ActionRefused as refused:
        last = strategy.last
        said = f"{last.answer!r} (to {last.question!r})" if last else "nothing"
        problem = refused.problem
        reason = problem.get("reason") or {}
        why = (
            f"{reason.get('code')}: {reason.get('message')}"
            if reason
            else problem.get("detail", "")
        )
        message = (
            f"the server refused {refused.action} from {strategy.engine.name}, which said"
            f" {said}: {problem.get('code', refused.status)} ({why})"
        )
        log.error(message)
        raise BridgeStopped(message) from None


def engine_player(engine: Engine, session_options: bool = True, seed: str = "") -> Player:
    """Each match of an events bot played by the one ``engine``: a strategy per match, the
    engine's connection shared (one question at a time)."""

    def play(client: LiveClient) -> dict[str, Any]:
        return play_engine_match(client, EngineStrategy(engine, session_options), seed)

    return play
