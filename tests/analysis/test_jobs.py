"""A worker facing bad input (ANALYSIS.md §2, §4): gnubg's time queued with the analysis
(more for a longer record and more plies), gnubg hanging past it, a record gnubg cannot
read, gnubg crashing, gnubg missing at the start or gone while the worker works, a worker
stopped while gnubg works. Each ends as a clear problem on that analysis alone (or on
none), never a result half stored; the others wait or are made. gnubg is Debian's,
behind stand-ins where a test needs one to misbehave."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import referee.analysis.gnubg
import referee.analysis.service
from referee.analysis import EngineMissingError, Settings, prepare
from referee.archive.analysis_worker import Worker
from tests.analysis.jobs import Archive, archive, lines_of, start_worker
from tests.analysis.standins import gone, program
from tests.events.support import until
from tests.played import match_record
from tests.players.gnubg import require_gnubg
from tests.server import ROOT

__all__ = ["archive"]

BACKGAMMON = (ROOT / "examples" / "backgammon_match.mat").read_text()
OTHER = BACKGAMMON.replace("Alice", "Carol")


def test_gnubgs_time_queued_grows_with_the_records_length_and_the_plies(
    archive: Archive,
) -> None:
    records = [match_record("backgammon", length, {}, 3) for length in (1, 9)]
    assert prepare(records[0]).actions < prepare(records[1]).actions
    short, long = (archive.store(record) for record in records)
    seconds = {
        (match_id, plies): archive.get(archive.queue(match_id, Settings(plies, plies))).seconds
        for match_id in (short, long)
        for plies in (0, 2)
    }
    assert seconds[short, 0] < seconds[long, 0] and seconds[short, 2] < seconds[long, 2]
    assert seconds[short, 0] < seconds[short, 2] and seconds[long, 0] < seconds[long, 2]


def test_gnubg_hanging_past_its_time_fails_that_analysis(
    archive: Archive, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(referee.analysis.service, "SECONDS_BASE", 1.0)
    monkeypatch.setattr(referee.analysis.service, "SECONDS_PER_ACTION", (0.0, 0.0, 0.0, 0.0))
    analysis_id = archive.queue(archive.store(BACKGAMMON))
    assert archive.get(analysis_id).seconds == 1.0
    pid_file = tmp_path / "pid"
    hanging = program(tmp_path, f"echo $$ > {pid_file}\nexec sleep 600")
    assert Worker(archive.location, hanging).run(threading.Event(), until_idle=True) == 1
    failed = archive.get(analysis_id)
    assert failed.status == "failed" and failed.problem is not None
    assert failed.problem["code"] == "engine_timeout" and "1 s" in failed.problem["detail"]
    assert (failed.result, failed.engine_version) == (None, None)
    with pytest.raises(ProcessLookupError):  # gnubg was killed and reaped
        os.kill(int(pid_file.read_text()), 0)


def test_a_record_gnubg_cannot_read_fails_in_gnubgs_words(archive: Archive, tmp_path: Path) -> None:
    spoiling = program(
        tmp_path, f'head -c 20 record.sgf > cut && mv cut record.sgf\nexec {require_gnubg()} "$@"'
    )
    analysis_id = archive.queue(archive.store(BACKGAMMON))
    Worker(archive.location, spoiling).run(threading.Event(), until_idle=True)
    failed = archive.get(analysis_id)
    assert failed.status == "failed" and failed.problem is not None
    assert failed.problem["code"] == "engine_failed"
    assert "record.sgf: syntax error" in failed.problem["detail"]  # gnubg's own words
    assert failed.result is None


def test_a_gnubg_crash_fails_that_analysis_only(archive: Archive, tmp_path: Path) -> None:
    once = tmp_path / "crashed"
    crashing_once = program(
        tmp_path,
        f"if [ ! -e {once} ]; then touch {once}; echo 'Segmentation fault' >&2; exit 139; fi\n"
        f'exec {require_gnubg()} "$@"',
    )
    first = archive.queue(archive.store(BACKGAMMON))
    second = archive.queue(archive.store(OTHER))
    assert Worker(archive.location, crashing_once).run(threading.Event(), until_idle=True) == 2
    crashed, made = archive.get(first), archive.get(second)
    assert crashed.status == "failed" and crashed.problem is not None
    assert "status 139" in crashed.problem["detail"]
    assert "Segmentation fault" in crashed.problem["detail"]
    assert made.status == "done" and made.result is not None
    assert made.result["names"] == {"w": "Carol", "b": "Bob"}


def test_gnubg_gone_while_working_fails_the_analysis_in_hand_and_stops_the_worker(
    archive: Archive, tmp_path: Path
) -> None:
    gone = program(tmp_path, f'exec {require_gnubg()} "$@"')
    first = archive.queue(archive.store(BACKGAMMON))
    second = archive.queue(archive.store(OTHER))
    worker = Worker(archive.location, gone)
    Path(gone).unlink()  # found at the start, gone since
    with pytest.raises(EngineMissingError):
        worker.run(threading.Event(), until_idle=True)
    missing = archive.get(first)
    assert missing.status == "failed" and missing.problem is not None
    assert missing.problem["code"] == "engine_missing"
    waiting = archive.get(second)
    assert (waiting.status, waiting.attempts) == ("queued", 0)


def test_a_worker_without_gnubg_says_so_and_claims_nothing(
    archive: Archive, tmp_path: Path
) -> None:
    analysis_id = archive.queue(archive.store(BACKGAMMON))
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli", "analyse", "--worker", "--until-idle",
         "--database", archive.location, "--gnubg", str(tmp_path / "no-gnubg")],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "error (engine_missing): gnubg is not installed" in done.stderr
    assert "Traceback" not in done.stderr
    waiting = archive.get(analysis_id)
    assert (waiting.status, waiting.attempts, waiting.started_at) == ("queued", 0, None)


def test_a_worker_stopped_while_gnubg_works_gives_the_analysis_back(
    archive: Archive, tmp_path: Path
) -> None:
    pid_file = tmp_path / "pid"
    waiting = program(tmp_path, f"echo $$ > {pid_file}\nexec sleep 600")
    analysis_id = archive.queue(archive.store(BACKGAMMON))
    worker = start_worker(archive.location, waiting, log=tmp_path / "worker.log")
    until(pid_file.exists, 60)
    until(lambda: pid_file.read_text().strip(), 5)
    assert archive.get(analysis_id).status == "running"
    worker.send_signal(signal.SIGTERM)
    assert lines_of(worker) == [] and worker.returncode == 0
    back = archive.get(analysis_id)
    assert (back.status, back.attempts, back.result, back.problem) == ("queued", 0, None, None)
    until(lambda: gone(int(pid_file.read_text())), 20)  # its gnubg went with it


def test_gnubg_stopped_as_it_starts_is_killed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker's SIGTERM handler (``stop_now``) run while ``Popen`` starts gnubg, as a
    loaded machine makes likely: between the fork and the child's pid being kept, a
    KeyboardInterrupt would lose gnubg; the stop waits until gnubg is known, then stops the
    analysis and kills it. The handler is run here where ``Popen`` waits to hear that the
    program started."""
    pid_file = tmp_path / "pid"
    waiting = program(tmp_path, f"echo $$ > {pid_file}\nexec sleep 600")
    reading = os.read

    def interrupted(descriptor: int, size: int) -> bytes:
        monkeypatch.setattr(os, "read", reading)
        until(lambda: pid_file.exists() and pid_file.read_text().strip(), 10)
        referee.analysis.gnubg.stop_now()  # what the signal handler does, at this moment
        return reading(descriptor, size)

    monkeypatch.setattr(os, "read", interrupted)
    with pytest.raises(KeyboardInterrupt):
        referee.analysis.gnubg.run_gnubg("(;)", Settings(), 1, waiting, 30)
    assert gone(int(pid_file.read_text()))
