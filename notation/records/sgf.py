"""A backgammon match in GNU Backgammon's SGF dialect (``GM[6]``), as gnubg's ``sgf.c``
writes it and ``load match`` reads it (FORMATS.md part 2 §5). Pure text: what each game
holds (its actions as read from a canonical record, who won and how) is given.

One game tree per game, ``(;FF[4]GM[6]CA[UTF-8]AP[...]MI[length:N][game:I][ws:W][bs:B]
PW[..]PB[..] ... RE[W+2] ;W[52lqgh] ;B[double] ...)``:

* the root: ``MI`` (match length, the game's 0-based index, the score before it), the
  players (``PW`` White = player 0 = the record's left column, ``PB`` Black), on the first
  game the match information (``DT`` from EventDate, ``EV``, ``RO``, ``PC`` from Site,
  ``AN`` from Transcriber, ``GC`` the record's comment lines), ``RU`` (``Crawford``,
  ``CrawfordGame``, ``Jacoby``, ``NoCube``, colon-separated), ``RE`` (``W+n``/``B+n``, with
  ``R`` for a resignation; no ``RE`` for an unfinished game);
* the dice tags of a live match (LIVE.md §6) as properties of the first game's root,
  two-letter names gnubg's reader does not use (its lexer reads two capitals at most and
  skips unknown properties): ``XA`` DiceAlgorithm, ``XC`` DiceCommitment, ``XS`` DiceSeed,
  ``XK`` ClientSeeds; and an event's ``EventId``, ``Table`` and ``Leg`` (EVENTS.md §10) as
  ``XE``, ``XT`` and ``XL``;
* a game that starts from a set-up position (the record's StartPosition) opens with
  gnubg's setup nodes (``PL``, ``AE``, ``AW``, ``AB``, then ``CV`` and ``CP`` for the cube);
  a board edit in play is written as gnubg writes its own: gnubg's ``Illegal play`` cell
  as that player's dice (``;PL[B]DI[52]``) then the board, XG's ``Set Pos`` as the board
  and its cube;
* one node per action: a roll ``;W[<d1><d2><from><to>...]`` (one letter pair per checker
  step, ``a``..``x`` the points 1..24 of White's numbering, ``y`` the bar, ``z`` off; a
  dance is the dice alone; a roll left unplayed before a resignation is written as gnubg
  writes one, its dice alone as a set-up, ``;PL[W]DI[65]``, which gnubg reads as a roll
  with no play rather than a play of nothing), ``;W[double]`` (a beaver or raccoon too:
  gnubg records a beaver as the taker's double), ``;B[take]``, ``;B[drop]``. A ``Wins``
  line is no node: ``RE`` says it (gnubg ends a resigned game from ``RE``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from notation.positions import PositionData, parse_position
from notation.records.model import ActionKind, ActionText
from notation.records.set_pos import parse_set_pos
from notation.records.snowie import parse_snowie_cell, snowie_cells
from vocabulary import BAR, OFF, CubeOwner, Phase, VariantId

DICE_PROPERTIES = {
    "DiceAlgorithm": "XA",
    "DiceCommitment": "XC",
    "DiceSeed": "XS",
    "ClientSeeds": "XK",
    "EventId": "XE",
    "Table": "XT",
    "Leg": "XL",
}
"""The live dice tags (LIVE.md §6), an event's tags that SGF has no property for
(EVENTS.md §10: ``Event`` and ``Round`` are ``EV`` and ``RO``) and the root properties
that carry them."""

MATCH_INFO = {"Event": "EV", "Round": "RO", "Site": "PC", "Transcriber": "AN"}


@dataclass(frozen=True, slots=True)
class SgfGame:
    """One game: its actions as a record writes them and its result (``winner`` ``w`` or
    ``b``, None when unfinished; ``resigned`` for a game ended by a resignation)."""

    score: tuple[int, int]
    actions: Sequence[ActionText]
    winner: str | None = None
    points: int | None = None
    resigned: bool = False
    crawford_game: bool = False
    start: str | None = None
    """The position string (NOTATION.md §1) the game starts from, when it is set up."""
    unplayed: bool = False
    """The game's last roll was left unplayed before a resignation (a bare roll)."""


@dataclass(frozen=True, slots=True)
class SgfMatch:
    """A match: its players (White, Black), length (0: money), rules and games."""

    players: tuple[str, str]
    length: int
    games: Sequence[SgfGame]
    tags: Mapping[str, str] = field(default_factory=dict)
    comments: Sequence[str] = ()
    crawford: bool = True
    jacoby: bool = False
    cube: bool = True


def point_letter(side: str, point: int) -> str:
    """A point of ``side``'s own numbering as gnubg's SGF writes it."""
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    return chr(ord("a") + point - 1) if side == "w" else chr(ord("x") - (point - 1))


def escaped(text: str) -> str:
    """A property value: ``\\`` and ``]`` escaped."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def write_sgf(match: SgfMatch, application: str) -> str:
    """The match as gnubg's SGF: one game tree per game."""
    return "".join(_game(match, index, game, application) for index, game in enumerate(match.games))


def _game(match: SgfMatch, index: int, game: SgfGame, application: str) -> str:
    white, black = match.players
    root = [
        f"(;FF[4]GM[6]CA[UTF-8]AP[{escaped(application)}]",
        f"MI[length:{match.length}][game:{index}][ws:{game.score[0]}][bs:{game.score[1]}]",
        f"PW[{escaped(white)}]PB[{escaped(black)}]",
    ]
    if index == 0:
        root.extend(_match_info(match))
    rules = _rules(match, game)
    if rules:
        root.append(f"RU[{':'.join(rules)}]")
    if game.winner in ("w", "b") and game.points:
        resigned = "R" if game.resigned else ""
        root.append(f"RE[{game.winner.upper()}+{game.points}{resigned}]")
    setup = list(_setup(game.start)) if game.start else []
    nodes = [f"\n;{node}" for node in [*setup, *_nodes(game.actions, game.unplayed)]]
    return "".join(root) + "".join(nodes) + ")\n"


def _match_info(match: SgfMatch) -> Iterable[str]:
    date = match.tags.get("EventDate", "")
    parts = date.replace("-", ".").split(".")
    if len(parts) == 3 and all(part.isdigit() for part in parts):
        year, month, day = (int(part) for part in parts)
        yield f"DT[{year:04d}-{month:02d}-{day:02d}]"
    for tag, name in MATCH_INFO.items():
        if match.tags.get(tag):
            yield f"{name}[{escaped(match.tags[tag])}]"
    if match.comments:
        yield f"GC[{escaped(chr(10).join(match.comments))}]"
    for tag, name in DICE_PROPERTIES.items():
        if match.tags.get(tag):
            yield f"{name}[{escaped(match.tags[tag])}]"


def _rules(match: SgfMatch, game: SgfGame) -> list[str]:
    rules = []
    if not match.cube:
        rules.append("NoCube")
    if match.length and match.crawford:
        rules.append("Crawford")
        if game.crawford_game:
            rules.append("CrawfordGame")
    if not match.length and match.jacoby:
        rules.append("Jacoby")
    return rules


def _setup(start: str) -> Iterable[str]:
    """A set-up position as gnubg's setup nodes: the board (``_board``), then the cube's
    value (``CV``) and owner (``CP``) when not a centred 1."""
    position = parse_position(start)
    yield _board(position)
    yield from _cube(position)


def _board(position: PositionData) -> str:
    """``PL[W]`` first, so that ``AW`` (the player on roll's checkers, gnubg's reading) is
    White's and both lists are in White's letters; ``AE[a:y]`` clears the board first."""
    white = [point_letter("w", point) * count for point, count in _own(position, "w")]
    black = [point_letter("b", point) * count for point, count in _own(position, "b")]
    node = "PL[W]AE[a:y]"
    if white:
        node += "AW" + "".join(f"[{letter}]" for letter in "".join(white))
    if black:
        node += "AB" + "".join(f"[{letter}]" for letter in "".join(black))
    return node


def _cube(position: PositionData) -> Iterable[str]:
    cube = position.cube
    if cube is not None and cube.value != 1:
        yield f"CV[{cube.value}]"
    if cube is not None and cube.owner is not CubeOwner.CENTRE:
        yield f"CP[{cube.owner}]"


def _edit(action: ActionText) -> Iterable[str]:
    """A board edit as gnubg writes one: an ``Illegal play`` cell as its player's dice
    (``PL[B]DI[52]``) then the board; XG's ``Set Pos`` as the board and its cube.
    NotationError for an edit that cannot be read."""
    if action.dice is None:
        position = parse_set_pos(action.text)
        yield _board(position)
        yield from _cube(position)
        return
    cells, bar = snowie_cells(parse_snowie_cell(action.text))
    position = PositionData(VariantId.BACKGAMMON, cells, bar, (0, 0), None, Phase.ROLL)
    yield f"PL[{action.side.upper()}]DI[{action.dice[0]}{action.dice[1]}]"
    yield _board(position)


def _own(position: PositionData, side: str) -> list[tuple[int, int]]:
    """``side``'s checkers as (own point, count), the bar as point 25."""
    found = []
    for index, cell in enumerate(position.cells):
        count = cell if side == "w" else -cell
        if count > 0:
            global_point = index + 1
            found.append((global_point if side == "w" else 25 - global_point, count))
    bar = position.bar[0 if side == "w" else 1]
    if bar:
        found.append((BAR, bar))
    return found


def _nodes(actions: Sequence[ActionText], unplayed: bool = False) -> Iterable[str]:
    """One node per action; with ``unplayed``, the last roll as its dice alone."""
    rolls = [index for index, action in enumerate(actions) if action.kind is ActionKind.ROLL]
    bare = rolls[-1] if unplayed and rolls else None
    pending_beaver: str | None = None  # the doubler who must answer a beaver
    for index, action in enumerate(actions):
        side = "W" if action.side == "w" else "B"
        kind = action.kind
        if kind is ActionKind.ROLL:
            if pending_beaver is not None:  # the record omits the doubler's take
                yield f"{pending_beaver}[take]"
                pending_beaver = None
            if index == bare and not (action.play and action.play.moves):
                yield f"PL[{side}]DI[{_roll(action)}]"
                continue
            yield f"{side}[{_roll(action)}]"
        elif kind is ActionKind.DOUBLE:
            yield f"{side}[double]"
        elif kind in (ActionKind.BEAVER, ActionKind.RACCOON):
            yield f"{side}[double]"
            pending_beaver = "B" if side == "W" else "W"
        elif kind is ActionKind.TAKE:
            pending_beaver = None
            yield f"{side}[take]"
        elif kind is ActionKind.DROP:
            pending_beaver = None
            yield f"{side}[drop]"
        elif kind is ActionKind.EDIT:
            yield from _edit(action)
        # WIN and LOSS lines are the result (RE).


def _roll(action: ActionText) -> str:
    assert action.dice is not None
    text = f"{action.dice[0]}{action.dice[1]}"
    if action.play is not None:
        for move in action.play.moves:
            text += point_letter(action.side, move.from_point)
            text += point_letter(action.side, move.to_point)
    return text
