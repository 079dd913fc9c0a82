"""Progress bars on the long commands: drawn on stderr when it is a terminal (a pty here),
never when it is a pipe, and never mixed into what stdout carries."""

from __future__ import annotations

import fcntl
import os
import pty
import shutil
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from referee.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.mat"))


def run(argv: list[str], terminal: bool) -> tuple[int, str, str]:
    """``nardy-referee ARGV`` in a process whose stderr is a terminal (or a pipe):
    (exit code, stdout, stderr)."""
    command = [sys.executable, "-m", "referee.cli", *argv]
    if not terminal:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
        return done.returncode, done.stdout, done.stderr
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # 80 columns
    with subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=follower, stdin=subprocess.DEVNULL
    ) as process:
        os.close(follower)
        assert process.stdout is not None
        out = process.stdout.read()
        err = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal's other end closed with the process
                break
            if not chunk:
                break
            err += chunk
        code = process.wait(timeout=300)
    os.close(leader)
    return code, out.decode(), err.decode(errors="replace")


@pytest.fixture
def records(tmp_path: Path) -> Path:
    """Six records (each example twice) in one folder."""
    folder = tmp_path / "records"
    folder.mkdir()
    for copy in (1, 2):
        for example in EXAMPLES:
            shutil.copy(example, folder / f"{copy}-{example.name}")
    return folder


@pytest.mark.parametrize("terminal", [True, False], ids=["terminal", "pipe"])
def test_check_of_many_files_shows_a_bar_only_on_a_terminal(records: Path, terminal: bool) -> None:
    code, out, err = run(["check", str(records)], terminal)
    assert code == 0, err
    firsts = [line for line in out.splitlines() if not line.startswith(" ")]
    assert len(firsts) == 6 and all(": valid, complete (" in line for line in firsts)
    if terminal:
        assert "checking" in err and "/6" in err
    else:
        assert err == ""


def test_a_file_that_cannot_be_read_is_said_beside_the_bar(records: Path) -> None:
    (records / "broken.mat").write_bytes(b"\xff\xfe\xfa not UTF-8")
    code, out, err = run(["check", str(records)], terminal=True)
    assert code == 2
    assert "checking" in err and f"nardy-referee: {records / 'broken.mat'}: cannot read" in err
    assert out.count(": valid, complete (") == 6


def test_check_of_a_few_files_shows_no_bar(records: Path) -> None:
    code, _, err = run(["check", *map(str, EXAMPLES)], terminal=True)
    assert code == 0 and "checking" not in err


def stored_archive(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """An archive holding the three examples (stored through the CLI's own app)."""
    from referee.archive.submit import submit
    from referee.storage import open_storage, prepare_storage

    database = tmp_path / "archive.sqlite3"
    prepare_storage(database)
    storage = open_storage(database)
    try:
        for example in EXAMPLES:
            submit(storage, example.read_text(), allow_invalid=True)
    finally:
        storage.close()
    return database


def test_recheck_shows_a_bar_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = stored_archive(tmp_path, capsys)
    code, out, err = run(["recheck", "--all", "--database", str(database)], terminal=True)
    assert code == 0 and out == ""
    assert "re-checking" in err and "/3" in err
    assert "3 match(es) re-checked, 0 changed" in err


def test_copy_archive_shows_a_bar_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = stored_archive(tmp_path, capsys)
    copy = tmp_path / "copy.sqlite3"
    code, out, err = run(["copy-archive", str(database), str(copy)], terminal=True)
    assert code == 0, err
    assert "every table copied and verified" in out and "copying" not in out
    assert "copying" in err and "row" in err


def test_ratings_recompute_shows_a_bar_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = stored_archive(tmp_path, capsys)
    code, out, err = run(["ratings", "--recompute", "--database", str(database)], terminal=True)
    assert code == 0, err
    assert out.splitlines() == ["variant\tname\trating\texperience\tmatches"]  # no event
    assert "re-rating" in err and "0 rated match(es)" in err
    assert main(["ratings", "--recompute", "--database", str(database)]) == 0  # no terminal
    assert "re-rating" not in capsys.readouterr().err
