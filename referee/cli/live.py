"""``bot`` and ``verify-dice``: play a live match as the reference bot, check its dice."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.cli.common import EXIT_BAD_INPUT, EXIT_INVALID, EXIT_OK

if TYPE_CHECKING:
    from referee.live.bot import LiveClient, RandomStrategy

TOKEN_VARIABLE = "NARDY_REFEREE_TOKEN"
"""The environment variable a bot's token may come from (kept out of ``ps``)."""


def add(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    verify = commands.add_parser("verify-dice", help="recompute a live match's dice proof")
    verify.add_argument("proof", help="a proof file, or its URL (.../v1/live/ID/dice)")
    verify.set_defaults(run=_verify_dice)
    bot = commands.add_parser(
        "bot", help="play a live match as a bot (the reference bot), or every match of events"
    )
    bot.add_argument(
        "--url",
        required=True,
        help="the match, e.g. http://host:8000/v1/live/7; with --events the server,"
        " e.g. http://host:8000",
    )
    bot.add_argument(
        "--events",
        action="store_true",
        help="follow the bot stream (GET /v1/bot/stream) and play every match of the events"
        " the bot is entered in, at once; prints a line per match as it ends",
    )
    bot.add_argument(
        "--matches",
        type=_count,
        metavar="N",
        help="with --events: stop after N matches have ended (default: play on for ever)",
    )
    token = bot.add_mutually_exclusive_group()
    token.add_argument(
        "--token-file",
        type=Path,
        metavar="FILE",
        help="a file holding the bot's token (scope play); without it and --token:"
        f" ${TOKEN_VARIABLE}",
    )
    token.add_argument(
        "--token", help="the bot's token itself (other users see it in ps: prefer the others)"
    )
    bot.add_argument(
        "--strategy", type=_strategy, default="random", help="the bot's strategy (default: random)"
    )
    bot.add_argument(
        "--engine",
        metavar="SPEC",
        help="seat an engine instead: gnubg:HOST:PORT (gnubg's external player, started with"
        " gnubg -t and 'external HOST:PORT'), ubgi:COMMAND (a UBGI engine) or builtin[:PLIES]"
        " (the project's own long nardy and khachapuri engine, 0 or 1 ply, default 1)",
    )
    bot.add_argument("--seed", default="", help="the client seed for the dice")
    bot.add_argument(
        "--name", help="the bot's name (its token's): with --accept, whose policy is set"
    )
    bot.add_argument(
        "--accept",
        type=_policy,
        metavar="POLICY",
        help="answer challenges by this policy (docs/challenges.md), as JSON or a JSON"
        ' file, e.g. \'{"accept": "any", "max_concurrent": 2}\'; implies --events (needs'
        " --name)",
    )
    bot.set_defaults(run=_bot)


def _policy(text: str) -> dict[str, Any]:
    """``--accept``: a policy as JSON text, or the name of a file holding it."""
    if not text.lstrip().startswith("{"):
        try:
            text = Path(text).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise argparse.ArgumentTypeError(f"cannot read the policy file: {error}") from None
    try:
        found = json.loads(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"the policy is not JSON: {error}") from None
    if not isinstance(found, dict) or "accept" not in found:
        raise argparse.ArgumentTypeError('the policy is a JSON object with "accept"')
    return found


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a number of matches, got {text!r}")
    return int(text)


def _strategy(name: str) -> type[RandomStrategy]:
    from referee.live.bot import STRATEGIES  # the live client only for the command that uses it

    try:
        return STRATEGIES[name]
    except KeyError:
        raise argparse.ArgumentTypeError(
            f"unknown strategy {name!r} (known: {', '.join(sorted(STRATEGIES))})"
        ) from None


def _verify_dice(args: argparse.Namespace) -> int:
    import urllib.request  # HTTP and hashing only for the commands that use them

    from referee.live.dice import verify_proof

    try:
        if args.proof.startswith(("http://", "https://")):
            with urllib.request.urlopen(args.proof, timeout=60) as response:
                proof = json.loads(response.read())
        else:
            proof = json.loads(Path(args.proof).read_text())
        live_id = int(proof["id"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"nardy-referee: cannot read the proof: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    problem = verify_proof(proof, live_id)
    if problem is not None:
        print(f"nardy-referee: live match {live_id}: {problem.message}", file=sys.stderr)
        return EXIT_INVALID
    shared = proof.get("dice_id", live_id)
    dice = "" if shared == live_id else f" (the dice of live match {shared}, a mirrored pair)"
    print(f"live match {live_id}{dice}: {len(proof['throws'])} throws verified")
    return EXIT_OK


def bot_token(args: argparse.Namespace) -> str:
    """The bot's token: ``--token``, else ``--token-file``'s text, else
    ``$NARDY_REFEREE_TOKEN`` (ValueError saying what is missing)."""
    if args.token:
        return str(args.token)
    path: Path | None = args.token_file
    if path is not None:
        try:
            text = path.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"cannot read the token file: {error}") from None
        if not text:
            raise ValueError(f"the token file {path} is empty")
        return text
    token = os.environ.get(TOKEN_VARIABLE, "").strip()
    if not token:
        raise ValueError(f"no token: give --token-file FILE, set ${TOKEN_VARIABLE} or --token")
    return token


def _bot(args: argparse.Namespace) -> int:
    from referee.live.bot import LiveApiError, LiveClient, play_match

    try:
        args.token = bot_token(args)
    except ValueError as error:
        print(f"nardy-referee: bot: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.accept is not None and not args.name:
        print("nardy-referee: bot: --accept needs --name (the bot's name)", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.events or args.accept is not None:
        return _events_bot(args)
    client = LiveClient(args.url.rstrip("/"), args.token)
    if args.engine:
        return _engine_bot(args, client)
    strategy = args.strategy()
    try:
        final = play_match(client, strategy, args.seed)
    except (LiveApiError, OSError) as error:
        print(f"nardy-referee: bot: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(json.dumps({key: final[key] for key in ("id", "status", "score", "winner")}))
    return EXIT_OK


def _engine_bot(args: argparse.Namespace, client: LiveClient) -> int:
    """``bot --engine``: the engine plays the match through the bridge (referee.players)."""
    import logging

    from referee.live.bot import LiveApiError
    from referee.players import EngineError, open_engine
    from referee.players.fibs import NotBackgammonError
    from referee.players.nardy import NotNardyError
    from referee.players.seat import BridgeStopped, EngineStrategy, play_engine_match

    logging.basicConfig(format="nardy-referee: %(message)s")
    try:
        engine = open_engine(args.engine)
    except ValueError as error:
        print(f"nardy-referee: bot: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    strategy = EngineStrategy(engine, session_options=engine.name == "gnubg")
    try:
        final = play_engine_match(client, strategy, args.seed)
    except (NotBackgammonError, NotNardyError) as error:
        print(f"nardy-referee: bot: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BridgeStopped:  # the bridge has logged the engine's line and the reason
        return EXIT_INVALID
    except (EngineError, LiveApiError, OSError) as error:
        print(f"nardy-referee: bot: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    finally:
        engine.close()
    print(json.dumps({key: final[key] for key in ("id", "status", "score", "winner")}))
    return EXIT_OK


def _events_bot(args: argparse.Namespace) -> int:
    """``bot --events``: every match of the bot's events and challenges, by the reference
    bot's strategy or one engine serving them all; with ``--accept`` its policy is set
    first."""
    import logging

    from referee.live.bot import EventsBot, LiveApiError, strategy_player

    logging.basicConfig(format="nardy-referee: %(message)s")
    engine = None
    if args.engine:
        from referee.players import open_engine
        from referee.players.seat import engine_player

        try:
            engine = open_engine(args.engine)
        except ValueError as error:
            print(f"nardy-referee: bot: {error}", file=sys.stderr)
            return EXIT_BAD_INPUT
        player = engine_player(engine, engine.name == "gnubg", args.seed)
    else:
        player = strategy_player(args.strategy(), args.seed)

    def report(final: dict[str, Any]) -> None:
        summary = {key: final.get(key) for key in ("id", "status", "score", "winner")}
        print(json.dumps(summary), flush=True)

    bot = EventsBot(
        args.url.rstrip("/"),
        args.token,
        player,
        args.matches,
        on_done=report,
        name=args.name,
        policy=args.accept,
    )
    try:
        bot.run()
    except LiveApiError as error:  # the policy refused
        print(f"nardy-referee: bot: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        pass
    finally:
        if engine is not None:
            engine.close()
    return EXIT_OK
