"""GNU Backgammon's SGF (``GM[6]``) read into the record model, as gnubg's ``load match``
reads it (FORMATS.md part 2 §5; ``notation.records.sgf`` writes the same dialect).

Each game tree is a game; its root holds the match (``MI``), the players, the rules
(``RU``), the result (``RE``) and, on the first game, the match information. Move nodes
become roll cells (``52: 13/8 13/11``, hits left to the checker; dice alone at a game's end,
``PL[W]DI[65]``, gnubg's roll left unplayed before a resignation, an empty roll cell),
``double`` a double (a
double answering a double is a beaver, then a raccoon), ``take`` and ``drop`` the answers,
and ``RE`` the game's ``Wins`` line. Setup nodes before the first move set the game's start
position (from the standard board: ``AE`` clears points, ``AW``/``AB`` add checkers, ``CV``
``CP`` set the cube, the first mover is on roll); a setup in play that clears the board
(gnubg's writing of an ``Illegal play`` edit: ``PL[B]DI[52]`` then ``AE[a:y]AW..AB..``) is
that edit, and one without dice XG's ``Set Pos`` edit. gnubg's analysis properties and
anything else unknown are read and left (not judged); comments ``C``/``GC`` are kept as
the record's comments; variations are dropped with a warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from notation.errors import NotationError
from notation.ids import to_xgid
from notation.plays import PlayText
from notation.positions import CubeField, PositionData, format_position
from notation.records.mat_reader import ReadLimits, past_limit
from notation.records.model import ActionKind, ActionText, GameText, MatchText, ReadingProblem
from notation.records.sgf import DICE_PROPERTIES, MATCH_INFO
from notation.records.sgf_syntax import SgfNode, SgfTree, read_trees
from notation.records.snowie import snowie_cell
from vocabulary import BAR, CHECKERS, OFF, CubeOwner, IssueCode, Move, Phase, VariantId, point_text

STANDARD: Final = {1: -2, 6: 5, 8: 3, 12: -5, 13: 5, 17: -3, 19: -5, 24: 2}
"""Backgammon's start in White's numbering (+n White, -n Black)."""
SETUP: Final = frozenset({"AE", "AW", "AB"})
_ROLL = re.compile(r"([1-6])([1-6])((?:[a-z][a-z])*)")
"""A roll: the dice as written, then a letter pair (from, to) per checker step."""
_RESULT = re.compile(r"([WB])\+(\d{1,6})?(R|Resign)?", re.IGNORECASE)
_OWNERS = {"c": CubeOwner.CENTRE, "w": CubeOwner.WHITE, "b": CubeOwner.BLACK}
_VARIATIONS = {"Nackgammon": "Nackgammon", **{f"Hypergammon{n}": "HyperGammon" for n in (1, 2, 3)}}


def letter_point(side: str, letter: str) -> int:
    """A point letter of gnubg's SGF (White's numbering) in ``side``'s own numbering."""
    if letter == "y":
        return BAR
    if letter == "z":
        return OFF
    index = ord(letter) - ord("a")
    return index + 1 if side == "w" else 24 - index


_STEPS: Final = {
    side: {
        a + b: (
            Move(letter_point(side, a), letter_point(side, b)),
            f"{point_text(letter_point(side, a))}/{point_text(letter_point(side, b))}",
        )
        for a in "abcdefghijklmnopqrstuvwxyz"
        for b in "abcdefghijklmnopqrstuvwxyz"
    }
    for side in "wb"
}
"""Each side's checker step of each letter pair, and its text in a play (``bar``,
``off``): a table (moves are values), since a record has a hundred thousand of them."""


def _letters(value: str) -> list[str]:
    """The points of an ``AE``/``AW``/``AB`` value: one letter, or a ``a:y`` range."""
    first, _, last = value.partition(":")
    if not re.fullmatch("[a-z]", first) or (last and not re.fullmatch("[a-z]", last)):
        return []
    return [chr(code) for code in range(ord(first), ord(last or first) + 1)]


@dataclass
class _Board:
    """A board being set up: White's numbering, +n White, -n Black; the bars."""

    cells: list[int] = field(default_factory=lambda: [STANDARD.get(p, 0) for p in range(1, 25)])
    bar: list[int] = field(default_factory=lambda: [0, 0])
    cleared: set[str] = field(default_factory=set)

    def clear(self, letter: str) -> None:
        self.cleared.add(letter)
        if letter == "y":
            self.bar = [0, 0]
        elif letter < "y":
            self.cells[ord(letter) - ord("a")] = 0

    def add(self, side: str, letter: str) -> None:
        if letter == "y":
            self.bar[0 if side == "w" else 1] += 1
        elif letter < "y":
            self.cells[ord(letter) - ord("a")] += 1 if side == "w" else -1

    def data(self, turn: str, cube: CubeField) -> PositionData:
        white = sum(c for c in self.cells if c > 0) + self.bar[0]
        black = -sum(c for c in self.cells if c < 0) + self.bar[1]
        off = (max(0, CHECKERS - white), max(0, CHECKERS - black))
        bar = (self.bar[0], self.bar[1])
        return PositionData(
            VariantId.BACKGAMMON, tuple(self.cells), bar, off, turn, Phase.ROLL, cube=cube
        )


class _GameReader:
    """One game tree into a GameText (its findings given to ``finding``)."""

    def __init__(self, reader: _Reader, tree: SgfTree, index: int) -> None:
        self.reader = reader
        self.tree = tree
        self.index = index
        self.actions: list[ActionText] = []
        self.findings: list[ReadingProblem] = []
        self.cube = 1
        self.offer: tuple[str, int, int] | None = None
        """The double pending: who offered it, its value, and 1 + the beavers on it."""
        self.setup: _Board | None = None
        self.setup_node: SgfNode | None = None
        self.start_cube = CubeField(1, CubeOwner.CENTRE)
        self.dice_player: tuple[str, tuple[int, int]] | None = None
        self.dice_node: SgfNode | None = None
        self.start: str | None = None

    def finding(self, code: IssueCode, message: str, node: SgfNode) -> None:
        self.reader.count_finding()
        self.findings.append(ReadingProblem(code, message, node.line, node.column))

    def read(self) -> GameText:
        nodes = self.tree.nodes
        root = nodes[0] if nodes else SgfNode((), self.tree.line, self.tree.column)
        for line, column in self.tree.dropped:
            self.reader.count_finding()
            message = "a variation is not the main line: it is not read"
            self.findings.append(ReadingProblem(IssueCode.VARIATION_IGNORED, message, line, column))
        for node in nodes:
            self.node(node)
        self.end_setup("w")
        self.unplayed_roll()
        self.result(root)
        info = _match_info(root.values("MI"))
        score = (info["ws"], info["bs"]) if "ws" in info and "bs" in info else None
        return GameText(
            index=self.index,
            number=self.index,
            line=self.tree.line,
            players=(root.value("PW") or "", root.value("PB") or ""),
            score=score,
            actions=tuple(self.actions),
            start=self.start,
            findings=tuple(self.findings),
        )

    def node(self, node: SgfNode) -> None:
        properties = node.properties
        if len(properties) == 1 and properties[0][0] in ("W", "B") and not self.pending():
            side, values = properties[0]  # the common node: a move alone
            self.move(side.lower(), values[0].strip() if values else "", node)
            self.dice_player = None
            return
        names = {name for name, _ in properties}
        for comment in node.values("C"):
            self.reader.comments.append(f"game {self.index}: {comment.strip()}")
        if names & SETUP:
            self.set_up(node)
        elif "DI" in names and "PL" in names:
            self.end_setup("w")
            dice = node.value("DI") or ""
            player = (node.value("PL") or "").lower()
            if re.fullmatch("[1-6][1-6]", dice) and player in ("w", "b"):
                self.dice_player = (player, (int(dice[0]), int(dice[1])))
                self.dice_node = node
        for name in ("CV", "CP"):
            if name in names and (self.setup is not None or not self.actions):
                self.cube_field(name, node.value(name) or "")
        for side in ("W", "B"):
            value = node.value(side)
            if value is not None:
                self.end_setup(side.lower())
                self.move(side.lower(), value.strip(), node)
                self.dice_player = None
                break

    def pending(self) -> bool:
        """Whether a setup or the dice of an edit wait for the next move."""
        return self.setup is not None or self.dice_player is not None

    def set_up(self, node: SgfNode) -> None:
        if self.setup is None:
            self.setup = _Board()
            self.setup_node = node
        for value in node.values("AE"):
            for letter in _letters(value):
                self.setup.clear(letter)
        for name, side in (("AW", "w"), ("AB", "b")):
            for value in node.values(name):
                for letter in _letters(value):
                    self.setup.add(side, letter)

    def cube_field(self, name: str, value: str) -> None:
        if name == "CV" and value.isdigit() and 0 < int(value) < 1 << 20:
            self.start_cube = CubeField(int(value), self.start_cube.owner)
            self.cube = int(value)
        elif name == "CP" and value.lower() in _OWNERS:
            self.start_cube = CubeField(self.start_cube.value, _OWNERS[value.lower()])

    def end_setup(self, mover: str) -> None:
        """A setup ends at the next move or dice: before the first action it is the game's
        start (``mover`` on roll), in play an edit action."""
        board, node = self.setup, self.setup_node
        if board is None or node is None:
            return
        self.setup = None
        if not self.actions and self.dice_player is None:
            self.start = format_position(board.data(mover, self.start_cube))
            return
        if len(board.cleared) < 25:
            self.actions.append(
                ActionText(ActionKind.EDIT, "", node.line, node.column, None, "setup")
            )
            message = "a setup in play that does not clear the board (AE[a:y]) cannot be read"
            self.finding(IssueCode.UNREADABLE_CELL, message, node)
            return
        cells, bar = tuple(board.cells), (board.bar[0], board.bar[1])
        if self.dice_player is not None:
            side, dice = self.dice_player
            self.dice_player = None  # the edit's roll, not one left unplayed
            text = snowie_cell(dice, cells, bar)
            edit = ActionText(ActionKind.EDIT, side, node.line, node.column, None, text, dice)
        else:
            text = _set_pos(board.data("w", self.start_cube))
            edit = ActionText(ActionKind.EDIT, "", node.line, node.column, None, text)
        self.actions.append(edit)

    def unplayed_roll(self) -> None:
        """Dice alone at the game's end, no setup after them: gnubg's roll left unplayed
        before a resignation, read as the empty roll cell a .mat record writes."""
        if self.dice_player is None or self.dice_node is None:
            return
        side, dice = self.dice_player
        node, text = self.dice_node, f"{dice[0]}{dice[1]}:"
        play = PlayText(dice, ())
        self.actions.append(
            ActionText(ActionKind.ROLL, side, node.line, node.column, None, text, dice, play)
        )
        self.dice_player = None

    def move(self, side: str, value: str, node: SgfNode) -> None:
        base = ActionText(ActionKind.ROLL, side, node.line, node.column, None, value)
        word = value.lower()
        if word == "double":
            self.double(side, base)
        elif word in ("take", "drop"):
            if word == "take" and self.offer is not None:
                self.cube = self.offer[1]
            self.offer = None
            kind = ActionKind.TAKE if word == "take" else ActionKind.DROP
            self.actions.append(_replaced(base, kind, "Takes" if word == "take" else "Drops"))
        else:
            self.roll(side, value, node)

    def double(self, side: str, base: ActionText) -> None:
        offer = self.offer
        if offer is not None and offer[0] != side:  # a double answering a double
            kind = ActionKind.BEAVER if offer[2] == 1 else ActionKind.RACCOON
            value, count = offer[1] * 2, offer[2] + 1
        else:
            kind, value, count = ActionKind.DOUBLE, self.cube * 2, 1
        self.offer = (side, value, count)
        word = {ActionKind.DOUBLE: "Doubles", ActionKind.BEAVER: "Beavers"}.get(kind, "Raccoons")
        text = f"{word} => {value}"
        self.actions.append(ActionText(kind, side, base.line, base.column, None, text, value=value))

    def roll(self, side: str, value: str, node: SgfNode) -> None:
        found = _ROLL.fullmatch(value)
        if found is None:
            self.finding(IssueCode.UNREADABLE_CELL, f"cannot read the move {value[:40]!r}", node)
            return
        dice = (int(found[1]), int(found[2]))
        letters = found[3]
        table = _STEPS[side]
        steps = [table[letters[i : i + 2]] for i in range(0, len(letters), 2)]
        moves = tuple(move for move, _ in steps)
        parts = " ".join(text for _, text in steps)
        text = f"{value[:2]}: {parts}" if parts else f"{value[:2]}:"
        last = self.actions[-1] if self.actions else None
        if not letters and last and (last.side, last.text) == (side, text):
            # gnubg saves a roll left unplayed before a resignation as two such nodes
            message = f"the roll {text} repeats the one before it: read once"
            self.finding(IssueCode.REPEATED_ROLL, message, node)
            return
        play = PlayText(dice, moves)
        self.actions.append(
            ActionText(ActionKind.ROLL, side, node.line, node.column, None, text, dice, play)
        )

    def result(self, root: SgfNode) -> None:
        written = root.value("RE")
        if not written or written.strip() in ("?", "0", "Void"):
            return
        found = _RESULT.fullmatch(written.strip())
        if found is None or found[2] is None:
            self.finding(IssueCode.UNREADABLE_CELL, f"cannot read RE[{written[:40]}]", root)
            return
        side, points = found[1].lower(), int(found[2])
        text = f"Wins {points} point{'s' if points != 1 else ''}"
        self.actions.append(
            ActionText(ActionKind.WIN, side, root.line, root.column, None, text, value=points)
        )


def _beavered(game: GameText) -> bool:
    return any(action.kind in (ActionKind.BEAVER, ActionKind.RACCOON) for action in game.actions)


def _set_pos(data: PositionData) -> str:
    """XG's ``Set Pos=<board>/<cube>`` of a board and its cube (the exponent negative
    when White owns the cube)."""
    cube = data.cube or CubeField(1, CubeOwner.CENTRE)
    exponent = cube.value.bit_length() - 1
    sign = -1 if cube.owner is CubeOwner.WHITE else 1
    board = to_xgid(data).split("=")[1].split(":")[0]
    return f"Set Pos={board}/{sign * exponent if cube.owner is not CubeOwner.CENTRE else 0}"


def _replaced(base: ActionText, kind: ActionKind, text: str) -> ActionText:
    return ActionText(kind, base.side, base.line, base.column, None, text)


def _match_info(values: tuple[str, ...]) -> dict[str, int]:
    """``MI[length:7][game:0][ws:0][bs:0]`` as numbers by key (unreadable ones left out)."""
    info = {}
    for value in values:
        key, _, number = value.partition(":")
        if number.strip().isdigit() and len(number.strip()) <= 6:
            info[key.strip()] = int(number)
    return info


class _Reader:
    """The whole file: the limits, the counts, the match's tags and comments."""

    def __init__(self, limits: ReadLimits) -> None:
        self.limits = limits
        self.actions = 0
        self.findings = 0
        self.comments: list[str] = []

    def count_node(self, tree: int, nodes: int) -> None:
        """Every node counts as an action (gnubg writes one action a node): a file of a
        million empty nodes stops at the limit, with where it stopped."""
        _within(self.limits.games, tree + 1, "games")
        _within(self.limits.actions_per_game, nodes, "actions_per_game")
        self.actions += 1
        _within(self.limits.actions, self.actions, "actions")

    def count_finding(self) -> None:
        self.findings += 1
        _within(self.limits.findings, self.findings, "findings")


def _within(limit: int | None, count: int, name: str) -> None:
    if limit is not None and count > limit:
        raise past_limit(name, limit)


def match_tags(
    root: SgfNode, length: int
) -> tuple[dict[str, str], list[str], list[ReadingProblem]]:
    """The first game's root as .mat tags (rules included) and comments, and what in its
    ``RU`` could not be read."""
    tags: dict[str, str] = {}
    date = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", (root.value("DT") or "").strip())
    if date:
        tags["EventDate"] = f"{date[1]}.{date[2]}.{date[3]}"
    for tag, name in (*MATCH_INFO.items(), *DICE_PROPERTIES.items()):
        value = root.value(name)
        if value:
            tags[tag] = value
    comments = [line for value in root.values("GC") for line in value.splitlines()]
    rules = [word for value in root.values("RU") for word in value.split(":") if word]
    problems = []
    for word in rules:
        if word not in ("Crawford", "CrawfordGame", "Jacoby", "NoCube", *_VARIATIONS):
            problems.append(
                ReadingProblem(
                    IssueCode.INVALID_HEADER, f"RU[{word[:40]}] ignored", root.line, root.column
                )
            )
        elif word in _VARIATIONS:
            tags["Variation"] = _VARIATIONS[word]
    if length:
        tags["Crawford"] = "On" if "Crawford" in rules else "Off"
    else:
        tags["Jacoby"] = "On" if "Jacoby" in rules else "Off"
    if "NoCube" in rules:
        tags["CubeLimit"] = "1"
    return tags, comments, problems


def read_sgf(text: str, limits: ReadLimits | None = None) -> MatchText:
    """gnubg's SGF as a record: NotationError for text that is not SGF, or that holds a
    game tree of another game (``GM`` other than 6), or as soon as it goes past ``limits``."""
    reader = _Reader(limits or ReadLimits())
    trees = read_trees(text.lstrip("\ufeff"), reader.count_node)
    for tree in trees:
        game = tree.nodes[0].value("GM") if tree.nodes else None
        if game is not None and game.strip() != "6":
            raise NotationError(
                "invalid_sgf",
                f"the game tree at line {tree.line} is GM[{game[:10]}], not backgammon (GM[6])",
            )
    first = trees[0].nodes[0] if trees[0].nodes else SgfNode((), 1, 1)
    length = _match_info(first.values("MI")).get("length", 0)
    tags, comments, problems = match_tags(first, length)
    reader.findings += len(problems)
    games = tuple(_GameReader(reader, tree, index).read() for index, tree in enumerate(trees, 1))
    if not length and any(_beavered(game) for game in games):
        tags["Beaver"] = "On"  # gnubg has no property for it: its beavers show it allowed
    return MatchText(
        tags=tags,
        comments=tuple(comments + reader.comments),
        match_length=length,
        games=games,
        findings=tuple(problems),
    )
