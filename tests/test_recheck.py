"""Versioned verdicts: every verdict names the rules revision and referee version it was
computed under; ``nardy-referee recheck`` brings stored verdicts of older revisions up to
date without touching the stored text, and prints every match whose outcome changed."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee import RULES_REVISION, __version__
from referee.adjudication import adjudicate
from referee.archive.submit import submit
from referee.cli import main
from referee.storage import open_storage, prepare_storage
from referee.storage.model.rechecks import RecheckProgress
from tests.storage.postgresql import required_server

# A backgammon game that opens with a doublet: valid before revision 1, an error since
# (RULES.md 14.2).
OPENING_DOUBLET = (
    " 1 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
    "  1) 66: 24/18(2) 13/7(2)\n"
)


def test_every_verdict_names_its_rules_revision_and_version() -> None:
    verdict = adjudicate(OPENING_DOUBLET).verdict.to_json()
    assert verdict["rules_revision"] == RULES_REVISION >= 1
    assert verdict["referee_version"] == __version__


def stored_as_if_older(database: Path) -> int:
    """Store the record, then make its row look as an older referee left it: revision 0,
    the verdict that referee gave (valid), no version."""
    match_id = stored(database)
    old = adjudicate(OPENING_DOUBLET).verdict.to_json()
    old.update(valid=True, rules_revision=0)
    for game in old["games"]:
        game["errors"] = []
    with sqlite3.connect(database) as conn:
        conn.execute(
            "UPDATE matches SET valid = 1, verdict = ?, rules_revision = 0,"
            " referee_version = NULL WHERE id = ?",
            (json.dumps(old), match_id),
        )
    return match_id


def stored(database: Path) -> int:
    """The id of the record stored in a new archive at ``database``."""
    prepare_storage(database)
    storage = open_storage(database)
    try:
        return submit(storage, OPENING_DOUBLET, allow_invalid=True).stored.id
    finally:
        storage.close()


def row(database: Path, match_id: int) -> tuple[object, ...]:
    with sqlite3.connect(database) as conn:
        found = conn.execute(
            "SELECT valid, rules_revision, referee_version, original, canonical, verdict"
            " FROM matches WHERE id = ?",
            (match_id,),
        ).fetchone()
    assert found is not None
    return tuple(found)


def test_recheck_updates_older_verdicts_and_prints_what_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "archive.sqlite3"
    match_id = stored_as_if_older(database)
    text_before = row(database, match_id)[3:5]
    capsys.readouterr()
    assert main(["recheck", "--database", str(database)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"match {match_id}: valid True -> False"]
    assert "1 match(es) re-checked, 1 changed" in err
    valid, revision, version, original, canonical, verdict = row(database, match_id)
    assert (valid, revision, version) == (0, RULES_REVISION, __version__)
    assert (original, canonical) == text_before  # the stored text is never touched
    assert json.loads(str(verdict))["games"][0]["errors"][0]["rule"] == "opening_doublet"
    # Up to date now: nothing to re-check, unless --all.
    assert main(["recheck", "--database", str(database)]) == 0
    out, err = capsys.readouterr()
    assert out == "" and "0 match(es) re-checked" in err
    assert main(["recheck", "--all", "--database", str(database)]) == 0
    out, err = capsys.readouterr()
    assert out == "" and "1 match(es) re-checked, 0 changed" in err


def test_a_new_match_is_stored_at_the_current_revision(tmp_path: Path) -> None:
    database = tmp_path / "archive.sqlite3"
    assert row(database, stored(database))[1:3] == (RULES_REVISION, __version__)


# -- bulk re-checks as pulled jobs (issue 19) ----------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
MATCHES = 24
SLOW = """
import sys, time
import referee.archive.recheck as recheck
checked_again = recheck.checked_again
def slowly(stored, engine):
    time.sleep(float(sys.argv[1]))
    return checked_again(stored, engine)
recheck.checked_again = slowly
from referee.cli import main
sys.exit(main(sys.argv[2:]))
"""
"""``nardy-referee`` whose every re-check takes a while longer (argv[1] seconds), so that
a test can stop it part way or run two side by side."""


@pytest.fixture(params=["sqlite", "postgresql"])
def archive(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An archive of MATCHES stored matches (told apart by their site), on each backend."""
    if request.param == "sqlite":
        location = str(tmp_path / "archive.sqlite3")
    else:
        server = required_server()
        location = server.fresh()
        request.addfinalizer(lambda: server.drop(location))
    prepare_storage(location)
    storage = open_storage(location)
    record = (ROOT / "examples" / "backgammon_match.mat").read_text()
    try:
        for number in range(MATCHES):
            text = record.replace("referee examples", f"referee examples {number}")
            assert not submit(storage, text).stored.duplicate
    finally:
        storage.close()
    yield location


def recheck_command(location: str, *extra: str, seconds: float = 0.05) -> list[str]:
    return [sys.executable, "-c", SLOW, str(seconds), "recheck", "--all", "--database",
            location, *extra]  # fmt: skip


def rechecked(stderr: str) -> int:
    """How many matches a recheck process says it re-checked."""
    found = re.search(r"^(\d+) match\(es\) re-checked", stderr, re.MULTILINE)
    assert found is not None, stderr
    return int(found[1])


def progress_of(location: str) -> RecheckProgress:
    storage = open_storage(location)
    try:
        return storage.rechecks.progress(storage.rechecks.start(None).id)
    finally:
        storage.close()


def test_a_killed_run_resumes_without_rechecking_a_match_twice(archive: str) -> None:
    killed = subprocess.Popen(
        recheck_command(archive, "--batch", "4"), cwd=ROOT, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 60
        while progress_of(archive).rechecked < 6:
            assert killed.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        killed.send_signal(signal.SIGKILL)
        killed.communicate(timeout=30)
    before = progress_of(archive)
    assert 6 <= before.rechecked < MATCHES and not before.finished
    resumed = subprocess.run(
        recheck_command(archive, seconds=0), cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    assert rechecked(resumed.stderr) == MATCHES - before.rechecked  # only those not done
    assert f"{MATCHES} of {MATCHES} match(es) re-checked, 0 changed; finished" in resumed.stderr
    after = progress_of(archive)  # the finished run is not joined: a new run, of everything
    assert (after.rechecked, after.matches, after.finished) == (0, MATCHES, False)


def test_two_processes_share_one_run(archive: str) -> None:
    """Started together, two processes split the run between them: each match is
    re-checked by one of them (on SQLite they take batches in turn)."""
    processes = [
        subprocess.Popen(
            recheck_command(archive, "--batch", "2", seconds=0.1),
            cwd=ROOT,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    errors = [process.communicate(timeout=120)[1] for process in processes]
    assert [process.returncode for process in processes] == [0, 0], errors
    counts = [rechecked(error) for error in errors]
    assert sum(counts) == MATCHES and min(counts) > 0, counts
