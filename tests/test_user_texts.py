"""What a user reads points into the repository, never beside it: the README, docs/, the
page templates, openapi.yaml, examples/ and every message string of the packages name no file of
the developers' specification (nor ``../shared``), and every ``docs/<name>.md#<anchor>``
they cite is a heading of that document as its page renders it (``/docs/<name>``).

Docstrings and comments are the developers' notes and may cite the specification; the
docstrings that users read reach them through openapi.yaml, which is scanned."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.web.docs import DOCS_DIR, MARKDOWN, heading_anchor

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("referee", "notation", "vocabulary")
SPEC_POINTER = re.compile(
    r"\.\./shared|\bshared/(?:corpus|seeds)"
    r"|\b(?:RULES|NOTATION|LIVE|EVENTS|FORMATS|ANALYSIS|STYLE)(?:\.md\b|\s*§)"
)
CITED = re.compile(r"docs/([a-z][a-z-]*)\.md#([\w-]+)")
MARKDOWN_LINK = re.compile(r"\]\((?:([a-z][a-z-]*)\.md)?#([\w-]+)\)")
HEADING_ID = re.compile(r'<h[1-6] id="([^"]+)"')


def message_strings(path: Path) -> Iterator[tuple[int, str]]:
    """The string literals of a module that are values (messages, descriptions, help),
    leaving out docstrings and other bare string statements."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    notes = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in notes:
            yield node.lineno, node.value


def user_texts() -> Iterator[tuple[str, str]]:
    """(where, text) for everything a user of the repository or the server reads."""
    files = [ROOT / "README.md", ROOT / "openapi.yaml", *sorted(DOCS_DIR.glob("*.md"))]
    files += sorted((ROOT / "referee" / "web" / "templates").glob("*.html"))
    files += sorted((ROOT / "examples").iterdir())
    for path in files:
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for line, text in message_strings(path):
                yield f"{path.relative_to(ROOT)}:{line}", text


def spec_pointers(text: str) -> list[str]:
    return [match.group(0) for match in SPEC_POINTER.finditer(text)]


def anchors(name: str) -> set[str]:
    """The heading anchors of ``docs/<name>.md`` as its page renders them."""
    path = DOCS_DIR / f"{name}.md"
    if not path.is_file():
        return set()
    return set(HEADING_ID.findall(MARKDOWN.render(path.read_text(encoding="utf-8"))))


def cited_anchors(where: str, text: str) -> Iterator[tuple[str, str]]:
    """(document, anchor) for every ``docs/x.md#a`` in ``text``, and in a document of
    docs/ also every Markdown link ``(x.md#a)`` or ``(#a)``."""
    for match in CITED.finditer(text):
        yield match.group(1), match.group(2)
    if where.startswith("docs/"):
        here = Path(where).stem
        for match in MARKDOWN_LINK.finditer(text):
            yield match.group(1) or here, match.group(2)


def missing_anchors(texts: list[tuple[str, str]]) -> list[str]:
    known: dict[str, set[str]] = {}
    missing = []
    for where, text in texts:
        for name, anchor in cited_anchors(where, text):
            if anchor not in known.setdefault(name, anchors(name)):
                missing.append(f"{where}: docs/{name}.md#{anchor}")
    return missing


@pytest.fixture(scope="module")
def texts() -> list[tuple[str, str]]:
    return list(user_texts())


def test_the_scan_reads_every_kind_of_text(texts: list[tuple[str, str]]) -> None:
    places = {where.split(":")[0].split("/")[0] for where, _ in texts}
    assert {"README.md", "openapi.yaml", "docs", "examples", "referee", "notation"} <= places
    assert "vocabulary" in places
    # a message string of the judge, one template and the four user documents are read
    assert any(where.startswith("referee/rules/judge.py:") for where, _ in texts)
    assert any(where == "referee/web/templates/index.html" for where, _ in texts)
    docs = {where for where, _ in texts if where.startswith("docs/")}
    assert {"docs/notation.md", "docs/rules.md", "docs/live.md", "docs/events.md"} <= docs


def test_the_pointer_pattern_finds_what_it_must() -> None:
    assert spec_pointers("see ../shared/RULES.md") == ["../shared", "RULES.md"]
    assert spec_pointers("(NOTATION §1), LIVE § 5 and EVENTS.md") == [
        "NOTATION §",
        "LIVE §",
        "EVENTS.md",
    ]
    assert spec_pointers("check shared/corpus/mat") == ["shared/corpus"]
    assert spec_pointers("docs/rules.md#14-3, docs/live.md, RULES_REVISION, LIVE matches") == []


def test_docstrings_are_not_messages(tmp_path: Path) -> None:
    module = tmp_path / "sample.py"
    module.write_text('"""Module (RULES.md)."""\nX = 1\n"""X (RULES.md)."""\nY = "RULES.md 5.1"\n')
    assert list(message_strings(module)) == [(4, "RULES.md 5.1")]


def test_no_user_text_points_beside_the_repository(texts: list[tuple[str, str]]) -> None:
    found = [f"{where}: {pointer}" for where, text in texts for pointer in spec_pointers(text)]
    assert found == []


def test_missing_anchors_are_found() -> None:
    texts = [("README.md", "docs/rules.md#14-3 and docs/rules.md#99-9, docs/nothing.md#1")]
    assert missing_anchors(texts) == [
        "README.md: docs/rules.md#99-9",
        "README.md: docs/nothing.md#1",
    ]
    in_docs = [("docs/rules.md", "[a](#14-9) [b](notation.md#1-1) [c](#no-such-heading)")]
    assert missing_anchors(in_docs) == ["docs/rules.md: docs/rules.md#no-such-heading"]


def test_every_cited_anchor_is_a_heading(texts: list[tuple[str, str]]) -> None:
    cited = [pair for where, text in texts for pair in cited_anchors(where, text)]
    # the messages cite rules by number: the judge's and the cube's among them
    assert ("rules", "5-2") in cited and ("rules", "14-9") in cited
    assert missing_anchors(texts) == []


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("14.9 Match play and the Crawford rule", "14-9"),
        ("2. Plays", "2"),
        ("A6 Judging a turn", "a6"),
        ("12.1 Option names", "12-1"),
        ("Start positions", "start-positions"),
        ("Header tags", "header-tags"),
    ],
)
def test_a_heading_is_anchored_by_its_section_number_else_its_words(
    heading: str, anchor: str
) -> None:
    assert heading_anchor(heading) == anchor
