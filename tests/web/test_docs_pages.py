"""The documents' pages through Flask's test client: ``/docs`` and one page per Markdown
file of docs/, ``/docs/api`` (Swagger UI over ``/openapi.yaml``), the layout's API link.
Every link on them resolves, anchors included, and nothing is loaded from another site."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient

from referee.app import create_app
from referee.web.docs import DOCS_DIR

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted(path.stem for path in DOCS_DIR.glob("*.md"))
USER_DOCUMENTS = ("notation", "rules", "live", "events")


class Page(HTMLParser):
    """The links (href, src), the element ids and the site navigation's links of a page."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self.ids: set[str] = set()
        self.nav: dict[str, str] = {}
        self._in_nav = False
        self._href: str | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        self.links += [(tag, found[name]) for name in ("href", "src") if name in found]
        if "id" in found:
            self.ids.add(found["id"])
        if tag == "nav" and found.get("aria-label") == "Site":
            self._in_nav = True
        self._href = found.get("href") if self._in_nav and tag == "a" else None

    def handle_data(self, data: str) -> None:
        if self._href is not None and data.strip():
            self.nav[data.strip()] = self._href

    def handle_endtag(self, tag: str) -> None:
        self._in_nav = self._in_nav and tag != "nav"
        self._href = None


@pytest.fixture(scope="module")
def app() -> Flask:
    return create_app({"TESTING": True})


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as client:
        yield client


def page(client: FlaskClient, url: str) -> Page:
    answer = client.get(url)
    assert answer.status_code == 200, url
    assert answer.mimetype == "text/html"
    return Page(answer.get_data(as_text=True))


def external(link: str) -> bool:
    return bool(urlsplit(link).netloc) or link.startswith("//")


@pytest.mark.parametrize("url", ["/docs", "/docs/"])
def test_the_index_lists_the_users_documents_and_the_api(client: FlaskClient, url: str) -> None:
    links = {link for _, link in page(client, url).links}
    assert {f"/docs/{name}" for name in USER_DOCUMENTS} <= links
    assert "/docs/api" in links and "/openapi.yaml" in links
    # and every document of docs/ is listed (a new one is found from /docs)
    assert {f"/docs/{name}" for name in DOCUMENTS} <= links


@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_document_is_a_page_whose_links_resolve(client: FlaskClient, name: str) -> None:
    url = f"/docs/{name}"
    shown = page(client, url)
    title = next(
        line[2:] for line in (DOCS_DIR / f"{name}.md").read_text().splitlines() if line[:2] == "# "
    )
    assert title in client.get(url).get_data(as_text=True)
    for _, link in shown.links:
        assert not external(link), (url, link)
        target, _, anchor = urljoin(url, link).partition("#")
        answer = client.get(target)
        assert answer.status_code == 200, (url, link)
        if anchor:
            ids = Page(answer.get_data(as_text=True)).ids
            assert anchor in ids, (url, link)


def test_the_rules_page_has_the_anchors_errors_cite(client: FlaskClient) -> None:
    # the judge cites 5.1, 5.2, 14.3 ...; the cube 14.5-14.9; the check page 12.1
    shown = page(client, "/docs/rules")
    ids = shown.ids
    # its contents list every top section, "## 1. Board ..." to "## 14. Backgammon ..."
    contents = [link for _, link in shown.links if link in {f"#{n}" for n in range(1, 15)}]
    assert contents == [f"#{n}" for n in range(1, 15)]
    assert {"4-2", "5-1", "5-2", "6-1", "7-2", "7-3", "8-1", "8-3", "12-1", "14-3"} <= ids
    assert {"14-2", "14-5", "14-7", "14-9"} <= ids


def test_a_link_between_documents_goes_to_the_other_page(client: FlaskClient) -> None:
    # docs/notation.md links "[rules 1.4](rules.md#1-4)": on /docs/notation that is
    # the relative "rules#1-4", which is /docs/rules#1-4
    links = [link for _, link in page(client, "/docs/notation").links]
    assert "rules#1-4" in links
    assert urljoin("/docs/notation", "rules#1-4") == "/docs/rules#1-4"


@pytest.mark.parametrize("url", ["/", "/matches", "/events", "/ratings", "/docs", "/docs/rules"])
def test_the_layouts_api_link_is_the_reference_page(client: FlaskClient, url: str) -> None:
    nav = page(client, url).nav
    assert nav["API"] == "/docs/api"
    assert nav["Docs"] == "/docs"


def test_the_api_reference_loads_only_this_sites_files(client: FlaskClient) -> None:
    shown = page(client, "/docs/api")
    assets = [link for tag, link in shown.links if tag in ("script", "link")]
    assert any(link.endswith("swagger-ui-bundle.js") for link in assets)
    assert any(link.endswith("swagger-ui.css") for link in assets)
    for _, link in shown.links:
        assert not external(link), link
        assert client.get(urljoin("/docs/api", link)).status_code == 200, link
    assert "swagger-ui" in shown.ids


def test_the_api_reference_reads_the_served_spec(client: FlaskClient) -> None:
    html = client.get("/docs/api").get_data(as_text=True)
    assert 'data-spec="/openapi.yaml"' in html
    spec = client.get("/openapi.yaml")
    assert spec.status_code == 200 and spec.mimetype == "application/yaml"
    served = yaml.safe_load(spec.get_data(as_text=True))
    assert served == yaml.safe_load((ROOT / "openapi.yaml").read_text())
    assert "/v1/plays/check" in served["paths"]


@pytest.mark.parametrize(
    "url", ["/docs/api/assets/nothing.js", "/docs/api/assets/../__init__.py", "/docs/api/x/y.js"]
)
def test_only_swagger_uis_files_are_served(client: FlaskClient, url: str) -> None:
    assert client.get(url).status_code == 404


@pytest.mark.parametrize("name", ["nothing", "RULES", "rules.md", "..%2Fpyproject"])
def test_an_unknown_document_is_not_found(client: FlaskClient, name: str) -> None:
    answer = client.get(f"/docs/{name}")
    assert answer.status_code == 404
    assert "/docs lists them" in answer.get_data(as_text=True) or answer.mimetype != "text/html"


# Alice's first play takes two checkers from the head with 6-3, which only a first-turn
# 6-6, 4-4 or 3-3 allows (docs/rules.md#6-1, #6-2): an illegal play citing rule 6.1.
HEAD_RULE_BROKEN = """; [Variation "Long Nardy"]
; [CubeLimit "1"]

 1 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 63: 24/18 24/21             52: 24/19 19/17
"""


def test_a_verdicts_rule_citation_links_to_the_rule(client: FlaskClient) -> None:
    html = client.post("/check", data={"record": HEAD_RULE_BROKEN}).get_data(as_text=True)
    cited = re.findall(r'<a href="([^"]*)">docs/rules\.md#6-1</a>', html)
    # the first error's line, the games table and the replay's step each cite it
    assert len(cited) >= 2 and set(cited) == {"/docs/rules#6-1"}
    assert "6-1" in page(client, "/docs/rules").ids


def test_a_citation_link_escapes_the_rest_of_the_message(app: Flask) -> None:
    from referee.web.docs import doc_links

    with app.test_request_context():
        linked = str(doc_links("<b> (docs/live.md#5) and docs/rules.md"))
    assert linked == (
        '&lt;b&gt; (<a href="/docs/live#5">docs/live.md#5</a>)'
        ' and <a href="/docs/rules">docs/rules.md</a>'
    )


def test_an_edited_document_is_rendered_anew(tmp_path: Path) -> None:
    from referee.web.docs import _page

    document = tmp_path / "sample.md"
    document.write_text("# First\n\n## 1. One\n")
    first = _page(document, document.stat().st_mtime_ns)
    assert first[0] == "First" and 'id="1"' in first[1]
    document.write_text("# Second\n\n## 2. Two\n")
    os.utime(document, ns=(0, document.stat().st_mtime_ns + 1))
    second = _page(document, document.stat().st_mtime_ns)
    assert second[0] == "Second" and 'id="2"' in second[1]
    assert [section.anchor for section in second[2]] == ["2"]
