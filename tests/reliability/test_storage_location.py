"""A storage location this version cannot use is refused (issue 18): a ``scheme://`` URL in
``NARDY_REFEREE_DATABASE`` once made a SQLite file in a folder named ``postgresql:``. Now
the storage refuses a scheme no backend reads naming what is supported, the server does not
start, and the command line says why (tests/test_cli.py); a ``postgresql://`` URL is
PostgreSQL's (issue 19), not ready when no server answers there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.errors import NotReadyError
from referee.storage import StorageLocationError, open_storage, prepare_storage

ROOT = Path(__file__).resolve().parents[2]
SECRET = "s3cret-pw"
URLS = [
    f"mysql://referee:{SECRET}@db.example/archive",
    f"mariadb://referee:{SECRET}@localhost:3306/archive",
    "sqlite:///var/referee.sqlite3",
    "file://var/referee.sqlite3",
]


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("call", [prepare_storage, open_storage])
def test_a_url_is_refused_naming_what_is_supported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str, call: object
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StorageLocationError) as refused:
        call(url)  # type: ignore[operator]
    message = str(refused.value)
    assert f"{url.partition(':')[0]}://" in message
    assert "SQLite file" in message and "NARDY_REFEREE_DATABASE" in message
    assert SECRET not in message
    assert list(tmp_path.iterdir()) == []


def test_a_path_with_a_colon_is_still_a_file(tmp_path: Path) -> None:
    location = tmp_path / "club:2025.sqlite3"
    prepare_storage(str(location))
    open_storage(str(location)).close()
    assert location.is_file()


def test_the_server_refuses_to_start_on_a_url(tmp_path: Path) -> None:
    env = {**os.environ, "NARDY_REFEREE_DATABASE": URLS[0]}
    command = [
        sys.executable, "-m", "gunicorn", "--config", str(ROOT / "gunicorn.conf.py"),
        "--bind", "127.0.0.1:0", "--chdir", str(ROOT), "wsgi:app",
    ]  # fmt: skip
    started = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert started.returncode != 0
    assert "mysql:// URL, which this version cannot use" in started.stderr
    assert "Traceback" not in started.stderr  # the reason alone, as gunicorn says it
    assert SECRET not in started.stderr + started.stdout
    assert not (tmp_path / "mysql:").exists() and not (ROOT / "mysql:").exists()


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
@pytest.mark.parametrize("call", [prepare_storage, open_storage])
def test_a_postgresql_url_with_no_server_is_not_ready_naming_no_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scheme: str, call: object
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(NotReadyError) as refused:
        call(f"{scheme}://referee:{SECRET}@127.0.0.1:9/archive")  # type: ignore[operator]
    assert "cannot be reached" in refused.value.message
    assert SECRET not in refused.value.message
    assert list(tmp_path.iterdir()) == []
