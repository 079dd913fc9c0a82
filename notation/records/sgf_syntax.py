"""SGF's syntax (FF[4]): game trees of nodes of properties, nothing of backgammon.

Read without recursion and within bounds: a tree nested past ``MAX_DEPTH``, more nodes than
a limit allows, an unclosed ``(`` or ``[`` or text outside a tree stops reading with a
NotationError that says where (line and column). Only the main line of each tree is kept
(the first variation at every branch, SGF's main line); the other variations are read
for their syntax, counted and dropped, each one's place kept for a warning.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

from notation.errors import NotationError, echoed

MAX_DEPTH: Final = 1000
"""Game trees nested deeper are refused: gnubg writes depth 1, editors a few levels."""

_TOKEN = re.compile(
    r"\s*(?:(?P<open>\()|(?P<close>\))|(?P<node>;)"
    r"|(?P<name>[A-Za-z]{1,32})\s*(?P<values>(?:\[[^\\\]]*(?:\\.[^\\\]]*)*\]\s*)+))",
    re.DOTALL,
)
_VALUE = re.compile(r"\[([^\\\]]*(?:\\.[^\\\]]*)*)\]", re.DOTALL)
_ESCAPE = re.compile(r"\\(\r\n|\n\r|.)", re.DOTALL)
_OPEN_VALUE = re.compile(r"\s*[A-Za-z]{1,32}\s*\[")


@dataclass(frozen=True, slots=True)
class SgfNode:
    """One node: its properties (name, values) in the order written, and where it starts."""

    properties: tuple[tuple[str, tuple[str, ...]], ...]
    line: int
    column: int

    def values(self, name: str) -> tuple[str, ...]:
        """Every value of the property ``name`` (a repeated property's values joined)."""
        found: tuple[str, ...] = ()
        for key, values in self.properties:
            if key == name:
                found += values
        return found

    def value(self, name: str) -> str | None:
        """The first value of ``name``, or None when the node does not have it."""
        values = self.values(name)
        return values[0] if values else None


@dataclass(frozen=True, slots=True)
class SgfTree:
    """A game tree's main line, where the tree starts, and the places of the variations
    that were dropped (line, column)."""

    nodes: tuple[SgfNode, ...]
    line: int
    column: int
    dropped: tuple[tuple[int, int], ...] = ()


@dataclass
class _Frame:
    """An open ``(``: whether it is on the main line and whether a child was opened yet."""

    main: bool
    line: int
    column: int
    has_child: bool = False


Properties = list[tuple[str, tuple[str, ...]]]


@dataclass
class _Tree:
    """A tree being read: its main line's nodes as (line, column, properties so far)."""

    line: int
    column: int
    nodes: list[tuple[int, int, Properties]] = field(default_factory=list)
    dropped: list[tuple[int, int]] = field(default_factory=list)

    def done(self) -> SgfTree:
        nodes = tuple(SgfNode(tuple(found), line, column) for line, column, found in self.nodes)
        return SgfTree(nodes, self.line, self.column, tuple(self.dropped))


class _Places:
    """Line and column of an offset in the text (the newline offsets found once)."""

    def __init__(self, text: str) -> None:
        self.newlines = [found.start() for found in re.finditer("\n", text)]

    def __call__(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.newlines, offset - 1)
        start = self.newlines[line - 1] + 1 if line else 0
        return line + 1, offset - start + 1


def _stop(code: str, what: str, place: tuple[int, int]) -> NotationError:
    return NotationError(code, f"{what} at line {place[0]}, column {place[1]}", place[1])


def unescaped(value: str) -> str:
    """A property value's text: ``\\x`` is ``x``; a backslash before a newline joins lines."""
    if "\\" not in value:
        return value
    return _ESCAPE.sub(lambda found: "" if found[1] in "\r\n\r\n" else found[1], value)


def read_trees(
    text: str, count_node: Callable[[int, int], None] | None = None
) -> tuple[SgfTree, ...]:
    """Every game tree of ``text``. ``count_node(tree, nodes)`` is called for each node
    read (the tree's 0-based index and its nodes so far, variations included), so that
    a caller may stop a record past its limits; NotationError for text that is not SGF."""
    parser = _Parser(text, count_node)
    parser.run()
    return tuple(tree.done() for tree in parser.trees)


class _Parser:
    """The trees read so far, the open ``(`` above the place reading is at."""

    def __init__(self, text: str, count_node: Callable[[int, int], None] | None) -> None:
        self.text = text
        self.count_node = count_node
        self.places = _Places(text)
        self.trees: list[_Tree] = []
        self.stack: list[_Frame] = []
        self.nodes_in_tree = 0

    def run(self) -> None:
        text, position, end = self.text, 0, len(self.text.rstrip())
        while position < end:
            token = _TOKEN.match(text, position)
            if token is None:
                raise self.unreadable(position)
            if token["open"]:
                self.open(token.start("open"))
            elif token["close"]:
                if not self.stack:
                    raise self.stop("a ')' closes no game tree", token.start("close"))
                self.stack.pop()
            elif not self.stack:
                at = token.start("node") if token["node"] else token.start("name")
                raise self.stop("a node or property outside a game tree", at)
            elif token["node"]:
                self.node(token.start("node"))
            else:
                self.add_property(token)
            position = token.end()
        if self.stack:
            place = (self.stack[0].line, self.stack[0].column)
            raise _stop("invalid_sgf", "a '(' is never closed", place)
        if not self.trees:
            raise NotationError("invalid_sgf", "no SGF game tree '(;...)' in the text")

    def stop(self, what: str, offset: int) -> NotationError:
        return _stop("invalid_sgf", what, self.places(offset))

    def unreadable(self, position: int) -> NotationError:
        rest = self.text[position:]
        start = position + len(rest) - len(rest.lstrip())
        opened = _OPEN_VALUE.match(self.text, position)
        if opened:
            return self.stop("a '[' is never closed", opened.end() - 1)
        return self.stop(f"cannot read {echoed(self.text[start : start + 20], 20)}", start)

    def open(self, offset: int) -> None:
        if len(self.stack) >= MAX_DEPTH:
            raise self.stop(f"game trees nested deeper than {MAX_DEPTH}", offset)
        line, column = self.places(offset)
        if not self.stack:
            self.trees.append(_Tree(line, column))
            self.nodes_in_tree = 0
            self.stack.append(_Frame(True, line, column))
            return
        parent = self.stack[-1]
        main = parent.main and not parent.has_child
        parent.has_child = True
        if parent.main and not main:
            self.trees[-1].dropped.append((line, column))
        self.stack.append(_Frame(main, line, column))

    def node(self, offset: int) -> None:
        if self.stack[-1].has_child:
            raise self.stop("a node after a variation", offset)
        self.nodes_in_tree += 1
        if self.count_node is not None:
            self.count_node(len(self.trees) - 1, self.nodes_in_tree)
        if self.stack[-1].main:
            line, column = self.places(offset)
            self.trees[-1].nodes.append((line, column, []))

    def add_property(self, token: re.Match[str]) -> None:
        frame, tree = self.stack[-1], self.trees[-1]
        if frame.has_child:
            raise self.stop("a property after a variation", token.start("name"))
        if not frame.main:
            return
        if not tree.nodes:
            raise self.stop("a property before the first ';'", token.start("name"))
        name = token["name"]
        if not name.isupper():  # FF[3]'s long names: their capitals (AddBlack is AB)
            name = "".join(letter for letter in name if letter.isupper())
        written = token["values"]
        if written.count("[") == 1 and "\\" not in written:  # one plain value, the usual
            values: tuple[str, ...] = (written[1 : written.rindex("]")],)
        else:
            values = tuple(unescaped(found[1]) for found in _VALUE.finditer(written))
        tree.nodes[-1][2].append((name, values))


_ROOT = re.compile(r"\ufeff?\s*\(\s*;")
_PROPERTY = re.compile(
    r"\s*(?P<name>[A-Za-z]{1,32})\s*(?:\[[^\\\]]*(?:\\.[^\\\]]*)*\]\s*)+", re.DOTALL
)


def with_root_properties(text: str, properties: Mapping[str, str]) -> str:
    """``text`` with ``properties`` (name, one value each) first in its first game tree's
    root node, the root's own properties of those names gone; a text that does not open
    with a game tree is given back as it is (reading it says what is wrong)."""
    opened = _ROOT.match(text)
    if opened is None:
        return text
    position = opened.end()
    kept: list[str] = []
    while (found := _PROPERTY.match(text, position)) is not None:
        name = found["name"]
        short = name if name.isupper() else "".join(c for c in name if c.isupper())
        if short not in properties:
            kept.append(text[position : found.end()])
        position = found.end()
    written = "".join(f"{name}[{_escaped(value)}]" for name, value in properties.items())
    return text[: opened.end()] + written + "".join(kept) + text[position:]


def _escaped(value: str) -> str:
    """A property value as written: ``\\`` and ``]`` escaped."""
    return value.replace("\\", "\\\\").replace("]", "\\]")
