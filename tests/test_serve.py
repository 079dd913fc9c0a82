"""``make serve`` and what it starts: it installs only what serving needs (the dev extra is
``make test``'s), says what it is doing before each slow step, and gunicorn names the
address it listens on and the archive it serves."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server import start, stop

ROOT = Path(__file__).resolve().parents[1]
SLOW = ("-m venv", "pip install", "bin/gunicorn ")
"""What takes a while in a dry run's commands: each must follow a line that says it."""


def dry_run(target: str, tmp_path: Path) -> list[str]:
    """The commands ``make TARGET`` would run from nothing (a .venv that does not exist)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    venv = tmp_path / "venv"
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", target, f"VENV={venv}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return [line.strip() for line in done.stdout.splitlines() if line.strip()]


def test_serve_installs_the_package_without_the_dev_extra(tmp_path: Path) -> None:
    commands = dry_run("serve", tmp_path)
    installs = [line for line in commands if "pip install" in line]
    assert any(line.endswith("-e .") for line in installs), installs
    assert not any("[dev]" in line for line in commands), commands


def test_test_adds_the_dev_extra(tmp_path: Path) -> None:
    commands = dry_run("test", tmp_path)
    assert any("pip install" in line and "'.[dev]'" in line for line in commands), commands


def unannounced(commands: list[str]) -> list[str]:
    """The slow commands that no ``echo`` announces: an echo covers the commands after it
    up to the end of its step (an installing step ends with its stamp's ``touch``)."""
    found, announced = [], False
    for line in commands:
        if line.startswith("echo "):
            announced = True
        elif line.startswith("touch "):
            announced = False
        elif any(word in line for word in SLOW) and not announced:
            found.append(line)
    return found


@pytest.mark.parametrize("target", ["serve", "test"])
def test_every_slow_step_says_first_what_it_does(target: str, tmp_path: Path) -> None:
    commands = dry_run(target, tmp_path)
    slow = [line for line in commands if any(word in line for word in SLOW)]
    assert len(slow) >= 2  # the virtualenv and the install at least
    assert unannounced(commands) == []


def test_gunicorn_names_its_address_and_archive(tmp_path: Path) -> None:
    database = tmp_path / "served.sqlite3"
    server = start(database, workers=1, log=tmp_path / "gunicorn.log")
    try:
        log = server.log.read_text()
    finally:
        stop(server)
    assert f"Listening at: {server.base} " in log
    assert f"The archive: {database}" in log


def test_a_second_server_on_a_served_address_is_refused(tmp_path: Path) -> None:
    # reuse_port would let it bind beside the first and take half of its requests.
    server = start(tmp_path / "first.sqlite3", workers=1, log=tmp_path / "first.log")
    try:
        address = server.base.removeprefix("http://")
        env = {**os.environ, "NARDY_REFEREE_DATABASE": str(tmp_path / "second.sqlite3")}
        second = subprocess.run(
            [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py",
             "--workers", "1", "--bind", address, "wsgi:app"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert second.returncode != 0
        assert f"another server already answers on {address}" in second.stderr
        assert server.request("GET", "/healthz")[0] == 200
    finally:
        stop(server)
