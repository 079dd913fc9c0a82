"""The layers import one way: the shared vocabulary knows nothing of ours, notation and
referee.rules know only the vocabulary (and the rules their errors), never the service."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WEB_AND_SQL = {"flask", "marshmallow", "sqlite_utils", "sqlite3", "werkzeug", "gunicorn"}


def imports_of(path: Path) -> set[str]:
    """Every module the file at ``path`` imports (dotted names)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            # ``from referee import web`` imports the module ``referee.web``
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def imported_modules(package: Path) -> dict[str, set[str]]:
    """Every module imported by each file of ``package`` (top-level dotted names)."""
    found: dict[str, set[str]] = {}
    for path in package.rglob("*.py"):
        key = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name
        found[key] = imports_of(path)
    return found


def import_circle(package: Path, dotted: str) -> list[str]:
    """A circle of imports among the modules of ``package`` (whose dotted name is
    ``dotted``): the modules along the first one found, back to its start; [] for none."""
    modules: dict[str, set[str]] = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).with_suffix("").parts
        named = parts[:-1] if parts[-1] == "__init__" else parts
        modules[".".join((dotted, *named))] = imports_of(path)
    edges = {name: sorted(found & modules.keys() - {name}) for name, found in modules.items()}
    cleared: set[str] = set()

    def walk(name: str, path: list[str]) -> list[str]:
        if name in path:
            return [*path[path.index(name) :], name]
        if name in cleared:
            return []
        for following in edges[name]:
            circle = walk(following, [*path, name])
            if circle:
                return circle
        cleared.add(name)
        return []

    return next((circle for name in sorted(edges) if (circle := walk(name, []))), [])


def offending(package: Path, allowed: tuple[str, ...], forbidden: set[str]) -> list[str]:
    return [
        f"{path} imports {name}"
        for path, names in imported_modules(package).items()
        for name in offending_names(names, allowed, forbidden)
    ]


def offending_names(names: set[str], allowed: tuple[str, ...], forbidden: set[str]) -> list[str]:
    """Of ``names``, ours outside ``allowed`` and any whose top package is ``forbidden``."""
    problems = []
    for name in sorted(names):
        top = name.split(".")[0]
        ours = top in ("referee", "notation", "vocabulary")
        if (ours and not name.startswith(allowed)) or top in forbidden:
            problems.append(name)
    return problems


def test_the_vocabulary_imports_nothing_of_ours() -> None:
    assert offending(ROOT / "vocabulary", ("vocabulary",), WEB_AND_SQL) == []


def test_notation_imports_nothing_from_referee_nor_web_or_sql() -> None:
    assert offending(ROOT / "notation", ("notation", "vocabulary"), WEB_AND_SQL) == []


def test_rules_import_neither_notation_nor_the_service_layer() -> None:
    allowed = ("referee.rules", "referee.errors", "vocabulary")
    assert offending(ROOT / "referee" / "rules", allowed, WEB_AND_SQL) == []


def test_the_board_drawing_is_pure(tmp_path: Path) -> None:
    """The SVG board is a pure function of a position: no web framework, no SQL."""
    package = tmp_path / "board"
    package.mkdir()
    (package / "board_svg.py").write_text((ROOT / "referee" / "board_svg.py").read_text())
    allowed = ("referee.rules", "referee.bridge", "referee.errors", "vocabulary")
    assert offending(package, allowed, WEB_AND_SQL) == []


@pytest.mark.parametrize(("package", "other"), [("api", "web"), ("web", "api")])
def test_the_api_and_the_pages_never_import_each_other(package: str, other: str) -> None:
    """Both stand on ``referee.http``; ``referee.app`` registers both."""
    problems = [
        f"{path} imports {name}"
        for path, names in imported_modules(ROOT / "referee" / package).items()
        for name in names
        if name == f"referee.{other}" or name.startswith(f"referee.{other}.")
    ]
    assert problems == []


@pytest.mark.parametrize("package", ["api", "web"])
def test_the_api_and_the_pages_have_no_import_circle(package: str) -> None:
    """Each resource's or page group's module is imported by its package's ``__init__``
    (which registers them) and never imports the package back: the pages share the site's
    frame through ``web/site.py``, not through a blueprint in ``__init__``."""
    assert import_circle(ROOT / "referee" / package, f"referee.{package}") == []


def test_the_circle_check_finds_a_module_importing_its_package_back(tmp_path: Path) -> None:
    package = tmp_path / "pages"
    package.mkdir()
    (package / "__init__.py").write_text("blueprint = None\nfrom pages import events\n")
    (package / "events.py").write_text("from pages import blueprint\n")
    (package / "site.py").write_text("import flask\n")
    assert import_circle(package, "pages") == ["pages", "pages.events", "pages"]


DRIVERS = {"sqlite3", "sqlite_utils", "psycopg", "psycopg_pool"}


def test_sql_only_in_the_storage_package() -> None:
    """Only ``referee.storage`` imports a database driver: every other module sees its
    stores' values and the project's own errors."""
    problems = [
        f"{path} imports {name}"
        for path, names in imported_modules(ROOT / "referee").items()
        if not path.startswith("referee/storage/")
        for name in names
        if name.split(".")[0] in DRIVERS
    ]
    assert problems == []


BACKENDS = ("sqlite", "postgresql")


def backend_problems(modules: dict[str, set[str]]) -> list[str]:
    """Of ``referee/storage``'s ``modules``: a backend importing another backend, or a
    module outside the backends importing one or a driver (``__init__.py`` alone opens
    the backend a location names)."""
    problems = []
    for path, names in modules.items():
        parts = path.split("/")
        own = parts[2] if len(parts) > 3 and parts[2] in BACKENDS else None
        for name in sorted(names):
            backend = next((b for b in BACKENDS if name.startswith(f"referee.storage.{b}")), None)
            borrowed = own is not None and backend not in (None, own)
            neutral = own is None and path != "referee/storage/__init__.py"
            if borrowed or (neutral and (backend or name.split(".")[0] in DRIVERS)):
                problems.append(f"{path} imports {name}")
    return problems


def test_each_backend_stands_alone_on_the_stores_written_once() -> None:
    """PostgreSQL never imports SQLite nor SQLite PostgreSQL; the stores, written once
    over a backend's ``Database`` and ``Dialect``, import neither, nor a driver."""
    assert backend_problems(imported_modules(ROOT / "referee" / "storage")) == []


def test_the_backend_check_sees_a_backend_borrowing_from_the_other() -> None:
    modules = {
        "referee/storage/postgresql/events.py": {"referee.storage.sqlite.events"},
        "referee/storage/matches.py": {"psycopg", "referee.storage.sql"},
        "referee/storage/sqlite/database.py": {"sqlite3", "referee.storage.sql"},
    }
    assert backend_problems(modules) == [
        "referee/storage/postgresql/events.py imports referee.storage.sqlite.events",
        "referee/storage/matches.py imports psycopg",
    ]


def test_the_sql_check_sees_a_driver_imported_outside_storage(tmp_path: Path) -> None:
    (tmp_path / "leak.py").write_text("import sqlite3\nfrom psycopg import errors\n")
    names = imported_modules(tmp_path)["leak.py"]
    assert {name.split(".")[0] for name in names} & DRIVERS == {"sqlite3", "psycopg"}


def test_the_dice_are_pure_standard_library() -> None:
    """Anyone can re-implement or audit the dice of LIVE.md §5 from this one module."""
    names = imported_modules(ROOT / "referee")["referee/live/dice.py"]
    standard = {"__future__", "collections", "dataclasses", "hashlib", "hmac", "re", "secrets"}
    assert {name.split(".")[0] for name in names} <= standard | {"typing"}


PURE_EVENTS = ("pairing", "matching", "standings", "ratings")


@pytest.mark.parametrize("module", PURE_EVENTS)
def test_pairing_standings_and_ratings_are_pure(module: str) -> None:
    """An event's pairings, standings and ratings are functions of their values (EVENTS.md
    §4-§8), checkable by anyone: no web framework, no driver, no service, no storage but
    its value types."""
    names = imported_modules(ROOT / "referee")[f"referee/events/{module}.py"]
    allowed = (*(f"referee.events.{pure}" for pure in PURE_EVENTS), "referee.storage.model")
    assert offending_names(names, allowed, WEB_AND_SQL | DRIVERS) == []


def test_the_rules_of_a_challenge_are_pure() -> None:
    """Whether a policy takes a challenge, why not, when it lapses and whom an open call
    finds are functions of values (EVENTS.md §14): no web framework, no driver, no
    service, no storage but its value types."""
    names = imported_modules(ROOT / "referee")["referee/challenges/rules.py"]
    allowed = ("referee.challenges.rules", "referee.storage.model.challenges")
    assert offending_names(names, allowed, WEB_AND_SQL | DRIVERS) == []


def test_the_challenges_stand_beside_the_events_never_on_the_api() -> None:
    """The challenges' service uses storage, the live matches and the events' ratings;
    the API and the pages stand on it, never the other way."""
    problems = [
        f"{path} imports {name}"
        for path, names in imported_modules(ROOT / "referee" / "challenges").items()
        for name in names
        if name.startswith(("referee.api", "referee.web", "referee.http", "flask"))
    ]
    assert problems == []


def test_the_analysis_stands_below_the_api_and_runs_gnubg_as_a_program() -> None:
    """``referee.analysis`` reads records and runs gnubg (ANALYSIS.md): it knows nothing of
    the API, the pages, the storage or the events, which stand on it; the script gnubg runs
    in its own Python imports the standard library and gnubg's module alone."""
    found = imported_modules(ROOT / "referee" / "analysis")
    problems = [
        f"{path} imports {name}"
        for path, names in found.items()
        for name in names
        if name.startswith(
            ("referee.api", "referee.web", "referee.http", "referee.storage", "referee.events")
        )
        or name.split(".")[0] in WEB_AND_SQL | DRIVERS
    ]
    assert problems == []
    inside = found["referee/analysis/in_gnubg.py"]
    assert {name.split(".")[0] for name in inside} <= {"__future__", "json", "typing", "gnubg"}


def loaded_modules(*argv: str) -> set[str]:
    """The top-level names of the modules a Python process imports (``-X importtime``)."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", *argv], capture_output=True, text=True, check=True
    )
    lines = [line for line in run.stderr.splitlines() if line.startswith("import time:")]
    return {line.rsplit("|", 1)[1].strip().split(".")[0] for line in lines}


@pytest.mark.parametrize("output", [[], ["--json"]], ids=["text", "json"])
def test_checking_a_record_loads_no_web_framework_nor_sql(output: list[str]) -> None:
    """``nardy-referee check`` starts without Flask, marshmallow or SQLite: the verdict's
    JSON comes from the shapes' own dumpers (issue 12)."""
    record = str(ROOT / "examples" / "backgammon_match.mat")
    loaded = loaded_modules("-m", "referee.cli", "check", *output, record)
    assert "referee" in loaded  # the command ran and the report lists what it loaded
    assert loaded & WEB_AND_SQL == set()


def test_the_import_report_names_a_web_framework_when_one_is_loaded() -> None:
    assert {"flask", "werkzeug", "referee"} <= loaded_modules("-c", "import referee.api")


@pytest.mark.parametrize("forbidden", ["notation", "flask"])
def test_the_checker_itself_catches_a_forbidden_import(tmp_path: Path, forbidden: str) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "bad.py").write_text(f"import {forbidden}\n")
    assert offending(package, ("referee.rules",), WEB_AND_SQL) != []


def test_variant_names_agree_between_notation_and_rules() -> None:
    """The position string's variant field and the API's variant names are the same set."""
    from notation.positions import VARIANT_NAMES
    from referee.rules.variants import VARIANTS

    for variant in VARIANTS:
        spelled = {name for name, target in VARIANT_NAMES.items() if target == variant.id}
        assert spelled == {variant.id, *variant.aliases}
