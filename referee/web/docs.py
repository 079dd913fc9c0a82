"""The users' documents as pages: ``/docs`` lists them, ``/docs/<name>`` renders
``docs/<name>.md`` from the repository (the same Markdown a reader of the repository sees),
and ``/docs/api`` draws the API reference from ``/openapi.yaml`` with Swagger UI.

Headings that start with a section number are anchored by it (``### 14.9 Match play`` is
``#14-9``), so an error's ``docs/rules.md#14-9`` is ``/docs/rules#14-9`` here. Swagger UI's
files come from the flask-swagger-ui package and are served from this site: the page
fetches nothing from anywhere else."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from flask import Response, render_template, send_file, url_for
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup, escape
from werkzeug.exceptions import NotFound

from referee.errors import NotFoundError
from referee.web.site import pages

blueprint = pages("doc_pages", __name__)

DOCS_DIR = Path(__file__).resolve().parents[2] / "docs"
SWAGGER_UI = files("flask_swagger_ui") / "dist"
"""Swagger UI's built files (JavaScript, CSS) as the flask-swagger-ui package ships them."""


@dataclass(frozen=True, slots=True)
class Guide:
    """One document of docs/ as the list at ``/docs`` names it."""

    name: str
    title: str
    summary: str


USERS = (
    Guide("notation", "Notation", "positions, plays, records and ids: how to write them"),
    Guide("rules", "Rules", "long nardy, khachapuri and backgammon, with every option"),
    Guide("live", "Live matches", "for bot authors: the endpoints, the state, fair dice"),
    Guide("events", "Events", "for directors and bot authors: pairings, standings, ratings"),
    Guide("challenges", "Challenges", "for bot authors: challenges between bots, policies"),
    Guide("engine", "The nardy engine", "the builtin long nardy and khachapuri player"),
    Guide("analysis", "Analysis", "how well a match was played: gnubg's figures, PR, the command"),
)
OPERATORS = (
    Guide("operations", "Operations", "running the server: settings, limits, backups"),
    Guide("architecture", "Architecture", "the map of the code and the decisions behind it"),
    Guide("performance", "Performance", "what was measured, and how"),
    Guide("reliability", "Reliability", "what happens when things go wrong"),
)
_NAME = re.compile(r"[a-z][a-z-]*\Z")
_NUMBERED = re.compile(r"(\d+(?:\.\d+)*|[A-Z]\d+)\.?(?:\s|$)")
_LOCAL_DOC = re.compile(r"([a-z][a-z-]*)\.md(#[\w-]+)?\Z")
_CITATION = re.compile(r"docs/([a-z][a-z-]*)\.md(#[\w-]+)?")


def heading_anchor(text: str) -> str:
    """The anchor of a heading: its section number with dashes (``14.9 Match play`` →
    ``14-9``, ``A6 …`` → ``a6``), else its words joined by dashes (``Start positions`` →
    ``start-positions``)."""
    numbered = _NUMBERED.match(text)
    if numbered:
        return numbered.group(1).replace(".", "-").lower()
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))


def _anchor_headings(state: Any) -> None:
    """A core rule: every heading gets the ``id`` of ``heading_anchor``."""
    tokens: list[Token] = state.tokens
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            token.attrSet("id", heading_anchor(tokens[index + 1].content))


def _local_links(state: Any) -> None:
    """A core rule: a link to another document of docs/ (``rules.md#7-2``) goes to its page,
    written relative to the page it is on (``rules#7-2`` beside ``/docs/notation``)."""
    for token in state.tokens:
        for child in token.children or ():
            href = child.attrGet("href") if child.type == "link_open" else None
            local = _LOCAL_DOC.match(str(href)) if href else None
            if local:
                child.attrSet("href", local.group(1) + (local.group(2) or ""))


def _markdown() -> MarkdownIt:
    renderer = MarkdownIt("commonmark", {"html": True}).enable("table")
    renderer.core.ruler.push("anchor_headings", _anchor_headings)
    renderer.core.ruler.push("local_links", _local_links)
    return renderer


MARKDOWN = _markdown()


@dataclass(frozen=True, slots=True)
class Section:
    """A top section of a document (a ``##`` heading), as its page's contents list it."""

    anchor: str
    title: str


def rendered(text: str) -> tuple[str, list[Section]]:
    """A document's HTML and its top sections."""
    tokens = MARKDOWN.parse(text)
    sections = [
        Section(str(token.attrGet("id")), tokens[index + 1].content)
        for index, token in enumerate(tokens)
        if token.type == "heading_open" and token.tag == "h2"
    ]
    return MARKDOWN.renderer.render(tokens, MARKDOWN.options, {}), sections


def document_path(name: str) -> Path:
    """The Markdown file of a document's page, or NotFoundError."""
    path = DOCS_DIR / f"{name}.md"
    if not _NAME.match(name) or not path.is_file():
        raise NotFoundError(f"there is no document {name!r}: /docs lists them")
    return path


@blueprint.app_template_filter("doc_links")
def doc_links(text: str) -> Markup:
    """A message with every ``docs/rules.md#5-2`` it cites made a link to its page."""

    def link(citation: re.Match[str]) -> str:
        page = url_for("doc_pages.doc_page", name=citation.group(1)) + (citation.group(2) or "")
        return f'<a href="{escape(page)}">{citation.group(0)}</a>'

    return Markup(_CITATION.sub(link, str(escape(text))))


@blueprint.get("/docs", strict_slashes=False)
def docs_index() -> str:
    """The documents for users, then those for operators and developers."""
    return render_template("docs.html", users=USERS, operators=OPERATORS)


@blueprint.get("/docs/api")
def api_reference() -> str:
    """The API reference: Swagger UI reading the served ``/openapi.yaml``."""
    return render_template("api_reference.html", spec=url_for("reference.openapi_spec"))


@blueprint.get("/docs/api/assets/<path:filename>")
def api_reference_asset(filename: str) -> Response:
    """One of Swagger UI's files."""
    asset = SWAGGER_UI / filename
    if "/" in filename or not asset.is_file():
        raise NotFound()
    return send_file(str(asset), max_age=24 * 3600)


@blueprint.get("/docs/<name>")
def doc_page(name: str) -> str:
    """One document of docs/, rendered from its Markdown."""
    path = document_path(name)
    title, body, sections = _page(path, path.stat().st_mtime_ns)
    return render_template("doc.html", title=title, body=body, sections=sections, name=name)


@lru_cache(maxsize=32)
def _page(path: Path, modified: int) -> tuple[str, str, tuple[Section, ...]]:
    """A document's title, HTML and top sections, rendered once per version of its file
    (``modified``: the file's time, so an edited document is rendered anew)."""
    text = path.read_text(encoding="utf-8")
    title = next((line[2:] for line in text.splitlines() if line.startswith("# ")), path.stem)
    body, sections = rendered(text)
    return title, body, tuple(sections)
